"""Legal move generation and play. The die is an input: ``roll`` is the face the player
rolled, or None when the player chose not to roll (and moves a piece on the board)."""

from __future__ import annotations

from companion.rules.errors import MoveError
from companion.rules.telic.board import (
    ENTRANCES,
    NEIGHBOURS,
    Face,
    Side,
    die_space,
    space_name,
)
from companion.rules.telic.moves import Enter, Forfeit, Move, Pass, Step
from companion.rules.telic.position import SIZES, Piece, Position, Stash

Roll = Face | str | int | None


def parse_roll(roll: Roll) -> Face | None:
    return roll if roll is None or isinstance(roll, Face) else Face.parse(roll)


def can_stack(moving: Piece, onto: Piece) -> bool:
    """Rules of stacking: same colour, every pyramid smaller than the one below."""
    return moving.side is onto.side and moving.bottom < onto.top


def can_bump(moving: Piece, target: Piece) -> bool:
    """Bumping on the board: the opposing piece has equal or lesser power."""
    return moving.side is not target.side and moving.power >= target.power


def entering_moves(pos: Position, face: Face) -> list[Move]:
    side = pos.to_move
    stash = pos.stash(side)
    if sum(stash) == 0:
        return []  # with an empty stash the turn must move a piece on the board
    sp = die_space(side, face)
    here = pos.board[sp]
    sizes = [s for s in SIZES if stash[s - 1] > 0]
    if here is None:  # 1. vacant: a pyramid must enter
        return [Enter(sp, s) for s in sizes]
    out: list[Move] = []
    if here.side is side:  # 2. friendly: stack a smaller one, or forfeit
        out = [Enter(sp, s) for s in sizes if s < here.top]
    elif not here.is_stack:  # 3. opposing Single: bump with a bigger one, or forfeit
        out = [Enter(sp, s, True) for s in sizes if s > here.top]
    # 4. opposing Stack: forfeit
    out.append(Forfeit(sp))
    return out


def step_moves(pos: Position) -> list[Move]:
    side = pos.to_move
    out: list[Move] = []
    for sp, piece in pos.pieces(side):
        for nb in NEIGHBOURS[sp]:
            there = pos.board[nb]
            if there is None or can_stack(piece, there):
                out.append(Step(sp, nb))
            elif can_bump(piece, there):
                out.append(Step(sp, nb, True))
        if sp in ENTRANCES:
            out.append(Step(sp, None))
    return out


def legal_moves(position: Position, roll: Roll = None) -> list[Move]:
    """Every legal move of the side to move: after rolling ``roll``, or without a roll."""
    face = parse_roll(roll)
    if position.winner() is not None:
        return []
    if face is not None:
        return entering_moves(position, face)
    if position.first_turn:
        return []  # the first turn of each side must roll
    steps = step_moves(position)
    if not steps and position.stash_count(position.to_move) == 0:
        return [Pass()]
    return steps


def _add(stash: Stash, sizes: tuple[int, ...], sign: int) -> Stash:
    out = list(stash)
    for s in sizes:
        out[s - 1] += sign
    return tuple(out)


def apply(position: Position, move: Move) -> Position:
    """The position after ``move`` (not checked for legality; see :func:`play`).

    The turn passes to the other side; ``first_turn`` stays set only for Red's first turn.
    """
    side = position.to_move
    board = list(position.board)
    stashes = {s: position.stash(s) for s in Side}
    if isinstance(move, Enter):
        if stashes[side][move.size - 1] == 0:
            raise MoveError(f"move {move.notation()}: {side.value} has no size-{move.size} "
                            "pyramid in the stash")
        here = board[move.to]
        if here is not None and here.side is not side:
            stashes[here.side] = _add(stashes[here.side], here.sizes, 1)
            here = None
        board[move.to] = Piece(side, (*(here.sizes if here else ()), move.size))
        stashes[side] = _add(stashes[side], (move.size,), -1)
    elif isinstance(move, Step):
        piece = board[move.frm]
        if piece is None:
            raise MoveError(f"move {move.notation()}: no piece on {space_name(move.frm)}")
        board[move.frm] = None
        if move.to is not None:
            there = board[move.to]
            if there is not None and there.side is not piece.side:
                stashes[there.side] = _add(stashes[there.side], there.sizes, 1)
                there = None
            board[move.to] = Piece(piece.side, (*(there.sizes if there else ()), *piece.sizes))
    first = position.first_turn and side is Side.BLUE
    return Position(tuple(board), (stashes[Side.BLUE], stashes[Side.RED]), side.other, first)


def play(position: Position, move: Move, roll: Roll = None) -> Position:
    """Apply ``move`` if legal for ``roll`` (default: the roll the move itself names)."""
    face = parse_roll(roll)
    if face is None:
        face = move.roll
    legal = legal_moves(position, face)
    if move not in legal:
        why = f"after rolling {face.value}" if face else "without a roll"
        raise MoveError(f"move {move.notation()} is not legal {why} for "
                        f"{position.to_move.value}; legal: "
                        f"{' '.join(m.notation() for m in legal) or 'none'}")
    return apply(position, move)
