"""Portals positions as one line of text: round trips, the start position, and bad input
(issue 7: each game has a text notation)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.errors import PositionError
from companion.rules.portals import (
    NO_PORTABLE_PORTAL,
    Kind,
    Position,
    Side,
    parse_square,
)
from companion.rules.portals.board import GUARDS_PER_SIDE
from companion.rules.portals.random_play import random_game, random_midgame

START_TEXT = "gggggkggggg/1g1g1g1g1g1/11/11/11/11/11/11/11/1G1G1G1G1G1/GGGGGKGGGGG south"
EMPTY_BOARD = "/".join(["11"] * 11)


def test_start_position_text() -> None:
    """The default set-up's text, given literally: K/G south, k/g north, 11 = an empty rank."""
    assert Position.start().to_text() == START_TEXT
    assert Position.from_text(START_TEXT) == Position.start()
    assert Position.start(NO_PORTABLE_PORTAL).to_text() == START_TEXT + " pp=-"
    assert Position.from_text(START_TEXT + " pp=-") == Position.start(NO_PORTABLE_PORTAL)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200), with_pp=st.booleans(),
       to_move=st.sampled_from(list(Side)))
def test_text_round_trips_for_random_midgames(seed: int, plies: int, with_pp: bool,
                                              to_move: Side) -> None:
    """Text notation round-trips (issue 7): from_text(to_text(p)) == p for positions reached
    by random legal play, with and without the Portable Portal, either side to move."""
    start = Position.start() if with_pp else Position.start(NO_PORTABLE_PORTAL)
    p = random_midgame(random.Random(seed), plies, start).replace(to_move=to_move)
    text = p.to_text()
    assert "\n" not in text
    assert Position.from_text(text) == p
    assert Position.from_text(text).to_json() == p.to_json()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), with_pp=st.booleans())
def test_text_round_trips_through_whole_random_games(seed: int, with_pp: bool) -> None:
    """Text notation round-trips (issue 7) for every position of a random complete game,
    including the last one (a Prince or every Guard captured)."""
    start = Position.start() if with_pp else Position.start(NO_PORTABLE_PORTAL)
    history, final = random_game(random.Random(seed), start, max_plies=400)
    for p in [before for before, _, _ in history] + [final]:
        assert Position.from_text(p.to_text()) == p


@settings(max_examples=60, deadline=None)
@given(portals=st.lists(st.integers(0, 120), max_size=6, unique=True),
       portable=st.integers(0, 120), pieces=st.dictionaries(
           st.integers(0, 120), st.sampled_from([(Side.SOUTH, Kind.GUARD),
                                                 (Side.NORTH, Kind.GUARD)]), max_size=20
       ).filter(lambda pieces: all(  # a side has GUARDS_PER_SIDE Guards, no more
           list(pieces.values()).count((side, Kind.GUARD)) <= GUARDS_PER_SIDE for side in Side)))
def test_text_round_trips_custom_portals(portals: list[int], portable: int,
                                         pieces: dict[int, tuple[Side, Kind]]) -> None:
    """Text notation round-trips (issue 7) with Portal squares and a Portable Portal other
    than the defaults, including no permanent Portals at all (portals=-)."""
    p = Position.from_pieces(pieces, portals, portable, Side.NORTH)
    assert Position.from_text(p.to_text()) == p


def test_optional_fields_only_when_not_default() -> None:
    """Text notation (issue 7): portals= and pp= are written only when not the default, and
    may be given in any order (Portal squares too)."""
    p = Position.from_text(f"{EMPTY_BOARD} north pp=c4 portals=i8,c4")
    assert p.portals == (parse_square("c4"), parse_square("i8"))
    assert p.portable == parse_square("c4") and p.to_move is Side.NORTH
    assert p.to_text() == f"{EMPTY_BOARD} north portals=c4,i8 pp=c4"
    assert Position.from_text(f"{EMPTY_BOARD} south portals=c4,i4,c8,i8 pp=f6").to_text() == (
        f"{EMPTY_BOARD} south")
    none = Position.from_text(f"{EMPTY_BOARD} south portals=-")
    assert none.portals == () and none.to_text() == f"{EMPTY_BOARD} south portals=-"


def test_two_digit_runs() -> None:
    """Text notation (issue 7): '11' is one run of eleven empty squares, '10' of ten."""
    p = Position.from_text("10k/11/11/11/11/11/11/11/11/11/K10 south")
    assert p.pieces[parse_square("k11")] == (Side.NORTH, Kind.PRINCE)
    assert p.pieces[parse_square("a1")] == (Side.SOUTH, Kind.PRINCE)
    assert p.to_text() == "10k/11/11/11/11/11/11/11/11/11/K10 south"


@pytest.mark.parametrize("text, words", [
    ("11/11/11 south", "needs 11 ranks, has 3"),
    (EMPTY_BOARD, "side to move"),
    ("11/11/11/11/12/11/11/11/11/11/11 south", "rank 7 of"),
    ("11/11/11/11/12/11/11/11/11/11/11 south", "has 12 squares"),
    ("11/11/11/11/11/11/11/11/11/10/11 south", "rank 2 of '11/11/11/11/11/11/11/11/11/10/11' "
                                               "has 10 squares, not 11"),
    ("11/11/11/11/11/11/11/11/GGGGGGGGGGGG/11/11 south", "rank 3 of"),
    ("11/11/11/11/11/11/11/11/1x9/11/11 south", "unknown piece 'x' in rank 3"),
    ("11/11/11/11/11/11/11/11/P10/11/11 south", "unknown piece 'P' in rank 3"),
    ("11/11/11/11/11/11/11/11/11/011/11 south", "bad run of empty squares '011'"),
    ("11/11/11/11/11/11/11/11/11/0K10/11 south", "bad run of empty squares '0'"),
    ("11/11/11/11/11//11/11/11/11/11 south", "rank 6 of"),
    (f"{EMPTY_BOARD} west", "unknown side 'west'"),
    (f"{EMPTY_BOARD} south foo=1", "unknown field 'foo=1'"),
    (f"{EMPTY_BOARD} south pp", "unknown field 'pp'"),
    (f"{EMPTY_BOARD} south pp=f6 pp=f7", "'pp' is given twice"),
    (f"{EMPTY_BOARD} south pp=z9", "unknown square 'z9'"),
    (f"{EMPTY_BOARD} south portals=c4,c4", "listed twice"),
    (f"{EMPTY_BOARD} south portals=c4,l4", "unknown square 'l4'"),
    (f"{EMPTY_BOARD} south portals=", "unknown square ''"),
    ("K10/11/11/11/11/11/11/11/11/11/K10 south", "south has 2 Princes on a1, a11"),
    ("GGGGGGGGGGG/11/11/11/11/11/11/11/11/11/GGGGG6 south", "south has 16 Guards"),
])
def test_bad_text_is_a_clear_error(text: str, words: str) -> None:
    """Bad text raises PositionError naming the bad part (issue 7); what from_json refuses as
    impossible on a real board (a second Prince, a 16th Guard, a Portal listed twice) is
    refused from text too."""
    with pytest.raises(PositionError) as info:
        Position.from_text(text)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)
