"""Recorded matches made on the simulated table: test beds for ``companion referee``.

A :class:`ClipScript` is a match as the players play it: turns of moves in notation, slips
(an illegal change left on the mat for a while, then put right), a camera bumped mid-match,
a hand resting on the mat's edge, the light drifting. :func:`make_clip` plays it on the
simulated table and gives the frames (rendered lazily, one exposure each) with the ground
truth: every turn's moves and board, and when each slip was on the mat. The writers put the
frames in a video file or a folder of images, optionally with the faults of a real recording:
dropped, duplicated and corrupt frames.

Timing is the players': a hand reaches in, changes the board and leaves (``REACH_S``), then the
board stays still (``HOLD_S``) before the next move; all seconds, at any frame rate.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError
from companion.rules.teleporters import (
    Position,
    TurnState,
    end_turn,
    explain,
    parse_move,
    parse_square,
    play,
)
from vision.simtable import (
    CameraPose,
    Hand,
    Lighting,
    Scene,
    SimFrame,
    jpeg_round_trip,
    render,
)

REACH_S = 0.6  # a hand reaching in, moving a piece and leaving
HOLD_S = 1.0  # the board still after a move
START_HOLD_S = 1.5  # the set-up board before the first move (calibration reads it)
END_HOLD_S = 1.5
SLIP_HOLD_S = 2.0  # an illegal change stays this long before a player puts it right

# A short match from the book's set-up (random legal play, seed 2946 of
# ``rules.teleporters.random_play``) with a repel (turn 5: ``xb7``) and a Pole Vault (turn 5:
# ``>c8``).
SAMPLE_TURNS: tuple[tuple[str, ...], ...] = (
    ("Vc3sw@nw", "Vg2se-g6", "Pd1-d2", "Pc1-b2"),
    ("Vg7ne-d7", "Vc6nw-b6", "Pf8-e7", "Pc8-c7"),
    ("Pb2-b4", "Pf1*d1", "Vf3se-c3", "Vb2sw-d2"),
    ("Vd7ne-e7nw", "Pe7-f6", "Pd8-b8", "Vb7nw-c7ne"),
    ("Vc3se-c7nwxb7", "Pd2-d3", "Pb4-a3", "Vc3nw-c7se>c8"),
)


@dataclass(frozen=True, slots=True)
class Slip:
    """Before move ``move`` of turn ``turn`` (both from 0), the mover slides the Pole on
    ``pole`` to ``to`` (an illegal change), leaves it ``SLIP_HOLD_S``, then puts it back."""

    turn: int
    move: int
    pole: str
    to: str


@dataclass(frozen=True, slots=True)
class ClipScript:
    turns: tuple[tuple[str, ...], ...] = SAMPLE_TURNS
    start: Position = field(default_factory=Position.start)
    slips: tuple[Slip, ...] = ()
    nudge_before_turn: int | None = None  # the camera is bumped before this turn
    nudge: CameraPose | None = None  # where it ends up (default: a few degrees off)
    rest_hand_turns: tuple[int, ...] = ()  # a hand rests on the mat's edge during these
    light_drift: float = 0.0  # brightness change from the first frame to the last (-0.2)


@dataclass(frozen=True, slots=True)
class TruthTurn:
    number: int  # from 1
    side: str
    moves: tuple[str, ...]
    position: Position  # the board the turn ended on (its side still to move)
    settled_t: float  # when that board was first still


@dataclass(frozen=True, slots=True)
class TruthSlip:
    t: float  # when the illegal board was first still
    until: float  # when the hand came to put it right
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Segment:
    position: Position
    frames: int
    hand: tuple[Hand, ...] | None = None  # one per frame while a hand is in
    changed_at: int = -1  # frame of a hand segment where the board changes to ``after``
    after: Position | None = None
    pose: CameraPose | None = None
    rest: Hand | None = None


@dataclass
class Clip:
    """A rendered match: ``frames()`` yields the images in order; the truth says what
    happened."""

    scene: Scene
    fps: float
    turns: list[TruthTurn]
    slips: list[TruthSlip]
    light_drift: float
    segments: list[_Segment]
    nudge_t: float | None = None

    @property
    def frame_count(self) -> int:
        return sum(s.frames for s in self.segments)

    @property
    def seconds(self) -> float:
        return self.frame_count / self.fps

    def frames(self) -> Iterator[np.ndarray]:
        """(H, W, 3) uint8 BGR images, one per frame, each a new exposure."""
        cache: dict[Any, SimFrame] = {}
        total = max(1, self.frame_count - 1)
        i = 0
        clean = replace(self.scene.sensor, noise=0.0, jpeg_quality=None)
        for seg in self.segments:
            scene = self.scene.with_(sensor=clean)
            if seg.pose is not None:
                scene = scene.with_(pose=seg.pose)
            for k in range(seg.frames):
                gain = 1.0 + self.light_drift * i / total
                lit = scene.with_(lighting=replace(
                    scene.lighting, brightness=scene.lighting.brightness * gain))
                if seg.hand is None:
                    key = (seg.position.to_text(), seg.pose, seg.rest, round(gain, 2))
                    if key not in cache:
                        if len(cache) > 8:
                            cache.clear()
                        cache[key] = render(seg.position.to_json(), lit.with_(
                            seed=self.scene.seed * 1000 + i), seg.rest)
                    image = cache[key].image
                else:
                    board = seg.after if (seg.after is not None and k >= seg.changed_at) \
                        else seg.position
                    image = render(board.to_json(), lit.with_(seed=self.scene.seed * 1000 + i),
                                   seg.hand[k]).image
                yield expose(image, self.scene.sensor.noise, self.scene.sensor.jpeg_quality,
                             self.scene.seed * 7919 + i)
                i += 1


def expose(image: np.ndarray, noise: float, jpeg_quality: int | None, seed: int
           ) -> np.ndarray:
    """Sensor noise and JPEG on an (H, W, 3) uint8 render: one exposure."""
    rng = np.random.default_rng(seed)
    # In place on the float64 noise: the same pixels as clip(image + noise) with two fewer
    # full-frame temporaries (a clip renders hundreds of these).
    grain = rng.normal(0, noise, image.shape)
    grain += image
    out = np.clip(grain, 0, 255, out=grain).astype(np.uint8)
    if jpeg_quality is not None:
        out = jpeg_round_trip(out, jpeg_quality)
    return out


def _centre(sq: int) -> tuple[float, float]:
    return sq % 8 + 0.5, sq // 8 + 0.5


def _reach(side: str, square: int, n: int) -> tuple[tuple[Hand, ...], int]:
    """``n`` hand positions from the mover's edge to ``square`` and back, and the frame at
    which the piece is set down."""
    x, y = _centre(square)
    north = side == "north"
    edge = (x, 9.2) if north else (x, -1.2)
    path = [min(1.0, 2.0 * (k + 1) / (n + 1)) if k < n // 2 + 1 else
            max(0.2, 2.0 * (n - k) / (n + 1)) for k in range(n)]
    hands = tuple(Hand(reach=(edge[0] + (x - edge[0]) * f, edge[1] + (y - edge[1]) * f),
                       from_deg=90.0 if north else 270.0, height=1.4) for f in path)
    return hands, n // 2 + 1


def _slide(position: Position, pole: str, to: str) -> Position:
    a, b = parse_square(pole), parse_square(to)
    poles = list(position.poles)
    if poles[a] is None or poles[b] is not None:
        raise UserError(f"slip {pole}-{to}: needs a Pole on {pole} and none on {to}")
    poles[b], poles[a] = poles[a], None
    return position.replace(poles=tuple(poles))


def make_clip(script: ClipScript = ClipScript(), scene: Scene | None = None,
              fps: float = 10.0) -> Clip:
    """Play ``script`` on the simulated table at ``fps``."""
    if fps <= 0:
        raise UserError(f"fps must be positive, got {fps}")
    scene = scene or Scene()

    def n(seconds: float) -> int:
        return max(1, round(seconds * fps))

    segments: list[_Segment] = []
    turns: list[TruthTurn] = []
    slips: list[TruthSlip] = []
    t = 0.0
    pose: CameraPose | None = None
    nudge_t = None

    def add(seg: _Segment) -> float:
        nonlocal t
        segments.append(seg)
        start = t
        t += seg.frames / fps
        return start

    def still(board: Position, seconds: float, rest: Hand | None) -> float:
        return add(_Segment(board, n(seconds), pose=pose, rest=rest))

    def hand_change(before: Position, after: Position, square: int, side: str) -> None:
        hands, at = _reach(side, square, n(REACH_S))
        add(_Segment(before, len(hands), hands, at, after, pose))

    board = script.start
    still(board, START_HOLD_S, None)
    for k, moves in enumerate(script.turns):
        if script.nudge_before_turn == k:
            base = scene.pose
            pose = script.nudge or replace(base, tilt_deg=base.tilt_deg + 2.0,
                                           azimuth_deg=base.azimuth_deg + 4.0,
                                           aim=(base.aim[0] + 0.15, base.aim[1] - 0.1))
            nudge_t = t
            still(board, 0.5, None)
        rest = (Hand(reach=(7.6, -0.25), from_deg=300.0, height=0.25)
                if k in script.rest_hand_turns else None)
        side = board.to_move.value
        turn = TurnState()
        settled = t
        for j, text in enumerate(moves):
            for slip in script.slips:
                if (slip.turn, slip.move) == (k, j):
                    wrong = _slide(board, slip.pole, slip.to)
                    if explain(board, wrong, turn).legal:
                        raise UserError(f"slip {slip.pole}-{slip.to} in turn {k + 1} is a "
                                        "legal move: a slip must be illegal")
                    sq = parse_square(slip.pole)
                    hand_change(board, wrong, sq, side)
                    seen = still(wrong, SLIP_HOLD_S, rest)
                    slips.append(TruthSlip(seen, t, (slip.pole, slip.to)))
                    hand_change(wrong, board, parse_square(slip.to), side)
                    still(board, HOLD_S, rest)
            try:
                move = parse_move(text)
                after, turn = play(board, move, turn)
            except ValueError as exc:
                raise UserError(f"turn {k + 1} move {text!r}: {exc}") from None
            hand_change(board, after, move.squares()[0], side)
            settled = still(after, HOLD_S, rest)
            board = after
        turns.append(TruthTurn(k + 1, side, moves, board, settled))
        if board.winner() is not None:
            break
        board = end_turn(board)
    still(board, END_HOLD_S, None)
    return Clip(scene, fps, turns, slips, script.light_drift, segments, nudge_t)


# --- writers ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Faults:
    """What a real recording does wrong: shares of frames dropped and duplicated, and
    frame indices that come out corrupt (an unreadable file in a folder; a garbage picture
    in a video)."""

    drop: float = 0.0
    duplicate: float = 0.0
    corrupt: tuple[int, ...] = ()
    seed: int = 0


def faulty(frames: Iterator[np.ndarray], faults: Faults) -> Iterator[np.ndarray | None]:
    """``frames`` with drops and duplicates; None marks a corrupt frame."""
    rng = random.Random(faults.seed)
    bad = set(faults.corrupt)
    for i, image in enumerate(frames):
        if i in bad:
            yield None
            continue
        if rng.random() < faults.drop:
            continue
        yield image
        if rng.random() < faults.duplicate:
            yield image


def write_folder(frames: Iterator[np.ndarray | None], folder: str | Path,
                 suffix: str = ".jpg") -> int:
    """Write ``frame_0.jpg``, ``frame_1.jpg``... (None: a truncated, unreadable file).
    Returns the number of files."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for i, image in enumerate(frames):
        path = out / f"frame_{i}{suffix}"
        if image is None:
            path.write_bytes(b"\xff\xd8\xff\xe0 truncated")
        elif not cv2.imwrite(str(path), image):
            raise UserError(f"cannot write {path}")
        count += 1
    return count


