#!/usr/bin/env python3
"""Benchmark of the Portal (portal-hex) rules core (a report, not a timed test).

Plays complete guided random games (default 1,000, fixed seeds, 2-6 players over mixed
variants from ``random_play.random_variant``) and, on every ply, times:

* ``legal_moves(position, roll)`` (every build with every arrow choice included);
* ``explain(before, after, roll)`` of the move actually played (must be legal and replay);
* ``explain`` of an illegal observation every tenth ply (the move's board with one more pawn
  of the player on an empty platform).

Prints a table of medians (and p90, p99, max), the median number of legal moves, game
lengths and how games ended.

    python3 benchmarks/bench_portal_hex.py             # 1,000 games
    python3 benchmarks/bench_portal_hex.py --games 50  # smoke run

Exit status 1 if a played move was not explained as legal or did not replay, an illegal
observation was accepted, or a game did not end with a winner.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.timing import timing_line  # noqa: E402
from companion.progress import Progress  # noqa: E402
from companion.rules.errors import PositionError  # noqa: E402
from companion.rules.portal_hex import Kind, Position, explain, legal_moves  # noqa: E402
from companion.rules.portal_hex.movegen import apply_unchecked  # noqa: E402
from companion.rules.portal_hex.random_play import (  # noqa: E402
    MAX_PLIES,
    guided_move,
    random_variant,
    roll_for,
)


def _bad_observation(before: Position, after: Position) -> Position | None:
    """The played board plus one more pawn of the player on an empty platform (not a START
    nor CENTRUM): no legal move makes that (a build and a pawn, or a pawn from nowhere)."""
    doc = after.to_json()
    geo = after.geometry
    free = [geo.name(i) for i, k in enumerate(after.kinds)
            if k is Kind.PLATFORM and after.pawns[i] is None]
    if not free:
        return None
    doc["pawns"][free[len(free) // 2]] = before.to_move.value
    try:
        return Position.from_json(doc, strict=False)
    except PositionError:
        return None  # the player owns no further pawn


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES)
    args = ap.parse_args(argv)
    t_gen: list[float] = []
    t_explain: list[float] = []
    t_illegal: list[float] = []
    n_moves: list[int] = []
    lengths: list[int] = []
    ends = {"win": 0, "ply cap": 0}
    bugs = 0
    clock = time.perf_counter
    t0 = clock()
    # A step after each game, outside its timed calls; a bug's line goes above the bar.
    bar = Progress("playing games", args.games, unit="game")
    for seed in bar.track(range(args.games)):
        rng = random.Random(seed)
        pos = Position.start(random_variant(rng))
        plies = 0
        while plies < args.max_plies and pos.winner() is None:
            roll = roll_for(pos, rng)
            a = clock()
            moves = legal_moves(pos, roll)
            t_gen.append(clock() - a)
            n_moves.append(len(moves))
            move = guided_move(pos, rng, roll)
            assert move is not None
            after = apply_unchecked(pos, move)
            a = clock()
            ex = explain(pos, after, roll)
            t_explain.append(clock() - a)
            if not ex.legal or not apply_unchecked(pos, ex.moves[0]).same_board(after):
                bugs += 1
                with bar.above():
                    print(f"BUG seed {seed} ply {plies}: {move.notation()} -> {ex.describe()}")
            if plies % 10 == 0:
                bad = _bad_observation(pos, after)
                if bad is not None:
                    a = clock()
                    ex_bad = explain(pos, bad, roll)
                    t_illegal.append(clock() - a)
                    if ex_bad.legal and not any(apply_unchecked(pos, m).same_board(bad)
                                                for m in ex_bad.moves):
                        bugs += 1
                        with bar.above():
                            print(f"BUG seed {seed} ply {plies}: bad observation accepted")
            pos = after
            plies += 1
        lengths.append(plies)
        if pos.winner() is not None:
            ends["win"] += 1
        else:
            ends["ply cap"] += 1
            bugs += 1
            with bar.above():
                print(f"BUG seed {seed}: no winner after {plies} plies")
    bar.close()
    total = clock() - t0
    print(f"Portal (portal-hex) rules core: {args.games} guided random games in {total:.1f} s "
          f"({sum(lengths)} plies)")
    print(f"game length (plies): median {statistics.median(lengths):.0f}, "
          f"max {max(lengths)}; ends: {ends}")
    print(f"legal moves per position: median {statistics.median(n_moves):.0f}, "
          f"max {max(n_moves)}")
    print()
    print(timing_line("legal_moves", t_gen))
    print(timing_line("explain (legal, played move)", t_explain))
    if t_illegal:
        print(timing_line("explain (illegal observation)", t_illegal))
    print()
    print("bugs:", bugs)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
