"""Levels 1-5: every turn chosen is legal, the same seed gives the same turn, and a level 3+
player takes a win when one is there (rule book, "Goal of the game")."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.ai.player import LEVELS, RANDOM, choose, choose_turn, level_settings
from companion.rules.teleporters import Move, Position, Side, TurnState, end_turn, explain, play
from companion.rules.teleporters.random_play import random_midgame

FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def replay(pos: Position, moves: Sequence[Move]) -> Position:
    state: TurnState | None = None
    for move in moves:
        pos, state = play(pos, move, state)  # raises MoveError on an illegal move
    return pos


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 14), st.sampled_from([RANDOM, 1, 2, 3]))
def test_the_turn_chosen_replays_legally(seed: int, turns: int, level: int) -> None:
    pos = random_midgame(random.Random(seed), turns)
    moves = choose_turn(pos, level, seed)
    last = replay(pos, moves)
    assert len(moves) <= 4
    assert explain(pos, last).legal
    assert end_turn(last).to_move is pos.to_move.opponent


@pytest.mark.parametrize("level", [4, 5])
def test_the_two_ply_levels_choose_legal_turns(level: int) -> None:
    pos = random_midgame(random.Random(7), 9)
    moves = choose_turn(pos, level, 3)
    assert explain(pos, replay(pos, moves)).legal


@pytest.mark.parametrize("level", [RANDOM, *LEVELS])
def test_the_same_seed_gives_the_same_turn(level: int) -> None:
    pos = random_midgame(random.Random(11), 5)
    assert choose_turn(pos, level, 42, budget_s=60) == choose_turn(pos, level, 42,
                                                                   budget_s=60)


def test_level_1_varies_with_the_seed() -> None:
    pos = Position.start()
    assert len({tuple(choose_turn(pos, 1, s)) for s in range(6)}) > 1


def test_the_random_reference_plays_any_legal_turn() -> None:
    """Issue 22, Done when ("level 5 beats a random player in every game"): level 0 is
    that random player, for measurement: legal turns of up to four moves, varying with the
    seed, and no level to play against (`level_settings` still refuses it)."""
    pos = Position.start()
    turns = {tuple(choose_turn(pos, RANDOM, s)) for s in range(8)}
    assert len(turns) > 4 and all(1 <= len(t) <= 4 for t in turns)
    with pytest.raises(ValueError, match="level 0"):
        level_settings(RANDOM)


# Two south Poles on Goal Telepads, two walks short of the win; north has a quiet move or two.
NEAR_WIN = "2PP4/8/4PP2/8/pppp4/8/8/8 south"


@pytest.mark.parametrize("level", [3, 4, 5])
def test_a_level_3_or_higher_player_takes_an_immediate_win(level: int) -> None:
    pos = Position.from_text(NEAR_WIN)
    turn = choose(pos, level, 0)
    assert turn.wins
    assert replay(pos, list(turn.moves)).winner() is Side.SOUTH


def test_a_win_behind_a_port_move_is_found() -> None:
    """A wall must move first: f6's Pole cannot leave north through the wall of its own
    Port in f6's nw corner (walls on the north and west edges), so the Port spins away, then
    the two Poles walk onto their Goal Telepads."""
    pos = Position.from_text("2PP4/8/4P[PNW]2/8/pppp4/8/8/8 south")
    turn = choose(pos, 3, 0)
    assert turn.wins


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level 6"):
        level_settings(6)