FOURCC = {".mp4": "mp4v", ".avi": "MJPG", ".mkv": "MJPG", ".mov": "mp4v"}


def write_video(frames: Iterator[np.ndarray | None], path: str | Path, fps: float) -> int:
    """Write a video (codec by suffix: mp4/mov mp4v, avi/mkv MJPG); None frames become
    garbage pictures (a decoder glitch). Returns the number of frames."""
    path = Path(path)
    code = FOURCC.get(path.suffix.lower())
    if code is None:
        raise UserError(f"{path}: write .mp4, .avi, .mkv or .mov")
    writer: cv2.VideoWriter | None = None
    count = 0
    rng = np.random.default_rng(0)
    size: tuple[int, int] | None = None
    try:
        for image in frames:
            if image is None:
                if size is None:
                    continue
                image = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
            if writer is None:
                size = (image.shape[1], image.shape[0])
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*code), fps, size)
                if not writer.isOpened():
                    raise UserError(f"{path}: OpenCV cannot write this video here")
            writer.write(image)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    return count


def describe_truth(clip: Clip) -> list[str]:
    """The truth in words: one line per turn and slip."""
    lines = [f"turn {tt.number} {tt.side}: {' '.join(tt.moves)} (still at {tt.settled_t:.1f}s)"
             for tt in clip.turns]
    lines += [f"slip {'-'.join(s.squares)} at {s.t:.1f}s" for s in clip.slips]
    return lines


def sample_scene(width: int = 640, height: int = 360, tilt_deg: float = 10.0,
                 azimuth_deg: float = 0.0, seed: int = 11) -> Scene:
    return Scene(pose=CameraPose(tilt_deg=tilt_deg, azimuth_deg=azimuth_deg, width=width,
                                 height=height), lighting=Lighting(), seed=seed)


def sample_script(robust: bool = False) -> ClipScript:
    """The sample match with one slip in north's first turn; with ``robust``, also a camera
    bump, a hand resting on the edge for two turns, and light drift."""
    slip = Slip(turn=1, move=2, pole="f8", to="f5")
    if not robust:
        return ClipScript(slips=(slip,))
    return ClipScript(slips=(slip,), nudge_before_turn=3, rest_hand_turns=(1, 2),
                      light_drift=-0.2)


__all__ = [
    "FOURCC",
    "REACH_S",
    "SAMPLE_TURNS",
    "Clip",
    "ClipScript",
    "Faults",
    "Slip",
    "TruthSlip",
    "TruthTurn",
    "UserError",
    "describe_truth",
    "expose",
    "faulty",
    "make_clip",
    "sample_scene",
    "sample_script",
    "write_folder",
    "write_video",
]
