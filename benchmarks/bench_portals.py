#!/usr/bin/env python3
"""Benchmark of the Portals rules core (a report, not a timed test).

Plays complete random games (default 1,000, fixed seeds; every fifth one without the
Portable Portal) and, on every ply, times:

* ``legal_moves(position)`` (all turns, Portable Portal moves for every roll included);
* ``explain(before, after, roll)`` of the move actually played (must be legal and replay);
* ``explain`` of an illegal observation (the played piece moved one more square, or a
  Guard of the mover lifted off the board), every tenth ply.

Prints medians, p90, p99 and max, game lengths and how games ended.

    python3 benchmarks/bench_portals.py             # 1,000 games
    python3 benchmarks/bench_portals.py --games 50  # smoke run

Exit status 1 if a played move was not explained as legal, did not replay, a game did not
end with a winner or a stall, or an illegal observation was accepted.
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
from companion.rules.portals import (  # noqa: E402
    NO_PORTABLE_PORTAL,
    Position,
    explain,
    is_stalled,
    legal_moves,
)
from companion.rules.portals.movegen import apply_unchecked  # noqa: E402
from companion.rules.portals.random_play import random_move  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--max-plies", type=int, default=3000)
    args = ap.parse_args(argv)
    t_gen: list[float] = []
    t_explain: list[float] = []
    t_illegal: list[float] = []
    n_moves: list[int] = []
    lengths: list[int] = []
    ends = {"win": 0, "stalled": 0, "ply cap": 0}
    bugs = 0
    clock = time.perf_counter
    t0 = clock()
    # A step after each game, outside its timed calls; a bug's line goes above the bar.
    bar = Progress("playing games", args.games, unit="game")
    for seed in bar.track(range(args.games)):
        rng = random.Random(seed)
        pos = Position.start() if seed % 5 else Position.start(NO_PORTABLE_PORTAL)
        plies = 0
        while plies < args.max_plies and pos.winner() is None:
            a = clock()
            moves = legal_moves(pos)
            t_gen.append(clock() - a)
            n_moves.append(len(moves))
            choice = random_move(pos, rng)
            if choice is None:
                break
            move, roll = choice
            after = apply_unchecked(pos, move)
            a = clock()
            ex = explain(pos, after, roll)
            t_explain.append(clock() - a)
            if not ex.legal or not apply_unchecked(pos, ex.moves[0]).same_board(after):
                bugs += 1
                with bar.above():
                    print(f"BUG seed {seed} ply {plies}: {move.notation()} -> {ex.describe()}")
            if plies % 10 == 0:
                board = list(after.pieces)
                if move.dst + 1 < len(board) and board[move.dst + 1] is None and \
                        move.dst % 11 != 10:
                    board[move.dst + 1], board[move.dst] = board[move.dst], None
                else:
                    mine = [s for s in after.squares_of(pos.to_move) if s != move.dst]
                    if mine:
                        board[mine[0]] = None
                bad = after.replace(pieces=tuple(board))
                a = clock()
                ex_bad = explain(pos, bad, roll)
                t_illegal.append(clock() - a)
                if ex_bad.legal and not any(
                        apply_unchecked(pos, m).same_board(bad) for m in ex_bad.moves):
                    bugs += 1
                    with bar.above():
                        print(f"BUG seed {seed} ply {plies}: bad observation accepted")
            pos = after
            plies += 1
        lengths.append(plies)
        if pos.winner() is not None:
            ends["win"] += 1
        elif is_stalled(pos):
            ends["stalled"] += 1
        else:
            ends["ply cap"] += 1
            bugs += 1
            with bar.above():
                print(f"BUG seed {seed}: no end after {plies} plies")
    bar.close()
    total = clock() - t0
    print(f"Portals rules core: {args.games} random games in {total:.1f} s "
          f"({sum(lengths)} plies; every 5th game without the Portable Portal)")
    print(f"game length (plies): median {statistics.median(lengths):.0f}, "
          f"max {max(lengths)}; ends: {ends}")
    print(f"legal turns per position: median {statistics.median(n_moves):.0f}, "
          f"max {max(n_moves)}")
    print(timing_line("legal_moves", t_gen))
    print(timing_line("explain (legal, played move)", t_explain))
    if t_illegal:
        print(timing_line("explain (illegal observation)", t_illegal))
    print("bugs:", bugs)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
