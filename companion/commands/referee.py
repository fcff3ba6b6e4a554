"""``companion referee``: referee a recorded match (a video, or a folder of frames) afterwards.

The whole live pipeline runs on the recording: vision with its stability gate, the referee,
the match log. Time is the recording's (frame index / frame rate), so the gate sees real time
whatever the machine's speed. Two things differ from a live game:

* there is no End turn button: a turn is committed when the other side's pieces start to move
  (the referee's own rule, live too), and the last turn when the recording ends;
* nobody is at the tablet to answer "accept the board as seen?": when the board has disagreed
  with every legal move for ``accept_after`` seconds, the run says which spaces disagree and
  continues from the board as seen, logged as a correction. Never silently.

Without a profile, the mat is calibrated from the first still frame, which must show the
start position (with an empty-mat photo from the same camera, if one is given). Output is a
readable log, or one JSON object per line (``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from companion.commands.camera import CameraKind, CameraSpec, CameraSpecError
from companion.commands.common import (
    EXIT_FAULT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_calibration_source,
    add_db_argument,
    add_sides,
    players_of,
)
from companion.commands.options import finite
from companion.errors import UserError
from companion.live.recorder import open_store
from companion.live.session import Session
from companion.live.sighting import Vision
from companion.matchlog import MatchLogError, MatchStore
from companion.matchlog.model import iso
from companion.progress import Progress
from companion.referee import (
    SCHEMA,
    CommitBy,
    CorrectionAccepted,
    Event,
    FirstMoverChosen,
    GameWon,
    IllegalChange,
    Occluded,
    RecoveryOffered,
    RefereeConfig,
    Refused,
    TurnCommitted,
    Uncertain,
    WarningCleared,
)
from companion.rules import GAMES, MissingCapability, TableGame
from vision.errors import VisionError
from vision.sources import (
    Frame,
    FrameSource,
    SourceEvent,
    SourceEventKind,
    VideoSource,
    open_source,
)

ACCEPT_AFTER_S = 15.0  # disagreement this long in a recording: go on from the board as seen
JUDGE_UNSURE_AFTER_S = 0.4  # the same unsure reading this long: judge it (no one can help)



# --- output ----------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion referee`` to the ``companion`` command's subparsers."""
    ref = sub.add_parser(
        "referee", help="referee a recorded match: a video file or a folder of frames",
        description="Runs the live pipeline (vision, stability gate, referee, match log) over "
        "a recording. A turn ends when the other side starts to move, the last one when the "
        "recording ends. Exit status: 0 done, 2 bad input, 130 interrupted (Ctrl-C; what was "
        "committed is kept).")
    ref.add_argument("--source", required=True, metavar="FILE|DIR",
                     help="a video OpenCV reads (mp4, avi, mkv, mov) or a folder of images "
                     "taken at a fixed rate (read in natural name order); never a camera: "
                     "a file or folder named 0 is read")
    add_calibration_source(ref, "the recording's first still frame")
    add_db_argument(ref)
    ref.add_argument("--fps", type=finite, default=10.0, metavar="N",
                     help="frame rate of a folder of images (default 10; a video has its own)")
    ref.add_argument("--json", action="store_true", help="one JSON object per line per event")
    ref.add_argument("--game", choices=GAMES, default=GAMES.default)
    add_sides(ref)
    ref.add_argument("--start", metavar="POSITION",
                     help="the board when the recording begins, JSON or text (default the "
                     "set-up; needs --profile)")
    ref.add_argument("--accept-after", type=finite, default=15.0, metavar="SECONDS",
                     help="a board no legal move explains for this long is taken as seen, "
                     "logged as a correction (default 15)")
    ref.set_defaults(func=_cmd_referee)


def _cmd_referee(args: argparse.Namespace) -> int:
    try:
        game = GAMES.table(args.game)
    except MissingCapability as exc:
        raise UserError(f"--game {args.game}: {exc.reason}; judge {args.game} positions with "
                        f"`companion judge --game {args.game}`") from None
    summary = referee_recording(
        args.source, profile=args.profile, db=args.db, fps=args.fps, as_json=args.json,
        first=args.first, south_at=args.south_at, accept_after=args.accept_after,
        start=None if args.start is None else _read_position(args.start, game),
        empty=args.empty, players=players_of(args), game=game)
    if summary.interrupted:
        return EXIT_INTERRUPTED
    if summary.unrecorded:  # never report success for work not done
        print(f"companion referee: {summary.unrecorded} turn(s) could not be written to the "
              "match log: it is incomplete (the events above have them all)", file=sys.stderr)
        return EXIT_FAULT
    return EXIT_OK


def _read_position(path: str, game: TableGame) -> Any:
    """A ``game`` position from a JSON file, a text-notation file, or ``-`` (stdin)."""
    from companion.commands.position_files import read_position

    return read_position(path, game.id)


