"""``companion demo``: a scripted late-game match on the simulated table, refereed live.

Nothing but this program is needed. The simulated table (``companion.sim.demo`` over
``vision.simtable``) plays the match frame by frame at 10 frames a second of simulated time;
calibration reads its rendered start position once, then every frame goes through the real
pipeline (``companion.live.session``: detector, stability gate, referee), the LEDs go to a
virtual LED/die board on a pseudo-terminal through the real ``firmware_bridge.Bridge``, and
the match is recorded in the match log like any other. ``--quest``: the 8 Queens quest played
alone (``companion.sim.quest_table``). ``--ai``: a short game against the companion, its
moves lit on the LED board and carried out by the simulated player (``companion.sim.ai_table``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from companion.ai import LEVELS
from companion.commands.common import EXIT_INTERRUPTED, add_db_argument
from companion.commands.front_end import app_unless_headless
from companion.commands.options import count_option
from companion.errors import UserError
from companion.live.api import Update
from companion.live.lights import lights_for
from companion.live.opponent import Opponent
from companion.live.quest import QuestSession, QuestTextLog
from companion.live.recorder import open_store
from companion.live.session import Session
from companion.live.sighting import Vision
from companion.live.textlog import TextLog, describe_lights
from companion.matchlog import MatchLogError, MatchStore
from companion.referee import TurnCommitted
from companion.rules import GAMES
from companion.sim.ai_table import (
    COMPANION,
    DEFAULT_SEED,
    DEFAULT_TURNS,
    PLAYER_LEVEL,
    CompanionTable,
)
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
        "With --ai: a short game against the companion, its moves lit on the virtual LED "
        "board. Exit status: 0 after the win (--ai: at the end of the game), 1 the match "
        "could not finish, 2 bad input.")
    demo.add_argument("--headless", action="store_true",
                      help="print the events as text instead of opening the app")
    demo.add_argument("--fast", action="store_true",
                      help="no real-time pacing in the app (text output is never paced)")
    add_db_argument(demo)
    demo.add_argument("--quest", action="store_true",
                      help="the 8 Queens Solitaire Quest instead: a layout with one mistake, "
                      "flagged on the LEDs, then put right")
    demo.add_argument("--ai", action="store_true",
                      help="a short game against the companion (north): its moves are lit on "
                      "the virtual LED board, and the simulated player carries them out")
    # Strings checked here, not argparse types: a bad value is one line, not a usage block.
    demo.add_argument("--level", metavar="N",
                      help=f"with --ai: the companion's level, one of "
                      f"{', '.join(map(str, LEVELS))} (default {DEFAULT_LEVEL}: answers in "
                      "well under a second)")
    demo.add_argument("--turns", metavar="N",
                      help=f"with --ai: turns (both sides') before the game stops, if no one "
                      f"has won (default {DEFAULT_TURNS})")
    demo.add_argument("--seed", metavar="S",
                      help=f"with --ai: the seed of both players' choices (default "
                      f"{DEFAULT_SEED})")
    demo.set_defaults(func=_cmd_demo)


DEFAULT_LEVEL = 3


def _cmd_demo(args: argparse.Namespace) -> int:
    ai_only = [f"--{name}" for name in ("level", "turns", "seed")
               if getattr(args, name) is not None]
    if ai_only and not args.ai:
        raise UserError(f"{ai_only[0]} goes with --ai")
    if args.ai and args.quest:
        raise UserError("--ai and --quest are two demos: give one")
    if args.ai:
        level = _level(args.level)
        turns = count_option("--turns", _or(args.turns, DEFAULT_TURNS), 1)
        seed = count_option("--seed", _or(args.seed, DEFAULT_SEED), 0)
        return run_ai_demo(headless=args.headless, fast=args.fast, db=args.db, level=level,
                           turns=turns, seed=seed)
    if args.quest:
        return run_quest_demo(headless=args.headless, db=args.db)
    return run_demo(headless=args.headless, fast=args.fast, db=args.db)


def _or(text: str | None, default: int) -> str:
    return str(default) if text is None else text


def _level(text: str | None) -> int:
    if text is None:
        return DEFAULT_LEVEL
    choices = ", ".join(map(str, LEVELS))
    if text.strip() not in {str(n) for n in LEVELS}:
        raise UserError(f"--level {text!r}: give one of {choices}")
    return int(text)


@dataclass(frozen=True, slots=True)
class _Stage:
    """What a demo of a game needs: the output, the app (None: text), the match store, the
    calibrated simulated camera and the virtual LED board."""

    out: TextIO
    say: Callable[[str], None]
    app: Any | None
    store: MatchStore | None
    profile: Profile
    board: DemoBoard


def _stage(headless: bool, db: str | None, out: TextIO | None) -> _Stage | None:
    """Set the stage; None (said) when calibration refused every photo."""
    out = out or sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    app = app_unless_headless(headless, say)
    store = open_store(db, say)
    profile = _calibrated(store)
    if profile is None:
        return None
    return _Stage(out, say, app, store, profile, virtual_board(say))


def _game_over(stage: _Stage, session: Session, summary: str) -> int:
    """The final board, the summary, the LEDs and the match log; 0 if all was recorded."""
    say = stage.say
    say("")
    say(session.state.expected.diagram())
    say("")
    say(summary)
    say(f"{stage.board.where} shows: {describe_lights(stage.board.leds())}")
    unrecorded = session.flush_log()
    say(_recorded(session, stage.store))
    return 1 if unrecorded else 0  # never report success for work not done


def run_demo(*, headless: bool = True, fast: bool = False, db: str | None = None,
             out: TextIO | None = None) -> int:
    """Play the scripted match; 0 after the win. ``db``: the match store (default: the
    user's; an unusable default store is said and skipped, an unusable ``db`` raises
    ``MatchLogError``)."""
    stage = _stage(headless, db, out)
    if stage is None:
        return 1
    say, app, store, board = stage.say, stage.app, stage.store, stage.board
    table = DemoTable(paced=app is not None and not fast, press_button=board.press,
                      narrate=say if app is None else None)
    session = Session(vision=Vision.from_profile(stage.profile), source=table,
                      board=board.link, store=store,
                      start=GAMES.table().read_position(DEMO_START),
                      players=PLAYERS, tags=TAGS, simulated=True,
                      log_note="" if store is not None else "not recording")
    table.bind(session)

    def play() -> int:
        if app is not None:
            session.start()
            app.run_app(session)
            return 0
        _header(say, store, board)
        session.on_update(TextLog(stage.out, session.game))
        session.run()
        state = session.state
        if state.winner is None:
            raise DemoError("the scripted match ended without a win")
        return _game_over(stage, session, f"game over: {state.winner.value} wins after "
                          f"{state.turn_number - 1} turns; {table.frames} frames "
                          f"({table.frames / FPS:.1f} s of simulated time) refereed")

    return _to_the_end(play, say, session.close, board.stop)


def run_ai_demo(*, headless: bool = True, fast: bool = False, db: str | None = None,
                level: int = DEFAULT_LEVEL, turns: int = DEFAULT_TURNS, seed: int = DEFAULT_SEED,
                out: TextIO | None = None) -> int:
    """A short game against the companion at ``level``; 0 once it is over (won, or
    ``turns`` turns played) with every move of the companion's carried out as lit."""
    stage = _stage(headless, db, out)
    if stage is None:
        return 1
    say, app, store, board = stage.say, stage.app, stage.store, stage.board
    players = {COMPANION.value: f"the companion, level {level}",
               COMPANION.opponent.value: "Demo Player"}
    table = CompanionTable(leds=board.leds, press_button=board.press,
                           narrate=say if app is None else None,
                           paced=app is not None and not fast, seed=seed, max_turns=turns)
    session = Session(vision=Vision.from_profile(stage.profile), source=table,
                      board=board.link, store=store, start=table.start, players=players,
                      tags={**TAGS, "Companion": f"{COMPANION.value}, level {level}"},
                      simulated=True, log_note="" if store is not None else "not recording")
    table.bind(session)

    def announce(line: str) -> None:  # with what the LEDs show now: its first move
        lit = describe_lights(lights_for(session.state, guide=session.guide,
                                         game=session.game))
        say(f"         COMPANION {line} — {lit}")

    # Said in the terminal with the app too: the app does not show the companion's turn yet.
    opponent = Opponent(session, side=COMPANION, level=level, seed=seed, say=announce)
    commits: list[TurnCommitted] = []

    def committed(update: Update) -> None:
        commits.extend(e for e in update.events if isinstance(e, TurnCommitted))

    def play() -> int:
        if app is None:
            _ai_header(say, store, board, table.start, level, seed, turns)
            session.on_update(TextLog(stage.out, session.game))
        session.on_update(opponent)  # after the text log: its turn is said after the commit
        session.on_update(committed)
        if app is not None:
            session.start()
            app.run_app(session)
            return 0
        session.run()
        state = session.state
        # What the camera saw committed on the companion's turns must be what it lit.
        ours = {c.number: c for c in commits if c.side is COMPANION}
        played = commits[-1].number if commits else 0
        for choice in opponent.choices:
            made = ours.get(choice.guide.turn_number)
            if made is None and choice.guide.turn_number > played:
                continue  # chosen as the demo's turn limit stopped the game
            if made is None or not made.position.same_board(choice.guide.boards[-1]):
                raise DemoError(f"turn {choice.guide.turn_number}: the board committed is not "
                                f"the companion's {choice.guide.notation()}")
        seconds = [c.seconds for c in opponent.choices if c.guide.turn_number in ours]
        result = (f"{_who(state.winner)} wins after {played} turns" if state.winner is not None
                  else f"no one has won after {played} turns (the demo's limit)")
        return _game_over(stage, session, (
            f"game over: {result}. Level {level} chose its {_n(len(seconds), 'turn')} in "
            f"{sum(seconds):.2f} s (worst {max(seconds, default=0.0):.2f} s); all "
            f"{_n(len(table.carried), 'move')} were lit and carried out as shown"
            + "".join(f" ({s.made} for {s.shown} flagged, lit {', '.join(s.red)} red, and put "
                      "right)" for s in table.slips)
            + f"; {table.frames} frames ({table.frames / FPS:.1f} s of simulated time) refereed"))

    return _to_the_end(play, say, session.close, board.stop)


