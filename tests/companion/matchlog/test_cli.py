"""``companion matches list | show | export | import | replay`` (issue 6), each with --db."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from companion.commands.main import main
from companion.matchlog import MatchId, MatchStore, Result, Termination
from companion.matchlog.export import export_text
from companion.rules.teleporters import Position
from tests.companion.matchlog.helpers import random_match, record

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as store:
        record(store, random_match(4, 6))
        record(store, random_match(9, 3))
    return path


def run(*args: str, stdin: int | None = subprocess.DEVNULL,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, stdin=stdin, timeout=60,
                          env={**os.environ, **(env or {})})


def test_list_shows_every_match(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", "list", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "STARTED", "TURNS", "RESULT", "PLAYERS"]
    assert [line.split()[0] for line in lines[1:]] == ["1", "2"]
    assert "Ann (south) v Ben (north)" in lines[1]


def test_list_of_a_store_not_made_yet_is_empty_not_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", "list", "--db", str(tmp_path / "none.sqlite3")]) == 0
    assert "no store at" in capsys.readouterr().out
    assert not (tmp_path / "none.sqlite3").exists()


def test_db_defaults_to_the_env_override(db: Path) -> None:
    done = run("matches", "list", env={"COMPANION_DB": str(db)})
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3


def test_show_prints_turns_events_and_the_final_position_and_draws_pngs(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, timeline = tmp_path / "final.png", tmp_path / "time.png"
    assert main(["matches", "show", "1", "--db", str(db), "--png", str(png),
                 "--timeline", str(timeline)]) == 0
    out = capsys.readouterr().out
    with MatchStore(db) as store:
        match = store.get_match(MatchId(1))
    assert match.final_position.to_text() in out
    for turn in match.turns:
        assert " ".join(turn.moves) in out
    image = cv2.imread(str(png))
    assert image is not None and image.shape[0] > 400 and image.shape[1] > 400
    plot = cv2.imread(str(timeline))
    assert plot is not None and plot.shape[:2] == (420, 960)


@pytest.mark.parametrize(("result", "how", "said"), [
    (Result.NORTH, Termination.RESIGNATION, "north won by resignation"),
    (Result.DRAW, Termination.AGREEMENT, "draw by agreement"),
    (Result.SOUTH, Termination.RULE, "south won (all four Poles on the Goal Telepads)"),
])
def test_show_says_how_a_finished_match_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], result: Result,
        how: Termination, said: str) -> None:
    """Issue 21: `matches show` prints the result and how it came (a win by the rules, a
    resignation, an agreed draw), and `list` has no "*" for it; the Termination tag travels
    in exports."""
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as store:
        mid = store.begin_match(Position.start(), {"south": "Ann", "north": "Ben"})
        store.finish_match(mid, result, how=how)
        assert "[Termination " in export_text(store.get_match(mid))
    assert main(["matches", "show", str(mid), "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert f": {said}\n" in out and "Termination:" not in out
    assert main(["matches", "list", "--db", str(path)]) == 0
    assert " * " not in capsys.readouterr().out


def test_export_then_import_adds_the_same_match(db: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Into another store the export adds the same match; into the store that holds it
    (issue 21), nothing: "already in the store as match 1"."""
    other = tmp_path / "other.sqlite3"
    with MatchStore(other) as store:
        record(store, random_match(9, 3))
    for fmt in ("text", "json"):
        out = tmp_path / f"m1.{fmt}"
        assert main(["matches", "export", "1", "--db", str(db), "--format", fmt,
                     "--out", str(out)]) == 0
        assert main(["matches", "import", str(out), "--db", str(other)]) == 0
        assert main(["matches", "import", str(out), "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("imported match 2 (")
    assert lines[2].startswith("already in the store as match 1 (same moves, same times)")
    assert lines[4].startswith("already in the store as match 2 (same moves, same times)")
    with MatchStore(db) as store, MatchStore(other) as copy:
        assert len(store.list_matches()) == 2 and len(copy.list_matches()) == 2
        assert copy.get_match(MatchId(2)) == store.get_match(MatchId(1))


def test_export_to_stdout_and_import_from_stdin(db: Path, tmp_path: Path) -> None:
    text = run("matches", "export", "2", "--db", str(db)).stdout
    with MatchStore(db) as store:
        assert text == export_text(store.get_match(MatchId(2)))
    other = tmp_path / "other.sqlite3"
    done = subprocess.run([sys.executable, "-m", "companion", "matches", "import", "-", "--db",
                           str(other)], input=text, capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "imported match 1 (3 turns) from <stdin>\n"


def test_import_of_a_bad_file_is_one_line_with_exit_2_and_stores_nothing(
        db: Path, tmp_path: Path) -> None:
    with MatchStore(db) as store:
        text = export_text(store.get_match(MatchId(1)))
    bad = tmp_path / "bad.txt"
    first_turn = next(line for line in text.splitlines() if line.startswith("1. "))
    bad.write_text(text.replace(first_turn, "1. Pa1-a9"))
    done = run("matches", "import", str(bad), "--db", str(db))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    line_no = text.splitlines().index(first_turn) + 1
    assert f"bad.txt: line {line_no}: " in done.stderr and "'Pa1-a9'" in done.stderr
    with MatchStore(db) as store:
        assert len(store.list_matches()) == 2


@pytest.mark.parametrize(("args", "message"), [
    (["show", "99"], "companion matches show: no match 99 in "),
    (["export", "99"], "companion matches export: no match 99 in "),
    (["replay", "99"], "companion matches replay: no match 99 in "),
    (["import", "/nonexistent/file.txt"], "companion matches import: cannot read "),
    (["export", "1", "--snapshots"], "companion matches export: --snapshots needs"),
])
def test_errors_are_one_line_on_stderr_with_exit_2(
        db: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", *args, "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(message), err


def test_usage_errors_are_one_line_too(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["matches", "show", "first", "--db", str(db)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1
    assert err.startswith("companion matches show: argument ID: match id must be a number")


def test_replay_all_prints_every_turn_without_stdin(db: Path) -> None:
    with MatchStore(db) as store:
        match = store.get_match(MatchId(1))
    for stdin in (subprocess.DEVNULL, subprocess.PIPE):
        done = run("matches", "replay", "1", "--db", str(db), stdin=stdin)
        assert done.returncode == 0, done.stderr
        for n, turn in enumerate(match.turns, 1):
            assert f"turn {n}, {turn.side.value}: {' '.join(turn.moves) or '--'}" in done.stdout
            assert turn.position.to_text() in done.stdout
    closed = subprocess.run(f"{sys.executable} -m companion matches replay 1 --all "
                            f"--db {db} <&-", shell=True, capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert closed.returncode == 0 and match.final_position.to_text() in closed.stdout


def test_replay_at_a_terminal_waits_for_enter_between_turns(db: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: companion on a terminal
        try:
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "companion", "matches", "replay",
                                      "1", "--db", str(db)])
        finally:
            os._exit(127)  # never back into pytest

    def read_until(text: str, timeout: float = 20) -> str:
        seen, end = "", time.monotonic() + timeout
        while text not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536).decode()
                except OSError:
                    break
        return seen

    try:
        first = read_until("[Enter] next turn")
        assert "start:" in first and "turn 1," not in first
        os.write(fd, b"\n")
        second = read_until("[Enter] next turn")
        assert "turn 1," in second and "turn 2," not in second
        os.write(fd, b"q\n")
        read_until("never printed", timeout=2)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0


def test_names_cannot_reach_the_terminal_as_control_characters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: "printed names are stripped of control characters": a player name or a tag
    carrying an ANSI escape, a NUL or a line break is shown with each such character
    replaced, in the list and in a match shown."""
    path = tmp_path / "m.sqlite3"
    nasty = "Eve\x1b[2J\x00\nX"
    with MatchStore(path) as store:
        match_id = record(store, random_match(4, 3, players={"south": nasty, "north": "Bob"},
                                              tags={"Event": "club\x07night"}))
    for argv in (["matches", "list", "--db", str(path)],
                 ["matches", "show", str(match_id), "--db", str(path)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x00" not in out and "\x07" not in out
        assert "Eve\ufffd[2J\ufffd\ufffdX" in out
