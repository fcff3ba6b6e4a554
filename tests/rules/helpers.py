"""Shared builders and checks for the Teleporters rule-book tests.

Positions are written in the text notation of ``Position.from_text`` (ranks 8..1, digits are
runs of empty spaces, ``P``/``p`` a south/north Pole, ``[..]`` a space with Ports: an optional
Pole letter, then corners, upper case = south, lower case = north). The side to move may be
left out (south), and variant flags follow it: ``pos("8/8/.../8 south carry=always")``.

Every legal-move check goes both ways: the move is among ``legal_moves`` *and* ``explain``
accepts the position it leads to. Every illegal-move check asserts the move is missing from
``legal_moves``, that ``play`` refuses it, and (where the observed position can stand on a
real mat) that ``explain`` rejects it for the expected rule-book clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from companion.rules.errors import MoveError
from companion.rules.teleporters import (
    Corner,
    Explanation,
    Move,
    Placement,
    Position,
    Rule,
    Side,
    Square,
    TurnState,
    Variant,
    explain,
    legal_moves,
    parse_move,
    parse_square,
    play,
    square_name,
)

__all__ = [
    "assert_explained",
    "assert_legal",
    "assert_not_legal",
    "assert_rejected",
    "board",
    "moves",
    "names",
    "pos",
    "relocate",
    "sq",
    "turn_after",
]


def sq(name: str) -> Square:
    """``"d4"`` -> the square number."""
    return parse_square(name)


def names(squares: Iterable[Square]) -> set[str]:
    """Square numbers -> their names, as a set (for readable asserts)."""
    return {square_name(s) for s in squares}


def pos(text: str) -> Position:
    """``Position.from_text``, with the side to move defaulting to south."""
    if len(text.split()) == 1:
        text += " south"
    return Position.from_text(text)


def board(
    poles: Mapping[str, str] | None = None,
    ports: Mapping[str, str] | None = None,
    to_move: str = "south",
    **flags: str,
) -> Position:
    """A position from square names.

    ``poles={"d4": "P", "e5": "p"}`` (P = south, p = north); ``ports={"d4": "SW", "e5": "NEsw"}``
    (corners as in the text notation, two letters each, upper case = south); ``flags`` are
    variant flags such as ``carry="always"``.
    """
    pole_map = {
        sq(name): (Side.SOUTH if letter == "P" else Side.NORTH)
        for name, letter in (poles or {}).items()
    }
    placements = []
    for name, corners in (ports or {}).items():
        for i in range(0, len(corners), 2):
            token = corners[i:i + 2]
            side = Side.SOUTH if token.isupper() else Side.NORTH
            placements.append(Placement(sq(name), Corner.parse(token.lower()), side))
    variant = Variant.from_flags([f"{k}={v}" for k, v in flags.items()])
    return Position.from_pieces(pole_map, placements, Side.parse(to_move), variant)


def moves(position: Position, turn: TurnState | None = None) -> set[str]:
    """The notations of every legal move of the side to move."""
    return {m.notation() for m in legal_moves(position, turn)}


def turn_after(position: Position, *notations: str,
               turn: TurnState | None = None) -> tuple[Position, TurnState]:
    """Play the moves in order (each must be legal) and return the position and markers."""
    state = turn or TurnState()
    for text in notations:
        position, state = play(position, parse_move(text), state)
    return position, state


def relocate(position: Position, frm: str, to: str) -> Position:
    """Move one piece by hand, legal or not, as a player might on the mat.

    ``relocate(p, "d4", "d6")`` lifts the Pole on d4 onto d6; ``relocate(p, "d4sw", "d6ne")``
    lifts the Port in d4's south-west corner into d6's north-east corner.
    """
    if len(frm) == 2:
        poles = list(position.poles)
        side = poles[sq(frm)]
        assert side is not None, f"no Pole on {frm}"
        poles[sq(frm)] = None
        poles[sq(to)] = side
        return position.replace(poles=tuple(poles))
    src, corner = sq(frm[:2]), Corner.parse(frm[2:])
    owner = next((s for c, s in position.ports[src] if c is corner), None)
    assert owner is not None, f"no Port in {frm}"
    placements = [p for p in position.placements() if (p.square, p.corner) != (src, corner)]
    placements.append(Placement(sq(to[:2]), Corner.parse(to[2:]), owner))
    poles = {s: side for s, side in enumerate(position.poles) if side is not None}
    return Position.from_pieces(poles, placements, position.to_move, position.variant)


def assert_explained(start: Position, observed: Position,
                     turn: TurnState | None = None) -> Explanation:
    """``explain`` accepts ``observed`` as reached from ``start`` this turn."""
    result = explain(start, observed, turn, full_set=False)
    assert result.legal, (
        f"expected legal, got: {result.describe()}\n{start.diagram()}\n->\n{observed.diagram()}"
    )
    return result


def assert_legal(start: Position, notation: str,
                 turn: TurnState | None = None) -> tuple[Position, TurnState]:
    """The move is generated, ``play`` makes it, and ``explain`` accepts the result."""
    move: Move = parse_move(notation)
    assert move in legal_moves(start, turn), (
        f"{notation} missing from legal moves: {sorted(moves(start, turn))}"
    )
    after, state = play(start, move, turn)
    assert_explained(start, after, turn)
    return after, state


def assert_not_legal(start: Position, notation: str, turn: TurnState | None = None) -> None:
    """The move is not generated and ``play`` refuses it with a MoveError."""
    move = parse_move(notation)
    assert move not in legal_moves(start, turn), f"{notation} should not be legal"
    with pytest.raises(MoveError):
        play(start, move, turn)


def assert_rejected(start: Position, observed: Position, rule: Rule,
                    squares: Iterable[str] = (), turn: TurnState | None = None) -> Explanation:
    """``explain`` rejects ``observed``, blaming ``rule`` and naming at least ``squares``."""
    result = explain(start, observed, turn, full_set=False)
    assert not result.legal, f"expected illegal, got: {result.describe()}"
    assert result.reason is not None
    assert result.reason.rule is rule, f"expected {rule}, got: {result.describe()}"
    missing = set(squares) - names(result.reason.squares)
    assert not missing, f"reason should name {sorted(missing)}: {result.reason}"
    assert result.reason.message
    return result
