"""``companion quest``: check a Solitaire Quest layout from a file, list a quest's solution
classes or the players' scores, or watch the mat live (camera, LEDs, app)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands.common import EXIT_INTERRUPTED, add_db_argument
from companion.commands.options import camera as camera_option
from companion.commands.position_files import read_position
from companion.errors import UserError
from companion.matchlog import MatchLogError, MatchStore
from companion.rules import GAMES, QuestBook
from companion.rules.errors import RulesError

EXIT_SOLVED, EXIT_NOT_SOLVED = 0, 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion quest`` to the ``companion`` command's subparsers."""
    quest = sub.add_parser(
        "quest", help="Teleporters Solitaire Quests: check a layout, or watch one live",
        description="Check a layout (a position file) against a quest, or with --camera and "
        "--profile watch the mat live: the LEDs light conflicting pieces red and the spaces "
        "between them amber, a solved layout green; solution classes found are kept per "
        "player. Exit status (a file): 0 solved, 1 not solved, 2 bad input.")
    quest.add_argument("position", nargs="?", metavar="POSITION",
                       help="the layout: Teleporters position JSON or text (- for stdin)")
    quest.add_argument("--quest", default="queens",
                       help="queens, queens7, queens6, queens5 or rooks (default queens)")
    quest.add_argument("--json", action="store_true", help="print the verdict as JSON")
    quest.add_argument("--player", default="player", metavar="NAME",
                       help="whose solutions are counted (default 'player')")
    quest.add_argument("--record", action="store_true",
                       help="with a POSITION: count a solved layout's class for --player")
    quest.add_argument("--scores", action="store_true",
                       help="list the solution classes each player has found")
    quest.add_argument("--classes", action="store_true",
                       help="list the quest's solution classes (computed)")
    quest.add_argument("--camera", type=camera_option, metavar="N|DEVICE|URL",
                       help="watch this camera live: an index, a device path (/dev/video2) "
                       "or a stream URL (http://, https://, rtsp://)")
    quest.add_argument("--profile", metavar="PATH", help="mat profile (with --camera)")
    quest.add_argument("--bridge", default="auto", metavar="PORT|auto|none",
                       help="the LED board's serial port (with --camera; default auto)")
    add_db_argument(quest)
    quest.add_argument("--headless", action="store_true",
                       help="with --camera: print verdicts instead of opening the app")
    quest.set_defaults(func=_cmd_quest)


def _cmd_quest(args: argparse.Namespace) -> int:
    return run_quest_cli(args)


def _position(path: str) -> Any:
    try:
        return read_position(path)
    except UserError as exc:
        raise UserError(str(exc)) from None


def _store(db: str | None, create: bool) -> MatchStore | None:
    from companion.matchlog import default_db_path

    path = Path(db) if db else default_db_path()
    if not create and not path.exists():
        return None
    try:
        return MatchStore(path)
    except (MatchLogError, OSError) as exc:
        raise UserError(f"cannot open the match store {path}: {exc}") from None


def run_quest_cli(args: Any) -> int:
    book = GAMES.quests()  # the default game's (Teleporters'): the one with quests
    try:
        quest = book.parse(args.quest)
    except RulesError as exc:
        raise UserError(str(exc)) from None
    if args.classes:
        return _classes(book, quest, args.json)
    if args.scores:
        return _scores(book, args.db, args.json)
    if args.camera is not None:
        if args.position:
            raise UserError("give a POSITION file or --camera, not both")
        return _live(quest, args)
    if not args.position:
        raise UserError("give a POSITION file to check, or --camera N --profile P to "
                            "watch the mat (or --classes, --scores)")
    report = book.check(quest, _position(args.position))
    new = None
    if args.record and report.solved:
        store = _store(args.db, create=True)
        assert store is not None and report.class_number is not None
        with store:
            new = store.record_quest_find(args.player, quest.id, report.class_number,
                                          report.solution_class or "")
            found = len(store.quest_finds(args.player, quest.id))
    if args.json:
        doc = report.to_json()
        if new is not None:
            doc["recorded"] = {"player": args.player, "new": new, "found": found}
        print(json.dumps(doc, indent=1))
    else:
        print(report.describe())
        if new is not None:
            print(f"{args.player}: {'new class' if new else 'found before'}; {found} of "
                  f"{report.class_count} classes found")
    return EXIT_SOLVED if report.solved else EXIT_NOT_SOLVED


def _classes(book: QuestBook, quest: Any, as_json: bool) -> int:
    classes = book.solution_classes(quest)
    if as_json:
        print(json.dumps({"quest": quest.id, "classes": [c.to_json() for c in classes]},
                         indent=1))
        return 0
    total = sum(c.size for c in classes)
    print(f"{quest.title}: {total} solutions"
          + ("" if quest.is_queens else " per 4x4 section")  # rooks: in one section
          + f", {len(classes)} up to rotation and reflection")
    for c in classes:
        print(f"  class {c.number:>3}: {c.id}  ({c.size} solutions)")
    return 0


def _scores(book: QuestBook, db: str | None, as_json: bool) -> int:
    store = _store(db, create=False)
    rows: list[dict[str, Any]] = []
    if store is not None:
        with store:
            for player in store.quest_players():
                for quest in book.all:
                    finds = store.quest_finds(player, quest.id)
                    if finds:
                        rows.append({"player": player, "quest": quest.id,
                                     "found": [f.class_number for f in finds],
                                     "total": len(book.solution_classes(quest))})
    if as_json:
        print(json.dumps(rows, indent=1))
    elif not rows:
        print("no quest solutions found yet")
    else:
        for r in rows:
            print(f"{r['player']}: {book.parse(r['quest']).title}: {len(r['found'])} of "
                  f"{r['total']} classes ({', '.join(map(str, r['found']))})")
    return 0


def _live(quest: Any, args: Any) -> int:
    from companion.commands.front_end import app_unless_headless
    from companion.commands.opening import load_profile, open_board, open_camera
    from companion.live.quest import QuestSession, QuestTextLog
    from companion.live.recorder import open_store
    from companion.live.sighting import Vision

    if not args.profile:
        raise UserError("--camera needs --profile PATH (made with companion calibrate)")

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        profile = load_profile(args.profile)
        store = open_store(args.db, say)
    except (UserError, MatchLogError) as exc:
        raise UserError(str(exc)) from None
    app = app_unless_headless(args.headless, say)
    board = None
    try:
        board = open_board(args.bridge, say)
        source = open_camera(args.camera, profile.image_size)
    except UserError as exc:
        for thing in (board, store):
            if thing is not None:
                thing.close()
        raise UserError(str(exc)) from None
    session = QuestSession(quest, player=args.player,
                           vision=Vision.from_profile(profile, whole_set=False),
                           source=source, board=board, store=store)
    try:
        if app is not None:
            app.run_quest_app(session)
            return 0
        say(f"{quest.title} for {session.player}: {len(session.found)} of {session.total} "
            "classes found so far; Ctrl-C stops")
        session.on_update(QuestTextLog(sys.stdout))
        try:
            session.run()
        except KeyboardInterrupt:  # what was found is kept
            say("stopped")
            return EXIT_INTERRUPTED
        return 0
    finally:
        session.close()


__all__ = ["UserError", "run_quest_cli"]
