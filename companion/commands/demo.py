"""``companion demo``: a scripted late-game match on the simulated table, refereed live.

Nothing but this program is needed. The simulated table (``companion.sim.demo`` over
``vision.simtable``) plays the match frame by frame at 10 frames a second of simulated time;
calibration reads its rendered start position once, then every frame goes through the real
pipeline (``companion.live.session``: detector, stability gate, referee), the LEDs go to a
virtual LED/die board on a pseudo-terminal through the real ``firmware_bridge.Bridge``, and
the match is recorded in the match log like any other. ``--quest``: the 8 Queens quest played
alone (``companion.sim.quest_table``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from companion.commands.common import EXIT_INTERRUPTED, add_db_argument
from companion.commands.front_end import app_unless_headless
from companion.live.quest import QuestSession, QuestTextLog
from companion.live.recorder import open_store
from companion.live.session import Session
from companion.live.sighting import Vision
from companion.live.textlog import TextLog, describe_lights
from companion.matchlog import MatchLogError, MatchStore
from companion.rules.teleporters import Position
from companion.rules.teleporters.quests import Quest
from companion.sim.demo import (
    DEMO_START,
    FPS,
    PLAYERS,
    SCENE,
    TAGS,
    DemoBoard,
    DemoError,
    DemoTable,
    calibrate_table,
    virtual_board,
)
from companion.sim.quest_table import PLAYER, QuestTable

if TYPE_CHECKING:
    from calibration.profile import Profile


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion demo`` to the ``companion`` command's subparsers."""
    demo = sub.add_parser(
        "demo", help="referee a scripted match on the simulated table, no hardware needed",
        description="The simulated table plays a scripted late-game match through the vision "
        "pipeline, the referee and a virtual LED board, shown in the app (or as text). "
        "Exit status: 0 after the win, 1 the match could not finish, 2 bad input.")
    demo.add_argument("--headless", action="store_true",
                      help="print the events as text instead of opening the app")
    demo.add_argument("--fast", action="store_true",
                      help="no real-time pacing in the app (text output is never paced)")
    add_db_argument(demo)
    demo.add_argument("--quest", action="store_true",
                      help="the 8 Queens Solitaire Quest instead: a layout with one mistake, "
                      "flagged on the LEDs, then put right")
    demo.set_defaults(func=_cmd_demo)


def _cmd_demo(args: argparse.Namespace) -> int:
    if args.quest:
        return run_quest_demo(headless=args.headless, db=args.db)
    return run_demo(headless=args.headless, fast=args.fast, db=args.db)


def run_demo(*, headless: bool = True, fast: bool = False, db: str | None = None,
             out: TextIO | None = None) -> int:
    """Play the scripted match; 0 after the win. ``db``: the match store (default: the
    user's; an unusable default store is said and skipped, an unusable ``db`` raises
    ``MatchLogError``)."""
    out = out or sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    app = app_unless_headless(headless, say)
    store = open_store(db, say)
    profile = _calibrated(store)
    if profile is None:
        return 1
    board = virtual_board(say)
    table = DemoTable(paced=app is not None and not fast, press_button=board.press,
                      narrate=say if app is None else None)
    session = Session(vision=Vision.from_profile(profile), source=table, board=board.link,
                      store=store, start=Position.from_text(DEMO_START), players=PLAYERS,
                      tags=TAGS, simulated=True,
                      log_note="" if store is not None else "not recording")
    table.bind(session)

    def play() -> int:
        if app is not None:
            session.start()
            app.run_app(session)
            return 0
        _header(say, store, board)
        session.on_update(TextLog(out))
        session.run()
        state = session.state
        if state.winner is None:
            raise DemoError("the scripted match ended without a win")
        say("")
        say(state.expected.diagram())
        say("")
        say(f"game over: {state.winner.value} wins after {state.turn_number - 1} turns; "
            f"{table.frames} frames ({table.frames / FPS:.1f} s of simulated time) refereed")
        say(f"{board.where} shows: {describe_lights(board.leds())}")
        unrecorded = session.flush_log()
        say(_recorded(session, store))
        return 1 if unrecorded else 0  # never report success for work not done

    return _to_the_end(play, say, session.close, board.stop)


def _header(say: Callable[[str], None], store: MatchStore | None, board: DemoBoard) -> None:
    pose = SCENE.pose
    say("tabletop-companion demo: a scripted late-game Teleporters match on the simulated "
        "table,")
    say(f"refereed through the vision pipeline (camera {pose.tilt_deg:g} degrees off "
        f"vertical, {pose.width}x{pose.height}, {FPS:g} frames a second of simulated time),")
    say(f"the referee, the {board.where} and "
        + (f"the match log {store.path}" if store is not None else "no match log") + ".")
    say("")
    say(Position.from_text(DEMO_START).diagram())
    say("")


def _recorded(session: Session, store: MatchStore | None) -> str:
    if store is None or session.match_id is None:
        return "the match was not recorded"
    if session.log_problem:
        return f"the match was recorded only in part: {session.log_problem}"
    return (f"recorded as match {session.match_id} in {store.path} (companion matches show "
            f"{session.match_id} --db {store.path})")


def run_quest_demo(*, headless: bool = True, db: str | None = None,
                   out: TextIO | None = None) -> int:
    """Play the quest demo; 0 once the layout is solved."""
    out = out or sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    app = app_unless_headless(headless, say)
    try:
        store: MatchStore | None = open_store(db, say)
    except MatchLogError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    profile = _calibrated(store)
    if profile is None:
        return 1
    board = virtual_board(say)
    table = QuestTable()
    session = QuestSession(Quest.QUEENS, player=PLAYER,
                           vision=Vision.from_profile(profile, whole_set=False),
                           source=table, board=board.link, store=store)

    def play() -> int:
        if app is not None:
            app.run_quest_app(session)
            return 0
        say("tabletop-companion quest demo: 8 Queens on the simulated table. The player sets "
            "down eight Poles;")
        say(f"the eighth goes on {table.mistake} by mistake, then to "
            f"{table.layout[-1]}. Lights go to the {board.where}.")
        say("")
        session.on_update(QuestTextLog(out))
        session.run()
        last = session.last
        if last is None or not last.solved:
            raise DemoError("the quest demo ended without the layout solved")
        say("")
        say(f"{board.where} shows: {describe_lights(board.leds())}")
        say(f"{PLAYER} has found {len(last.found)} of {last.total} classes of the 8 Queens"
            + (f" (kept in {store.path})" if store is not None and not session.problem
               else f" ({session.problem or 'not kept: no match store'})"))
        return 0

    return _to_the_end(play, say, session.close, board.stop)


def _calibrated(store: MatchStore | None) -> Profile | None:
    """The simulated table's profile; None (said, and the store closed) when calibration
    refused every photo."""
    try:
        return calibrate_table()
    except DemoError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        if store is not None:
            store.close()
        return None


def _to_the_end(play: Callable[[], int], say: Callable[[str], None],
                *closing: Callable[[], None]) -> int:
    """Run a demo's ``play``: a DemoError is said, exit 1; Ctrl-C (or SIGTERM) stops it,
    exit 130, with what was recorded kept; the session and the board close either way."""
    try:
        return play()
    except DemoError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        say("stopped")
        return EXIT_INTERRUPTED
    finally:
        for close in closing:
            close()


__all__ = ["register", "run_demo", "run_quest_demo"]