def clock(t: float) -> str:
    """``1:02.5`` for 62.5 seconds."""
    minutes, seconds = divmod(max(0.0, t), 60.0)
    return f"{int(minutes)}:{seconds:04.1f}"


@dataclass
class Summary:
    """What a run found: for the caller and the tests."""

    frames: int = 0
    skipped: int = 0  # corrupt frames
    lost: int = 0  # frames without a mat in them
    turns: list[TurnCommitted] = field(default_factory=list)
    illegal: list[IllegalChange] = field(default_factory=list)
    corrections: list[CorrectionAccepted] = field(default_factory=list)
    winner: Any | None = None  # the game's side
    seconds: float = 0.0  # of recording
    wall_s: float = 0.0
    interrupted: bool = False
    unfinished: str = ""  # why the last turn could not be committed
    unrecorded: int = 0  # committed turns the match log could not take

    @property
    def fps(self) -> float:
        return self.frames / self.wall_s if self.wall_s > 0 else 0.0

    def take(self, ev: Event) -> None:
        if isinstance(ev, TurnCommitted):
            self.turns.append(ev)
        elif isinstance(ev, CorrectionAccepted):
            self.corrections.append(ev)
        elif isinstance(ev, GameWon):
            self.winner = ev.side
        elif isinstance(ev, Refused) and ev.action == "end_turn":
            self.unfinished = ev.reason


class Reporter:
    """Turns the referee's events into the log: plain lines, or JSON lines."""

    def __init__(self, out: TextIO, as_json: bool) -> None:
        self.out = out
        self.as_json = as_json
        self._last_illegal: tuple[tuple[str, ...], str] | None = None
        self._lost_since: float | None = None
        self.illegal: list[IllegalChange] = []  # as reported: each wrong board once
        self._last_unsure: tuple[str, ...] = ()
        self.progress: Progress | None = None  # the bar on stderr, kept off these lines

    def _emit(self, doc: dict[str, Any], text: str) -> None:
        if not self.as_json and not text:
            return
        with self.progress.above() if self.progress is not None else nullcontext():
            if self.as_json:
                print(json.dumps({**doc, "schema": SCHEMA}), file=self.out, flush=True)
            else:
                print(text, file=self.out, flush=True)

    def line(self, t: float, text: str) -> None:
        self._emit({"event": "note", "t": round(t, 3), "text": text},
                   f"{clock(t):>8}  {text}")

    def event(self, ev: Event) -> None:
        """One referee event in its own words and JSON (docs/events.md); a wrong board or
        the same unsure spaces seen again after a hand are said once, and hands only in
        JSON (they come and go all match)."""
        if not isinstance(ev, (Uncertain, Occluded)):
            self._last_unsure = ()
        at = ev.t
        if isinstance(ev, TurnCommitted):
            at = ev.settled_t if ev.settled_t is not None else ev.t
            self._last_illegal = None
        elif isinstance(ev, IllegalChange):
            key = (ev.squares, ev.message)
            if key == self._last_illegal:
                return
            self._last_illegal = key
            self.illegal.append(ev)
        elif isinstance(ev, (WarningCleared, CorrectionAccepted)):
            self._last_illegal = None
        elif isinstance(ev, Uncertain):
            if ev.squares == self._last_unsure:
                return
            self._last_unsure = ev.squares
        elif not isinstance(ev, (Occluded, FirstMoverChosen, GameWon, Refused)):
            return  # the live table's own events (tentative moves, die, recovery offers)
        doc = ev.to_json()
        for name in ("t", "settled_t"):
            if isinstance(doc.get(name), float):
                doc[name] = round(doc[name], 3)
        text = "" if isinstance(ev, Occluded) else f"{clock(at):>8}  {ev.LABEL:<9} {ev.describe()}"
        self._emit(doc, text)

    def lost(self, t: float, why: str) -> None:
        if self._lost_since is None:
            self._lost_since = t
            self._emit({"event": "mat_lost", "t": round(t, 3), "reason": why},
                       f"{clock(t):>8}  the mat is out of sight ({why})")

    def found(self, t: float) -> None:
        if self._lost_since is not None:
            self._lost_since = None
            self._emit({"event": "mat_found", "t": round(t, 3)},
                       f"{clock(t):>8}  the mat is back in sight")

    def skipped(self, t: float, detail: str) -> None:
        self._emit({"event": "skipped", "t": round(t, 3), "reason": detail},
                   f"{clock(t):>8}  frame skipped: {detail}")


# --- the run ---------------------------------------------------------------------------------


