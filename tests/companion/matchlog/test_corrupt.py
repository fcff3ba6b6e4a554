"""Corrupt and truncated store files (issue 6): a clear error naming the file, which is never
rewritten."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from companion.commands.main import main
from companion.matchlog import MatchId, MatchStore, StoreCorruptError
from companion.matchlog.export import export_text
from tests.companion.matchlog.helpers import file_state, random_match, record


def full_store(path: Path, matches: int = 6) -> None:
    with MatchStore(path) as store:  # closing checkpoints the WAL into the file
        for seed in range(matches):
            record(store, random_match(seed, 25))
    assert not Path(f"{path}-wal").exists()


@pytest.fixture(scope="module")
def good_store(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("good") / "m.sqlite3"
    full_store(path)
    data = path.read_bytes()
    assert len(data) >= 8 * 4096, "the store should span several pages"
    return data


def refused(path: Path, pattern: str) -> None:
    before = file_state(path)
    with pytest.raises(StoreCorruptError) as info, MatchStore(path) as store:
        for summary in store.list_matches():
            store.get_match(summary.id)
        assert store.integrity_check() == [], "a damaged file read without an error"
    message = str(info.value)
    assert str(path) in message and pattern in message, message
    assert file_state(path) == before, "a refused file was written to"


@pytest.mark.parametrize("keep", [50, 100, 4096, 0.5, -4096])
def test_truncated_file_is_refused_naming_it(tmp_path: Path, good_store: bytes,
                                             keep: float) -> None:
    size = len(good_store)
    cut = int(size * keep) // 4096 * 4096 if isinstance(keep, float) else (
        keep if keep > 0 else size + keep)
    path = tmp_path / "cut.sqlite3"
    path.write_bytes(good_store[:cut])
    refused(path, "truncated")


def test_file_that_is_not_sqlite_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: milk, eggs\n" * 20)
    refused(path, "not an SQLite database")


def test_damaged_pages_are_reported_as_corrupt_not_rewritten(tmp_path: Path,
                                                             good_store: bytes) -> None:
    data = bytearray(good_store)
    for page in (2, 3, 5):  # tables' and indexes' b-tree pages
        data[page * 4096 - 4096:page * 4096] = bytes(range(256)) * 16
    path = tmp_path / "damaged.sqlite3"
    path.write_bytes(bytes(data))
    refused(path, "corrupt")


def test_damaged_header_is_refused(tmp_path: Path, good_store: bytes) -> None:
    data = bytearray(good_store)
    data[16:18] = b"\x00\x03"  # page size 3
    path = tmp_path / "header.sqlite3"
    path.write_bytes(bytes(data))
    refused(path, "page size 3")


def test_empty_file_becomes_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()  # nothing in it to lose: as SQLite itself treats it
    with MatchStore(path) as store:
        assert store.list_matches() == []


def test_a_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreCorruptError, match="is a directory"):
        MatchStore(tmp_path)


def test_cli_reports_a_corrupt_store_in_one_line_with_exit_2(
        tmp_path: Path, good_store: bytes, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(export_text(random_match(1, 2))))
    path = tmp_path / "cut.sqlite3"
    path.write_bytes(good_store[:len(good_store) // 2])
    before = file_state(path)
    for args in (["list"], ["show", "1"], ["export", "1"], ["replay", "1", "--all"],
                 ["import", "-"]):
        assert main(["matches", *args, "--db", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, err
        assert str(path) in err and "truncated" in err
    assert file_state(path) == before


def test_good_store_reads_back(tmp_path: Path, good_store: bytes) -> None:
    path = tmp_path / "ok.sqlite3"
    path.write_bytes(good_store)
    with MatchStore(path) as store:
        assert len(store.list_matches()) == 6
        assert len(store.get_match(MatchId(6)).turns) > 0
        assert store.integrity_check() == []


def test_a_store_whose_log_a_killed_writer_left_opens(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18 ("nothing the user recorded is ever lost"): after a SIGKILL, SQLite may have
    to recover the store's write-ahead log before a read-only connection can read it, and
    refuses ("attempt to write a readonly database"). The store is in WAL mode already, so
    it is read as any reader would: its matches are there. A file not in WAL mode that
    fails so is still refused, unchanged."""
    import sqlite3

    import companion.matchlog.schema as schema

    path = tmp_path / "m.sqlite3"
    full_store(path, matches=2)
    real = sqlite3.connect

    class NeedsRecovery:
        def execute(self, *_: object) -> None:
            raise sqlite3.OperationalError("attempt to write a readonly database")

        def close(self) -> None:
            pass

    def connect(database: str, *args: object, **kwargs: object) -> object:
        if "mode=ro" in str(database):
            return NeedsRecovery()
        return real(database, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(schema.sqlite3, "connect", connect)
    with MatchStore(path) as store:
        assert len(store.list_matches()) == 2
    other = tmp_path / "other.sqlite3"
    conn = real(other)
    conn.execute("CREATE TABLE t (x)")  # another application's file, rollback journal
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(StoreCorruptError, match="readonly"):
        MatchStore(other)
    assert other.read_bytes() == before


def test_a_read_only_store_is_said_to_be_read_only_not_corrupt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18, silent wrong answers: "A read-only store is reported as corrupt". A sound
    store this user (or a read-only disk) may not write is named read-only, with what to do;
    its content is untouched. (These machines run as root, which file permissions do not
    stop: SQLite's own refusal stands in for them.)"""
    import sqlite3

    import companion.matchlog.schema as schema
    from companion.commands.main import main

    path = tmp_path / "m.sqlite3"
    full_store(path, matches=2)
    before = path.read_bytes()
    real = sqlite3.connect

    class ReadOnly:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def execute(self, sql: str, *args: object) -> object:
            if sql.lstrip().upper().startswith("PRAGMA JOURNAL_MODE"):
                raise sqlite3.OperationalError("attempt to write a readonly database")
            return self.conn.execute(sql, *args)

        def close(self) -> None:
            self.conn.close()

    def connect(database: object, *args: object, **kwargs: object) -> object:
        conn = real(database, *args, **kwargs)  # type: ignore[arg-type]
        return conn if "mode=ro" in str(database) else ReadOnly(conn)

    monkeypatch.setattr(schema.sqlite3, "connect", connect)
    assert main(["matches", "list", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is read-only here" in err and "corrupt" not in err
    assert path.read_bytes() == before
