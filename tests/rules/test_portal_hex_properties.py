"""Portal properties: random legal play is explained as legal, every single-change edit that no
legal move makes is explained as illegal, JSON and notation round-trip over random reachable
positions, and guided random games end with a winner. 1,000 games: run with
``PORTAL_HEX_SLOW=1`` (and see benchmarks/bench_portal_hex.py)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.errors import PositionError
from companion.rules.portal_hex import (
    Position,
    Rule,
    Variant,
    check_move,
    explain,
    legal_moves,
    parse_move,
    play,
)
from companion.rules.portal_hex.movegen import apply_unchecked, pass_allowed
from companion.rules.portal_hex.moves import PASS
from companion.rules.portal_hex.random_play import (
    guided_move,
    random_game,
    random_midgame,
    random_variant,
    roll_for,
    uniform_move,
)

FAST = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _position(seed: int, plies: int, guided: bool = True) -> Position:
    rng = random.Random(seed)
    variant = random_variant(rng)
    if variant.radius > 5:  # keep the property tests quick
        variant = Variant(radius=5, players=min(variant.players, 5), pawns=variant.pawns,
                          demons=variant.demons, per_platform=variant.per_platform,
                          dice=variant.dice)
    return random_midgame(rng, plies, Position.start(variant), guided=guided)


@FAST
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150), guided=st.booleans())
def test_json_and_notation_round_trip(seed: int, plies: int, guided: bool) -> None:
    p = _position(seed, plies, guided)
    assert Position.from_json(p.to_json()) == p
    assert Position.from_json(p.to_json_text()) == p
    rolls = [None] + (list(range(1, 9)) if p.variant.dice else [])
    for roll in rolls:
        for move in legal_moves(p, roll):
            assert parse_move(move.notation()) == move
            assert check_move(p, move, roll) is None, (move, roll)


@FAST
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200), guided=st.booleans())
def test_pass_is_allowed_exactly_when_legal_moves_offers_it(seed: int, plies: int,
                                                            guided: bool) -> None:
    """Przebieg rozgrywki, "W przypadku braku możliwości wykonania ruchu tura się kończy"
    (with no possible action the turn ends): the quick check that does not list every build
    agrees with the full list, for every roll, and its example action is a legal one."""
    p = _position(seed, plies, guided)
    for roll in [None] + (list(range(1, 9)) if p.variant.dice else []):
        moves = legal_moves(p, roll)
        may, example = pass_allowed(p, roll)
        assert may == (PASS in moves), roll
        if not may and moves:
            assert example is not None and check_move(p, example, roll) is None


@FAST
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150), guided=st.booleans(),
       known_roll=st.booleans())
def test_random_legal_move_is_explained_as_legal(seed: int, plies: int, guided: bool,
                                                 known_roll: bool) -> None:
    """The move found by explain yields the observed board, and the move played is among
    the moves (or alternatives) found."""
    p = _position(seed, plies, guided)
    rng = random.Random(seed + 1)
    roll = roll_for(p, rng)
    move = (guided_move if guided else uniform_move)(p, rng, roll)
    if move is None:
        assert p.winner() is not None
        return
    after = play(p, move, roll)
    ex = explain(p, after, roll if known_roll else None)
    assert ex.legal, ex.describe()
    assert move in ex.moves + ex.alternatives, ex.describe()
    for m in ex.moves + ex.alternatives:
        assert apply_unchecked(p, m).same_board(after)
    assert ex.winner is apply_unchecked(p, ex.moves[0]).winner()


def _edit(p: Position, rng: random.Random, data: st.DataObject) -> Position | None:
    """One random change a player's hand could make: a pawn added, removed or moved, an
    element with arrows added, an arrow added, an element or arrow removed."""
    geo = p.geometry
    doc = p.to_json()
    names = [geo.name(i) for i in range(len(geo.cells))]
    action = data.draw(st.sampled_from(["add-pawn", "remove-pawn", "move-pawn", "element",
                                        "arrow", "remove-element", "remove-arrow"]))
    owners = [c.value for c in p.variant.colours] + (["demon"] if p.variant.demons else [])
    pawns: dict = doc["pawns"]
    if action == "add-pawn":
        cell = data.draw(st.sampled_from(names))
        owner = data.draw(st.sampled_from(owners))
        have = pawns.get(cell, [])
        pawns[cell] = ([have] if isinstance(have, str) else have) + [owner]
    elif action in ("remove-pawn", "move-pawn") and pawns:
        cell = data.draw(st.sampled_from(sorted(pawns)))
        have = pawns[cell] if isinstance(pawns[cell], list) else [pawns[cell]]
        owner = have.pop()
        if have:
            pawns[cell] = have
        else:
            del pawns[cell]
        if action == "move-pawn":
            to = data.draw(st.sampled_from(names))
            there = pawns.get(to, [])
            pawns[to] = ([there] if isinstance(there, str) else there) + [owner]
    elif action == "element":
        empty = [geo.name(i) for i, k in enumerate(p.kinds) if k is None]
        if not empty:
            return None
        cell = data.draw(st.sampled_from(empty))
        doc["cells"][cell] = data.draw(st.sampled_from(["portal", "platform"]))
        i = geo.index[geo.cells[names.index(cell)]]
        for j in geo.neighbours[i]:
            if p.kinds[j] is not None:
                way = data.draw(st.sampled_from(["none", "in", "out", "none"]))
                if way == "in":
                    doc["arrows"].append([geo.name(j), cell])
                elif way == "out":
                    doc["arrows"].append([cell, geo.name(j)])
    elif action == "arrow":
        built = [i for i, k in enumerate(p.kinds) if k is not None]
        a = data.draw(st.sampled_from(built))
        near = [j for j in geo.neighbours[a] if p.kinds[j] is not None]
        if not near:
            return None
        doc["arrows"].append([geo.name(a), geo.name(data.draw(st.sampled_from(near)))])
    elif action == "remove-element" and doc["cells"]:
        cell = data.draw(st.sampled_from(sorted(doc["cells"])))
        del doc["cells"][cell]
        doc["arrows"] = [a for a in doc["arrows"] if cell not in a]
        pawns.pop(cell, None)
    elif action == "remove-arrow" and doc["arrows"]:
        doc["arrows"].remove(data.draw(st.sampled_from(doc["arrows"])))
    else:
        return None
    try:
        return Position.from_json(doc, strict=False)
    except PositionError:
        return None  # not a board that can stand on the table (a 7th pawn, mixed owners...)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120), data=st.data())
def test_every_edit_is_legal_exactly_when_a_legal_move_makes_it(seed: int, plies: int,
                                                                data: st.DataObject) -> None:
    p = _position(seed, plies)
    observed = _edit(p, random.Random(seed), data)
    if observed is None:
        return
    roll = data.draw(st.sampled_from([None, *range(1, 9)])) if p.variant.dice else None
    ex = explain(p, observed, roll)
    reachable = [m for m in legal_moves(p, roll)
                 if apply_unchecked(p, m).same_board(observed)]
    assert ex.legal == bool(reachable), ex.describe()
    if ex.legal:
        assert set(ex.moves + ex.alternatives) == set(reachable)
    else:
        assert ex.reason is not None and isinstance(ex.reason.rule, Rule)
        assert ex.reason.message and ex.to_json()["reason"]["message"]


def _check_game(seed: int) -> tuple[bool, int]:
    rng = random.Random(seed)
    variant = random_variant(rng)
    start = Position.start(variant)
    history, final = random_game(rng, start)
    replay = start
    for before, move, roll in history[::7]:
        assert check_move(before, move, roll) is None
    for _, move, _roll in history:
        replay = apply_unchecked(replay, move)
    assert replay == final
    if final.winner() is not None:
        winner = final.winner()
        assert winner in final.reached and final.on_board(winner) == 0  # type: ignore[arg-type]
    return final.winner() is not None, len(history)


# Fixed seeds: games of 2-6 players over mixed variants (random_variant), all won.
SMOKE_SEEDS = range(50)


@pytest.mark.parametrize("seed", SMOKE_SEEDS)
def test_guided_random_games_end_in_a_win(seed: int) -> None:
    won, plies = _check_game(seed)
    assert won, f"seed {seed}: no winner after {plies} plies"


@pytest.mark.slow
def test_thousand_guided_random_games() -> None:
    t0 = time.perf_counter()
    results = [_check_game(seed) for seed in range(1000)]
    wins = sum(won for won, _ in results)
    print(f"\n1000 guided random games: {wins} won, "
          f"{time.perf_counter() - t0:.1f} s")  # reported with pytest -s
    assert wins == 1000, [s for s, (won, _) in enumerate(results) if not won]
