"""The demo's simulated table: a scripted late-game match played by two players on the
simulated table (``vision.simtable``), frame by frame, and a virtual LED/die board.

The match starts from a late-game position and shows a move tried and taken back, a Pole
Vault, End turn on the tablet, an illegal move flagged (its spaces lit red) and put right, a
turn ended by the opponent starting to move, and a win committed with the board's button.

The players behave as players do: after each change they hold still until the referee has
judged the board, and when vision is unsure they let it look again (every still frame is a
new exposure, with new sensor noise).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from companion.live.board import RecordingBoard
from companion.live.session import Session
from companion.referee import VisionState
from companion.rules.teleporters import (
    Position,
    TurnState,
    end_turn,
    parse_move,
    parse_square,
    play,
)
from firmware_bridge.colors import Color
from vision.simtable import CameraPose, Hand, Scene, Sensor, SimFrame, jpeg_round_trip, render
from vision.sources import Frame, SourceEvent, SourceEventKind

if TYPE_CHECKING:
    from calibration.profile import Profile
    from companion.live.board import BoardLink
    from companion.referee import RefereeState

DEMO_START = ("2P5/1[nw]1P2P1/[SE]3P2[nw]/1[SE]3[pSW]2/4[SW][sw]1p/2[ne]5/2p5/4p3 south")
# A benign camera: over the south edge, 10 degrees off vertical, even light. Frames are small
# so that the whole match renders in seconds; the vision is the same as for a real camera.
SCENE = Scene(pose=CameraPose(tilt_deg=10.0, azimuth_deg=0.0, width=640, height=360), seed=7)
FPS = 10.0
PLAYERS = {"south": "Demo South", "north": "Demo North"}
TAGS = {"Event": "companion demo"}
HOLD_MAX_S = 6.0  # a player waits this long for the referee before the demo gives up
PAUSE_S = 0.5  # a breath between turns


class DemoError(ValueError):
    """The scripted match could not go on: the referee never saw what the players did."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the players do: a move, a take-back, a stray change, ending the turn."""

    kind: str  # "move" | "take-back" | "knock" | "end-turn" | "button" | "hand-over"
    text: str = ""  # move notation, or "from-to" for a knocked Pole
    note: str = ""


SCRIPT: tuple[Step, ...] = (
    Step("move", "Pe6-e8", "south tries walking a Pole into e8..."),
    Step("take-back", note="...and puts it back (a move is not final until the turn ends)"),
    Step("move", "Vb5se-f5ne>e8", "a Port glides onto f5 and boxes north's Pole: Pole Vault"),
    Step("move", "Pd7-d8"),
    Step("move", "Pg7-f8"),
    Step("end-turn", note="south presses End turn on the tablet"),
    Step("move", "Pe8-f7", "north clears its Home Telepad"),
    Step("knock", "h4-h1", "north slides a Pole three spaces"),
    Step("take-back", note="north puts it back"),
    Step("move", "Ph4-h2"),
    Step("hand-over", note="north is done and says so; nobody presses anything"),
    Step("move", "Pe6-e8", "south walks its last Pole in: its first move ends north's turn"),
    Step("button", note="south presses the button on the LED board"),
)


def _knock(position: Position, text: str) -> Position:
    frm, to = (parse_square(s) for s in text.split("-"))
    poles = list(position.poles)
    poles[to], poles[frm] = poles[frm], None
    return position.replace(poles=tuple(poles))


def _centre(sq: int) -> tuple[float, float]:
    return sq % 8 + 0.5, sq // 8 + 0.5  # squares count a1 = 0 along the files


def expose(image: np.ndarray, sensor: Sensor, seed: int) -> np.ndarray:
    """Sensor noise and JPEG on a rendered (already blurred) image, as ``vision.simtable``
    adds them: one exposure."""
    rng = np.random.default_rng(seed)
    noisy = image.astype(np.float32) + rng.normal(0, sensor.noise, image.shape).astype(
        np.float32)
    out = np.clip(noisy, 0, 255).astype(np.uint8)
    if sensor.jpeg_quality is not None:
        out = jpeg_round_trip(out, sensor.jpeg_quality)
    return out


# --- the table and its players ----------------------------------------------------------------


