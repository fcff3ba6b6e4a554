"""Shared builders and checks for the Portals rule-book tests (no tests of its own; named
test_portals_* only to keep the Portals tests in one file pattern).

Every legal check goes both ways: the move is among ``legal_moves`` and ``explain`` accepts
the position it leads to with that move. Every illegal check builds the observed board by
hand, asserts no legal move reaches it, and that ``explain`` names the expected clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.rules.portals import (
    Explanation,
    Move,
    Position,
    Rule,
    explain,
    legal_moves,
    parse_move,
    parse_square,
    play,
    square_name,
)


def pos(south: str = "Kf1", north: str = "kf11", *, portals: Iterable[str] | None = None,
        pp: str | None = "f6", to_move: str = "south", variant: bool = True) -> Position:
    """``pos("Kf1 Ga1 Gb2", "kf11 gc5")``: K/k a Prince, G/g a Guard, then the square."""
    doc: dict = {"to_move": to_move, "princes": {}, "guards": {"south": [], "north": []},
                 "portable_portal": pp if variant else None}
    if portals is not None:
        doc["portals"] = list(portals)
    if not variant:
        doc["variant"] = {"portable_portal": False}
    for side, text in (("south", south), ("north", north)):
        for token in text.split():
            if token[0] in "Kk":
                doc["princes"][side] = token[1:]
            else:
                doc["guards"][side].append(token[1:])
    return Position.from_json(doc)


def edit(p: Position, moves: Mapping[str, str] | None = None, remove: Iterable[str] = (),
         pp: str | None = None) -> Position:
    """The board of ``p`` with pieces moved (``{"a1": "a5"}``), removed, the Portable Portal
    put on ``pp``; the other side to move. No legality checked: for illegal observations."""
    board = list(p.pieces)
    lifted = {parse_square(a): board[parse_square(a)] for a in (moves or {})}
    for a in (moves or {}):
        board[parse_square(a)] = None
    for r in remove:
        board[parse_square(r)] = None
    for a, b in (moves or {}).items():
        board[parse_square(b)] = lifted[parse_square(a)]
    return p.replace(pieces=tuple(board), to_move=p.to_move.opponent,
                     portable=parse_square(pp) if pp else p.portable)


def targets(p: Position, frm: str) -> set[str]:
    src = parse_square(frm)
    return {square_name(m.dst) for m in legal_moves(p) if m.src == src and m.shift is None}


def assert_legal(p: Position, text: str, roll: int | None = None) -> Position:
    move = parse_move(text)
    assert move in legal_moves(p, roll), f"{text} should be legal in\n{p}"
    after = play(p, move)
    ex = explain(p, after, roll)
    assert ex.legal, ex.describe()
    assert move in ex.moves + ex.alternatives
    return after


def assert_not_legal(p: Position, text: str, roll: int | None = None) -> None:
    move = parse_move(text)
    assert move not in legal_moves(p, roll), f"{text} should not be legal in\n{p}"


def assert_rejected(p: Position, observed: Position, rule: Rule, roll: int | None = None,
                    squares: Iterable[str] = ()) -> Explanation:
    ex = explain(p, observed, roll)
    assert not ex.legal, f"expected {rule.id}, got {ex.describe()}"
    assert ex.reason is not None and ex.reason.rule is rule, ex.describe()
    named = {square_name(s) for s in ex.reason.squares}
    assert set(squares) <= named, (named, ex.describe())
    for s in squares:
        assert s in ex.reason.message, ex.reason.message
    return ex


__all__ = ["Move", "assert_legal", "assert_not_legal", "assert_rejected", "edit", "pos",
           "targets"]
