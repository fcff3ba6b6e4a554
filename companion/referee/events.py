"""What the referee says: one frozen value per thing that happened at the table.

Every event carries the time ``t`` (seconds, as passed in by the caller) and turns itself into
a JSON object with an ``"event"`` key, for the match log and the text printer. Squares are
named (``"e4"``), the way the bridge and the players name them; moves stay rules-core moves
(``.notation()`` in JSON).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules.teleporters import Move, Position, Rule, Side, Violation


def _notation(moves: tuple[Move, ...]) -> list[str]:
    return [m.notation() for m in moves]


class CommitBy(enum.Enum):
    """What ended a turn. The book's own signal is sliding the markers across; at this table it
    is a button (tablet or board), or the opponent starting to move."""

    TABLET = "tablet"
    BRIDGE = "bridge"
    OPPONENT = "opponent_moved"
    RECORDING = "recording_ended"  # refereeing a recording: its last turn ends with it


@dataclass(frozen=True, slots=True)
class Fix:
    """One space to set right: what the referee expects there and what vision sees."""

    square: str
    want: str
    seen: str

    def to_json(self) -> dict[str, Any]:
        return {"square": self.square, "want": self.want, "seen": self.seen}


@dataclass(frozen=True, slots=True)
class GameStarted:
    t: float
    position: Position

    EVENT: ClassVar[str] = "game_started"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "to_move": self.position.to_move.value,
                "position": self.position.to_json()}


@dataclass(frozen=True, slots=True)
class FirstMoverChosen:
    """"Players choose who will move first": the other side moved first on the first turn."""

    t: float
    side: Side

    EVENT: ClassVar[str] = "first_mover_chosen"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value}


@dataclass(frozen=True, slots=True)
class TentativeMoves:
    """The moves of the turn so far, as re-explained from the turn start (not final: a move
    taken back simply disappears). ``moves`` is empty when the board is back at the start."""

    t: float
    side: Side
    moves: tuple[Move, ...]
    pole_markers_used: int
    port_markers_used: int
    squares: tuple[str, ...]
    alternatives: tuple[tuple[Move, ...], ...] = ()
    would_win: bool = False  # committing this turn wins the game

    EVENT: ClassVar[str] = "tentative_moves"
    POLE_MARKERS: ClassVar[int] = 2
    PORT_MARKERS: ClassVar[int] = 2

    @property
    def pole_markers_left(self) -> int:
        return self.POLE_MARKERS - self.pole_markers_used

    @property
    def port_markers_left(self) -> int:
        return self.PORT_MARKERS - self.port_markers_used

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "moves": _notation(self.moves),
                "markers": {"pole_used": self.pole_markers_used,
                            "port_used": self.port_markers_used,
                            "pole_left": self.pole_markers_left,
                            "port_left": self.port_markers_left},
                "squares": list(self.squares),
                "alternatives": [_notation(a) for a in self.alternatives],
                "would_win": self.would_win}


@dataclass(frozen=True, slots=True)
class IllegalChange:
    """No legal turn explains the board: the first violation's rule, spaces and sentence; the
    warning stays on until a legal position is seen (:class:`WarningCleared`)."""

    t: float
    side: Side
    rule: Rule
    squares: tuple[str, ...]
    message: str
    violations: tuple[Violation, ...] = ()

    EVENT: ClassVar[str] = "illegal_change"

    @property
    def clause(self) -> str:
        return self.rule.clause

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "rule": self.rule.id, "clause": self.rule.clause,
                "squares": list(self.squares), "message": self.message,
                "violations": [v.to_json() for v in self.violations]}


@dataclass(frozen=True, slots=True)
class WarningCleared:
    """The board is legal again after an :class:`IllegalChange`."""

    t: float

    EVENT: ClassVar[str] = "warning_cleared"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t}


@dataclass(frozen=True, slots=True)
class Occluded:
    """A hand (or anything else) is over the mat: nothing is judged until it is gone."""

    t: float

    EVENT: ClassVar[str] = "occluded"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t}


@dataclass(frozen=True, slots=True)
class Uncertain:
    """Vision is not sure enough of some spaces: ask for a re-look, do not guess."""

    t: float
    squares: tuple[str, ...]
    confidences: tuple[float, ...]  # one per square, same order
    threshold: float

    EVENT: ClassVar[str] = "uncertain"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "squares": list(self.squares),
                "confidences": dict(zip(self.squares, self.confidences, strict=True)),
                "threshold": self.threshold}


@dataclass(frozen=True, slots=True)
class BoardSettled:
    """Vision sees the board clearly again after being occluded or uncertain."""

    t: float
    after: str  # "occluded" | "uncertain"

    EVENT: ClassVar[str] = "board_settled"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "after": self.after}


@dataclass(frozen=True, slots=True)
class TurnCommitted:
    """The turn is final: ``position`` is the board it ended on (``side`` still to move)."""

    t: float
    side: Side
    number: int  # 1 for the game's first turn
    moves: tuple[Move, ...]
    by: CommitBy
    position: Position
    settled_t: float | None = None  # when ``position`` was first seen (None: not seen yet)

    EVENT: ClassVar[str] = "turn_committed"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value, "turn": self.number,
                "moves": _notation(self.moves), "by": self.by.value,
                "position": self.position.to_json(), "settled_t": self.settled_t}


@dataclass(frozen=True, slots=True)
class CommitUndone:
    """The last committed turn is open again (a wrong commit: a knocked piece, a stray press)."""

    t: float
    side: Side
    number: int
    moves: tuple[Move, ...]

    EVENT: ClassVar[str] = "commit_undone"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value, "turn": self.number,
                "moves": _notation(self.moves)}


@dataclass(frozen=True, slots=True)
class GameWon:
    """All four of ``side``'s Poles stand on its Goal Telepads in a committed turn."""

    t: float
    side: Side
    position: Position

    EVENT: ClassVar[str] = "game_won"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "position": self.position.to_json()}


