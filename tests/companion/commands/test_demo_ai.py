"""``companion demo --ai``: "shows a short game against the companion with the LEDs lit on the
virtual board; with `--headless` it runs in the terminal and exits 0". The simulated player
carries out the companion's moves as the LED board lights them (it reads the board's own LEDs
before each move, and the demo stops with exit 1 if they are not that move's); every move is
refereed from the simulated camera."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.commands.main import main
from companion.matchlog import MatchStore, Note, Result


def test_headless_ai_demo_lights_the_companions_moves_and_they_are_carried_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "ai.sqlite3"
    assert main(["demo", "--ai", "--headless", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    chosen = [m[1] for ln in lines
              if (m := re.search(r"COMPANION the companion \(north, level 3\) plays (.+) \(", ln))]
    assert len(chosen) == 3, out
    # Each of its moves, in order, as the LED board itself showed it just before the player
    # made it: the piece to lift yellow, where it goes cyan. Once the player slipped first.
    lit = [m.groups() for ln in lines
           if (m := re.fullmatch(r"  # the LED board shows light (\w+) yellow; ([\w, ]+) cyan"
                                 r"(: the player makes|, but the player slips:) (\S+)", ln))]
    moves = " ".join(chosen).split()
    assert len(lit) == len(moves) == 7
    slips = []
    for move, (lift, place, how, made) in zip(moves, lit, strict=True):
        assert (move[1:3] == lift and move[-2:] in place.split(", ")) or "@" in move, move
        if "slips" in how:
            assert made != move and made[:3] == move[:3]  # the same Pole, another space
            slips.append((made, move))
        else:
            assert made == move
    # The slip: flagged in words and red on the LEDs, then put right where the LEDs said.
    ((wrong, right),) = slips
    (said,) = [ln for ln in lines if "that is not the move shown" in ln]
    assert f"the turn chosen is {chosen[0]}" in said and said.endswith(" red")
    assert f"({wrong} for {right} flagged, lit " in out
    # What the referee committed on north's turns, from the camera, is what was lit.
    north = [ln.split(": ", 1)[1] for ln in lines if re.search(r"COMMIT +turn \d+ \(north\)", ln)]
    assert [c.removesuffix(" — lights off") for c in north] == chosen
    assert any("WIN       north wins with all four Poles" in ln for ln in lines)
    assert re.search(r"^game over: the companion wins after 5 turns\. Level 3 chose its 3 "
                     r"turns in [0-9.]+ s \(worst [0-9.]+ s\); all 7 moves were lit and "
                     r"carried out as shown \(\S+ for \S+ flagged, lit [a-h1-8, ]+ red, and "
                     r"put right\); \d+ frames", out, re.M), out
    with MatchStore(db) as store:
        (summary,) = store.list_matches()
        match = store.get_match(summary.id)
    assert match.result is Result.NORTH
    assert summary.players["north"] == "the companion, level 3"
    assert [t.moves for t in match.turns][0::2] == [tuple(c.split()) for c in chosen]
    notes = [e.data.text for e in match.events if isinstance(e.data, Note)]
    assert [n.split(" in ")[0] for n in notes] == [f"companion level 3 chose {c}"
                                                   for c in chosen]


@pytest.mark.parametrize(("argv", "line"), [
    (["--ai", "--level", "9"], "companion demo: --level '9': give one of 1, 2, 3, 4, 5"),
    (["--ai", "--level", "0"], "companion demo: --level '0': give one of 1, 2, 3, 4, 5"),
    (["--ai", "--turns", "0"], "companion demo: --turns '0': give a whole number of at least 1"),
    (["--level", "3"], "companion demo: --level goes with --ai"),
    (["--ai", "--quest"], "companion demo: --ai and --quest are two demos: give one"),
])
def test_bad_ai_demo_input_is_one_line_and_exit_2(
        argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--headless", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [line] and captured.out == ""
