"""Readers while a match is written (issue 6): the match list and replays keep working, never
block the referee, and always see whole committed turns."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import traceback
from pathlib import Path

from companion.matchlog import MatchStore
from tests.companion.matchlog import crash_writer

ROOT = Path(__file__).resolve().parents[3]
READERS = 3
TURNS = 300


def test_concurrent_readers_see_consistent_growing_matches(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    MatchStore(path).close()  # readers open it while the writer is still starting
    writer = subprocess.Popen(
        [sys.executable, str(Path(crash_writer.__file__)), str(path), "--turns", str(TURNS)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT)
    errors: list[BaseException] = []
    traces: list[str] = []
    reads = [0] * READERS

    def read(k: int) -> None:
        try:
            seen_total = 0
            with MatchStore(path) as store:
                while True:  # at least once, then as long as the writer runs
                    running = writer.poll() is None
                    summaries = store.list_matches()
                    total = sum(s.turns for s in summaries)
                    assert total >= seen_total, "committed turns disappeared"
                    seen_total = total
                    for s in summaries[-2:]:
                        match = store.get_match(s.id)  # one snapshot: turns and events agree
                        assert len(match.turns) >= s.turns
                        position = match.start
                        for n, turn in enumerate(match.turns, 1):
                            assert turn == crash_writer.expected_turn(s.id, n, position)
                            position = turn.position
                    reads[k] += running
                    if not running:
                        break
        except BaseException as exc:  # reported in the test's own thread, with its trace
            errors.append(exc)
            traces.append(traceback.format_exc())

    threads = [threading.Thread(target=read, args=(k,)) for k in range(READERS)]
    for t in threads:
        t.start()
    out, _ = writer.communicate(timeout=120)
    for t in threads:
        t.join(60)
    assert writer.returncode == 0
    assert not errors, traces[0]
    assert out.count("\nturn ") == TURNS
    # the readers really ran alongside the writer (how often depends on the machine's load:
    # a loaded one may start a reader only as the writer ends; once in all proves it)
    assert sum(reads) >= 1, reads
    with MatchStore(path) as store:
        assert sum(s.turns for s in store.list_matches()) == TURNS
        assert store.integrity_check() == []
