"""Engine against engine: games between two levels, alternating sides, and their tallies with
95% confidence intervals (Wilson score interval).

The levels above 1 choose almost deterministically, so games from the start position would
repeat. Each pair of games (one with each level south) starts instead from the same opening:
a few random turns (the rules core's ``random_midgame``), drawn from the match seed."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.ai.player import RANDOM, choose, level_settings
from companion.rules.teleporters import Position, Side, end_turn, play
from companion.rules.teleporters.random_play import random_midgame

OPENING_TURNS = 2  # random turns (one each side) before the levels take over

Z95 = 1.959963984540054  # the standard normal's 97.5% point


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: sound near 0 and 1 and for small ``n``,
    where the normal approximation is not."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Game:
    """One game: which level played which side, who won (None: a draw at the turn limit),
    and the seconds each side's turns took."""

    south: int
    north: int
    winner: Side | None
    turns: int
    seconds: dict[Side, tuple[float, ...]]

    def level_of(self, side: Side) -> int:
        return self.south if side is Side.SOUTH else self.north


def turn_seed(seed: int, game: int, turn: int) -> int:
    """A seed per turn, so one game's turns (and games) differ but replay the same."""
    return (seed * 100_003 + game) * 1_000_003 + turn


def play_game(south: int, north: int, seed: int, game: int = 0, max_turns: int = 200,
              start: Position | None = None) -> Game:
    """Play until a side wins or ``max_turns`` turns (one side's each) are made. Every turn
    the levels choose is played through the rules core, so an illegal one raises."""
    pos = start or Position.start()
    seconds: dict[Side, list[float]] = {Side.SOUTH: [], Side.NORTH: []}
    for n in range(max_turns):
        side = pos.to_move
        level = south if side is Side.SOUTH else north
        began = time.perf_counter()
        turn = choose(pos, level, turn_seed(seed, game, n))
        seconds[side].append(time.perf_counter() - began)
        state = None
        for move in turn.moves:
            pos, state = play(pos, move, state)
        winner = pos.winner()
        if winner is not None:
            return Game(south, north, winner, n + 1,
                        {s: tuple(v) for s, v in seconds.items()})
        pos = end_turn(pos)
    return Game(south, north, None, max_turns, {s: tuple(v) for s, v in seconds.items()})


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's results over a match."""

    level: int
    wins: int
    draws: int
    losses: int
    seconds: tuple[float, ...]  # per turn

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "level": self.level, "games": self.games, "wins": self.wins,
            "draws": self.draws, "losses": self.losses,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_ci95": [lo, hi],
            "median_s_per_turn": statistics.median(self.seconds) if self.seconds else 0.0,
            "worst_s_per_turn": max(self.seconds, default=0.0),
        }


def opening(seed: int, pair: int, turns: int = OPENING_TURNS) -> Position:
    """The start of the ``pair``-th pair of games: ``turns`` random turns from the start."""
    return random_midgame(random.Random(seed * 100_003 + pair), turns)


def play_match(a: int, b: int, games: int, seed: int = 0, max_turns: int = 200,
               on_game: Callable[[Game], None] | None = None,
               opening_turns: int = OPENING_TURNS) -> tuple[list[Game], Tally, Tally]:
    """``games`` games of level ``a`` against level ``b``, ``a`` south in the even ones;
    games ``2k`` and ``2k + 1`` start from the same opening."""
    for level in (a, b):
        if level != RANDOM:
            level_settings(level)  # an unknown level fails before any game is played
    played: list[Game] = []
    for g in range(games):
        south, north = (a, b) if g % 2 == 0 else (b, a)
        start = opening(seed, g // 2, opening_turns)
        result = play_game(south, north, seed, g, max_turns, start)
        played.append(result)
        if on_game is not None:
            on_game(result)
    return played, _tally(a, played, first=True), _tally(b, played, first=False)


def _tally(level: int, played: list[Game], first: bool) -> Tally:
    wins = draws = losses = 0
    seconds: list[float] = []
    for g, game in enumerate(played):
        # Player A is south in the even games; B in the odd ones (levels may be equal).
        side = Side.SOUTH if (g % 2 == 0) == first else Side.NORTH
        seconds.extend(game.seconds[side])
        if game.winner is None:
            draws += 1
        elif game.winner is side:
            wins += 1
        else:
            losses += 1
    return Tally(level, wins, draws, losses, tuple(seconds))