def _n(count: int, thing: str) -> str:
    return f"{count} {thing}" + ("" if count == 1 else "s")


def _who(side: Any) -> str:
    return "the companion" if side is COMPANION else f"the player ({side.value})"


def _ai_header(say: Callable[[str], None], store: MatchStore | None, board: DemoBoard,
               start: Any, level: int, seed: int, turns: int) -> None:
    say(f"tabletop-companion demo: a short Teleporters game against the companion (level "
        f"{level}, {COMPANION.value}) on the simulated table, seed {seed}, at most {turns} "
        "turns.")
    say(f"The player ({COMPANION.opponent.value}, level {PLAYER_LEVEL}) carries out the "
        "companion's moves as the LEDs light them: the piece to lift yellow, where it goes "
        "cyan.")
    say(f"Every move is refereed from the camera; lights go to the {board.where}; "
        + (f"the match log {store.path}." if store is not None else "no match log."))
    say("")
    say(start.diagram())
    say("")


def _header(say: Callable[[str], None], store: MatchStore | None, board: DemoBoard) -> None:
    pose = SCENE.pose
    say("tabletop-companion demo: a scripted late-game Teleporters match on the simulated "
        "table,")
    say(f"refereed through the vision pipeline (camera {pose.tilt_deg:g} degrees off "
        f"vertical, {pose.width}x{pose.height}, {FPS:g} frames a second of simulated time),")
    say(f"the referee, the {board.where} and "
        + (f"the match log {store.path}" if store is not None else "no match log") + ".")
    say("")
    say(GAMES.table().read_position(DEMO_START).diagram())
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
    session = QuestSession("queens", player=PLAYER,
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


__all__ = ["register", "run_ai_demo", "run_demo", "run_quest_demo"]