class DemoTable:
    """The simulated table with two scripted players: a frame source for a :class:`Session`.

    Frames are rendered as they are read. Between frames the players act: press End turn,
    press the board's button (``press_button``) and wait for the referee to take it. With
    ``paced`` the frames come in real time (for the app).
    """

    name = "simulated table"

    def __init__(self, *, scene: Scene = SCENE, fps: float = FPS, paced: bool = False,
                 press_button: Callable[[], None] | None = None,
                 narrate: Callable[[str], None] | None = None,
                 script: tuple[Step, ...] = SCRIPT, start: str = DEMO_START) -> None:
        self.scene = scene
        self.fps = fps
        self.paced = paced
        self.script = script
        self.start = Position.from_text(start)
        self.frames = 0  # rendered so far
        self._press = press_button
        self._narrate = narrate or (lambda _: None)
        self._session: Session | None = None
        self._gen: Iterator[Frame] | None = None
        self._wall0: float | None = None
        self._still_cache: tuple[str, SimFrame | None] = ("", None)
        self._closed = False

    def bind(self, session: Session) -> None:
        self._session = session

    # --- FrameSource ---------------------------------------------------------------------

    def read(self) -> Frame | SourceEvent:
        if self._gen is None:
            self._gen = self._play()
        if self._closed:
            return SourceEvent(SourceEventKind.ENDED, "closed", self._t)
        try:
            return next(self._gen)
        except StopIteration:
            return SourceEvent(SourceEventKind.ENDED, "the scripted match is over", self._t)

    def close(self) -> None:
        self._closed = True

    # --- frames ----------------------------------------------------------------------------

    @property
    def _t(self) -> float:
        return self.frames / self.fps

    def _frame(self, position: Position, hand: Hand | None = None) -> Frame:
        i = self.frames
        t = self._t
        seed = self.scene.seed * 1000 + i
        if hand is None:  # a still board: the same scene, a new exposure
            truth = self._still(position)
            truth = replace(truth, image=expose(truth.image, self.scene.sensor, seed))
        else:
            truth = render(position.to_json(), self.scene.with_(seed=seed), hand)
        self.frames += 1
        if self.paced:
            now = time.monotonic()
            if self._wall0 is None:
                self._wall0 = now - t
            time.sleep(max(0.0, self._wall0 + t - now))
        return Frame(truth.image, t, i, truth)

    def _still(self, position: Position) -> SimFrame:
        """The board rendered up to the sensor (noise and JPEG come per frame), kept while
        it stays on the mat: rendering is most of the demo's time."""
        key = position.to_text()
        if self._still_cache[0] != key:
            clean = replace(self.scene.sensor, noise=0.0, jpeg_quality=None)
            self._still_cache = (key, render(position.to_json(), self.scene.with_(
                sensor=clean, seed=self.scene.seed * 1000 + self.frames)))
        frame = self._still_cache[1]
        assert frame is not None
        return frame

    def _reach(self, before: Position, after: Position, square: int) -> Iterator[Frame]:
        """A hand comes in from the mover's side to ``square``, changes the board, leaves."""
        north = before.to_move.value == "north"
        x, y = _centre(square)
        edge = (x, 9.2) if north else (x, -1.2)
        from_deg = 90.0 if north else 270.0

        def at(k: float) -> Hand:
            return Hand(reach=(edge[0] + (x - edge[0]) * k, edge[1] + (y - edge[1]) * k),
                        from_deg=from_deg, height=1.4)

        for k in (0.35, 0.7, 1.0):
            yield self._frame(before, at(k))
        yield self._frame(after, at(0.95))
        for k in (0.6, 0.25):
            yield self._frame(after, at(k))

    def _hold(self, board: Position, least_s: float = 0.0) -> Iterator[Frame]:
        """The players keep their hands off for ``least_s`` and until the referee has judged
        ``board`` clearly (vision unsure: it looks again at the next frame)."""
        session = self._need_session()
        least = max(math.ceil(_still_s(session) * self.fps) + 1,
                    round(least_s * self.fps))
        for n in range(1, round(HOLD_MAX_S * self.fps) + 1):
            yield self._frame(board)
            st = session.state
            if (n >= least and st.vision is VisionState.CLEAR and st.seen is not None
                    and st.seen.same_board(board)):
                return
        raise DemoError(f"the referee did not see the board at t={self._t:.1f}s within "
                        f"{HOLD_MAX_S:g} s (vision: {session.state.vision.value})")

    def _pause(self, board: Position) -> Iterator[Frame]:
        for _ in range(round(PAUSE_S * self.fps)):
            yield self._frame(board)

    def _end_turn(self, board: Position, *, button: bool) -> Iterator[Frame]:
        """End the turn on the tablet, or with the board's button; wait until it has."""
        session = self._need_session()
        # A breath before pressing, and a glance at the tablet: the referee must be seeing
        # the board clearly, or End turn is refused.
        yield from self._hold(board, PAUSE_S)
        number = session.state.turn_number
        if not button:
            session.end_turn()
        elif self._press is None:
            raise DemoError("the demo has no LED board to press the button of")
        else:
            self._press()

        def ended(state: RefereeState) -> bool:
            return state.turn_number > number or state.winner is not None

        if not session.wait_until(ended, timeout=5.0):
            raise DemoError(f"{'the button' if button else 'End turn'} did not end turn "
                            f"{number}: {_refusal(session)}")

    def _need_session(self) -> Session:
        if self._session is None:
            raise DemoError("the demo table is not bound to a session")
        return self._session

    # --- the players -----------------------------------------------------------------------

    def _play(self) -> Iterator[Frame]:
        seen: list[tuple[Position, TurnState]] = [(self.start, TurnState())]
        yield from self._hold(self.start)
        for step in self.script:
            if step.note:
                self._narrate(f"  # {step.note}")
            board, turn = seen[-1]
            if step.kind in ("move", "knock"):
                if step.kind == "move":
                    move = parse_move(step.text)
                    after, turn = play(board, move, turn)
                    square = move.squares()[0]
                else:
                    after = _knock(board, step.text)
                    square = parse_square(step.text.split("-")[0])
                seen.append((after, turn))
                yield from self._reach(board, after, square)
                yield from self._hold(after)
            elif step.kind == "take-back":
                seen.pop()
                back = seen[-1][0]
                changed = [sq for sq in range(64) if board.poles[sq] is not back.poles[sq]
                           or board.ports[sq] != back.ports[sq]]
                yield from self._reach(board, back, changed[0] if changed else 27)
                yield from self._hold(back)
            elif step.kind in ("end-turn", "button"):
                yield from self._end_turn(board, button=step.kind == "button")
                seen = [(end_turn(board), TurnState())]
            elif step.kind == "hand-over":
                seen = [(end_turn(board), TurnState())]
                yield from self._pause(board)
            else:
                raise DemoError(f"unknown step {step.kind!r}")
        yield from self._pause(seen[-1][0])


