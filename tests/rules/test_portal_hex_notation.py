"""Portal positions as JSON and moves as notation: round trips, and errors naming the value."""

from __future__ import annotations

import json

import pytest

from companion.rules.errors import MoveError, PositionError, RulesError
from companion.rules.portal_hex import (
    GAME,
    Action,
    Colour,
    Move,
    Position,
    Variant,
    cell_name,
    explain,
    parse_cell,
    parse_move,
    play,
)
from tests.rules.test_portal_hex_helpers import board, road


def test_cells_are_q_comma_r() -> None:
    assert parse_cell("2,-1") == (2, -1)
    assert parse_cell(" 2 , -1 ") == (2, -1)
    assert cell_name((0, 0)) == "0,0"
    for bad in ("2;1", "a,b", "1", "", None, "1,2,3"):
        with pytest.raises(PositionError, match="unknown cell"):
            parse_cell(bad)
    with pytest.raises(PositionError, match="5,0 is off the board"):
        parse_cell("5,0", radius=4)


@pytest.mark.parametrize("text", [
    "portal 1,-1 in 0,-1 2,-1 out 1,0", "platform 2,-1 to 1,-1 from 3,-2", "fire 1,-1",
    "fire 1,-1 demons 1,0", "start", "centrum", "pass", "portal 1,0 out 0,0",
    "platform 2,0 from 3,0"])
def test_notation_round_trip(text: str) -> None:
    move = parse_move(text)
    assert move.notation() == text
    assert parse_move(move.notation()) == move


def test_notation_is_lenient_and_canonical() -> None:
    m = parse_move("  PORTAL 1, -1 out 1,0 in 2,-1 0,-1 ")
    assert m == Move(Action.PORTAL, (1, -1), ((0, -1), (2, -1)), ((1, 0),))
    assert m.notation() == "portal 1,-1 in 0,-1 2,-1 out 1,0"
    assert parse_move("platform 2,-1 from 3,-2 to 1,-1").notation() == \
        "platform 2,-1 to 1,-1 from 3,-2"


@pytest.mark.parametrize("bad", [
    "jump 1,0", "portal", "portal x,y", "portal 1,0 in", "portal 1,0 to 0,0",
    "platform 1,0 in 0,0", "fire 1,0 in 0,0", "start 1,0", "centrum 0,0", "pass now",
    "portal 1,0 0,0", "portal 1,0 in 0,0 in 2,0", "fire 1,0 demons 0,0 0,0", ""])
def test_bad_notation_names_the_text(bad: str) -> None:
    with pytest.raises(MoveError) as info:
        parse_move(bad)
    assert repr(bad) in str(info.value) or bad == ""
    assert isinstance(info.value, ValueError)


def test_move_constructor_checks() -> None:
    with pytest.raises(MoveError):
        Move(Action.FIRE)
    with pytest.raises(MoveError):
        Move(Action.START, (0, 0))
    with pytest.raises(MoveError, match="both ways"):
        Move(Action.PORTAL, (1, 0), ((0, 0),), ((0, 0),))
    with pytest.raises(MoveError, match="itself"):
        Move(Action.PORTAL, (1, 0), ((1, 0),))


def test_json_round_trip_and_form() -> None:
    p = road({"4,0": "red", "2,0": ["red", "red"], "0,0": "demon"},
             variant=Variant(demons=True, per_platform=2, players=3), reached=["green"],
             to_move="blue")
    doc = p.to_json()
    assert doc["game"] == GAME == "portal-hex"
    assert doc["variant"] == {"players": 3, "demons": True, "per_platform": 2}
    assert doc["cells"] == {"1,0": "portal", "2,0": "platform", "3,0": "portal"}
    assert doc["pawns"] == {"0,0": "demon", "2,0": ["red", "red"], "4,0": "red"}
    assert doc["reached"] == ["green"] and doc["to_move"] == "blue"
    assert ["4,0", "3,0"] in doc["arrows"]
    assert Position.from_json(doc) == p
    assert Position.from_json(p.to_json_text()) == p
    assert Position.from_json(json.loads(json.dumps(doc))) == p
    start = Position.start()
    assert start.to_json() == {"game": "portal-hex", "to_move": "red", "cells": {},
                               "arrows": [], "pawns": {}}
    assert Position.from_json({}) == start


