"""``companion setup`` and ``companion judge``: every game's rules through the registry
(``companion.rules.GAMES``)."""

from __future__ import annotations

import argparse
import json

from companion.commands.common import EXIT_ILLEGAL, EXIT_OK
from companion.commands.options import whole
from companion.errors import UserError
from companion.rules import GAMES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion setup`` and ``companion judge`` to the ``companion`` command's subparsers."""
    setup = sub.add_parser("setup", help="print a game's start position")
    setup.add_argument("--game", choices=GAMES, default=GAMES.default)
    setup.add_argument("--variant", action="append", metavar="KEY=VALUE",
                       help="rules variant flag, e.g. send_marker=either (repeatable)")
    setup.add_argument("--first", metavar="SIDE",
                       help="who moves first: south or north (teleporters, default south); a "
                       "colour for portal-hex (default the first, red)")
    setup.add_argument("--players", type=whole, metavar="N",
                       help="portal-hex: the number of players, 2-6 (default 2)")
    setup.add_argument("--text", action="store_true",
                       help="print text notation, not JSON")
    setup.set_defaults(func=_cmd_setup)

    judge = sub.add_parser(
        "judge", help="explain the change from START to NOW as legal moves, or say why not",
        description="Exit status: 0 legal, 1 illegal, 2 bad input.")
    judge.add_argument("--game", choices=GAMES, default=GAMES.default)
    judge.add_argument("start", metavar="START", help="position at the start of the turn "
                       "(JSON or text notation; - for standard input)")
    judge.add_argument("now", metavar="NOW", help="position seen now")
    judge.add_argument("--variant", action="append", metavar="KEY=VALUE",
                       help="override a rules variant flag of START (repeatable)")
    judge.add_argument("--json", action="store_true", help="print the explanation as JSON")
    judge.add_argument("--roll", metavar="N",
                       help="the die roll of the turn, for games with a die: portals 1-4, telic "
                       "n, a, 2-5, portal-hex 1-8 with dice=true (omit if unknown)")
    judge.set_defaults(func=_cmd_judge)

def _cmd_setup(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    flags = list(args.variant or [])
    if args.players is not None:
        if "players" not in game.flags:
            raise UserError(f"--players is for portal-hex (2-6 players); {game.name} is for two")
        flags.append(f"players={args.players}")
    position = game.start(flags, args.first)
    if args.text:
        print(game.position_text(position))
    else:
        print(json.dumps(game.position_json(position), indent=1))
    return EXIT_OK


def _cmd_judge(args: argparse.Namespace) -> int:
    from companion.commands.position_files import read_position

    game = GAMES[args.game]
    start, now = (read_position(path, game.id, observed)
                  for path, observed in ((args.start, False), (args.now, True)))
    roll = None if args.roll is None else game.parse_roll(args.roll)
    if args.variant:
        start = game.with_flags(start, args.variant)
    result = game.explain(start, now, roll=roll)  # a RulesError here is bad input: main says so
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print(result.describe())
    return EXIT_OK if result.legal else EXIT_ILLEGAL
