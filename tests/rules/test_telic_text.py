"""Telic positions as one line of text: round trips, the start position, and bad input
(issue 7: each game has a text notation)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.errors import PositionError
from companion.rules.telic import PYRAMIDS, Piece, Position, Side, parse_space
from companion.rules.telic.random_play import random_game, random_midgame

START_TEXT = "- blue first"
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_start_position_text() -> None:
    """The start (Setup: empty board, every pyramid stashed, blue's first turn), literally."""
    assert Position.start().to_text() == START_TEXT
    assert Position.from_text(START_TEXT) == Position.start()


@SETTINGS
@given(seeds, st.integers(0, 600))
def test_text_round_trips_for_random_midgames(seed: int, turns: int) -> None:
    """Text notation round-trips (issue 7): from_text(to_text(p)) == p, and so does every
    JSON field, for positions reached by random legal play."""
    p = random_midgame(random.Random(seed), turns)
    text = p.to_text()
    assert "\n" not in text
    assert Position.from_text(text) == p
    assert Position.from_text(text).to_json() == p.to_json()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds)
def test_text_round_trips_through_whole_random_games(seed: int) -> None:
    """Text notation round-trips (issue 7) for every position of a random complete game: both
    first turns, the Center Zone filling up, and the positions just before the win."""
    history = random_game(random.Random(seed))
    assert history
    for p, _, _ in history:
        assert Position.from_text(p.to_text()) == p
    assert [p.first_turn for p, _, _ in history[:3]] == [True, True, False]


@SETTINGS
@given(st.dictionaries(st.sampled_from(range(18)), st.tuples(
           st.sampled_from(list(Side)), st.lists(st.integers(1, 6), min_size=1, max_size=3)),
       max_size=6),
       st.lists(st.integers(1, 6), max_size=6), st.sampled_from(list(Side)), st.booleans())
def test_text_round_trips_any_physical_position(
        pieces: dict[int, tuple[Side, list[int]]], stash_sizes: list[int], to_move: Side,
        first: bool) -> None:
    """Text notation round-trips (issue 7) for positions a camera could see but play would
    not reach: unordered stacks, part stashes, either side to move, first turn or not."""
    try:
        p = Position.from_pieces({sp: (s, sizes) for sp, (s, sizes) in pieces.items()},
                                 {Side.BLUE: stash_sizes}, to_move, first)
    except PositionError:
        return  # more than two pyramids of one size: not a position
    assert Position.from_text(p.to_text()) == p


def test_every_json_field_is_in_the_text() -> None:
    """Text notation (issue 7): board pieces (sizes bottom to top), side to move, first turn,
    and the Center Zone (so the stash) are all written; the rest of the pyramids are stashed."""
    p = Position.from_text("b3:B52,k5:R4 red first cz=B1166,R3")
    assert p.board[parse_space("b3")] == Piece(Side.BLUE, (5, 2))
    assert p.board[parse_space("k5")] == Piece(Side.RED, (4,))
    assert p.to_move is Side.RED and p.first_turn
    assert p.center_sizes(Side.BLUE) == [1, 1, 6, 6] and p.center_sizes(Side.RED) == [3]
    assert p.stash(Side.BLUE) == (0, 1, 2, 2, 1, 0)
    assert p.in_center(Side.BLUE) == 4 and p.stash_count(Side.RED) == PYRAMIDS - 2
    assert p.to_text() == "b3:B52,k5:R4 red first cz=B1166,R3"
    # Any order of spaces and of Center Zone sides is read; the output is in space order.
    q = Position.from_text("k5:R4,b3:B52 red cz=R3,B6611 first")
    assert q == p


def test_a_won_position_round_trips() -> None:
    """Text notation (issue 7): the winning position, every blue pyramid in the Center Zone."""
    won = Position.from_text("- red cz=B112233445566")
    assert won.winner() is Side.BLUE
    assert Position.from_text(won.to_text()) == won


@pytest.mark.parametrize("text, words", [
    ("-", "needs the board and the side to move"),
    ("- green", "unknown side 'green'"),
    ("zz:B5 blue", "unknown space 'zz'"),
    ("b3 blue", "board entry 'b3'"),
    ("b3:X5 blue", "unknown colour 'X' in piece 'X5' on b3"),
    ("b3:B blue", "unknown piece 'B' on b3"),
    ("b3:5 blue", "unknown piece '5' on b3"),
    ("b3:B7 blue", "piece 'B7' on b3: pyramid size 7 is not 1..6"),
    ("b3:B0 blue", "pyramid size 0"),
    ("b3:B5,b3:B4 blue", "space b3 is given twice"),
    ("b3:B666 blue", "blue has 3 pyramids of size 6"),
    ("b3:R66 blue cz=R6", "red has 3 pyramids of size 6 on the board and in the Center Zone"),
    ("- blue cz=B7", "size 7 is not 1..6"),
    ("- blue cz=B1,B2", "blue is given twice"),
    ("- blue cz=Q1", "unknown colour 'Q'"),
    ("- blue cz=B1 cz=R1", "'cz' is given twice"),
    ("- blue first first", "'first' is given twice"),
    ("- blue foo=1", "unknown field 'foo=1'"),
    ("- blue first=yes", "unknown field 'first=yes'"),
    ("- blue second", "unknown field 'second'"),
    ("b3:B6655443322116 blue", "a piece holds 1 to 12 pyramids, got 13"),
])
def test_bad_text_is_a_clear_error(text: str, words: str) -> None:
    """Bad text raises PositionError naming the bad part (issue 7); what from_json refuses as
    impossible (a third pyramid of a size, sizes outside 1..6, two pieces on a space) is
    refused from text too."""
    with pytest.raises(PositionError) as info:
        Position.from_text(text)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)
