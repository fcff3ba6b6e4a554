"""``companion run``: the real thing. A camera, a mat profile, the LED/die board and the app.

Without a profile the mat is calibrated from the camera's first still frames, which must show
the start position (with an empty-mat photo, ``--empty``, if one is given).

Everything that can be checked before the game starts is, and reported in one line (exit 2):
a missing or damaged profile, an unreadable empty-mat photo, a camera that cannot be opened or
whose frames are not the size the profile was calibrated at (or the empty-mat photo's), a
board port that cannot be opened, a match store that cannot be used, no start position to
calibrate from. Once running, a camera or board that goes away is shown on the status line
and picked up again when it is back.

Without the app (``--headless``) the terminal is the tablet: keys end the turn, undo, take
back, accept a warning, resign, agree a draw, start a new game and quit
(:mod:`companion.live.keys`), read in a thread of their own so the camera never waits. The
result (a win by the rules, a resignation, an agreed draw) goes into the match log; a run
stopped mid-game keeps every committed turn, the match unfinished.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from companion.commands.camera import CameraSpec, Opener
from companion.commands.common import (
    EXIT_FAULT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_calibration_source,
    add_db_argument,
    add_sides,
    players_of,
)
from companion.commands.front_end import app_unless_headless
from companion.commands.opening import (
    calibrate_live,
    load_empty,
    load_profile,
    open_board,
    open_camera,
)
from companion.commands.options import camera as camera_option
from companion.errors import UserError
from companion.live.board import BoardLink
from companion.live.keys import HELP, KeyPad, KeyReader
from companion.live.recorder import open_store
from companion.live.session import Session
from companion.live.textlog import TextLog
from companion.matchlog import MatchLogError, MatchStore
from companion.rules import GAMES
from vision.sources import CameraSource


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion run`` to the ``companion`` command's subparsers."""
    run = sub.add_parser(
        "run", help="referee a real game: camera, mat profile, LED/die board, app",
        description="Without --profile the mat is calibrated from the camera's first still "
        "frames, which must show the start position. Exit status: 0 when the app is closed, "
        "130 when stopped with Ctrl-C (headless), 1 when turns could not be recorded, 2 bad "
        "input (profile, empty-mat photo, camera, board port, match store, no start position "
        "to calibrate from).")
    run.add_argument("--camera", type=camera_option, default="0", metavar="N|DEVICE|URL",
                     help="camera index (default 0), device path (/dev/video2) or stream URL "
                     "(http://, https://, rtsp://: a phone's streaming app)")
    add_calibration_source(run, "the camera as the game starts")
    run.add_argument("--bridge", default="auto", metavar="PORT|auto|none",
                     help="the LED/die board's serial port (default auto: found by USB id)")
    add_db_argument(run)
    add_sides(run)
    run.add_argument("--headless", action="store_true",
                     help="print the events as text instead of opening the app; keys in the "
                     "terminal (or lines on stdin) end the turn, undo, take back, accept, "
                     "resign, agree a draw: ? lists them")
    run.set_defaults(func=_cmd_run)


def _cmd_run(args: argparse.Namespace) -> int:
    return run_live(camera=args.camera, profile=args.profile, bridge=args.bridge,
                    db=args.db, headless=args.headless, empty=args.empty,
                    south_at=args.south_at, players=players_of(args),
                    first=None if args.first is None else GAMES.table().parse_side(args.first))


def run_live(*, camera: CameraSpec | int, profile: str | None = None, bridge: str = "auto",
             db: str | None = None, headless: bool = False, out: TextIO | None = None,
             opener: Opener | None = None, empty: str | None = None,
             south_at: str = "bottom", players: Mapping[str, str] | None = None,
             first: Any = None, keys: TextIO | None = None) -> int:
    """Referee a real game until the window is closed (headless: the quit key, or Ctrl-C:
    130); 0 then. Without ``profile`` the mat is calibrated from the camera (``empty``: an
    empty-mat photo to calibrate with). ``players``: side -> name; ``first``: the side that
    moves first (default south). Headless, keys are read from ``keys`` (default stdin).
    Raises :class:`UserError` for what cannot be used."""
    out = out or sys.stdout
    spec = camera if isinstance(camera, CameraSpec) else CameraSpec.numbered(camera)

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    if profile is not None and empty is not None:
        raise UserError(f"--empty {empty} with --profile {profile}: the profile already holds "
                       "the calibration; give one of them (or calibrate again with "
                       "`companion calibrate --empty`)")
    prof = None if profile is None else load_profile(profile)
    bare = None if empty is None else load_empty(empty)  # before anything opens
    app = app_unless_headless(headless, say)
    try:
        store: MatchStore | None = open_store(db, say)
    except MatchLogError as exc:
        raise UserError(str(exc)) from None
    board: BoardLink | None = None
    source: CameraSource | None = None
    try:
        board = open_board(bridge, say)
        size = (prof.image_size if prof is not None
                else None if bare is None else (bare.shape[1], bare.shape[0]))
        source = open_camera(spec, size, opener,
                             empty_path=empty if prof is None else None)
        if prof is None:
            say(f"calibrating the mat from {spec.name}: set up the start position and keep "
                "hands off the mat")
            prof = calibrate_live(source, south_at, bare, empty)
    except BaseException as exc:
        for thing in (board, store, source):
            if thing is not None:
                thing.close()
        if isinstance(exc, KeyboardInterrupt):  # Ctrl-C while waiting for a still set-up
            say("stopped before the game began")
            return EXIT_INTERRUPTED
        raise
    game = GAMES.table()  # the one game vision reads
    start = game.start() if first is None else game.with_to_move(game.start(), first)
    session = Session.from_profile(prof, source=source, board=board, store=store,
                                   start=start, players=players, game=game,
                                   log_note="" if store is not None else "not recording")
    stopped = False
    reader: KeyReader | None = None
    try:
        if app is not None:
            session.start()
            app.run_app(session)
        else:
            how = profile if profile is not None else "the mat calibrated at the start"
            say(f"refereeing from {spec.name} with {how}; Ctrl-C stops")
            session.on_update(TextLog(out, game))
            reader = _key_reader(KeyPad(session, say, players, game), keys or sys.stdin, say)
            try:
                session.run()
            except KeyboardInterrupt:  # what was committed is kept, the match resumable
                say("stopped")
                stopped = True
    finally:
        if reader is not None:
            reader.stop()  # the terminal as it was, before anything else is said
        session.close()
    return _unrecorded(session, EXIT_INTERRUPTED if stopped else EXIT_OK)


def _key_reader(pad: KeyPad, keys: TextIO, say: Callable[[str], None]) -> KeyReader | None:
    """The keys' reader on ``keys``, started, with the keys listed; None (said) where
    ``keys`` cannot be read (closed, no file descriptor): Ctrl-C still stops."""
    try:
        reader = KeyReader(pad, keys.fileno())
        reader.start()
    except (OSError, ValueError) as exc:  # io.UnsupportedOperation is both
        say(f"no keys: stdin cannot be read ({exc})")
        return None
    say(HELP)
    return reader


def _unrecorded(session: Session, otherwise: int) -> int:
    """1 with one line on stderr when committed turns never reached the match log (never
    report success for work not done); else ``otherwise``."""
    if not session.unrecorded_turns:
        return otherwise
    print(f"companion run: {session.unrecorded_turns} turn(s) could not be written to the "
          f"match log ({session.log_problem}): it is incomplete", file=sys.stderr)
    return EXIT_FAULT
