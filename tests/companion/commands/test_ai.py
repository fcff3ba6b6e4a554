"""``companion ai match``: a tiny match prints its table; bad input is one line, exit 2."""

from __future__ import annotations

import json

import pytest

from companion.commands.main import main


def test_a_tiny_match_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ai", "match", "--levels", "2,1", "--games", "2", "--max-turns", "4"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "median s/turn" in out and "worst s/turn" in out
    assert "A level 2" in out and "B level 1" in out


def test_a_match_against_the_random_reference(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: the strength targets are measured against a random player, level 0."""
    assert main(["ai", "match", "--levels", "3,0", "--games", "2", "--max-turns", "4"]) == 0
    assert "B level 0" in capsys.readouterr().out


def test_a_tiny_match_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ai", "match", "--levels", "1,1", "--games", "1", "--max-turns", "2",
                 "--seed", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["levels"] == [1, 1] and doc["games"] == 1
    assert [p["games"] for p in doc["players"]] == [1, 1]
    assert doc["game_results"][0]["winner"] is None


@pytest.mark.parametrize("args, words", [
    (["--levels", "3,6", "--games", "2"], "level 6"),
    (["--levels", "3;5", "--games", "2"], "A,B"),
    (["--levels", "3", "--games", "2"], "A,B"),
    (["--games", "2"], "--levels"),
    (["--levels", "3,5", "--games", "0"], "--games"),
    (["--levels", "3,5", "--games", "x"], "--games"),
    (["--levels", "3,5"], "--games"),
    (["--levels", "3,5", "--games", "1", "--max-turns", "0"], "--max-turns"),
    (["--levels", "3,5", "--games", "1", "--opening", "-1"], "--opening"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ai", "match", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and words in err, err
