"""What the referee says: one frozen value per thing that happened at the table.

Every event carries the time ``t`` (seconds, as passed in by the caller), puts itself into
plain words (``describe()``, under a short ``LABEL``) and into a JSON object with an
``"event"`` key (``to_json()``): the one vocabulary of the text log, ``companion referee``
(its ``--json`` lines follow :data:`SCHEMA`, docs/events.md) and the match log. Squares are
named (``"e4"``), the way the bridge and the players name them; moves stay rules-core moves
(``.notation()`` in JSON).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules.teleporters import Move, Position, Rule, Side, Violation

SCHEMA = 1  # the version of the events' JSON (docs/events.md)


def _notation(moves: tuple[Move, ...]) -> list[str]:
    return [m.notation() for m in moves]


def _listed(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


class CommitBy(enum.Enum):
    """What ended a turn. The book's own signal is sliding the markers across; at this table it
    is a button (tablet or board), or the opponent starting to move."""

    TABLET = "tablet"
    KEYBOARD = "keyboard"  # the End turn key of `companion run` in a terminal
    BRIDGE = "bridge"
    OPPONENT = "opponent_moved"
    RECORDING = "recording_ended"  # refereeing a recording: its last turn ends with it

    @property
    def words(self) -> str:
        return {"tablet": "End turn on the tablet", "keyboard": "the End turn key",
                "bridge": "the board's button",
                "opponent_moved": "the opponent starting to move",
                "recording_ended": "the end of the recording"}[self.value]


class Ending(enum.Enum):
    """How a game ended: by the rules, or by the players' word (the match log keeps it)."""

    RULE = "rule"  # all four Poles on their Goal Telepads in a committed turn
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"  # a draw both players agreed to


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
    LABEL: ClassVar[str] = "GAME"

    def describe(self) -> str:
        return f"game started: {self.position.to_move.value} to move"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "to_move": self.position.to_move.value,
                "position": self.position.to_json()}


@dataclass(frozen=True, slots=True)
class FirstMoverChosen:
    """"Players choose who will move first": the other side moved first on the first turn."""

    t: float
    side: Side

    EVENT: ClassVar[str] = "first_mover_chosen"
    LABEL: ClassVar[str] = "FIRST"

    def describe(self) -> str:
        return f"{self.side.value} moved first"

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
    LABEL: ClassVar[str] = "MOVES"

    def describe(self) -> str:
        if not self.moves:
            return f"{self.side.value} to move: nothing moved this turn"
        alt = f" (or {len(self.alternatives)} other readings)" if self.alternatives else ""
        win = "; all four Poles home: End turn wins" if self.would_win else ""
        return (f"{self.side.value}: {' '.join(_notation(self.moves))}{alt} [markers left: "
                f"Pole {self.pole_markers_left}, Port {self.port_markers_left}]{win}")
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
    LABEL: ClassVar[str] = "ILLEGAL"

    def describe(self) -> str:
        return (f"{self.side.value}: {self.message} ({self.clause}; spaces "
                f"{_listed(self.squares)})")

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
    LABEL: ClassVar[str] = "PUT-RIGHT"

    def describe(self) -> str:
        return "put right: the board is legal again"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t}


@dataclass(frozen=True, slots=True)
class Occluded:
    """A hand (or anything else) is over the mat: nothing is judged until it is gone."""

    t: float

    EVENT: ClassVar[str] = "occluded"
    LABEL: ClassVar[str] = "HAND"

    def describe(self) -> str:
        return "a hand is over the mat"

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
    LABEL: ClassVar[str] = "UNSURE"

    def describe(self) -> str:
        return f"vision is not sure of {_listed(self.squares)}: looking again"

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
    LABEL: ClassVar[str] = "CLEAR"

    def describe(self) -> str:
        return "the mat is clear" if self.after == "occluded" else "vision is sure again"

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
    LABEL: ClassVar[str] = "COMMIT"

    def describe(self) -> str:
        moves = " ".join(_notation(self.moves)) or "pass"
        return f"turn {self.number} ({self.side.value}) committed by {self.by.words}: {moves}"

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
    LABEL: ClassVar[str] = "UNDO"

    def describe(self) -> str:
        return f"turn {self.number} ({self.side.value}) is open again"

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
    LABEL: ClassVar[str] = "WIN"

    def describe(self) -> str:
        return f"{self.side.value} wins with all four Poles on its Goal Telepads"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "position": self.position.to_json()}


