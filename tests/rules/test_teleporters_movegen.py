"""The fast move generator (bitboards, precomputed tables) against the plain one it replaced.

Requirement: faster move generation must keep every legal move of "Pole movements", "Port
movements" and "Teleport movements" exactly as it was. The plain generator is kept in
``teleporters_reference_movegen.py``; here both run on random positions, turn states, variants
and explain's search filters, and must give the same moves in the same order (seeded random
play, and with it every seeded test and benchmark position, depends on the order).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.teleporters import (
    CORNERS,
    Corner,
    Move,
    Position,
    Side,
    TurnState,
    Variant,
    blockaded,
    legal_moves,
    successors,
)
from companion.rules.teleporters.movegen import MoveFilter, _moves
from companion.rules.teleporters.position import PortsInSpace
from companion.rules.teleporters.random_play import random_midgame, random_turn
from tests.rules import teleporters_reference_movegen as reference

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)

# The disputed readings of docs/rules/teleporters.md, alone and together.
VARIANTS: tuple[Variant, ...] = (
    Variant(),
    Variant.from_flags(["send_marker=either"]),
    Variant.from_flags(["send_marker=port"]),
    Variant.from_flags(["wrap_rows=quadrants"]),
    Variant.from_flags(["carry=always"]),
    Variant.from_flags(["send_marker=either", "wrap_rows=quadrants", "carry=always"]),
)
variants = st.sampled_from(VARIANTS)


def _same(pos: Position, turn: TurnState, flt: MoveFilter | None = None) -> list[Move]:
    got = _moves(pos, turn, flt)
    want = list(reference._moves(pos, turn, flt))
    assert [m.notation() for m in got] == [m.notation() for m in want], pos.to_text()
    assert got == want
    return got


def _target_filter(observed: Position, mover: Side) -> MoveFilter:
    """The filter explain() searches with when heading for ``observed``."""
    other = mover.opponent
    return MoveFilter(
        observed.pole_squares(mover),
        frozenset((p.square, p.corner) for p in observed.placements(mover)),
        observed.pole_squares(other),
        frozenset((p.square, p.corner) for p in observed.placements(other)),
    )


def _random_filter(rng: random.Random) -> MoveFilter:
    def squares() -> frozenset[int]:
        return frozenset(rng.sample(range(64), rng.randint(0, 20)))

    def placements() -> frozenset[tuple[int, Corner]]:
        return frozenset((rng.randrange(64), rng.choice(CORNERS))
                         for _ in range(rng.randint(0, 24)))

    return MoveFilter(squares(), placements(), squares(), placements())


def _scattered(rng: random.Random, variant: Variant) -> Position:
    """Any position a camera could see: Poles and Ports anywhere (Telepad rows included),
    two-colour pairs, Poles boxed in, often enough to be blockaded."""
    sides = (Side.SOUTH, Side.NORTH)
    poles: list[Side | None] = [rng.choice(sides) if rng.random() < 0.3 else None
                                for _ in range(64)]
    ports: list[PortsInSpace] = []
    for _ in range(64):
        roll = rng.random()
        if roll < 0.2:
            ports.append(((rng.choice(CORNERS), rng.choice(sides)),))
        elif roll < 0.3:
            first = rng.choice((Corner.SW, Corner.SE))
            pair = ((first, rng.choice(sides)), (first.opposite, rng.choice(sides)))
            ports.append(tuple(sorted(pair, key=lambda cs: CORNERS.index(cs[0]))))
        else:
            ports.append(())
    return Position(tuple(poles), tuple(ports), rng.choice(sides), variant)


def _random_marks(rng: random.Random, pos: Position) -> TurnState:
    """Markers already used on some of the mover's pieces (at most two of each kind)."""
    side = pos.to_move
    own_poles = sorted(pos.pole_squares(side))
    own_ports = sorted(((p.square, p.corner) for p in pos.placements(side)),
                       key=lambda sc: (sc[0], sc[1].value))
    teleports = [sq for sq, _ in pos.teleports(side)]
    n_port = rng.randint(0, 2)
    n_teleport = rng.randint(0, 2 - n_port)
    return TurnState(
        tuple(rng.sample(own_poles, min(len(own_poles), rng.randint(0, 2)))),
        tuple(rng.sample(own_ports, min(len(own_ports), n_port))),
        tuple(rng.sample(teleports, min(len(teleports), n_teleport))),
    )


@SETTINGS
@given(seeds, variants, st.integers(min_value=0, max_value=3))
def test_movements_same_moves_in_same_order_on_random_midgames(
        seed: int, variant: Variant, played: int) -> None:
    """Pole, Port and Teleport movements: on positions of random legal play, after 0-3 moves
    of the turn (markers used), the fast generator lists exactly the plain one's moves."""
    rng = random.Random(seed)
    start = random_midgame(rng, rng.randint(0, 40), Position.start(variant))
    _, pos, turn = random_turn(start, rng, played)
    moves = _same(pos, turn)
    assert legal_moves(pos, turn) == moves
    assert [m for m, _, _ in successors(pos, turn)] == moves


@SETTINGS
@given(seeds, variants)
def test_movements_same_moves_under_explains_filter(seed: int, variant: Variant) -> None:
    """explain() searches with a filter of where the moved pieces must end up: the fast
    generator keeps exactly the moves the plain one keeps, for the target of a random turn
    and for a random filter."""
    rng = random.Random(seed)
    start = random_midgame(rng, rng.randint(0, 40), Position.start(variant))
    _, observed, _ = random_turn(start, rng, rng.randint(1, 4))
    _, pos, turn = random_turn(start, rng, rng.randint(0, 2))
    _same(pos, turn, _target_filter(observed, start.to_move))
    _same(pos, turn, _random_filter(rng))


@SETTINGS
@given(seeds, variants)
def test_movements_same_moves_on_scattered_positions(seed: int, variant: Variant) -> None:
    """Odd layouts a camera may report (Ports in Telepad rows, two colours in one space,
    crowded boards, used markers): the same moves, and the same Blockade verdicts ("totally
    surrounded" and no repel or vault that frees the Pole)."""
    rng = random.Random(seed)
    pos = _scattered(rng, variant)
    _same(pos, TurnState())
    _same(pos, _random_marks(rng, pos))
    _same(pos, TurnState(), _random_filter(rng))
    for sq in range(64):
        if pos.poles[sq] is not None:
            assert blockaded(pos, sq) == reference.blockaded(pos, sq), (pos.to_text(), sq)


def test_blockade_escape_is_listed_like_the_reference() -> None:
    """Blockade: "a Pole totally surrounded by the other player's game pieces ... may be
    moved to any vacant Home Telepad" (here south's d4 Pole, boxed in by north Poles)."""
    pos = Position.from_text("8/8/8/3p4/2pPp3/3p4/8/2P1P3 south")
    moves = _same(pos, TurnState())
    assert {m.notation() for m in moves if m.notation().startswith("Pd4")} == {"Pd4!d1",
                                                                             "Pd4!f1"}
