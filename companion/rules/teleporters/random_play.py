"""Random legal play: test beds for property tests, benchmarks and smoke runs."""

from __future__ import annotations

import random

from companion.rules.teleporters.movegen import end_turn, successors
from companion.rules.teleporters.moves import Move, TurnState
from companion.rules.teleporters.position import Position


def random_turn(position: Position, rng: random.Random, n_moves: int = 4
                ) -> tuple[tuple[Move, ...], Position, TurnState]:
    """Up to ``n_moves`` random legal moves of the side to move (fewer if it runs out)."""
    turn = TurnState()
    moves: list[Move] = []
    pos = position
    for _ in range(n_moves):
        options = list(successors(pos, turn))
        if not options:
            break
        move, pos, turn = rng.choice(options)
        moves.append(move)
        if pos.winner() is not None:
            break
    return tuple(moves), pos, turn


def random_midgame(rng: random.Random, turns: int, position: Position | None = None
                   ) -> Position:
    """The position after ``turns`` random full turns from the start, stopping before a win."""
    pos = position or Position.start()
    for _ in range(turns):
        _, after, _ = random_turn(pos, rng)
        if after.winner() is not None:
            break
        pos = end_turn(after)
    return pos
