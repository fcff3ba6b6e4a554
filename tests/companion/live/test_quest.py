"""Solitaire Quests with the companion (issue 9): the LEDs, the score kept per player in the
match store, `companion quest`, and `companion demo --quest`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.commands.demo import run_quest_demo
from companion.commands.main import main
from companion.live.board import RecordingBoard
from companion.live.quest import BETWEEN, CONFLICT, FREE, SOLVED, QuestSession, quest_lights
from companion.matchlog import MatchStore
from companion.rules.teleporters import Position
from companion.rules.teleporters.quests import Quest, check
from companion.sim.quest_table import demo_layout
from firmware_bridge.colors import Color

SOLUTION = ["a1", "g2", "e3", "h4", "b5", "d6", "f7", "c8"]  # 8 Queens, class 1


def layout(squares: list[str]) -> Position:
    poles = {sq: ("south" if i % 2 == 0 else "north") for i, sq in enumerate(squares)}
    return Position.from_json({"game": "teleporters", "to_move": "south", "poles": poles,
                               "ports": []})


def test_solved_layout_lights_green() -> None:
    """Issue 9: a solved layout green."""
    lights = quest_lights(check(Quest.QUEENS, layout(SOLUTION)))
    assert lights == {sq: SOLVED for sq in SOLUTION}


def test_conflicts_light_red_and_the_line_between_amber() -> None:
    """Issue 9: the LEDs light the conflicting Poles red and the lines between them amber."""
    wrong = [*SOLUTION[:-1], "c5"]  # c8 -> c5: in line with e3 (d4 between), b5 and d6
    report = check(Quest.QUEENS, layout(wrong))
    lights = quest_lights(report)
    assert report.conflicts
    for c in report.conflicts:
        for sq in (c.a, c.b):
            assert lights[_name(sq)] is CONFLICT
        for sq in c.line.between:
            assert lights[_name(sq)] in (BETWEEN, CONFLICT)
    assert set(lights.values()) <= {CONFLICT, BETWEEN}


def test_free_spaces_dim_blue_in_quests_2_to_4_only_without_conflicts() -> None:
    """Quests 2-4 ("no space on which another could be placed"): while nothing conflicts,
    the spaces that still admit a Pole are shown."""
    five = ["a1", "b3", "c5", "d2", "g4"]  # independent, not dominating: h7 and e8 free
    report = check(Quest.QUEENS5, layout(five))
    lights = quest_lights(report)
    assert {k for k, v in lights.items() if v is FREE} == {"h7", "e8"}
    assert quest_lights(check(Quest.QUEENS, layout(five))) == {}  # 8 Queens: no hint


def _name(sq: int) -> str:
    from companion.rules.teleporters import square_name

    return square_name(sq)


def test_session_counts_each_class_once_per_player_and_keeps_it(tmp_path: Path) -> None:
    """Issue 9: keep score of the distinct solutions found, per player, in the match store;
    a symmetric copy of a found solution is the same class."""
    db = tmp_path / "m.sqlite"
    board = RecordingBoard()
    session = QuestSession("queens", player="Ann", board=board, store=MatchStore(db))
    seen = []
    session.on_update(seen.append)
    first = session.observe(layout(SOLUTION), t=1.0)
    assert first.solved and first.new_class == 1 and first.found == (1,)
    assert board.board == {sq: Color.GREEN for sq in SOLUTION}
    mirrored = [f"{'hgfedcba'['abcdefgh'.index(s[0])]}{s[1]}" for s in SOLUTION]
    again = session.observe(layout(mirrored), t=2.0)
    assert again.solved and again.new_class is None and again.found == (1,)
    hand = session.observe(None, t=3.0)
    assert hand.report is None and "hand" in hand.describe()
    assert len(seen) == 3
    session.close()
    with MatchStore(db) as store:
        (find,) = store.quest_finds("Ann", "queens")
        assert find.class_number == 1 and find.class_id == "a1-b5-c8-d6-e3-f7-g2-h4"
        assert store.quest_finds("Bob", "queens") == ()
    later = QuestSession("queens", player="Ann", store=MatchStore(db))
    assert later.found == (1,) and later.total == 12
    later.close()


def test_cli_checks_a_layout_file(tmp_path: Path, capsys) -> None:
    """`companion quest --quest Q POSITION.json`: exit 0 solved, 1 not, 2 bad input."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps(layout(SOLUTION).to_json()))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(layout([*SOLUTION[:-1], "c5"]).to_json()))
    assert main(["quest", str(good)]) == 0
    assert "solved" in capsys.readouterr().out
    assert main(["quest", str(bad), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["solved"] is False and doc["conflicts"]
    assert main(["quest", str(good), "--quest", "bishops"]) == 2
    assert "unknown quest 'bishops'" in capsys.readouterr().err
    assert main(["quest", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["quest"]) == 2
    assert "give a POSITION file" in capsys.readouterr().err


def test_cli_records_scores_and_lists_classes(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "m.sqlite")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(layout(SOLUTION).to_json()))
    assert main(["quest", str(good), "--record", "--player", "Ann", "--db", db]) == 0
    assert "new class; 1 of 12" in capsys.readouterr().out
    assert main(["quest", str(good), "--record", "--player", "Ann", "--db", db]) == 0
    assert "found before; 1 of 12" in capsys.readouterr().out
    assert main(["quest", "--scores", "--db", db]) == 0
    assert "Ann: 8 Queens: 1 of 12 classes (1)" in capsys.readouterr().out
    assert main(["quest", "--quest", "rooks", "--classes"]) == 0
    out = capsys.readouterr().out
    assert "7 up to rotation and reflection" in out and out.count("class ") == 7


def test_demo_layout_has_one_mistake_with_a_line_between() -> None:
    squares, mistake = demo_layout()
    assert check(Quest.QUEENS, layout(squares)).solved
    report = check(Quest.QUEENS, layout([*squares[:-1], mistake]))
    (conflict,) = report.conflicts
    assert conflict.line.between


def test_demo_quest_flags_the_mistake_then_solves(tmp_path: Path) -> None:
    """Issue 9, Done when: `companion demo --quest`: the simulated table lays out a solution
    with one mistake, which is flagged, then corrected."""
    out = io.StringIO()
    assert run_quest_demo(headless=True, db=str(tmp_path / "m.sqlite"), out=out) == 0
    text = out.getvalue()
    squares, mistake = demo_layout()
    flagged = [ln for ln in text.splitlines() if "NOT YET" in ln and " red" in ln]
    assert len(flagged) == 1 and mistake in flagged[0] and "amber" in flagged[0]
    solved = [ln for ln in text.splitlines() if "SOLVED" in ln]
    assert len(solved) == 1 and "New: 1 of 12" in solved[0]
    assert text.index(flagged[0]) < text.index(solved[0])
    assert f"shows: light {', '.join(sorted(squares, key=_order))} green" in text


def _order(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


@pytest.mark.parametrize("quest", list(Quest))
def test_every_quest_has_a_session(quest: Quest) -> None:
    session = QuestSession(quest)
    assert session.total >= 7 and session.found == ()
