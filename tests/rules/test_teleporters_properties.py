"""Property tests (hypothesis) of the Teleporters rules core.

Requirement (issue 2, "Done when"): random legal turns are always explained as legal, and a
random single illegal change never is. Positions come from seeded random legal play.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.teleporters import (
    Position,
    Side,
    TurnState,
    explain,
    legal_moves,
    parse_move,
    play,
)
from companion.rules.teleporters.board import in_telepad_row, square_file, square_rank
from companion.rules.teleporters.random_play import random_midgame, random_turn

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def midgame(seed: int) -> tuple[random.Random, Position]:
    rng = random.Random(seed)
    return rng, random_midgame(rng, rng.randint(0, 30))


@SETTINGS
@given(seeds, st.integers(min_value=1, max_value=4))
def test_taking_turns_random_legal_turn_is_explained_as_legal(seed: int, n: int) -> None:
    """Taking turns: any sequence of up to four legal moves is explained, within the budget."""
    rng, start = midgame(seed)
    moves, observed, _ = random_turn(start, rng, n)
    result = explain(start, observed)
    assert result.legal, (start.to_text(), [m.notation() for m in moves], result.describe())
    assert len(result.moves) <= len(moves)
    # The explanation replays: its moves, played in order, give the observed board.
    pos, turn = start, TurnState()
    for move in result.moves:
        pos, turn = play(pos, move, turn)
    assert pos.same_board(observed)
    assert result.turn.pole_markers_left >= 0 and result.turn.port_markers_left >= 0


@SETTINGS
@given(seeds)
def test_every_legal_move_is_explained_by_one_move(seed: int) -> None:
    """Each single legal move is explained with exactly one move (or none if it changes
    nothing, e.g. an anti-repel that bounces a Port back to the Portpad it left)."""
    rng, start = midgame(seed)
    moves = legal_moves(start)
    for move in rng.sample(moves, min(8, len(moves))):
        observed, _ = play(start, move)
        result = explain(start, observed)
        assert result.legal, (start.to_text(), move.notation(), result.describe())
        assert len(result.moves) == (0 if observed.same_board(start) else 1)


def _walk_distance(a: int, b: int) -> int:
    df = abs(square_file(a) - square_file(b))
    return min(df, 8 - df) + abs(square_rank(a) - square_rank(b))


@SETTINGS
@given(seeds, st.integers(min_value=0, max_value=3))
def test_a_single_illegal_change_is_never_explained(seed: int, kind: int) -> None:
    """One illegal change on an otherwise untouched board is always judged illegal:
    0: the opponent's Pole moved to a space off its Home row (Taking turns);
    1: the mover's Pole, off the Telepad rows and Teleports, went 5+ steps to a space no
       teleport reaches (Walking, Teleporting; 5, because same-colour Poles are
       interchangeable: two walks relay a Pole up to 4; and a Pole on a Telepad or in a
       Teleport could relay by teleporting into the place another Pole walked from);
    2: a Port put in a Telepad row (Port movements: never the Telepad rows);
    3: a Pole taken off the mat (Game pieces)."""
    rng, start = midgame(seed)
    mover = start.to_move
    poles = list(start.poles)
    ports = list(start.ports)
    empty = [sq for sq in range(64) if poles[sq] is None and not ports[sq]]
    if kind == 0:
        theirs = [sq for sq in range(64) if poles[sq] is mover.opponent]
        home = start.variant.home(mover.opponent)
        frm = rng.choice(theirs)
        to = rng.choice([sq for sq in empty if sq not in home])
        poles[to], poles[frm] = poles[frm], None
    elif kind == 1:
        mine = [sq for sq in range(64) if poles[sq] is mover and not in_telepad_row(sq)
                and start.teleport_at(sq) is None]
        if not mine:
            return
        frm = rng.choice(mine)
        far = [sq for sq in empty if _walk_distance(frm, sq) >= 5 and not in_telepad_row(sq)]
        if not far:
            return
        to = rng.choice(far)
        poles[to], poles[frm] = poles[frm], None
    elif kind == 2:
        with_port = [sq for sq in range(64) if len(ports[sq]) == 1]
        row_spaces = [sq for sq in empty if in_telepad_row(sq)]
        if not with_port or not row_spaces:
            return
        frm, to = rng.choice(with_port), rng.choice(row_spaces)
        ports[to], ports[frm] = ports[frm], ()
    else:
        frm = rng.choice([sq for sq in range(64) if poles[sq] is not None])
        poles[frm] = None
    observed = start.replace(poles=tuple(poles), ports=tuple(ports))
    result = explain(start, observed)
    assert not result.legal, (start.to_text(), observed.to_text(), result.describe())
    assert result.reason is not None and result.reason.squares


@SETTINGS
@given(seeds)
def test_position_text_and_json_round_trip(seed: int) -> None:
    """Position.from_text(p.to_text()) == p and Position.from_json(p.to_json()) == p."""
    _, pos = midgame(seed)
    assert Position.from_text(pos.to_text()) == pos
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_json(pos.to_json_text()) == pos


@SETTINGS
@given(seeds)
def test_move_notation_round_trips(seed: int) -> None:
    """parse_move(move.notation()) == move for every legal move."""
    _, pos = midgame(seed)
    for move in legal_moves(pos):
        assert parse_move(move.notation()) == move


def test_either_side_can_start() -> None:
    """Taking turns: "Players choose who will move first"."""
    start = Position.start(to_move=Side.NORTH)
    assert all(m.notation()[1:3] in {"c8", "d8", "e8", "f8", "b7", "g7", "c6", "f6"}
               for m in legal_moves(start))
