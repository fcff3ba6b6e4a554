"""``companion ai match``: the Teleporters opponent against itself, for measurement."""

from __future__ import annotations

import argparse
import json
import re

from companion.ai.match import OPENING_TURNS, Tally, play_match
from companion.ai.player import MATCH_LEVELS
from companion.commands.common import EXIT_OK
from companion.commands.options import count_option
from companion.errors import UserError

_LEVEL_LIST = re.compile(r"([0-9]),([0-9])")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion ai`` (and its ``match``) to the ``companion`` command's subparsers."""
    ai = sub.add_parser("ai", help="the Teleporters opponent: engine-against-engine matches")
    ai_sub = ai.add_subparsers(dest="ai_command", metavar="SUBCOMMAND")
    match = ai_sub.add_parser(
        "match", help="play level A against level B, alternating sides",
        description="Prints wins and draws per level with a 95% confidence interval (Wilson) "
        "and the median and worst seconds per turn. Exit status: 0 done, 2 bad input.")
    # Strings checked here, not argparse types: a bad value is one line, not a usage block.
    match.add_argument("--levels", metavar="A,B",
                       help=f"the two levels, each one of {', '.join(map(str, MATCH_LEVELS))} "
                       "(0: random legal turns, a reference to measure against)")
    match.add_argument("--games", metavar="N", help="games to play (1 or more)")
    match.add_argument("--seed", default="0", metavar="S", help="seed (default 0)")
    match.add_argument("--max-turns", default="200", metavar="T",
                       help="turns (one side's each) before a game is a draw (default 200)")
    match.add_argument("--opening", default=str(OPENING_TURNS), metavar="N",
                       help="random turns before the levels play, the same for each pair of "
                       f"games (default {OPENING_TURNS}): without them games would repeat")
    match.add_argument("--json", action="store_true", help="print the results as JSON")
    match.set_defaults(func=_cmd_match)
    ai.set_defaults(func=_cmd_ai)


def _cmd_ai(args: argparse.Namespace) -> int:
    raise UserError("say what to do: `companion ai match --levels A,B --games N`")


def parse_levels(text: str | None) -> tuple[int, int]:
    if text is None:
        raise UserError("--levels A,B is needed, such as --levels 3,5")
    m = _LEVEL_LIST.fullmatch(text.strip())
    if m is None:
        raise UserError(f"--levels {text!r}: give two levels as A,B, such as 3,5")
    levels = (int(m[1]), int(m[2]))
    for level in levels:
        if level not in MATCH_LEVELS:
            raise UserError(f"--levels {text!r}: level {level} is not one of "
                            f"{', '.join(map(str, MATCH_LEVELS))}")
    return levels


def _cmd_match(args: argparse.Namespace) -> int:
    a, b = parse_levels(args.levels)
    games = count_option("--games", args.games, 1)
    seed = count_option("--seed", args.seed, 0)
    max_turns = count_option("--max-turns", args.max_turns, 1)
    opening = count_option("--opening", args.opening, 0)
    played, first, second = play_match(a, b, games, seed, max_turns, opening_turns=opening)
    if args.json:
        print(json.dumps({
            "levels": [a, b], "games": games, "seed": seed, "max_turns": max_turns,
            "opening_turns": opening,
            "players": [first.to_json(), second.to_json()],
            "game_results": [{"south": g.south, "north": g.north, "turns": g.turns,
                              "winner": g.winner.value if g.winner else None}
                             for g in played],
        }, indent=1))
        return EXIT_OK
    print(f"level {a} against level {b}: {games} games, alternating sides, seed {seed}, "
          f"{opening} random opening turns, draw after {max_turns} turns")
    print(f"{'player':<10}{'wins':>6}{'draws':>7}{'losses':>8}{'win rate':>10}"
          f"{'95% CI':>16}{'median s/turn':>15}{'worst s/turn':>14}")
    for name, tally in (("A", first), ("B", second)):
        print(_row(f"{name} level {tally.level}", tally))
    return EXIT_OK


def _row(name: str, tally: Tally) -> str:
    doc = tally.to_json()
    lo, hi = doc["win_rate_ci95"]
    return (f"{name:<10}{tally.wins:>6}{tally.draws:>7}{tally.losses:>8}"
            f"{doc['win_rate']:>10.2f}{f'{lo:.2f}-{hi:.2f}':>16}"
            f"{doc['median_s_per_turn']:>15.3f}{doc['worst_s_per_turn']:>14.3f}")
