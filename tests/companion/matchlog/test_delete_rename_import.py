"""Issue 21, `matches`: "`delete` (with confirmation, or `--yes`) and `rename`. Import
recognises a match it already holds (same moves, same times) and says so instead of
duplicating" / "Importing the same export twice leaves one match". Nothing the user recorded
is ever lost: a delete removes the match named and nothing else, in one transaction."""

from __future__ import annotations

import io
import os
import pty
import select
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from companion.commands.main import main
from companion.matchlog import (
    Match,
    MatchId,
    MatchLogError,
    MatchNotFoundError,
    MatchStore,
    Note,
    Result,
    TurnRecord,
)
from companion.matchlog.export import export_json_text, export_text, load_matches
from companion.matchlog.model import MAX_NAME, NAME_TAG, Event
from tests.companion.matchlog.helpers import random_match, record

ROOT = Path(__file__).resolve().parents[3]
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64


def everything(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as SQLite holds them: what "nothing else changed" means."""
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall()) for t in tables}


@pytest.fixture
def full(tmp_path: Path) -> Path:
    """Three matches with events and snapshots, and a quest find."""
    path = tmp_path / "m.sqlite3"
    with MatchStore(path, snapshots=True) as store:
        for seed in (4, 9, 11):
            match = random_match(seed, 6, tags={"Event": "club"}, events=False)
            match_id = record(store, replace(match, turns=match.turns[:-1], ended_at=None,
                                             result=None))
            store.commit_turn(match_id, match.turns[-1], snapshot=JPEG)
            store.record_event(match_id, Note("after the last turn"))
        store.record_quest_find("Ann", "queens", 3, "a1-b3-c5")
    return path


# -- delete ------------------------------------------------------------------------------------


def rows(path: Path, match_id: int, *, of: bool) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table that belongs to match ``match_id`` (``of``) or not."""
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = {}
        for t in tables:
            column = {"matches": "id", "quest_finds": "NULL"}.get(t, "match_id")
            test = f"{column} = ?" if of else f"{column} IS NOT ?"
            found[t] = sorted(conn.execute(f"SELECT * FROM {t} WHERE {test}", (match_id,)))
        return found


def test_delete_removes_the_match_named_and_nothing_else(full: Path) -> None:
    others, its = rows(full, 2, of=False), rows(full, 2, of=True)
    assert all(its[t] for t in ("matches", "turns", "events", "snapshots")), its
    assert others["quest_finds"] and all(others[t] for t in its)
    with MatchStore(full) as store:
        kept = {i: store.get_match(MatchId(i)) for i in (1, 3)}
        store.delete_match(MatchId(2))
        assert [s.id for s in store.list_matches()] == [1, 3]
        assert {i: store.get_match(MatchId(i)) for i in (1, 3)} == kept
        assert store.snapshots_of(MatchId(1)) == {6: JPEG}
        assert store.integrity_check() == []
        with pytest.raises(MatchNotFoundError, match="no match 2 in"):
            store.get_match(MatchId(2))
    assert everything(full) == others  # every other row, byte for byte


def test_delete_is_one_transaction(full: Path) -> None:
    """A delete that fails at its last step (here a trigger refuses the match row) leaves
    every turn, event and snapshot of the match where it was."""
    before = everything(full)
    with sqlite3.connect(full) as conn:
        conn.execute("CREATE TRIGGER keep BEFORE DELETE ON matches "
                     "BEGIN SELECT RAISE(ABORT, 'refused by test'); END")
    with MatchStore(full) as store:
        with pytest.raises(MatchLogError, match="refused by test"):
            store.delete_match(MatchId(2))
        assert len(store.get_match(MatchId(2)).turns) == 6
    assert everything(full) == before


@pytest.mark.parametrize("bad", [True, "2", 2.0, None])
def test_delete_and_rename_take_a_match_id_only(full: Path, bad: object) -> None:
    before = everything(full)
    with MatchStore(full) as store:
        with pytest.raises(MatchLogError, match=repr(bad).replace(".", r"\.")):
            store.delete_match(bad)  # type: ignore[arg-type]
        with pytest.raises(MatchLogError, match=repr(bad).replace(".", r"\.")):
            store.rename_match(bad, "x")  # type: ignore[arg-type]
    assert everything(full) == before


def test_delete_of_no_such_match_names_it(full: Path) -> None:
    with MatchStore(full) as store, pytest.raises(MatchNotFoundError, match="no match 7 in"):
        store.delete_match(MatchId(7))


def test_cli_delete_with_yes(full: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", "delete", "2", "--yes", "--db", str(full)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("deleted match 2: Ann (south) v Ben (north), started ")
    assert "6 turns, unfinished" in out and err == ""
    with MatchStore(full) as store:
        assert [s.id for s in store.list_matches()] == [1, 3]


def test_cli_delete_without_a_terminal_needs_yes(full: Path) -> None:
    """Issue 21: no terminal and no --yes: exit 2, one line saying to pass --yes; nothing
    deleted (a script never deletes by accident)."""
    before = everything(full)
    for stdin in (subprocess.DEVNULL, subprocess.PIPE):
        done = subprocess.run([sys.executable, "-m", "companion", "matches", "delete", "2",
                               "--db", str(full)], stdin=stdin, capture_output=True,
                              text=True, cwd=ROOT, timeout=60, check=False)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "pass --yes" in done.stderr
        assert done.stderr.startswith("companion matches delete: ")
    assert everything(full) == before


class Terminal(io.StringIO):
    """Standard input at a terminal, the user typing ``typed``."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("typed", "deleted"), [
    ("y\n", True), ("YES\n", True), (" yes \n", True),
    ("n\n", False), ("\n", False), ("", False), ("yep\n", False), ("delete\n", False),
])
def test_cli_delete_asks_at_a_terminal(full: Path, typed: str, deleted: bool,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: on a terminal it shows the match and asks; only y or yes deletes."""
    before = everything(full)
    monkeypatch.setattr(sys, "stdin", Terminal(typed))
    assert main(["matches", "delete", "3", "--db", str(full)]) == 0
    out, err = capsys.readouterr()
    assert "delete match 3: Ann (south) v Ben (north), started " in err
    assert "cannot be undone" in err and "[y/N]" in err
    with MatchStore(full) as store:
        assert [s.id for s in store.list_matches()] == ([1, 2] if deleted else [1, 2, 3])
    if deleted:
        assert out.startswith("deleted match 3: ")
    else:
        assert out == "" and "match 3 kept: nothing deleted" in err
        assert everything(full) == before


def test_cli_delete_at_a_real_terminal(full: Path) -> None:
    """The real command with a pseudo-terminal as its standard input: asked, answered."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: companion on a terminal
        try:
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "companion", "matches", "delete",
                                      "1", "--db", str(full)])
        finally:
            os._exit(127)  # never back into pytest
    seen, end = "", time.monotonic() + 30
    try:
        while "[y/N]" not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                seen += os.read(fd, 65536).decode()
        assert "delete match 1: " in seen
        os.write(fd, b"y\n")
        while "deleted match 1" not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536).decode()
                except OSError:
                    break
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0 and "deleted match 1" in seen
    with MatchStore(full) as store:
        assert [s.id for s in store.list_matches()] == [2, 3]


# -- rename ------------------------------------------------------------------------------------


def test_rename_names_the_match_and_keeps_its_other_tags(full: Path) -> None:
    with MatchStore(full) as store:
        before = store.get_match(MatchId(2))
        assert store.rename_match(MatchId(2), "  Club final, round 2  ") == "Club final, round 2"
        after = store.get_match(MatchId(2))
        assert after.tags == {"Event": "club", NAME_TAG: "Club final, round 2"}
        assert replace(after, tags=before.tags) == before  # nothing else changed
        assert [s.name for s in store.list_matches()] == [None, "Club final, round 2", None]
        store.rename_match(MatchId(2), "Final")
        assert store.get_match(MatchId(2)).tags[NAME_TAG] == "Final"
        # the name travels with the match in both export forms
        for text in (export_text(store.get_match(MatchId(2))),
                     export_json_text(store.get_match(MatchId(2)))):
            assert load_matches(text, "x")[0][0].tags[NAME_TAG] == "Final"


@pytest.mark.parametrize(("name", "says"), [
    ("", "not a space"),
    ("   ", "not a space"),
    ("x" * (MAX_NAME + 1), f"at most {MAX_NAME} characters"),
    ("Final\x1b[2J", "control characters"),
    ("two\nlines", "control characters"),
    (7, "must be text"),
])
def test_a_name_is_short_printable_text(full: Path, name: object, says: str) -> None:
    before = everything(full)
    with MatchStore(full) as store, pytest.raises(MatchLogError, match=says):
        store.rename_match(MatchId(1), name)  # type: ignore[arg-type]
    assert everything(full) == before


def test_cli_rename_and_list(full: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", "rename", "1", "Ann's first win", "--db", str(full)]) == 0
    assert capsys.readouterr().out == 'match 1 is now named "Ann\'s first win"\n'
    assert main(["matches", "list", "--db", str(full)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith('Ann (south) v Ben (north)  "Ann\'s first win"')
    assert lines[2].endswith("Ann (south) v Ben (north)")
    assert main(["matches", "show", "1", "--db", str(full)]) == 0
    assert "Name: Ann's first win" in capsys.readouterr().out
    for argv, says in ((["rename", "9", "x"], "no match 9 in"),
                       (["rename", "1", " "], "a match name needs a character"),
                       (["rename", "1", "a\x07b"], "control characters")):
        assert main(["matches", *argv, "--db", str(full)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and says in err
        assert err.startswith("companion matches rename: ")


# -- import of a match already held ------------------------------------------------------------


def test_importing_the_same_export_twice_leaves_one_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: "Importing the same export twice leaves one match", in either form, and an
    export of a match the store itself holds is recognised too."""
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as store:
        record(store, random_match(4, 6))
        original = store.get_match(MatchId(1))
    for fmt in ("text", "json"):
        out = tmp_path / f"m1.{fmt}"
        assert main(["matches", "export", "1", "--db", str(path), "--format", fmt,
                     "--out", str(out)]) == 0
        capsys.readouterr()
        for db in (path, tmp_path / f"other-{fmt}.sqlite3", tmp_path / f"other-{fmt}.sqlite3"):
            before = everything(db) if db.exists() else None
            assert main(["matches", "import", str(out), "--db", str(db)]) == 0
            said = capsys.readouterr().out
            with MatchStore(db) as store:
                assert [s.id for s in store.list_matches()] == [1]
                assert store.get_match(MatchId(1)) == original
            if before is None:
                assert said == f"imported match 1 (6 turns) from {out}\n"
            else:
                assert said == (f"already in the store as match 1 (same moves, same times): "
                                f"not imported again from {out}\n")
                assert everything(db) == before


def test_an_export_holding_the_same_match_twice_stores_it_once(tmp_path: Path) -> None:
    match = random_match(9, 5)
    text = export_text(match) + "\n" + export_text(match)
    loaded = load_matches(text, "twice.txt")
    assert len(loaded) == 2
    with MatchStore(tmp_path / "m.sqlite3") as store:
        done = store.import_matches(loaded)
        assert [(d.id, d.new) for d in done] == [(1, True), (1, False)]
        assert len(store.list_matches()) == 1


def _later(match: Match, turn: int, ms: int) -> Match:
    turns = list(match.turns)
    turns[turn] = replace(turns[turn],
                          committed_at=turns[turn].committed_at + timedelta(milliseconds=ms))
    return replace(match, turns=tuple(turns))


BASE = random_match(11, 6)
assert len(BASE.turns) == 6 and BASE.result is None
# Each is another match (not the one held): a move, a time, the start, one turn more or less.
OTHER_MATCHES = {
    "a turn committed 1 ms later": _later(BASE, 2, 1),
    "a turn that took 1 ms longer": replace(BASE, turns=(
        *BASE.turns[:3], replace(BASE.turns[3], seconds=BASE.turns[3].seconds + 0.001),
        *BASE.turns[4:])),
    "started 1 ms later": replace(BASE, started_at=BASE.started_at + timedelta(milliseconds=1)),
    "one turn fewer": replace(BASE, turns=BASE.turns[:-1], events=()),
    "a pass for the first turn": replace(BASE, turns=(
        TurnRecord.played(BASE.start, [], BASE.turns[0].seconds, BASE.turns[0].committed_at),
        *BASE.turns[1:])),
    "another start (the other side to move)": replace(BASE, start=BASE.start.replace(
        to_move=BASE.start.to_move.opponent)),
}
# The same match (same moves, same times) with something else added or changed: held.
SAME_PLAY = {
    "as it was": (BASE, ()),
    "other players": (replace(BASE, players={"south": "Cy", "north": "Di"}), ("players",)),
    "a name": (replace(BASE, tags={NAME_TAG: "Final"}), ("tags",)),
    "finished since": (replace(BASE, result=Result.DRAW,
                               ended_at=BASE.turns[-1].committed_at + timedelta(seconds=3)),
                       ("result",)),
    "another note": (replace(BASE, events=(*BASE.events, Event(
        7, BASE.turns[-1].committed_at, Note("tea")))), ("events",)),
}


@pytest.mark.parametrize("what", OTHER_MATCHES)
def test_a_match_with_other_moves_or_times_is_imported(tmp_path: Path, what: str) -> None:
    other = OTHER_MATCHES[what]
    assert other != BASE
    with MatchStore(tmp_path / "m.sqlite3") as store:
        record(store, BASE)
        done = store.import_matches([other])
        assert [(d.id, d.new) for d in done] == [(2, True)], what
        assert store.get_match(MatchId(2)) == other


@pytest.mark.parametrize("what", SAME_PLAY)
def test_the_same_moves_and_times_are_held_whatever_else_differs(tmp_path: Path,
                                                                  what: str) -> None:
    """Held: not stored again, the stored match left as it was, and what differs said."""
    same, differs = SAME_PLAY[what]
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as store:
        record(store, BASE)
    before = everything(path)
    with MatchStore(path) as store:
        done = store.import_matches([same])
        assert [(d.id, d.new, d.differs) for d in done] == [(1, False, differs)]
        assert store.get_match(MatchId(1)) == BASE
    assert everything(path) == before


def test_snapshots_the_held_match_lacks_are_said(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite3") as store:
        record(store, BASE)
        assert store.import_matches([(BASE, {2: JPEG})])[0].differs == ("snapshots",)
        assert store.snapshots_of(MatchId(1)) == {}


def test_cli_says_what_the_held_match_has_otherwise(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as store:
        record(store, BASE)
    export = tmp_path / "renamed.txt"
    export.write_text(export_text(replace(BASE, tags={NAME_TAG: "Final"})), encoding="utf-8")
    assert main(["matches", "import", str(export), "--db", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"already in the store as match 1 (same moves, same times): not imported again from "
        f"{export}; its tags differ from the stored match's, which are kept as they are\n")


def test_add_matches_still_adds_every_match(tmp_path: Path) -> None:
    """The store's own `add_matches` (used by restores and tests) is unchanged: it adds."""
    with MatchStore(tmp_path / "m.sqlite3") as store:
        assert store.add_matches([BASE, BASE]) == [1, 2]
