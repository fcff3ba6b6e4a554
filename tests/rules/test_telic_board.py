"""Telic board, position JSON and move notation (rule book: Setup, Required Components)."""

from __future__ import annotations

import json
import re

import pytest

from companion.rules.errors import MoveError, PositionError
from companion.rules.telic import (
    ENTRANCES,
    NEIGHBOURS,
    SPACE_NAMES,
    Enter,
    Face,
    Forfeit,
    Pass,
    Piece,
    Position,
    Side,
    Step,
    die_space,
    parse_move,
    parse_space,
    space_name,
)
from tests.rules.test_telic_support import pos


def n(name: str) -> int:
    return parse_space(name)


def test_setup_layout_is_five_rows_of_four_with_a_two_space_hole() -> None:
    """Setup: the exact tile configuration; eighteen spaces, not counting the hole."""
    assert SPACE_NAMES == ("r5", "bn", "ba", "r4", "b2", "ka", "k4", "b3", "k2", "k3",
                           "r3", "k5", "kn", "r2", "b4", "ra", "rn", "b5")
    assert len(SPACE_NAMES) == 18
    for colour in "rbk":
        assert sum(1 for s in SPACE_NAMES if s[0] == colour) == 6


def test_setup_coins_are_the_only_center_zone_entrances() -> None:
    """Setup: the coins touch the black 2 and black 3 tiles."""
    assert {space_name(s) for s in ENTRANCES} == {"k2", "k3"}


def test_movement_orthogonal_neighbours_and_the_hole() -> None:
    """Movement: one space orthogonally; the hole is not a space; no diagonals."""
    def nb(s: str) -> set[str]:
        return {space_name(x) for x in NEIGHBOURS[n(s)]}
    assert nb("ka") == {"bn", "b2", "k4"}           # the hole below ka
    assert nb("k2") == {"b2", "r3"}                 # the hole beside k2
    assert nb("k5") == {"r3", "kn", "ra"}
    assert "k4" not in nb("b2") and "ka" not in nb("k3")  # no diagonal


def test_movement_opposite_corners_are_virtually_adjacent() -> None:
    """Movement: red 5 <-> blue 5, red 4 <-> blue 4; not r5 <-> r4 or b4 <-> b5."""
    assert n("b5") in NEIGHBOURS[n("r5")] and n("r5") in NEIGHBOURS[n("b5")]
    assert n("b4") in NEIGHBOURS[n("r4")] and n("r4") in NEIGHBOURS[n("b4")]
    assert n("r4") not in NEIGHBOURS[n("r5")] and n("b5") not in NEIGHBOURS[n("b4")]


def test_die_face_names_the_tile_of_the_rollers_colour() -> None:
    """Moving onto the board: the die indicates the space (roller's own colour)."""
    assert space_name(die_space(Side.BLUE, Face.NULL)) == "bn"
    assert space_name(die_space(Side.BLUE, Face.THREE)) == "b3"
    assert space_name(die_space(Side.RED, Face.ACE)) == "ra"
    assert space_name(die_space(Side.RED, Face.FIVE)) == "r5"
    assert Face.parse("null") is Face.NULL and Face.parse(1) is Face.ACE
    with pytest.raises(PositionError, match="'6'"):
        Face.parse("6")


def test_start_position_all_pyramids_in_the_stash_blue_first() -> None:
    """Required components / Beginning: twelve pyramids a side, none on the board."""
    p = Position.start()
    assert p.to_move is Side.BLUE and p.first_turn
    assert p.stash_count(Side.BLUE) == p.stash_count(Side.RED) == 12
    assert p.winner() is None


def test_position_json_round_trip() -> None:
    p = pos("b3:B52 k5:R4 r5:R6321", to_move="red", stash={"blue": [1, 6], "red": [5, 5]})
    doc = json.loads(json.dumps(p.to_json()))
    assert doc["board"]["b3"] == {"side": "blue", "sizes": [5, 2]}
    assert Position.from_json(doc) == p
    assert Position.from_json(p.to_json_text()) == p
    assert p.in_center(Side.BLUE) == 12 - 2 - 2


@pytest.mark.parametrize("doc, words", [
    ({"game": "chess"}, "chess"),
    ({"board": {"zz": {"side": "blue", "sizes": [1]}}}, "zz"),
    ({"board": {"b3": {"side": "blue", "sizes": []}}}, "got 0"),
    ({"board": {"b3": {"side": "green", "sizes": [2]}}}, "green"),
    ({"board": {"b3": {"side": "blue", "sizes": [7]}}}, "7"),
    ({"stash": {"blue": [1, 1, 1]}}, "size 1"),
    ({"extra": 1}, "extra"),
    ("{not json", "JSON"),
])
def test_position_json_errors_name_the_offending_value(doc: object, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        Position.from_json(doc)


def test_stacking_rule_a_stack_holds_at_most_six() -> None:
    """Rules of stacking: up to six high, each smaller than the one below."""
    assert Piece(Side.RED, (6, 5, 4, 3, 2, 1)).ordered
    assert not Piece(Side.RED, (6, 5, 4, 3, 2, 1, 1)).ordered  # a 7th cannot be smaller
    assert not Piece(Side.RED, (3, 3)).ordered
    with pytest.raises(PositionError, match="13"):  # a hand cannot build one of 13
        Piece(Side.RED, (1,) * 13)


@pytest.mark.parametrize("move", [
    Enter(n("b3"), 4), Enter(n("b3"), 4, True), Forfeit(n("rn")), Step(n("ra"), n("k5")),
    Step(n("ra"), n("k5"), True), Step(n("k2"), None), Pass(),
])
def test_notation_round_trip(move: object) -> None:
    assert parse_move(move.notation()) == move  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["", "+7b3", "+4zz", "k2xcz", "b3", "~", 12])
def test_notation_errors_name_the_offending_value(text: object) -> None:
    with pytest.raises(MoveError, match=re.escape(str(text)) if text else "move"):
        parse_move(text)
