"""Schema versions (issue 6): a version 1 file migrates forward; a newer or foreign file is
refused with a clear error and left byte for byte as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.matchlog import (
    SCHEMA_VERSION,
    DieRoll,
    DieSource,
    MatchId,
    MatchLogError,
    MatchStore,
    Result,
    StoreCorruptError,
    StoreVersionError,
    TurnRecord,
)
from companion.matchlog.schema import APPLICATION_ID
from companion.rules.teleporters import Position, Side
from tests.companion.matchlog.helpers import file_state

# Version 1 exactly as it shipped, frozen here (not read from the code under test).
V1_SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
CREATE TABLE matches (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, players TEXT NOT NULL,
    start TEXT NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER, result TEXT);
CREATE TABLE turns (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    turn_no INTEGER NOT NULL, moves TEXT NOT NULL, position TEXT NOT NULL,
    time_ms INTEGER NOT NULL, committed_at INTEGER NOT NULL,
    PRIMARY KEY (match_id, turn_no)) WITHOUT ROWID;
PRAGMA user_version = 1;
"""
T0 = 1_778_320_800_000  # 2026-05-09T10:00:00Z in ms


def v1_file(path: Path, extra_sql: str = "") -> list[TurnRecord]:
    """A version 1 store holding a finished match of three turns and an unfinished one."""
    start = Position.start()
    t1 = TurnRecord.played(start, ["Pd1-d3", "Vc3sw-c5"], 41.2)
    t2 = TurnRecord.played(t1.position, ["Vb7nw-b4", "Pd8-d6"], 30)
    t3 = TurnRecord.played(t2.position, [], 2.5)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(V1_SCHEMA + extra_sql)
    conn.execute("INSERT INTO matches VALUES (1, 'teleporters', '{}', "
                 "'{\"south\": \"Ann\", \"north\": \"Ben\"}', ?, ?, ?, 'south')",
                 (start.to_text(), T0, T0 + 600_000))
    conn.execute("INSERT INTO matches VALUES (2, 'teleporters', '{}', '{}', ?, ?, NULL, NULL)",
                 (start.to_text(), T0 + 900_000))
    for n, t in enumerate((t1, t2, t3), 1):
        conn.execute("INSERT INTO turns VALUES (1, ?, ?, ?, ?, ?)",
                     (n, " ".join(t.moves), t.position.to_text(), round(t.seconds * 1000),
                      T0 + n * 60_000))
    conn.commit()
    conn.close()
    return [t1, t2, t3]


def test_version_1_store_migrates_to_the_current_version_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    turns = v1_file(path)
    store = MatchStore(path, snapshots=True)
    conn = store._conn
    assert conn is not None
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    match = store.get_match(MatchId(1))
    assert match.players == {"south": "Ann", "north": "Ben"} and match.result is Result.SOUTH
    assert [t.moves for t in match.turns] == [t.moves for t in turns]
    # Filled in by the migration: who moved, and the markers each turn used.
    assert [t.side for t in match.turns] == [Side.SOUTH, Side.NORTH, Side.SOUTH]
    assert [(t.pole_markers, t.port_markers) for t in match.turns] == [(1, 1), (1, 1), (0, 0)]
    assert [(t.pole_markers, t.port_markers) for t in match.turns] == [
        (t.pole_markers, t.port_markers) for t in turns]
    assert [s.turns for s in store.list_matches()] == [3, 0]
    # What version 1 lacked now works on the migrated file.
    assert [m.id for m in store.unfinished_matches()] == [2]
    store.record_event(MatchId(2), DieRoll(6, DieSource.TYPED))
    store.commit_turn(MatchId(2), TurnRecord.played(Position.start(), ["Pd1-d3"], 1),
                      snapshot=b"\xff\xd8\xff\x00")
    assert store.snapshot(MatchId(2), 1) == b"\xff\xd8\xff\x00"
    assert store.integrity_check() == []
    store.close()


def test_fresh_and_migrated_stores_have_the_same_schema(tmp_path: Path) -> None:
    v1_file(tmp_path / "old.sqlite3")
    MatchStore(tmp_path / "old.sqlite3").close()
    MatchStore(tmp_path / "new.sqlite3").close()

    def schema(path: Path) -> list[object]:
        """Columns (name, type, not null, default, key) of every table, and the indexes."""
        conn = sqlite3.connect(path)
        objects = conn.execute("SELECT type, name, tbl_name FROM sqlite_master "
                               "ORDER BY name").fetchall()
        out: list[object] = [
            (kind, name, table, conn.execute(f"PRAGMA table_info({name})").fetchall()
             if kind == "table" else conn.execute(f"PRAGMA index_info({name})").fetchall())
            for kind, name, table in objects]
        out.append(conn.execute("PRAGMA foreign_key_list(turns)").fetchall())
        out.append(conn.execute("PRAGMA user_version").fetchone())
        conn.close()
        return out

    assert schema(tmp_path / "old.sqlite3") == schema(tmp_path / "new.sqlite3")


def test_a_failed_migration_leaves_the_version_1_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    v1_file(path, "CREATE TABLE events (x);")  # someone's own table in the way
    with pytest.raises(StoreCorruptError, match="table events already exists"):
        MatchStore(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM turns").fetchone()[0] == 3
    assert "turn_count" not in [r[1] for r in conn.execute("PRAGMA table_info(matches)")]
    conn.close()


def test_newer_version_is_refused_clearly_and_the_file_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    MatchStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = file_state(path)
    with pytest.raises(StoreVersionError) as info:
        MatchStore(path)
    message = str(info.value)
    assert str(path) in message and f"schema version {SCHEMA_VERSION + 1}" in message
    assert "upgrade" in message and "not changed" in message
    assert file_state(path) == before


def test_another_sqlite_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text)")
    conn.commit()
    conn.close()
    before = file_state(path)
    with pytest.raises(StoreCorruptError, match="an SQLite database but not a match store"):
        MatchStore(path)
    assert file_state(path) == before
    with pytest.raises(MatchLogError):  # a StoreCorruptError is a MatchLogError: one catch
        MatchStore(path)
