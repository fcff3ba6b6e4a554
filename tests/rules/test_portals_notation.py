"""Portals positions as JSON and moves as notation: round trips and errors naming the value."""

from __future__ import annotations

import json

import pytest

from companion.rules.errors import MoveError, PositionError, RulesError
from companion.rules.portals import (
    NO_PORTABLE_PORTAL,
    Kind,
    Move,
    PortalShift,
    Position,
    Side,
    legal_moves,
    parse_move,
    parse_square,
    square_name,
)
from tests.rules.test_portals_helpers import pos


def test_squares_a1_to_k11() -> None:
    assert parse_square("a1") == 0 and parse_square("k11") == 120
    assert square_name(parse_square("f6")) == "f6"
    for bad in ("l1", "a12", "a0", "", None, "A1"):
        with pytest.raises(PositionError, match="unknown square"):
            parse_square(bad)


def test_start_json_round_trip_and_text() -> None:
    for variant in (None, NO_PORTABLE_PORTAL):
        p = Position.start() if variant is None else Position.start(variant)
        assert Position.from_json(p.to_json()) == p
        assert Position.from_json(p.to_json_text()) == p
        assert Position.from_json(json.loads(json.dumps(p.to_json()))) == p


def test_json_defaults_portals_and_portable_portal() -> None:
    p = Position.from_json({"princes": {"south": "f1", "north": "f11"},
                            "guards": {"south": ["a1"], "north": ["a11"]}})
    assert [square_name(s) for s in p.portals] == ["c4", "i4", "c8", "i8"]
    assert square_name(p.portable) == "f6"  # type: ignore[arg-type]
    q = Position.from_json({"portals": ["b2", "j10"], "portable_portal": "a1",
                            "princes": {"south": "f1"}, "guards": {"north": ["a11"]},
                            "to_move": "north"})
    assert q.to_move is Side.NORTH and q.prince(Side.NORTH) is None
    assert Position.from_json(q.to_json()) == q


@pytest.mark.parametrize("doc, match", [
    ({"game": "teleporters"}, "not a portals"),
    ({"colour": 1}, "unknown field"),
    ({"to_move": "east"}, "unknown side"),
    ({"princes": {"south": "z9"}}, "unknown square"),
    ({"princes": {"south": "a1"}, "guards": {"north": ["a1"]}}, "two pieces on a1"),
    ({"guards": {"south": [f"{f}{r}" for f in "abcd" for r in range(1, 5)]}}, "16 Guards"),
    ({"portals": ["a1", "a1"]}, "listed twice"),
    ({"portals": "a1"}, "list of squares"),
    ({"variant": {"speed": 2}}, "unknown variant"),
    ({"variant": {"portable_portal": "no"}}, "true or false"),
    ('{"to_move": "south", "to_move": "north"}', "given twice"),
    ("{not json", "not valid JSON"),
    ([1, 2], "JSON object"),
])
def test_bad_positions_are_rejected_naming_the_value(doc: object, match: str) -> None:
    with pytest.raises(PositionError, match=match) as info:
        Position.from_json(doc)
    assert isinstance(info.value, (RulesError, ValueError))


def test_notation_examples() -> None:
    assert parse_move("Kf1-g2") == Move(Kind.PRINCE, parse_square("f1"), parse_square("g2"))
    m = parse_move("Gc2xc7+Pf6-f9")
    assert m.capture and m.shift == PortalShift(parse_square("f6"), parse_square("f9"))
    assert m.roll == 3 and m.shift.direction == "north"  # type: ignore[union-attr]
    j = parse_move("Gd4@xh8")
    assert j.jump and j.capture and j.notation() == "Gd4@xh8"
    assert parse_move("Gk10-k11").dst == 120


@pytest.mark.parametrize("text", ["", "Gc2c7", "Xc2-c7", "Gc2-c2", "Gc2-c7+Pf6-f9",
                                  "Gc2xc7+Pf6-g7", "Gc2xc7+Pf6-f11", "Gl1-a1", "Gc2--c7"])
def test_bad_notation_is_rejected_naming_the_text(text: str) -> None:
    with pytest.raises(MoveError) as info:
        parse_move(text)
    assert repr(text) in str(info.value) or text in str(info.value)


def test_every_legal_move_round_trips_through_notation() -> None:
    positions = [Position.start(), pos("Kk1 Gc4 Gb2", "kk11 gb7 gi8 gk10"),
                 pos("Kc4 Gb2", "kk11 gb7 gk10", pp="b6")]
    for p in positions:
        for m in legal_moves(p):
            assert parse_move(m.notation()) == m
            assert str(m) == m.notation()
