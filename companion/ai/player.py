"""The companion's opponent, levels 1 to 5: ``choose_turn(position, level, seed)``.

==========  ====================================================================================
level 1     a narrow beam (3) by the quick evaluation; a random turn among the better half
level 2     a beam of 4; the best turn by the quick evaluation (ties broken by the seed)
level 3     a beam of 8; the 12 best turns scored again by the full evaluation; the best one
level 4     as level 3, then the opponent's best reply (beam 3, quick evaluation) to each of the
            4 best, and the turn whose worst case is best (two plies)
level 5     a beam of 12, 16 turns scored in full, the replies to the best 8 (beam 4)
==========  ====================================================================================

Every level takes a winning turn when its beam finds one (the win scores above all else).
The same position, level and seed give the same turn: the only randomness is a
``random.Random(seed)``, and every list is in the rules core's generation order. A time
budget is a safety net only: once spent, level 4-5 stop looking at replies and choose among
the turns already weighed (then, and only then, the choice can depend on the machine).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from companion.ai import evaluate
from companion.ai.turns import Turn, whole_turns
from companion.rules.teleporters import Move, Position
from companion.rules.teleporters.random_play import random_turn

LEVELS = (1, 2, 3, 4, 5)
# Not a level to play against: random legal turns, the reference the strength targets are
# measured against (`companion ai match --levels 5,0`).
RANDOM = 0
MATCH_LEVELS = (RANDOM, *LEVELS)


@dataclass(frozen=True, slots=True)
class Level:
    """How hard one level looks: see the module's table."""

    number: int
    beam: int  # partial turns carried on after each move
    finalists: int  # whole turns scored again by the full evaluation (0: none)
    replies: int  # of those, turns whose opponent reply is searched (0: one ply)
    reply_beam: int
    random_half: bool = False  # level 1: any of the better half
    budget_s: float | None = None  # the safety net (seconds), None: none


LEVEL_SETTINGS = {
    1: Level(1, beam=3, finalists=0, replies=0, reply_beam=0, random_half=True),
    2: Level(2, beam=4, finalists=0, replies=0, reply_beam=0),
    3: Level(3, beam=8, finalists=12, replies=0, reply_beam=0),
    4: Level(4, beam=8, finalists=12, replies=4, reply_beam=3, budget_s=3.0),
    5: Level(5, beam=12, finalists=16, replies=8, reply_beam=4, budget_s=3.5),
}


def level_settings(level: int) -> Level:
    settings = LEVEL_SETTINGS.get(level)
    if settings is None:
        raise ValueError(f"level {level!r} is not one of {', '.join(map(str, LEVELS))}")
    return settings


def _best(scored: list[tuple[float, Turn]], rng: random.Random) -> Turn:
    """The highest score; among equal ones, the seed's pick."""
    top = max(s for s, _ in scored)
    return rng.choice([t for s, t in scored if s == top])


def choose_turn(position: Position, level: int, seed: int = 0,
                budget_s: float | None = None) -> list[Move]:
    """The moves of ``position.to_move``'s turn at ``level`` (1-5), in order. Play them with
    ``play`` and then ``end_turn``. ``budget_s`` overrides the level's safety net."""
    return list(choose(position, level, seed, budget_s).moves)


def choose(position: Position, level: int, seed: int = 0,
           budget_s: float | None = None) -> Turn:
    """As :func:`choose_turn`, with the position the turn leaves and its score. Level
    :data:`RANDOM` (0) plays up to four random legal moves (the rules core's
    ``random_turn``), its score 0."""
    if level == RANDOM:
        moves, last, _ = random_turn(position, random.Random(seed))
        return Turn(moves, last, 0.0)
    settings = level_settings(level)
    budget = budget_s if budget_s is not None else settings.budget_s
    started = time.perf_counter()
    rng = random.Random(seed)
    side = position.to_move
    turns = whole_turns(position, settings.beam, evaluate.quick)
    if len(turns) == 1 or turns[0].wins:
        return turns[0]
    if settings.random_half:
        return rng.choice(turns[:max(1, (len(turns) + 1) // 2)])
    if not settings.finalists:
        return _best([(t.score, t) for t in turns], rng)
    finalists = [(evaluate.full(t.after, side), t) for t in turns[:settings.finalists]]
    if not settings.replies:
        return _best(finalists, rng)
    finalists.sort(key=lambda st: -st[0])  # stable: the quick order among equals
    weighed: list[tuple[float, Turn]] = []
    for _, turn in finalists[:settings.replies]:
        if weighed and budget is not None and time.perf_counter() - started > budget:
            break
        # The opponent's best reply by its own quick evaluation; a win of theirs is found first.
        reply = whole_turns(turn.after, settings.reply_beam, evaluate.quick)[0]
        weighed.append((evaluate.full(reply.after, side), turn))
    return _best(weighed, rng)
