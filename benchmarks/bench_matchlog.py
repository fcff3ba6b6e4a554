#!/usr/bin/env python3
"""Benchmark of the match log (a report, not a timed test).

Measures, with fixed seeds:

* ``MatchStore.commit_turn`` with durability on (WAL, ``synchronous=FULL``: the turn is on
  disk when the call returns), without and with a JPEG snapshot; ``record_event``; and, for
  scale only, the same commit with ``synchronous=NORMAL`` (not durable against power loss);
* a 10,000-match store: built fast (a few real matches stored through the API, then copied
  with SQL), then opening the store, listing every match and opening one (all its turns and
  events read and parsed), each repeated from a fresh ``MatchStore``.

Run from the repository root::

    python3 benchmarks/bench_matchlog.py            # 2,000 commits, 10,000 matches
    python3 benchmarks/bench_matchlog.py --quick    # smoke run
    python3 benchmarks/bench_matchlog.py --dir /path/on/the/tablet --json out.json

``--dir`` chooses where the store files go (default: a temporary folder), so the disk that
will really hold the store can be measured. Exit status 0 whatever the timings.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.matchlog import (  # noqa: E402
    DieRoll,
    DieSource,
    Event,
    IllegalMove,
    Match,
    MatchId,
    MatchStore,
    Result,
    TurnRecord,
)
from companion.progress import Progress  # noqa: E402
from companion.rules.teleporters import Position  # noqa: E402
from companion.rules.teleporters.random_play import random_turn  # noqa: E402

TARGET_COMMIT_MS = 5.0
TARGET_LIST_OPEN_MS = 100.0
EPOCH = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median": statistics.median(values),
            "p90": percentile(values, 90), "p99": percentile(values, 99), "max": max(values)}


def random_match(rng: random.Random, turns: int) -> Match:
    """A legal match of ``turns`` random turns with a die roll or warning now and then."""
    pos = start = Position.start()
    clock = EPOCH + timedelta(days=rng.randrange(365))
    started = clock
    records, events = [], []
    for n in range(1, turns + 1):
        if rng.random() < 0.15:
            events.append(Event(n, clock, DieRoll(rng.randint(1, 6), DieSource.ELECTRONIC)))
        if rng.random() < 0.05:
            events.append(Event(n, clock, IllegalMove(
                "a Pole walks one or two spaces, this is 3", ("d4", "d7"),
                "walk-one-or-two-spaces")))
        moves, after, _ = random_turn(pos, rng)
        seconds = rng.randrange(2_000, 180_000) / 1000
        clock += timedelta(seconds=seconds)
        record = TurnRecord.played(pos, moves, seconds, clock)
        records.append(record)
        pos = record.position
        if after.winner() is not None:
            break
    return Match(start, {"south": f"Player {rng.randrange(100)}", "north": "Guest"}, started,
                 tuple(records), tuple(events), clock, Result.DRAW)


def snapshot_jpeg() -> bytes:
    """A realistic frame: a 1280x720 JPEG of the drawn mat (about what the camera gives)."""
    import cv2

    from companion.matchlog.draw import draw_position

    board = draw_position(Position.start(), cell=80)
    frame = cv2.resize(board, (1280, 720))
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return data.tobytes()


def time_commits(path: Path, records: list[TurnRecord], commits: int, *,
                 snapshot: bytes | None = None, synchronous: str = "FULL",
                 bar: Progress | None = None) -> list[float]:
    """Milliseconds per commit_turn, matches of len(records) turns one after another;
    ``bar`` counts the commits."""
    store = MatchStore(path, snapshots=snapshot is not None)
    if synchronous != "FULL":
        assert store._conn is not None
        store._conn.execute(f"PRAGMA synchronous = {synchronous}")  # scale reference only
    times: list[float] = []
    while len(times) < commits:
        match_id = store.begin_match(Position.start())
        for record in records:
            if len(times) == commits:
                break
            t0 = time.perf_counter()
            store.commit_turn(match_id, record, snapshot)
            times.append((time.perf_counter() - t0) * 1000)
            if bar is not None:  # after the timed call
                bar.update()
        store.finish_match(match_id, Result.DRAW)
    store.close()
    return times


def time_events(path: Path, n: int, bar: Progress | None = None) -> list[float]:
    store = MatchStore(path)
    match_id = store.begin_match(Position.start())
    times = []
    for k in range(n):
        t0 = time.perf_counter()
        store.record_event(match_id, DieRoll(k % 6 + 1, DieSource.ELECTRONIC))
        times.append((time.perf_counter() - t0) * 1000)
        if bar is not None:  # after the timed call
            bar.update()
    store.close()
    return times


def build_store(path: Path, seeds: list[Match], total: int) -> float:
    """``total`` matches: ``seeds`` stored through the API, then copied in SQL. Seconds."""
    t0 = time.perf_counter()
    with MatchStore(path) as store:
        store.add_matches(seeds)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # building the test bed, not measuring it
    count = len(seeds)
    while count < total:
        k = min(count, total - count)  # copy matches 1..k as count+1..count+k
        conn.execute("BEGIN")
        conn.execute("INSERT INTO matches (id, game, variant, players, start, started_at, "
                     "ended_at, result, tags, turn_count) SELECT id + ?, game, variant, "
                     "players, start, started_at, ended_at, result, tags, turn_count "
                     "FROM matches WHERE id <= ?", (count, k))
        conn.execute("INSERT INTO turns SELECT match_id + ?, turn_no, moves, position, "
                     "time_ms, committed_at, side, pole_markers, port_markers FROM turns "
                     "WHERE match_id <= ?", (count, k))
        conn.execute("INSERT INTO events (match_id, turn_no, at, kind, data) SELECT "
                     "match_id + ?, turn_no, at, kind, data FROM events WHERE match_id <= ? "
                     "ORDER BY id", (count, k))
        conn.execute("COMMIT")
        count += k
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return time.perf_counter() - t0


def time_reads(path: Path, total: int, repeats: int, rng: random.Random,
               bar: Progress | None = None) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"open": [], "list": [], "get": [], "total": [],
                                   "list_20": []}
    for _ in range(repeats):
        match_id = MatchId(rng.randint(1, total))
        t0 = time.perf_counter()
        store = MatchStore(path, create=False)
        t1 = time.perf_counter()
        listed = store.list_matches()
        t2 = time.perf_counter()
        match = store.get_match(match_id)
        t3 = time.perf_counter()
        store.list_matches(limit=20)
        t4 = time.perf_counter()
        store.close()
        assert len(listed) == total and match.turns
        out["open"].append((t1 - t0) * 1000)
        out["list"].append((t2 - t1) * 1000)
        out["get"].append((t3 - t2) * 1000)
        out["total"].append((t3 - t0) * 1000)
        out["list_20"].append((t4 - t3) * 1000)
        if bar is not None:  # between repeats
            bar.update()
    return out


def time_cli(path: Path, repeats: int, bar: Progress | None = None) -> list[float]:
    times = []
    for k in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "matches", "show", str(k + 1),
                        "--db", str(path)], stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
        times.append((time.perf_counter() - t0) * 1000)
        if bar is not None:  # between runs
            bar.update()
    return times


def line(label: str, s: dict[str, float]) -> str:
    return (f"  {label:<48} median {s['median']:7.2f}  p90 {s['p90']:7.2f}  "
            f"p99 {s['p99']:7.2f}  max {s['max']:7.2f} ms  (n={s['n']})")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sample (smoke run)")
    ap.add_argument("--commits", type=int, help="timed commits per row (default 2000)")
    ap.add_argument("--matches", type=int, default=10_000, help="matches in the big store")
    ap.add_argument("--turns", type=int, default=60, help="turns per match in the big store")
    ap.add_argument("--repeats", type=int, help="list+open repeats (default 30)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--dir", type=Path, help="where to put the store files")
    ap.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")
    args = ap.parse_args(argv)
    commits = args.commits or (300 if args.quick else 2000)
    repeats = args.repeats or (10 if args.quick else 30)
    rng = random.Random(args.seed)
    report: dict[str, Any] = {"machine": {"platform": platform.platform(),
                                          "cpus": os.cpu_count(),
                                          "python": platform.python_version(),
                                          "sqlite": sqlite3.sqlite_version}}
    print(f"match log benchmark: {platform.platform()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}, seed {args.seed}")

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        progress("generating random legal matches ...")
        n_seeds = 10 if args.quick else 40
        with Progress("generating matches", n_seeds, unit="match") as bar:
            seeds = [random_match(rng, args.turns) for _ in bar.track(range(n_seeds))]
        records = [t for m in seeds for t in m.turns][:args.turns]
        jpeg = snapshot_jpeg()

        progress(f"timing {commits} commits per row ...")
        rows: list[tuple[str, str, Callable[[Progress], list[float]]]] = [
            ("commit_full", "commit_turn, synchronous=FULL (durable)",
             lambda bar: time_commits(tmp / "c1.sqlite3", records, commits, bar=bar)),
            ("commit_full_snapshot", f"... with a {len(jpeg) // 1024} KB JPEG snapshot",
             lambda bar: time_commits(tmp / "c2.sqlite3", records, commits, snapshot=jpeg,
                                      bar=bar)),
            ("record_event", "record_event (die roll), synchronous=FULL",
             lambda bar: time_events(tmp / "c3.sqlite3", commits, bar)),
            ("commit_normal", "commit_turn, synchronous=NORMAL (not durable)",
             lambda bar: time_commits(tmp / "c4.sqlite3", records, commits,
                                      synchronous="NORMAL", bar=bar)),
        ]
        print("\nWriting (WAL journal; each call is one transaction):")
        for key, label, fn in rows:
            # the bar is wiped before the row's line is printed
            with Progress(f"timing {key}", commits, unit="call") as bar:
                times = fn(bar)
            s = summary(times)
            report[key] = s
            print(line(label, s))
        ok = report["commit_full"]["median"] < TARGET_COMMIT_MS
        print(f"  target: durable commit_turn median < {TARGET_COMMIT_MS:g} ms: {verdict(ok)}")

        progress(f"building a {args.matches}-match store ...")
        big = tmp / "big.sqlite3"
        build_s = build_store(big, seeds, args.matches)
        turns = sum(len(m.turns) for m in seeds) / len(seeds)
        size_mb = big.stat().st_size / 1e6
        report["store"] = {"matches": args.matches, "turns_per_match": turns,
                           "build_s": build_s, "size_mb": size_mb}
        print(f"\nReading a store of {args.matches:,} matches ({turns:.0f} turns each on "
              f"average, {size_mb:.0f} MB; built in {build_s:.1f} s), {repeats} repeats, "
              "fresh MatchStore each time:")
        with Progress("timing reads", repeats, unit="repeat") as bar:
            reads = time_reads(big, args.matches, repeats, rng, bar)
        for key, label in (("open", "open the store (checks, pragmas)"),
                           ("list", f"list_matches() (all {args.matches:,})"),
                           ("get", "get_match(random id): all turns and events"),
                           ("total", "open + list + get_match"),
                           ("list_20", "list_matches(limit=20)")):
            s = summary(reads[key])
            report[f"read_{key}"] = s
            print(line(label, s))
        ok = report["read_total"]["median"] < TARGET_LIST_OPEN_MS
        print(f"  target: list and open a match < {TARGET_LIST_OPEN_MS:g} ms: {verdict(ok)}")
        runs = 3 if args.quick else 5
        with Progress("timing `matches show`", runs, unit="run") as bar:
            cli = summary(time_cli(big, runs, bar))
        report["cli_show"] = cli
        print(line("`companion matches show ID` (incl. Python start-up)", cli))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
