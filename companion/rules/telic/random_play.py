"""Random legal play: test beds for property tests, benchmarks and smoke runs."""

from __future__ import annotations

import random

from companion.rules.telic.board import Face
from companion.rules.telic.movegen import apply, legal_moves
from companion.rules.telic.moves import Move
from companion.rules.telic.position import Position

FACES = tuple(Face)


def random_turn(position: Position, rng: random.Random, roll_chance: float = 0.5
                ) -> tuple[Face | None, Move, Position] | None:
    """One random legal turn: (roll or None, move, position after); None if the game is over.

    The player rolls on its first turn, never with an empty stash, and otherwise with
    probability ``roll_chance`` (always when no board move exists).
    """
    if position.winner() is not None:
        return None
    steps = legal_moves(position, None)
    can_roll = position.stash_count(position.to_move) > 0
    if can_roll and (not steps or rng.random() < roll_chance):
        face = rng.choice(FACES)
        moves = legal_moves(position, face)
        move = rng.choice(moves)
        return face, move, apply(position, move)
    move = rng.choice(steps)
    return None, move, apply(position, move)


def random_game(rng: random.Random, max_turns: int = 20000
                ) -> list[tuple[Position, Face | None, Move]]:
    """A complete random game: (position before, roll, move) for each turn."""
    pos = Position.start()
    history: list[tuple[Position, Face | None, Move]] = []
    for _ in range(max_turns):
        turn = random_turn(pos, rng)
        if turn is None:
            break
        face, move, after = turn
        history.append((pos, face, move))
        pos = after
    return history


def random_midgame(rng: random.Random, turns: int) -> Position:
    """The position after up to ``turns`` random turns from the start, stopping before a win."""
    pos = Position.start()
    for _ in range(turns):
        turn = random_turn(pos, rng)
        if turn is None or turn[2].winner() is not None:
            break
        pos = turn[2]
    return pos
