"""Positions and moves: JSON and text forms, round trips, and bad input (issue 2)."""

from __future__ import annotations

import json

import pytest

from companion.rules import MoveError, PositionError, RulesError
from companion.rules.teleporters import (
    Carry,
    Position,
    SendMarker,
    Side,
    TurnState,
    Variant,
    WrapRows,
    parse_move,
    parse_square,
    play,
)

START_TEXT = "2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/8/2[SW]2[SE]2/1[SW]4[SE]1/2PPPP2 south"


def test_setting_up_start_position_matches_the_book() -> None:
    """Setting up: Poles on the four central Telepads, Ports on the striped Portpads."""
    start = Position.start()
    assert start.to_text() == START_TEXT
    doc = start.to_json()
    assert doc["poles"] == {"c1": "south", "d1": "south", "e1": "south", "f1": "south",
                            "c8": "north", "d8": "north", "e8": "north", "f8": "north"}
    assert {"square": "b2", "side": "south", "corner": "sw"} in doc["ports"]
    assert {"square": "f6", "side": "north", "corner": "ne"} in doc["ports"]
    assert len(doc["ports"]) == 8


def test_issue_json_example_parses() -> None:
    doc = {"game": "teleporters", "to_move": "south",
           "poles": {"c1": "south", "d1": "south", "e1": "south", "f1": "south",
                     "c8": "north", "d8": "north", "e8": "north", "f8": "north"},
           "ports": [{"square": "b2", "side": "south", "corner": "sw"}]}
    pos = Position.from_json(doc)
    assert pos.poles[parse_square("c1")] is Side.SOUTH
    assert pos.ports[parse_square("b2")] == ((pos.ports[parse_square("b2")][0][0], Side.SOUTH),)
    assert Position.from_json(pos.to_json()) == pos


def test_teleport_text_form() -> None:
    """A Teleport round a Pole: '[PSWNE]' is a south Pole boxed by two south Ports."""
    pos = Position.from_text("8/8/8/3[PSWNE]4/8/8/8/8 north")
    d5 = parse_square("d5")
    assert pos.teleport_at(d5) is Side.SOUTH and pos.poles[d5] is Side.SOUTH
    assert pos.to_move is Side.NORTH
    assert Position.from_text(pos.to_text()) == pos


def test_variant_round_trips_in_json_and_text() -> None:
    variant = Variant.from_flags(["send_marker=either", "wrap_rows=quadrants", "carry=always"])
    assert variant.send_marker is SendMarker.EITHER
    assert variant.wrap_rows is WrapRows.QUADRANTS and variant.carry is Carry.ALWAYS
    pos = Position.start(variant)
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_text(pos.to_text()) == pos
    custom = Variant.from_json({"portpads": {
        "a2": {"side": "south", "corner": "sw"}, "c3": {"side": "south", "corner": "sw"},
        "f3": {"side": "south", "corner": "se"}, "h2": {"side": "south", "corner": "se"},
        "a7": {"side": "north", "corner": "nw"}, "c6": {"side": "north", "corner": "nw"},
        "f6": {"side": "north", "corner": "ne"}, "h7": {"side": "north", "corner": "ne"}}})
    pos = Position.start(custom)
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_text(pos.to_text()) == pos


@pytest.mark.parametrize("doc, words", [
    ("{not json", "not valid JSON"),
    ('{"poles": {"z9": "south"}}', "z9"),
    ('{"poles": {"c1": "east"}}', "east"),
    ('{"ports": [{"square": "d4", "side": "south", "corner": "up"}]}', "up"),
    ('{"poles": {"c1": "south", "c1": "north"}}', "given twice"),
    ('{"ports": [{"square": "d4", "side": "south", "corner": "sw"},'
     ' {"square": "d4", "side": "north", "corner": "se"}]}', "walls"),
    ('{"ports": [{"square": "d4", "side": "south", "corner": "sw"},'
     ' {"square": "d4", "side": "south", "corner": "sw"}]}', "sw corner of d4"),
    ('{"game": "chess"}', "chess"),
    ('{"poles": []}', "poles"),
    ('{"ports": [{"square": "d4"}]}', "square, side and corner"),
    ('{"colour": 1}', "colour"),
    ('{"variant": {"send_marker": "never"}}', "never"),
    ('[1, 2]', "JSON object"),
])
def test_bad_json_is_a_clear_error(doc: str, words: str) -> None:
    """Malformed or physically impossible input raises PositionError naming the problem."""
    with pytest.raises(PositionError, match=None) as info:
        Position.from_json(doc)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, RulesError)


