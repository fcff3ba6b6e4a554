"""Legal moves of Portals, applying them, and the end of the game.

A turn is one move of one piece (:class:`Move`); after a capture the mover may add the
Portable Portal's move, whose length is the d4 roll. The roll is an input, never rolled here.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.rules.errors import MoveError
from companion.rules.portals.board import KING_STEPS, MAX_ROLL, RAYS, Kind, Side, Square
from companion.rules.portals.moves import Move, PortalShift
from companion.rules.portals.position import Piece, Position


def check_roll(roll: int | None) -> None:
    if roll is not None and (isinstance(roll, bool) or not isinstance(roll, int)
                             or not 1 <= roll <= MAX_ROLL):
        raise MoveError(f"die roll {roll!r}: a four-sided die shows 1 to {MAX_ROLL}")


def piece_moves(pos: Position) -> list[Move]:
    """Every legal piece move of the side to move, without Portable Portal moves."""
    if pos.winner() is not None:
        return []
    return list(_piece_moves(pos, pos.to_move))


def _piece_moves(pos: Position, side: Side) -> Iterator[Move]:
    pieces = pos.pieces
    active = pos.active_portals()
    for src, piece in enumerate(pieces):
        if piece is None or piece[0] is not side:
            continue
        kind = piece[1]
        if kind is Kind.PRINCE:
            for dst in KING_STEPS[src]:
                there = pieces[dst]
                if there is None:
                    yield Move(kind, src, dst)
                elif there[0] is not side:
                    yield Move(kind, src, dst, capture=True)
        else:
            for ray in RAYS[src]:
                for dst in ray:
                    there = pieces[dst]
                    if there is None:
                        yield Move(kind, src, dst)
                        if dst in active:
                            break  # a piece passing into a Portal must stop there
                    else:
                        if there[0] is not side:
                            yield Move(kind, src, dst, capture=True)
                        break
        if src in active:
            for dst in sorted(active):
                if dst == src:
                    continue
                there = pieces[dst]
                if there is None:
                    yield Move(kind, src, dst, jump=True)
                elif there[0] is not side:
                    yield Move(kind, src, dst, capture=True, jump=True)


def portal_shifts(pos: Position, roll: int | None = None) -> list[PortalShift]:
    """Portable Portal moves of exactly ``roll`` spaces (every roll 1-4 when None), staying
    on the board. The Portable Portal slides under pieces and over Portals."""
    check_roll(roll)
    if pos.portable is None:
        return []
    rolls = range(1, MAX_ROLL + 1) if roll is None else (roll,)
    out = []
    for ray in RAYS[pos.portable]:
        for r in rolls:
            if r <= len(ray):
                out.append(PortalShift(pos.portable, ray[r - 1]))
    return out


def legal_moves(position: Position, roll: int | None = None) -> list[Move]:
    """Every legal turn of the side to move.

    ``roll=None``: every turn, including each capture followed by every Portable Portal move
    of 1 to 4 spaces. ``roll=r``: the die was rolled and showed ``r``, which happens only after
    a capture when the player chose to move the Portable Portal: only capture turns whose
    Portable Portal move is exactly ``r`` spaces.
    """
    check_roll(roll)
    out: list[Move] = []
    shifts = portal_shifts(position, roll) if position.variant.portable_portal else []
    for move in piece_moves(position):
        if roll is None:
            out.append(move)
        if move.capture and shifts:
            if _wins(position, move):
                continue  # the game is over: no Portable Portal move follows a winning capture
            for shift in shifts:
                out.append(Move(move.piece, move.src, move.dst, True, move.jump, shift))
    return out


def _wins(pos: Position, move: Move) -> bool:
    """Whether the capture ``move`` takes the opponent's Prince or its last Guard."""
    taken = pos.pieces[move.dst]
    if taken is None:
        return False
    return taken[1] is Kind.PRINCE or pos.pieces.count(taken) == 1


def apply_unchecked(pos: Position, move: Move) -> Position:
    board: list[Piece | None] = list(pos.pieces)
    board[move.dst] = board[move.src]
    board[move.src] = None
    portable = pos.portable if move.shift is None else move.shift.to
    # A legal move keeps the position valid: skip the constructor's checks (hot path).
    out = object.__new__(Position)
    for name, value in (("pieces", tuple(board)), ("portals", pos.portals),
                        ("portable", portable), ("to_move", pos.to_move.opponent),
                        ("variant", pos.variant)):
        object.__setattr__(out, name, value)
    return out


def play(position: Position, move: Move) -> Position:
    """The position after a legal ``move``, the other side to move. Raises :class:`MoveError`
    naming the move when it is not legal here."""
    if position.winner() is not None:
        raise MoveError(f"{move.notation()}: the game is over, "
                        f"{position.winner().value} has won")  # type: ignore[union-attr]
    if move not in legal_moves(position, move.roll):
        raise MoveError(f"{move.notation()} is not a legal {position.to_move.value} move here")
    return apply_unchecked(position, move)


def apply(position: Position, move: Move) -> Position:
    """Alias of :func:`play` (checked)."""
    return play(position, move)


def winner(position: Position) -> Side | None:
    return position.winner()


def is_stalled(position: Position) -> bool:
    """No winner yet but the side to move has no legal move (the rule book is silent; see
    docs/rules/portals.md: we call the game drawn)."""
    return position.winner() is None and not piece_moves(position)


def squares_reached(pos: Position, src: Square) -> set[Square]:
    return {m.dst for m in piece_moves(pos) if m.src == src}
