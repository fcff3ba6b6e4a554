"""Random legal play: test beds for property tests, benchmarks and smoke runs."""

from __future__ import annotations

import random

from companion.rules.portals.board import MAX_ROLL
from companion.rules.portals.movegen import apply_unchecked, legal_moves, piece_moves
from companion.rules.portals.moves import Move
from companion.rules.portals.position import Position

MAX_PLIES = 3000


def random_move(position: Position, rng: random.Random) -> tuple[Move, int | None] | None:
    """A random legal turn, playing it like a person: pick a piece move; after a capture, toss
    a coin to move the Portable Portal, then roll the d4 and pick a direction.
    Returns ``(move, roll)`` (roll None when the die was not rolled), or None if stuck."""
    moves = piece_moves(position)
    if not moves:
        return None
    move = rng.choice(moves)
    if move.capture and position.variant.portable_portal and rng.random() < 0.5:
        roll = rng.randint(1, MAX_ROLL)
        options = [m for m in legal_moves(position, roll) if m.without_shift() == move]
        if options:
            return rng.choice(options), roll
    return move, None


def random_game(rng: random.Random, position: Position | None = None,
                max_plies: int = MAX_PLIES) -> tuple[list[tuple[Position, Move, int | None]],
                                                     Position]:
    """A random game from ``position`` (default the start) until a win, a stall, or
    ``max_plies``. Returns the ``(before, move, roll)`` history and the final position."""
    pos = position or Position.start()
    history = []
    for _ in range(max_plies):
        if pos.winner() is not None:
            break
        choice = random_move(pos, rng)
        if choice is None:
            break
        move, roll = choice
        history.append((pos, move, roll))
        pos = apply_unchecked(pos, move)
    return history, pos


def random_midgame(rng: random.Random, plies: int, position: Position | None = None
                   ) -> Position:
    """The position after up to ``plies`` random moves, stopping before a win."""
    pos = position or Position.start()
    for _ in range(plies):
        choice = random_move(pos, rng)
        if choice is None:
            break
        after = apply_unchecked(pos, choice[0])
        if after.winner() is not None:
            break
        pos = after
    return pos
