"""Engine against engine: alternating sides, wins with a Wilson 95% interval."""

from __future__ import annotations

import pytest

from companion.ai.match import opening, play_game, play_match, wilson
from companion.rules.teleporters import Position, Side


def test_wilson_interval_matches_known_values() -> None:
    # 8 of 10: the textbook Wilson interval is 0.490 to 0.943.
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


def test_a_game_ends_in_a_draw_at_the_turn_limit() -> None:
    game = play_game(1, 1, seed=0, max_turns=3)
    assert game.turns == 3 and game.winner is None
    assert len(game.seconds[Side.SOUTH]) == 2 and len(game.seconds[Side.NORTH]) == 1


def test_a_match_alternates_sides_and_tallies_both_players() -> None:
    games, a, b = play_match(2, 1, 2, seed=1, max_turns=4)
    assert [(g.south, g.north) for g in games] == [(2, 1), (1, 2)]
    assert a.games == b.games == 2
    assert a.wins == b.losses and a.draws == b.draws
    assert len(a.seconds) == len(b.seconds) == 4


def test_each_pair_of_games_shares_a_seeded_random_opening() -> None:
    """Without openings the levels above 1 would replay the same game."""
    assert opening(5, 0) == opening(5, 0)
    assert opening(5, 0) != opening(5, 1)
    assert opening(5, 0).to_move is Side.SOUTH
    assert opening(5, 0, turns=0) == Position.start()
