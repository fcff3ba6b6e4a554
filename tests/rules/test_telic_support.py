"""Shared builders and checks for the Telic rule-book tests (and tests of those builders).

``pos("b3:B52 k5:R4", to_move="red")`` puts a blue Double (sizes 5 then 2 on top) on b3 and
a red size-4 Single on k5; stashes default to every pyramid not on the board.

Every legal check goes both ways: the move is in ``legal_moves`` for the roll, ``play``
accepts it, and ``explain`` explains the position it leads to as that move. Every illegal
check asserts the move is missing from ``legal_moves``, ``play`` refuses it, and ``explain``
rejects the observed board for the expected rule-book clause.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import MoveError
from companion.rules.telic import (
    Explanation,
    Piece,
    Position,
    Rule,
    Side,
    apply,
    explain,
    legal_moves,
    parse_move,
    play,
)


def pos(spec: str = "", to_move: str = "blue", first: bool = False,
        stash: dict[str, list[int]] | None = None) -> Position:
    pieces = {}
    for token in spec.split():
        name, piece = token.split(":")
        side = Side.BLUE if piece[0] == "B" else Side.RED
        pieces[name] = Piece(side, tuple(int(c) for c in piece[1:]))
    stashes = None if stash is None else {Side.parse(k): v for k, v in stash.items()}
    return Position.from_pieces(pieces, stashes, Side.parse(to_move), first)


def legal(p: Position, move: str, roll: str | None = None) -> Position:
    m = parse_move(move)
    moves = legal_moves(p, roll)
    assert m in moves, (move, roll, [x.notation() for x in moves])
    after = play(p, m, roll)
    ex = explain(p, after, roll)
    assert ex.legal and m in ex.moves, ex.describe()
    return after


def illegal(p: Position, move: str, roll: str | None, rule: Rule) -> Explanation:
    """``move`` (applied without checks) is refused, and explained as breaking ``rule``."""
    m = parse_move(move)
    assert m not in legal_moves(p, roll)
    with pytest.raises(MoveError):
        play(p, m, roll)
    return rejected(p, apply(p, m), roll, rule)


def rejected(p: Position, observed: Position, roll: str | None, rule: Rule) -> Explanation:
    ex = explain(p, observed, roll)
    assert not ex.legal, ex.describe()
    assert ex.reason is not None and ex.reason.rule is rule, ex.describe()
    assert ex.reason.message
    return ex


def notations(p: Position, roll: str | None = None) -> set[str]:
    return {m.notation() for m in legal_moves(p, roll)}


def test_builder_fills_stashes_with_what_is_not_on_the_board() -> None:
    p = pos("b3:B52 k5:R4")
    assert p.stash(Side.BLUE) == (2, 1, 2, 2, 1, 2)
    assert p.stash(Side.RED) == (2, 2, 2, 1, 2, 2)
    assert p.in_center(Side.BLUE) == 0
