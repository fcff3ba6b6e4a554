"""Portals properties: random legal moves from random reachable positions are explained as
legal and replay; random complete games always end legally. 1,000 games: see
benchmarks/bench_portals.py, and the slow test below, run with ``PORTALS_SLOW=1``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.portals import (
    NO_PORTABLE_PORTAL,
    Position,
    explain,
    is_stalled,
    legal_moves,
    parse_move,
    play,
)
from companion.rules.portals.random_play import random_game, random_midgame, random_move


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120), variant=st.booleans(),
       with_roll=st.booleans())
def test_random_legal_move_is_explained_as_legal_and_replays(seed: int, plies: int,
                                                             variant: bool,
                                                             with_roll: bool) -> None:
    rng = random.Random(seed)
    start = Position.start() if variant else Position.start(NO_PORTABLE_PORTAL)
    p = random_midgame(rng, plies, start)
    assert Position.from_json(p.to_json()) == p
    choice = random_move(p, rng)
    if choice is None:
        assert is_stalled(p)
        return
    move, roll = choice
    assert move in legal_moves(p, roll)
    after = play(p, move)
    ex = explain(p, after, roll if with_roll else None)
    assert ex.legal, ex.describe()
    assert move in ex.moves + ex.alternatives
    for m in ex.moves + ex.alternatives:
        assert play(p, m).same_board(after)
        assert parse_move(m.notation()) == m
    assert ex.winner is after.winner()


def _check_game(seed: int, variant: bool = True) -> None:
    start = Position.start() if variant else Position.start(NO_PORTABLE_PORTAL)
    history, final = random_game(random.Random(seed), start)
    for before, move, roll in history:
        assert move in legal_moves(before, roll)
    replay = start
    for _, move, _ in history:
        replay = play(replay, move)
    assert replay == final
    assert final.winner() is not None or is_stalled(final), f"seed {seed} did not end"
    if final.winner() is not None:
        loser = final.winner().opponent  # type: ignore[union-attr]
        assert final.prince(loser) is None or not final.guards(loser)


@pytest.mark.parametrize("seed", range(50))
def test_random_games_end_legally(seed: int) -> None:
    _check_game(seed, variant=seed % 5 != 0)


@pytest.mark.slow
def test_thousand_random_games_end_legally() -> None:
    for seed in range(1000):
        _check_game(seed, variant=seed % 5 != 0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80), roll=st.sampled_from(
    [None, 1, 2, 3, 4]), data=st.data())
def test_explain_of_any_edited_board_is_consistent(seed: int, plies: int, roll: int | None,
                                                   data: st.DataObject) -> None:
    """Random edits (a piece moved anywhere, a piece removed, the Portable Portal moved):
    explain never raises; legal iff some legal move gives that board; illegal names a rule
    and a plain-words message."""
    p = random_midgame(random.Random(seed), plies)
    board = list(p.pieces)
    occupied = [s for s, x in enumerate(board) if x is not None]
    for _ in range(data.draw(st.integers(1, 3))):
        action = data.draw(st.sampled_from(["move", "remove", "pp"]))
        if action == "move" and occupied:
            a = data.draw(st.sampled_from(occupied))
            b = data.draw(st.integers(0, 120))
            board[a], board[b] = None, board[a]
        elif action == "remove" and occupied:
            board[data.draw(st.sampled_from(occupied))] = None
        elif action == "pp":
            p = p.replace(portable=data.draw(st.integers(0, 120)))
        occupied = [s for s, x in enumerate(board) if x is not None]
    try:
        observed = p.replace(pieces=tuple(board))
    except ValueError:
        return  # two Princes etc. cannot be built: not a board a camera sees
    start = random_midgame(random.Random(seed), plies)
    ex = explain(start, observed, roll)
    reachable = any(play(start, m).same_board(observed) for m in legal_moves(start, roll))
    assert ex.legal == reachable, ex.describe()
    if not ex.legal:
        assert ex.reason is not None and ex.reason.message