def test_json_may_list_centrum_and_starts() -> None:
    p = Position.from_json({"cells": {"0,0": "centrum", "4,0": {"start": "red"},
                                      "-4,0": {"start": "blue"}}})
    assert p == Position.start()
    with pytest.raises(PositionError, match="blue's START is on -4,0"):
        Position.from_json({"cells": {"4,0": {"start": "blue"}}})
    with pytest.raises(PositionError, match="CENTRUM is 0,0"):
        Position.from_json({"cells": {"1,0": "centrum"}})
    with pytest.raises(PositionError, match="red's START"):
        Position.from_json({"cells": {"4,0": "platform"}})


@pytest.mark.parametrize(("doc", "needle"), [
    ({"game": "portals"}, "'portals'"),
    ({"colour": 1}, "colour"),
    ({"variant": {"radius": 12}}, "12"),
    ({"variant": {"flying": True}}, "flying"),
    ({"to_move": "purple"}, "purple"),
    ({"to_move": "green"}, "green"),
    ({"cells": {"9,9": "portal"}}, "9,9"),
    ({"cells": {"1,0": "wall"}}, "wall"),
    ({"cells": []}, "cells"),
    ({"cells": {"1,0": "portal"}, "arrows": [["1,0", "3,0"]]}, "3,0"),
    ({"cells": {"1,0": "portal"}, "arrows": [["1,0"]]}, "['1,0']"),
    ({"cells": {"1,0": "portal"}, "arrows": [["0,0", "1,0"], ["0,0", "1,0"]]}, "twice"),
    ({"cells": {"2,0": "portal"}, "arrows": [["0,0", "2,0"]]}, "not neighbours"),
    ({"cells": {"1,0": "portal"}}, "1,0 is joined to no platform"),
    ({"cells": {"1,0": "portal", "2,0": "platform"}, "arrows": [["0,0", "1,0"]]},
     "platform on 2,0 is joined to no portal"),
    ({"cells": {"1,0": "portal"}, "arrows": [["0,0", "1,0"]], "pawns": {"1,0": "red"}},
     "portal 1,0"),
    ({"pawns": {"1,0": "red"}}, "empty cell 1,0"),
    ({"pawns": {"4,0": ["red"] * 7}, "variant": {"per_platform": 0}}, "owns only 6"),
    ({"pawns": {"4,0": ["red", "red"]}}, "at most 1"),
    ({"pawns": {"4,0": ["red", "blue"]}}, "different owners"),
    ({"pawns": {"4,0": []}}, "empty pawn list"),
    ({"pawns": {"4,0": "purple"}}, "purple"),
    ({"reached": ["green"]}, "green"),
    ({"reached": ["red", "blue"]}, "red and blue"),
])
def test_bad_json_names_the_value(doc: dict, needle: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_json(doc)
    assert needle in str(info.value), str(info.value)
    assert isinstance(info.value, RulesError)


def test_duplicate_json_keys_are_refused() -> None:
    with pytest.raises(PositionError, match="'4,0' is given twice"):
        Position.from_json('{"pawns": {"4,0": "red", "4,0": "red"}}')


def test_non_strict_reads_a_broken_board() -> None:
    doc = {"cells": {"1,0": "portal", "2,0": "portal"}, "arrows": [["1,0", "2,0"]]}
    with pytest.raises(PositionError):
        Position.from_json(doc)
    p = Position.from_json(doc, strict=False)
    assert p.kind((2, 0)) is not None
    with pytest.raises(PositionError, match="not neighbours"):
        Position.from_json({"cells": {"2,0": "portal"}, "arrows": [["0,0", "2,0"]]},
                           strict=False)


def test_positions_queries() -> None:
    p = board({"3,0": "portal"}, ["4,0>3,0"], {"4,0": "red"})
    assert p.entrances((3, 0)) == ((4, 0),) and p.exits((4, 0)) == ((3, 0),)
    assert p.on_board(Colour.RED) == 1 and p.pool(Colour.BLUE) == 6
    assert p.winner() is None and str(p).startswith("{")
    with pytest.raises(PositionError, match="5,0"):
        p.kind((5, 0))


def test_play_names_the_move_and_the_clause() -> None:
    with pytest.raises(MoveError, match=r"fire 1,0 is not a legal red move here: .*1,0 holds "
                                        r"nothing \[only-portals-fire\]"):
        play(board(), parse_move("fire 1,0"))
    with pytest.raises(MoveError, match="9,9 is off the board"):
        play(board(), parse_move("portal 9,9 in 0,0"))
    with pytest.raises(RulesError, match="variant"):
        explain(board(), board(variant=Variant(radius=5)))
