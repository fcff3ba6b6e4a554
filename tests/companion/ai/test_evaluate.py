"""The evaluation (companion/ai/evaluate.py, docs/ai.md): the rule book's goal, "get all four
Pole pieces ... into the other player's starting spaces", decides what scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.ai import evaluate
from companion.ai.turns import Score
from companion.rules.teleporters import Position, Side
from companion.rules.teleporters.random_play import random_midgame

FAST = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("score", [evaluate.quick, evaluate.full])
def test_a_pole_nearer_its_goal_scores_higher_all_else_equal(score: Score) -> None:
    """Goal of the game: the same position but for one south Pole a rank nearer north."""
    far = Position.from_text("2pppp2/8/8/8/3P4/8/8/2PPP3 south")
    near = Position.from_text("2pppp2/8/8/3P4/8/8/8/2PPP3 south")
    assert score(near, Side.SOUTH) > score(far, Side.SOUTH)
    assert score(near, Side.NORTH) < score(far, Side.NORTH)


def test_a_pole_on_a_goal_telepad_scores_its_bonus() -> None:
    """On a Goal Telepad no Port can follow ("They may never enter the Telepad rows")."""
    beside = Position.from_text("1P6/8/8/8/8/8/8/8 south")  # b8: no Telepad
    on_goal = Position.from_text("2P5/8/8/8/8/8/8/8 south")  # c8: a Goal Telepad
    assert (evaluate.progress(on_goal, Side.SOUTH) - evaluate.progress(beside, Side.SOUTH)
            == pytest.approx(1 + evaluate.GOAL_BONUS))


def test_a_win_outweighs_everything() -> None:
    won = Position.from_text("2PPPP2/8/8/8/pppp4/8/8/8 north")
    assert evaluate.quick(won, Side.SOUTH) == evaluate.WIN
    assert evaluate.full(won, Side.NORTH) == -evaluate.WIN


def test_an_own_teleport_nearer_the_goal_is_a_better_route() -> None:
    """Teleporting: Home -> own Teleport; a Teleport carries its Pole for free."""
    low = Position.from_text("8/8/8/8/8/3[SWNE]4/8/8 south")
    high = Position.from_text("8/8/3[SWNE]4/8/8/8/8/8 south")
    assert evaluate.routes(high, Side.SOUTH) > evaluate.routes(low, Side.SOUTH) > 0


def test_a_vault_threat_counts_for_the_side_to_move() -> None:
    """The Pole Vault: with a south Pole and north's Port in a4's ne corner, north's Port
    gliding from f4sw to a4 boxes the Pole in, which is sent home."""
    pos = Position.from_text("8/8/8/8/[Pne]4[sw]2/8/8/8 north")
    quiet = Position.from_text("8/8/8/8/P4[sw]2/8/8/8 north")
    assert evaluate.threats(pos, Side.NORTH) > evaluate.threats(quiet, Side.NORTH)


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 20))
def test_the_evaluation_is_zero_sum(seed: int, turns: int) -> None:
    pos = random_midgame(random.Random(seed), turns)
    for score in (evaluate.quick, evaluate.full):
        assert score(pos, Side.SOUTH) == pytest.approx(-score(pos, Side.NORTH))
