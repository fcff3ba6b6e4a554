"""A turn the companion asks the player to carry out on the mat, and how far the camera has
seen it carried out.

The companion's choice is never something the referee trusts: the referee judges what the
camera sees, as on any turn. A :class:`Guide` only compares the board the referee holds
(``RefereeState.expected``) with the boards the chosen moves lead to, to say which move the
LEDs light next, or that the board has left the chosen line (a mismatch).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.referee import RefereeState
from companion.rules import GAMES, TableGame


@dataclass(frozen=True, slots=True)
class Guide:
    """``side``'s turn ``turn_number`` as chosen: its moves in order and the board after
    each (``boards[0]`` the turn's start, ``boards[k]`` after the first ``k`` moves), in
    ``game`` (positions, moves and sides are its own values)."""

    side: Any
    turn_number: int
    moves: tuple[Any, ...]
    boards: tuple[Any, ...]
    game: TableGame = field(default_factory=GAMES.table, compare=False, repr=False)

    @classmethod
    def plan(cls, start: Any, turn_number: int, moves: tuple[Any, ...],
             game: TableGame | None = None) -> Guide:
        """The guide for ``moves`` played from ``start`` (the rules core plays them: an
        illegal one raises ``IllegalMove``); ``game``: None for the default table game."""
        game = game or GAMES.table()
        boards = [start]
        turn = None  # what the turn has used so far (Teleporters: its markers)
        pos = start
        for move in moves:
            pos, turn = game.play(pos, move, turn)
            boards.append(pos)
        return cls(start.to_move, turn_number, moves, tuple(boards), game)

    def notation(self) -> str:
        return " ".join(self.game.notation(m) for m in self.moves) or "(no move)"

    def applies(self, state: RefereeState) -> bool:
        """This guide is for the turn in play."""
        return (not state.over and state.turn_number == self.turn_number
                and state.to_move is self.side)

    def done(self, state: RefereeState) -> int | None:
        """How many of the moves the referee has seen carried out (the board it holds is the
        one after them); None when that board is on no step of the chosen turn."""
        for k in range(len(self.boards) - 1, -1, -1):
            if self.boards[k].same_board(state.expected):
                return k
        return None

    def next_move(self, state: RefereeState) -> Any | None:
        """The move to carry out next; None when all are done, or on a mismatch."""
        k = self.done(state)
        return None if k is None or k >= len(self.moves) else self.moves[k]

    def off_course(self, state: RefereeState) -> tuple[str, ...]:
        """On a mismatch, the spaces where the board differs from the nearest step of the
        chosen turn (in square order); () while the board is on it."""
        if not self.applies(state) or self.done(state) is not None:
            return ()
        seen = state.expected
        nearest = min((self.game.board_difference(b, seen) for b in self.boards), key=len)
        return tuple(self.game.square_name(sq) for sq in nearest)


def lift_and_place(move: Any, game: TableGame | None = None) -> tuple[str, tuple[str, ...]]:
    """The space of the piece to lift, and the spaces it (and what it moves along: a
    vaulted Pole, a repelled Port) goes to; ``game``: None for the default table game."""
    game = game or GAMES.table()
    frm, *rest = game.move_squares(move)
    return game.square_name(frm), tuple(game.square_name(sq) for sq in rest)


__all__ = ["Guide", "lift_and_place"]