def open_recording(spec: str, fps: float) -> FrameSource:
    """A video file or a folder of frames (at ``fps``). Raises :class:`UserError`."""
    path = Path(spec)
    try:
        camera = CameraSpec.parse(spec)
    except CameraSpecError:
        camera = None
    if camera is not None and camera.kind is not CameraKind.INDEX:  # never a recording
        raise UserError(f"{camera.name}: a recording is a video file or a folder of frames; "
                        f"to referee from a live camera use companion run --camera")
    if not path.exists():
        if spec.isascii() and spec.isdigit():
            raise UserError(f"{spec}: a recording is a video file or a folder of "
                                 f"frames; to referee from camera {spec} use companion run")
        raise UserError(f"{spec}: no such file or folder")
    try:
        # the resolved path: a file or folder named "0" is a recording, never camera 0
        return open_source(str(path.resolve()), fps)
    except VisionError as exc:
        raise UserError(str(exc)) from None


def _frame_total(source: FrameSource) -> int | None:
    files = getattr(source, "files", None)
    if files is not None:
        return len(files)
    if isinstance(source, VideoSource):
        import cv2

        total = int(source.cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        return total or None
    return None


def referee_recording(spec: str, *, profile: str | None = None, db: str | None = None,
                      fps: float = 10.0, as_json: bool = False, first: str | None = None,
                      start: Any = None,
                      south_at: str = "bottom", accept_after: float = ACCEPT_AFTER_S,
                      out: TextIO | None = None, err: TextIO | None = None,
                      players: dict[str, str] | None = None,
                      empty: str | None = None, game: TableGame | None = None) -> Summary:
    """Referee the recording at ``spec``, from ``start`` (default the set-up; a recording that
    begins mid-game needs a ``profile``), ``first`` to move (default ``start``'s). Raises
    :class:`UserError` for input that cannot be used (and ``MatchLogError`` for an
    unusable ``db``); Ctrl-C ends the run early, with ``Summary.interrupted`` set and
    everything committed kept. ``empty``: a photo of the empty mat from the recording's camera,
    to calibrate with (not with a ``profile``, which holds its calibration). ``game``: what
    is played (default the registry's table game)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if fps <= 0:
        raise UserError(f"--fps must be positive, got {fps:g}")
    if accept_after < 0:
        raise UserError(f"--accept-after must be 0 or more seconds, got {accept_after:g}")
    if start is not None and profile is None:
        raise UserError("--start needs --profile: the mat is calibrated from the set-up, "
                             "which a recording that begins mid-game does not show")
    if profile is not None and empty is not None:
        raise UserError(f"--empty {empty} with --profile {profile}: the profile already "
                             "holds the calibration; give one of them (or calibrate again "
                             "with `companion calibrate --empty`)")
    bare = None
    if empty is not None:
        from companion.commands.opening import load_empty

        try:
            bare = load_empty(empty)
        except UserError as exc:
            raise UserError(str(exc)) from None
    reporter = Reporter(out, as_json)
    source = open_recording(spec, fps)
    if profile is not None:
        from companion.commands.opening import load_profile

        try:
            prof = load_profile(profile)
        except UserError as exc:
            source.close()
            raise UserError(str(exc)) from None
        cal_t = None
    else:
        from companion.commands.opening import calibrate_from

        try:
            with Progress("calibrating the mat", err=err) as bar:
                prof, cal_t = calibrate_from(source, south_at, bare, empty, progress=bar)
        except UserError as exc:
            raise UserError(str(exc)) from None
        finally:
            source.close()
        source = open_recording(spec, fps)  # referee from the first frame
    summary = Summary()
    try:
        store = open_store(db, lambda line: print(line, file=err, flush=True))
    except MatchLogError:
        source.close()
        raise
    name = Path(spec).name
    epoch = datetime.now().astimezone()
    tags = {"Event": "recording refereed", "Recording": str(Path(spec).resolve()),
            "RecordingStart": iso(epoch)}
    tags["RecordingFps"] = f"{getattr(source, 'fps', fps):g}"  # a video's own, or --fps
    game = game or GAMES.table()
    start = start or game.start()
    if first is not None:
        start = game.with_to_move(start, game.parse_side(first))
    session = Session(vision=Vision.from_profile(prof), source=source, store=store, start=start,
                      game=game,
                      config=RefereeConfig(recovery_after=accept_after,
                                           judge_unsure_after=JUDGE_UNSURE_AFTER_S),
                      players=players,
                      tags=tags, recording_epoch=epoch,
                      log_note="" if store is not None else "not recording")

    def on_update(update: Any) -> None:
        for ev in update.events:
            summary.take(ev)
            reporter.event(ev)

    session.on_update(on_update)
    size = f"{prof.image_size[0]}x{prof.image_size[1]}"
    how = (f"the mat calibrated from the frame at {clock(cal_t)}" if cal_t is not None
           else f"profile {profile}")
    if bare is not None:
        how += f" and the empty-mat photo {Path(empty or '').name}"
    reporter.line(0.0, f"refereeing {name} ({size}) with {how}")
    try:
        _referee_frames(source, session, reporter, summary, prof.image_size, spec, err)
        if summary.interrupted:
            reporter.line(summary.seconds, f"interrupted: {len(summary.turns)} turns "
                          "committed and kept")
            session.note(f"refereeing interrupted at {clock(summary.seconds)} in the "
                         "recording")
        elif summary.winner is None:
            _commit_last(session, reporter, summary, summary.seconds)
        summary.illegal = list(reporter.illegal)
        summary.unrecorded = session.flush_log()
        reporter.line(summary.seconds, _closing(summary, session, store))
    finally:  # the session closes the source and the store, whatever happened
        session.close()
    return summary


def _referee_frames(source: FrameSource, session: Session, reporter: Reporter,
                    summary: Summary, size: tuple[int, int], spec: str, err: TextIO) -> None:
    """Every frame of ``source`` through ``session``, until it ends or Ctrl-C."""
    progress = Progress(f"refereeing {Path(spec).name}", _frame_total(source), err=err)
    reporter.progress = progress
    wall0 = time.monotonic()
    t = 0.0
    try:
        while True:
            item = source.read()
            if isinstance(item, SourceEvent):
                t = max(t, item.t)
                if item.kind is SourceEventKind.ENDED:
                    break
                if item.kind is SourceEventKind.CORRUPT:
                    summary.skipped += 1
                    reporter.skipped(item.t, item.detail)
                continue
            t = item.t
            _check_size(item, size, spec)
            events = session.process(item.image, item.t)
            summary.frames += 1
            sighting = session.last_sighting
            if sighting is not None and sighting.lost:
                summary.lost += 1
                reporter.lost(item.t, sighting.lost)
            else:
                reporter.found(item.t)
            for ev in events:
                if isinstance(ev, RecoveryOffered):
                    # Nobody can answer: go on from the board as seen, and say so.
                    reporter.line(ev.t, f"the board has disagreed since {clock(ev.since)} "
                                  f"on {', '.join(ev.squares)}: going on from the board as "
                                  "seen")
                    session.accept_board()
            progress.set(summary.frames, turns=len(summary.turns))
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        reporter.progress = None
        progress.close()
        summary.seconds = t
        summary.wall_s = time.monotonic() - wall0


def _check_size(frame: Frame, size: tuple[int, int], spec: str) -> None:
    h, w = frame.image.shape[:2]
    if (w, h) != tuple(size):
        raise UserError(f"{spec}: frame {frame.index} is {w}x{h} but the profile was "
                             f"calibrated at {size[0]}x{size[1]}")


def _commit_last(session: Session, reporter: Reporter, summary: Summary, t: float) -> None:
    state = session.state
    if not state.tentative:
        return
    before = len(summary.turns)
    if state.vision.value in ("uncertain", "occluded"):
        why = ("a hand was over the mat" if state.vision.value == "occluded"
               else f"vision was not sure of {', '.join(state.uncertain)}")
        reporter.line(t, f"at the end of the recording {why}: turn {state.turn_number} ends "
                      "on the last board seen clearly")
    session.end_turn(CommitBy.RECORDING)
    if len(summary.turns) == before and not summary.unfinished:
        summary.unfinished = "the referee did not commit it"
    if summary.unfinished:
        reporter.line(t, f"the recording ended during turn {state.turn_number} "
                      f"({state.to_move.value}), which is not committed: "
                      f"{summary.unfinished}")


def _closing(summary: Summary, session: Session, store: MatchStore | None) -> str:
    parts = [f"{summary.frames} frames ({clock(summary.seconds)} of recording) in "
             f"{summary.wall_s:.1f} s ({summary.fps:.0f} frames/s)",
             f"{len(summary.turns)} turns"]
    if summary.illegal:
        parts.append(f"{len(summary.illegal)} illegal change(s)")
    if summary.corrections:
        parts.append(f"{len(summary.corrections)} correction(s)")
    if summary.skipped:
        parts.append(f"{summary.skipped} corrupt frame(s) skipped")
    if summary.winner is not None:
        parts.append(f"{summary.winner.value} won")
    text = "done: " + ", ".join(parts)
    if store is not None and session.match_id is not None and not session.log_problem:
        text += (f"; recorded as match {session.match_id} (companion matches show "
                 f"{session.match_id} --db {store.path})")
    elif session.log_problem:
        text += f"; {session.log_problem}"
    return text


__all__ = [
    "ACCEPT_AFTER_S",
    "Reporter",
    "Summary",
    "UserError",
    "clock",
    "open_recording",
    "referee_recording",
]
