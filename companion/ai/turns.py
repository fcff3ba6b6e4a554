"""A side's whole turns: up to its two Pole markers and two Port markers, each move on a
different piece, free moves (Pole Vault, a Teleport's passenger) inside the moves that give
them. The rules core says which moves are legal after which (``successors`` with the turn's
``TurnState``); this module only chooses which partial turns to carry on.

The search is a beam over the turn's at most four moves: after each move, the partial turns
that reach the same position with the same markers left are one (so the orderings of one turn
are looked at once), and only the ``width`` best of them by the evaluation go on. Every
partial turn is also a whole turn (a player may stop early: markers are "up to"); whole
turns that leave the same position are one too, the first found kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.rules.teleporters import Move, Position, Side, TurnState, end_turn, successors

Score = Callable[[Position, Side], float]
MAX_MOVES = TurnState.POLE_MARKERS + TurnState.PORT_MARKERS


@dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn: its moves in order, the position they leave (the same side still to
    move: ``after`` is what the player sees before handing over), and its score for the
    mover by the evaluation the search used."""

    moves: tuple[Move, ...]
    last: Position
    score: float

    @property
    def after(self) -> Position:
        """The position the opponent moves from."""
        return end_turn(self.last)

    @property
    def wins(self) -> bool:
        return self.last.winner() is self.last.to_move

    def notation(self) -> str:
        return " ".join(m.notation() for m in self.moves) or "(no move)"


def _board(pos: Position) -> tuple[Any, Any]:
    return (pos.poles, pos.ports)


def whole_turns(position: Position, width: int, score: Score) -> list[Turn]:
    """The whole turns of ``position.to_move`` the beam of ``width`` finds, best first by
    ``score`` (ties in the order found). A winning turn, once found, is the only one
    returned. With no legal move at all, the one turn is the empty one."""
    side = position.to_move
    start = Turn((), position, score(position, side))
    turns: dict[tuple[Any, Any], Turn] = {}
    frontier: list[tuple[Position, TurnState, tuple[Move, ...]]] = [(position, TurnState(), ())]
    for _ in range(MAX_MOVES):
        children: dict[tuple[Any, ...], tuple[float, Position, TurnState, tuple[Move, ...]]] = {}
        for pos, state, moves in frontier:
            for move, nxt, nstate in successors(pos, state):
                key = (nxt.poles, nxt.ports, nstate.key())
                if key in children:
                    continue
                made = (*moves, move)
                value = score(nxt, side)
                children[key] = (value, nxt, nstate, made)
                board = _board(nxt)
                if board not in turns:
                    turn = Turn(made, nxt, value)
                    if turn.wins:
                        return [turn]
                    turns[board] = turn
        if not children:
            break
        ranked = sorted(children.values(), key=lambda c: -c[0])  # stable: ties as found
        frontier = [(p, s, m) for _, p, s, m in ranked[:width]]
    turns.pop(_board(position), None)  # moves that change nothing are no turn
    if not turns:
        return [start]
    return sorted(turns.values(), key=lambda t: -t.score)