@pytest.mark.parametrize("text, words", [
    ("8/8/8 south", "8 ranks"),
    ("9/8/8/8/8/8/8/8 south", "unexpected"),
    ("8/8/8/8/8/8/8/7 south", "7 spaces"),
    ("8/8/8/8/8/8/8/8 west", "west"),
    ("8/8/8/8/8/8/8/[XX]7 south", "XX"),
    ("8/8/8/8/8/8/8/8", "side to move"),
    ("8/8/8/8/8/8/8/PPPPPPPPP south", "more than 8"),
])
def test_bad_text_is_a_clear_error(text: str, words: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_text(text)
    assert words in str(info.value)


def test_physically_possible_positions_are_not_errors() -> None:
    """A Port in row 1, two colours of Port in one space, or a missing Pole can be seen on a
    real mat: they are positions (judged illegal by explain), not bad input."""
    Position.from_text("8/8/8/8/8/8/8/[SW]7 south")
    Position.from_text("8/8/8/8/3[SWne]4/8/8/8 south")
    Position.from_text("8/8/8/8/8/8/8/2PPP3 south")


@pytest.mark.parametrize("text", ["Pc1-c3", "Pc1*e1", "Pd4!c1", "Vb2sw@se", "Vb2sw-b5",
                                  "Vb2sw-b5ne", "Vc3sw-c6xb7", "Vc3sw-c6!b2", "Vc3sw-e3ne>d8",
                                  "Td4@nwse", "Td4-d6", "Td4-d6P", "Td4*c1"])
def test_move_notation_round_trips(text: str) -> None:
    assert parse_move(text).notation() == text


@pytest.mark.parametrize("text", ["", "c1-c3", "Pc1-c9", "Vb2xx-b5", "Vb2sw@sw", "Vb2sw-b2",
                                  "Td4*c1P", "Pc1c3", "Td4@nesw"])
def test_bad_move_notation_names_the_text(text: str) -> None:
    with pytest.raises(MoveError) as info:
        parse_move(text)
    assert repr(text) in str(info.value)


def test_play_rejects_an_illegal_move_by_name() -> None:
    with pytest.raises(MoveError, match="Pc1-c4"):
        play(Position.start(), parse_move("Pc1-c4"))


def test_turn_state_json_round_trips() -> None:
    pos, turn = Position.start(), TurnState()
    for text in ("Pd1-d3", "Vc3sw-c5"):
        pos, turn = play(pos, parse_move(text), turn)
    again = TurnState.from_json(json.loads(json.dumps(turn.to_json())))
    assert again == turn
    assert turn.pole_markers_left == 1 and turn.port_markers_left == 1


def test_variant_flags_are_checked() -> None:
    with pytest.raises(RulesError, match="key=value"):
        Variant.from_flags(["send_marker"])
    with pytest.raises(RulesError, match="bogus"):
        Variant.from_flags(["bogus=1"])


def test_a_start_with_a_piece_knocked_off_is_judged_not_an_error() -> None:
    """Issue 2: "a START with a piece knocked off is judged, as illegal with its reason"
    (Game pieces: four Poles and four Ports a side)."""
    from companion.rules.teleporters import Rule, explain

    knocked = Position.from_text(
        "2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/8/2[SW]2[SE]2/1[SW]4[SE]1/2PPP3 south")
    result = explain(knocked, knocked)
    assert not result.legal and result.reason is not None
    assert result.reason.rule is Rule.PIECE_COUNT and "3 south Poles" in result.reason.message
    # Rule exercises on a sparse board can switch the full-set check off.
    assert explain(knocked, knocked, full_set=False).legal
