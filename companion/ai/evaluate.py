"""How good a Teleporters position is for one side, in points (one point: one space of one
Pole's way to its Goal).

Every term reads the position, or asks the rules core (``surrounded``, ``walk_targets``,
``legal_moves``); none knows a rule of its own. Each is "ours minus theirs", so the score of
a position for one side is minus its score for the other. The rule book's goal ("get all four
Pole pieces ... into the other player's starting spaces") decides what counts:

* **win**: all four Poles on their Goal Telepads (``Position.winner``): ``WIN`` points, and
  nothing else counts.
* **Poles home** (``progress``): minus each Pole's distance to the nearest of its Goal
  Telepads (ranks plus files, the a/h wrap-around taken where shorter), and ``GOAL_BONUS`` for
  each Pole standing on one: there no Port can follow it ("They may never enter the Telepad
  rows"), so no Teleport can vault it home, and Goal -> Goal teleports are open to it.
* **Teleport routes** (``routes``): a Pole may teleport from Home into its own Teleport, and a
  Teleport carries its Pole for free, so each own Teleport is worth ``TELEPORT_BASE`` plus
  ``TELEPORT_REACH`` for each space it stands nearer the Goal than the Home row.

The full evaluation (used on whole turns, not on every partial one) adds:

* **blockades**: ``BLOCKADE`` for each opponent Pole ``surrounded`` by our pieces, minus the
  same for ours (a surrounded Pole loses its walks, and its escape goes back Home);
* **threats of vault and repel**: the side to move's Port moves are listed by the rules core;
  the best Pole Vault among them would send a Pole home, losing its way made (its distance
  from Home to where it stands), and each repel sends a Port back to its Portpad. The side
  to move gets ``THREAT_NOW`` of the best vault's loss and ``REPEL_NOW`` per Port it can
  repel; the side that moves after it, which cannot act before a reply, a third of that;
* **mobility**: ``MOBILITY`` for each space our Poles can walk to, minus theirs.

There is no material term: no piece ever leaves the mat; what a vault or a repel takes away
is tempo, counted by the terms above.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.teleporters import (
    PortMove,
    Position,
    Side,
    Square,
    Variant,
    legal_moves,
    surrounded,
    walk_targets,
)

WIN = 1000.0
GOAL_BONUS = 3.0
TELEPORT_BASE = 1.0
TELEPORT_REACH = 0.4
BLOCKADE = 2.0
THREAT_NOW = 0.6
REPEL_NOW = 0.3
LATER = 1 / 3  # weight of the threats of the side that does not move next
MOBILITY = 0.05


@dataclass(frozen=True, slots=True)
class _Distances:
    """Per side (0 south, 1 north): each square's distance to the nearest Goal Telepad, and
    the distance of the Home row from the Goal."""

    to_goal: tuple[tuple[int, ...], tuple[int, ...]]
    goal: tuple[frozenset[Square], frozenset[Square]]
    from_home: tuple[int, int]


_CACHE: dict[int, tuple[Variant, _Distances]] = {}


def _walking_distance(a: Square, b: Square) -> int:
    files = abs((a & 7) - (b & 7))
    return abs((a >> 3) - (b >> 3)) + min(files, 8 - files)


def _distances(variant: Variant) -> _Distances:
    # Keyed by identity (holding the variant so the id stays its own): Variant hashes slowly.
    hit = _CACHE.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    sides = (Side.SOUTH, Side.NORTH)
    to_goal = tuple(tuple(min(_walking_distance(sq, g) for g in variant.goal(s))
                          for sq in range(64)) for s in sides)
    from_home = tuple(min(to_goal[i][h] for h in variant.home(s)) for i, s in enumerate(sides))
    dist = _Distances((to_goal[0], to_goal[1]),
                      (frozenset(variant.goal(Side.SOUTH)), frozenset(variant.goal(Side.NORTH))),
                      (from_home[0], from_home[1]))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(variant)] = (variant, dist)
    return dist


def _index(side: Side) -> int:
    return 0 if side is Side.SOUTH else 1


def progress(position: Position, side: Side) -> float:
    """Poles home, for ``side`` minus for its opponent."""
    dist = _distances(position.variant)
    score = 0.0
    for sq, owner in enumerate(position.poles):
        if owner is None:
            continue
        i = _index(owner)
        value = -dist.to_goal[i][sq] + (GOAL_BONUS if sq in dist.goal[i] else 0.0)
        score += value if owner is side else -value
    return score


def routes(position: Position, side: Side) -> float:
    """Teleport routes, for ``side`` minus for its opponent."""
    dist = _distances(position.variant)
    score = 0.0
    for sq, here in enumerate(position.ports):
        owner = position.teleport_at(sq) if len(here) == 2 else None
        if owner is None:
            continue
        i = _index(owner)
        value = TELEPORT_BASE + TELEPORT_REACH * (dist.from_home[i] - dist.to_goal[i][sq])
        score += value if owner is side else -value
    return score


def quick(position: Position, side: Side) -> float:
    """The evaluation used on every partial turn: win, Poles home, Teleport routes."""
    winner = position.winner()
    if winner is not None:
        return WIN if winner is side else -WIN
    return progress(position, side) + routes(position, side)


def blockades(position: Position, side: Side) -> float:
    score = 0.0
    for sq, owner in enumerate(position.poles):
        if owner is not None and surrounded(position, sq):
            score += -BLOCKADE if owner is side else BLOCKADE
    return score


def threats(position: Position, mover: Side) -> float:
    """What ``mover``'s Port moves, were it to move now, could take from the other side."""
    dist = _distances(position.variant)
    victim = _index(mover.opponent)
    best_vault = 0.0
    repelled: set[tuple[Square, Square]] = set()
    for move in legal_moves(position.replace(to_move=mover)):
        if not isinstance(move, PortMove):
            continue
        if move.vault_to is not None:
            lost = dist.from_home[victim] - dist.to_goal[victim][move.to]
            best_vault = max(best_vault, float(lost))
        elif move.repel_to is not None:
            repelled.add((move.to, move.repel_to))
    return THREAT_NOW * best_vault + REPEL_NOW * len({to for to, _ in repelled})


def mobility(position: Position, side: Side) -> float:
    score = 0.0
    for sq, owner in enumerate(position.poles):
        if owner is not None:
            n = MOBILITY * len(walk_targets(position, sq))
            score += n if owner is side else -n
    return score


def full(position: Position, side: Side) -> float:
    """The evaluation of a whole turn's result: :func:`quick` plus blockades, threats of
    vault and repel (the side to move's weighing more) and mobility."""
    winner = position.winner()
    if winner is not None:
        return WIN if winner is side else -WIN
    now, later = position.to_move, position.to_move.opponent
    threat = threats(position, now) - LATER * threats(position, later)
    return (quick(position, side) + blockades(position, side) + mobility(position, side)
            + (threat if now is side else -threat))
