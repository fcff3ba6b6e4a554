"""A referee stand-in for the crash and concurrency tests: records matches as fast as it can.

    python3 crash_writer.py DB [--turns N]

It resumes the store's unfinished match if there is one, else begins a new one; commits turns
(each with a JPEG-sized snapshot, every 7th preceded by a die roll), finishes a match after
``TURNS_PER_MATCH`` turns and begins the next. After each write returns it prints what it
confirmed (``turn MATCH N``, ``event MATCH ID``, ``finish MATCH``), flushed, exactly as the
referee confirms a turn only once ``commit_turn`` has returned. The content of every record is
a function of (match, turn), so the test can check what survived.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.matchlog import (  # noqa: E402
    DieRoll,
    DieSource,
    MatchStore,
    Result,
    TurnRecord,
)
from companion.rules.teleporters import Position, end_turn  # noqa: E402

TURNS_PER_MATCH = 25
EPOCH = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
MOVES = (("Pd1-d3",), ("Pc1-c2", "Vb2sw-b4"), ())


def expected_turn(match_id: int, n: int, position: Position) -> TurnRecord:
    """What turn ``n`` of match ``match_id`` holds (the test checks this)."""
    return TurnRecord(position.to_move, MOVES[(match_id + n) % len(MOVES)],
                      end_turn(position), (match_id * 1000 + n) / 1000,
                      EPOCH + timedelta(seconds=n), pole_markers=1)


def expected_snapshot(match_id: int, n: int) -> bytes:
    return b"\xff\xd8\xff" + bytes([(match_id + n) % 256]) * (20_000 + 97 * n)


def main(argv: list[str]) -> int:
    db = argv[0]
    limit = int(argv[argv.index("--turns") + 1]) if "--turns" in argv else None
    store = MatchStore(db, snapshots=True)
    print("ready", flush=True)
    committed = 0
    while limit is None or committed < limit:
        unfinished = store.unfinished_matches()
        if unfinished:
            point = store.resume(unfinished[-1].id)
            match_id, n, position = point.match.id, point.turn, point.position
            assert match_id is not None
        else:
            position = Position.start()
            match_id = store.begin_match(position, {"south": "S", "north": "N"}, started_at=EPOCH)
            print(f"begin {match_id}", flush=True)
            n = 1
        while n <= TURNS_PER_MATCH and (limit is None or committed < limit):
            if n % 7 == 0:
                event_id = store.record_event(match_id, DieRoll(n % 6 + 1, DieSource.CAMERA))
                print(f"event {match_id} {event_id}", flush=True)
            record = expected_turn(match_id, n, position)
            assert store.commit_turn(match_id, record, expected_snapshot(match_id, n)) == n
            print(f"turn {match_id} {n}", flush=True)  # the referee's confirmation
            committed += 1
            position = record.position
            n += 1
        if n > TURNS_PER_MATCH:
            store.finish_match(match_id, Result.DRAW)
            print(f"finish {match_id}", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