@dataclass(frozen=True, slots=True)
class GameResigned:
    """``side`` resigned: the other side wins."""

    t: float
    side: Side

    EVENT: ClassVar[str] = "game_resigned"
    LABEL: ClassVar[str] = "RESIGN"

    @property
    def winner(self) -> Side:
        return self.side.opponent

    def describe(self) -> str:
        return f"{self.side.value} resigns: {self.winner.value} wins"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "side": self.side.value,
                "winner": self.winner.value}


@dataclass(frozen=True, slots=True)
class DrawAgreed:
    """Both players agreed to a draw."""

    t: float

    EVENT: ClassVar[str] = "draw_agreed"
    LABEL: ClassVar[str] = "DRAW"

    def describe(self) -> str:
        return "the players agree to a draw"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t}


@dataclass(frozen=True, slots=True)
class DieRolled:
    t: float
    value: int
    sides: int
    source: str  # "bridge" (the electronic die) | "tablet"

    EVENT: ClassVar[str] = "die_rolled"
    LABEL: ClassVar[str] = "DIE"

    def describe(self) -> str:
        return f"rolled {self.value} on a d{self.sides} ({self.source})"

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
    LABEL: ClassVar[str] = "RECOVER"

    def describe(self) -> str:
        return (f"the board has disagreed since t={self.since:.1f}s: accept it as seen, or ask "
                f"what to restore ({_listed(self.squares)})")

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
    LABEL: ClassVar[str] = "CORRECTION"

    def describe(self) -> str:
        return (f"the board as seen is {self.side.value}'s turn start (spaces that disagreed: "
                f"{_listed(self.squares) or 'none'})")

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
    LABEL: ClassVar[str] = "RESTORE"

    def describe(self) -> str:
        if not self.fixes:
            return "nothing to restore: the board matches"
        return "put back " + "; ".join(f"{f.square}: {f.want} (seen {f.seen})"
                                       for f in self.fixes)

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
    action: str  # "end_turn" | "accept_board" | "show_restore" | "undo" | "resign" | "draw"
    reason: str

    EVENT: ClassVar[str] = "refused"
    LABEL: ClassVar[str] = "REFUSED"

    def describe(self) -> str:
        return f"cannot {self.action.replace('_', ' ')}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.EVENT, "t": self.t, "action": self.action, "reason": self.reason}


Event = (GameStarted | FirstMoverChosen | TentativeMoves | IllegalChange | WarningCleared
         | Occluded | Uncertain | BoardSettled | TurnCommitted | CommitUndone | GameWon
         | GameResigned | DrawAgreed | DieRolled | RecoveryOffered | CorrectionAccepted
         | RestoreShown | Refused)

EVENT_TYPES: tuple[type, ...] = (
    GameStarted, FirstMoverChosen, TentativeMoves, IllegalChange, WarningCleared, Occluded,
    Uncertain, BoardSettled, TurnCommitted, CommitUndone, GameWon, GameResigned, DrawAgreed,
    DieRolled, RecoveryOffered, CorrectionAccepted, RestoreShown, Refused)

__all__ = [
    "EVENT_TYPES", "SCHEMA", "BoardSettled", "CommitBy", "CommitUndone", "CorrectionAccepted",
    "DieRolled", "DrawAgreed", "Ending", "Event", "FirstMoverChosen", "Fix", "GameResigned",
    "GameStarted", "GameWon", "IllegalChange", "Occluded", "RecoveryOffered", "Refused",
    "RestoreShown", "TentativeMoves", "TurnCommitted", "Uncertain", "WarningCleared",
]
