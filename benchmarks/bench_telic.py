#!/usr/bin/env python3
"""Benchmark of the Telic rules core (a report, not a timed test).

Plays complete random games with fixed seeds (default 1,000) and, at every turn, times
legal move generation (``legal_moves`` for the turn's roll, or for no roll) and ``explain``
of the move actually played. Prints medians (and p90/p99/max) in microseconds.

Run from the repository root::

    python3 benchmarks/bench_telic.py             # 1,000 games
    python3 benchmarks/bench_telic.py --games 50  # smoke run

Exit status 0 whatever the timings, 1 if a move was not explained as legal, an explanation
did not replay, or a game did not finish: those are bugs.
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
from companion.rules.telic import explain, legal_moves, play  # noqa: E402
from companion.rules.telic.random_play import random_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    gen_t: list[float] = []
    exp_t: list[float] = []
    lengths: list[int] = []
    wins = {"blue": 0, "red": 0}
    bugs = 0
    t0 = time.perf_counter()
    # A step after each game, outside its timed calls; a bug's line goes above the bar.
    bar = Progress("playing games", args.games, unit="game")
    for g in bar.track(range(args.games)):
        history = random_game(random.Random(args.seed * 1_000_003 + g))
        lengths.append(len(history))
        pos = history[0][0]
        for before, face, move in history:
            a = time.perf_counter()
            moves = legal_moves(before, face)
            b = time.perf_counter()
            after = play(before, move, face)
            c = time.perf_counter()
            ex = explain(before, after, face)
            d = time.perf_counter()
            gen_t.append(b - a)
            exp_t.append(d - c)
            if move not in moves or not ex.legal or move not in ex.moves:
                bugs += 1
                with bar.above():
                    print(f"BUG game {g}: {move.notation()} roll={face} -> {ex.describe()}")
            pos = after
        winner = pos.winner()
        if winner is None:
            bugs += 1
            with bar.above():
                print(f"BUG game {g}: did not finish in {len(history)} turns")
        else:
            wins[winner.value] += 1
    bar.close()
    total = time.perf_counter() - t0
    print(f"Telic rules core: {args.games} complete random games in {total:.1f} s "
          f"(python {sys.version.split()[0]})")
    print(f"turns per game         median={statistics.median(lengths):.0f}  "
          f"min={min(lengths)}  max={max(lengths)}  wins blue={wins['blue']} "
          f"red={wins['red']}")
    print(timing_line("legal_moves", gen_t, "us"))
    print(timing_line("explain (legal turn)", exp_t, "us"))
    print(f"bugs: {bugs}")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
