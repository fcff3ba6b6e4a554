"""Whole turns (rule book, "Taking turns": up to two Poles and two Ports or Teleports, four
different pieces, in any order): every turn the beam finds replays legally through the rules
core, and the orderings of one turn are one."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.ai.evaluate import quick
from companion.ai.turns import whole_turns
from companion.rules.teleporters import Position, TurnState, end_turn, explain, play
from companion.rules.teleporters.random_play import random_midgame

FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def midgame(seed: int, turns: int) -> Position:
    return random_midgame(random.Random(seed), turns)


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 16))
def test_every_whole_turn_replays_legally_and_within_the_markers(seed: int, turns: int) -> None:
    pos = midgame(seed, turns)
    found = whole_turns(pos, 3, quick)
    assert found
    for turn in found[:12]:
        state: TurnState | None = None
        now = pos
        for move in turn.moves:
            now, state = play(now, move, state)  # raises on an illegal move
        assert now == turn.last
        assert len(turn.moves) <= 4
        assert turn.after == end_turn(now)
    # The camera's view of the best turn is a legal turn for the referee too.
    best = found[0]
    assert explain(pos, best.last).legal


def test_orderings_of_one_turn_are_one_whole_turn() -> None:
    """Dedupe by resulting position: no two whole turns leave the same board."""
    found = whole_turns(Position.start(), 6, quick)
    boards = [t.last.board_key() for t in found]
    assert len(boards) == len(set(boards))
    assert all(not t.last.same_board(Position.start()) for t in found)


def test_the_beam_finds_a_turn_of_four_moves_best_first() -> None:
    found = whole_turns(Position.start(), 4, quick)
    assert max(len(t.moves) for t in found) == 4
    scores = [t.score for t in found]
    assert scores == sorted(scores, reverse=True)


def test_a_winning_turn_is_the_only_one_returned() -> None:
    """Goal of the game: all four Poles on the Goal Telepads; two walks reach it here."""
    pos = Position.from_text("2PP4/8/4PP2/8/pppp4/8/8/8 south")
    found = whole_turns(pos, 4, quick)
    assert len(found) == 1 and found[0].wins
    assert found[0].last.winner() is pos.to_move
