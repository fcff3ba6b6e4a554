"""Property tests (hypothesis) and random-play smoke tests of the Telic rules core.

Requirement (issue 7): a random legal move, for a random roll, from random reachable
positions is always explained as legal and replays; complete random games end legally.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.errors import MoveError
from companion.rules.telic import (
    PYRAMIDS,
    Face,
    Piece,
    Position,
    Side,
    explain,
    legal_moves,
    parse_move,
    play,
)
from companion.rules.telic.random_play import random_game, random_midgame

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
faces = st.sampled_from([*list(Face), None])


@SETTINGS
@given(seeds, faces)
def test_random_legal_move_is_explained_as_legal_and_replays(seed: int, face: Face | None
                                                              ) -> None:
    rng = random.Random(seed)
    start = random_midgame(rng, rng.randint(0, 400))
    moves = legal_moves(start, face)
    if not moves:
        return  # e.g. no roll on a first turn, or a roll with an empty stash
    move = rng.choice(moves)
    assert parse_move(move.notation()) == move
    observed = play(start, move, face)
    ex = explain(start, observed, face)
    assert ex.legal, (start.to_json(), move.notation(), face, ex.describe())
    assert move in ex.moves
    for m in ex.moves:  # every explanation replays to the observed board
        assert play(start, m, face).same_board(observed)
    assert Position.from_json(observed.to_json()) == observed
    assert ex.winner is observed.winner()


@SETTINGS
@given(seeds, faces)
def test_random_single_pyramid_change_is_never_legal_unless_a_move_does_it(
        seed: int, face: Face | None) -> None:
    """Dropping one pyramid off a random piece is illegal unless a legal move gives it."""
    rng = random.Random(seed)
    start = random_midgame(rng, rng.randint(2, 300))
    pieces = start.pieces()
    if not pieces:
        return
    sp, piece = rng.choice(pieces)
    board = list(start.board)
    board[sp] = None if piece.height == 1 else Piece(piece.side, piece.sizes[:-1])
    observed = start.replace(board=tuple(board))  # the stash is not compared by explain
    ex = explain(start, observed, face)
    reachable = any(play(start, m, face).same_board(observed)
                    for m in legal_moves(start, face))
    assert ex.legal is reachable
    if not ex.legal:
        assert ex.reason is not None and ex.reason.message


@SETTINGS
@given(seeds, faces, st.integers(min_value=2, max_value=4))
def test_random_multi_turn_change_always_gets_a_verdict(seed: int, face: Face | None,
                                                        turns: int) -> None:
    """Several turns seen as one: explain never raises, and an illegal verdict has a
    reason naming a rule and (unless nothing moved) the spaces involved."""
    rng = random.Random(seed)
    start = random_midgame(rng, rng.randint(2, 300))
    observed = random_midgame(rng, turns) if rng.random() < 0.2 else start
    pos = start
    for _ in range(turns):
        moves = legal_moves(pos, rng.choice(list(Face))) or legal_moves(pos)
        if not moves or pos.winner() is not None:
            break
        pos = play(pos, rng.choice(moves))
        observed = pos
    ex = explain(start, observed, face)
    if not ex.legal:
        assert ex.reason is not None and ex.reason.rule.id and ex.reason.message
        changed = [s for s in range(18) if start.board[s] != observed.board[s]]
        assert set(ex.spaces) <= set(changed) | {s for m in legal_moves(start, face)
                                                 for s in m.spaces()}
    else:
        assert all(play(start, m, face).same_board(observed) for m in ex.moves)


def test_random_games_end_legally() -> None:
    """50 complete random games: every move is legal, notation round-trips, one winner."""
    for seed in range(50):
        history = random_game(random.Random(seed))
        pos = history[0][0]
        assert pos == Position.start()
        for before, face, move in history:
            assert before == pos
            try:
                pos = play(pos, move, face)
            except MoveError as exc:  # pragma: no cover - a bug
                raise AssertionError(f"seed {seed}: {exc}") from None
        winner = pos.winner()
        assert winner is not None, f"seed {seed}: game did not finish"
        assert pos.in_center(winner) == PYRAMIDS
        assert pos.in_center(winner.other) < PYRAMIDS
        assert legal_moves(pos) == [] and all(legal_moves(pos, f) == [] for f in Face)
        assert history[0][1] is not None and history[1][1] is not None  # first turns roll
        assert history[0][0].to_move is Side.BLUE