@dataclass(frozen=True, slots=True)
class DieRolled:
    t: float
    value: int
    sides: int
    source: str  # "bridge" (the electronic die) | "tablet"

    EVENT: ClassVar[str] = "die_rolled"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "value": self.value, "sides": self.sides,
                "source": self.source}


@dataclass(frozen=True, slots=True)
class RecoveryOffered:
    """Vision and the referee have disagreed since ``since``: offer 'accept the board as seen'
    or 'show me what to restore'. ``squares`` differ between the two boards."""

    t: float
    since: float
    squares: tuple[str, ...]

    EVENT: ClassVar[str] = "recovery_offered"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "since": self.since,
                "squares": list(self.squares)}


@dataclass(frozen=True, slots=True)
class CorrectionAccepted:
    """The players accepted the board as seen: it is the turn's new start (logged)."""

    t: float
    side: Side
    expected: Position  # the last legal board the referee had
    accepted: Position  # the board as seen, now the turn start
    squares: tuple[str, ...]

    EVENT: ClassVar[str] = "correction_accepted"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "squares": list(self.squares), "expected": self.expected.to_json(),
                "accepted": self.accepted.to_json()}


@dataclass(frozen=True, slots=True)
class RestoreShown:
    """The spaces to set right to get back to the last legal board, and what goes there."""

    t: float
    fixes: tuple[Fix, ...]

    EVENT: ClassVar[str] = "restore_shown"

    @property
    def squares(self) -> tuple[str, ...]:
        return tuple(f.square for f in self.fixes)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "squares": list(self.squares),
                "fixes": [f.to_json() for f in self.fixes]}


@dataclass(frozen=True, slots=True)
class Refused:
    """A button that cannot act now (End turn on an illegal board, undo with nothing to undo)."""

    t: float
    action: str  # "end_turn" | "accept_board" | "show_restore" | "undo"
    reason: str

    EVENT: ClassVar[str] = "refused"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "action": self.action, "reason": self.reason}


Event = (GameStarted | FirstMoverChosen | TentativeMoves | IllegalChange | WarningCleared
         | Occluded | Uncertain | BoardSettled | TurnCommitted | CommitUndone | GameWon
         | DieRolled | RecoveryOffered | CorrectionAccepted | RestoreShown | Refused)

EVENT_TYPES: tuple[type, ...] = (
    GameStarted, FirstMoverChosen, TentativeMoves, IllegalChange, WarningCleared, Occluded,
    Uncertain, BoardSettled, TurnCommitted, CommitUndone, GameWon, DieRolled, RecoveryOffered,
    CorrectionAccepted, RestoreShown, Refused)

__all__ = [
    "EVENT_TYPES", "BoardSettled", "CommitBy", "CommitUndone", "CorrectionAccepted",
    "DieRolled", "Event", "FirstMoverChosen", "Fix", "GameStarted", "GameWon", "IllegalChange",
    "Occluded", "RecoveryOffered", "Refused", "RestoreShown", "TentativeMoves", "TurnCommitted",
    "Uncertain", "WarningCleared",
]