def _still_s(session: Session) -> float:
    vision = session.vision
    return vision.gate.still_s if vision is not None else 0.0


def _refusal(session: Session) -> str:
    state = session.state
    if state.illegal and state.verdict is not None:
        return state.verdict.violations[0].message
    return f"vision is {state.vision.value}"


# --- the virtual LED board --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DemoBoard:
    link: BoardLink
    press: Callable[[], None]  # the board's button
    leds: Callable[[], dict[str, Color]]  # the spaces lit, as the board itself holds them
    stop: Callable[[], None]
    where: str


def virtual_board(say: Callable[[str], None], seed: int = 5) -> DemoBoard:
    """The virtual LED/die board on a pseudo-terminal behind a real ``Bridge``; an in-process
    fake where no pseudo-terminal can be had."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.virtual_device import VirtualDevice

    try:
        device = VirtualDevice(seed=seed)
        port = device.start()
    except OSError as exc:
        say(f"no pseudo-terminal for the virtual board ({exc.strerror or exc}): "
            "using an in-process one")
        return _fake_board()
    bridge = Bridge.open(port)
    if not bridge.wait_connected(5.0):
        say(f"the virtual board on {port} did not answer: using an in-process one")
        bridge.close()
        device.stop()
        return _fake_board()

    def leds() -> dict[str, Color]:
        bridge.sync(2.0)
        colors = device.state().colors
        return {name: Color(colors[i]) for i, name in enumerate(bridge.layout.spaces)
                if colors[i]}

    return DemoBoard(bridge, device.press_button, leds, device.stop, f"virtual board on {port}")


def _fake_board() -> DemoBoard:
    fake = RecordingBoard("in-process virtual board")
    return DemoBoard(fake, fake.press_button, lambda: fake.board, lambda: None, fake.name)


# --- calibrating the simulated camera --------------------------------------------------------


CALIBRATION_TRIES = 5


def calibrate_table(scene: Scene = SCENE) -> Profile:
    """Calibrate from the rendered start position, as a user would with a real camera; a
    photo calibration refuses is taken again (a new exposure), a few times."""
    from calibration.errors import CalibrationError
    from calibration.profile import calibrate

    why = ""
    for k in range(CALIBRATION_TRIES):
        image = render(Position.start().to_json(), scene.with_(seed=scene.seed + k)).image
        try:
            return calibrate(image)
        except CalibrationError as exc:
            why = str(exc)
    raise DemoError(f"calibration refused {CALIBRATION_TRIES} photos of the simulated start "
                    f"position: {why}")
