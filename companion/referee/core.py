"""The referee loop: stable positions in, events out (no camera, no Kivy here).

The referee keeps the position at the start of the turn and asks the rules core to explain
every new board from it. A move is not final until the turn is committed ("a player's move
isn't final, even if the hand is removed, until you use the Marker"), so nothing is kept
between observations but the turn start: a move taken back simply disappears from the next
explanation.

Decisions the issue and the rule book leave open (docs/rules/teleporters.md has the rules):

* **Uncertain**: by default a space below ``uncertain_below`` anywhere on the mat stops the
  judging, because a misread space that looks unchanged is as wrong as a misread changed one
  (a piece landing on a space read as empty reads as a piece gone missing). With
  ``UncertainScope.CHANGED`` only spaces that differ from the turn start or from the last
  clear board count. With ``judge_unsure_after`` (refereeing a recording, where nobody can
  move a piece for a better look) a board read the same way, with spaces unsure, for that
  many seconds is judged as read.
* **Pass**: "Players may 'pass' any of their four moves", so End turn on an untouched board
  commits an empty turn.
* **End turn** is refused (a ``Refused`` event with the reason) on an illegal board, while a
  hand is over the mat, and while vision is unsure: the turn ends on a board seen clearly.
* **Events are changes**: a board seen again unchanged says nothing; a changed board always
  gets a verdict (``TentativeMoves`` or ``IllegalChange``).
* **Commit by the opponent moving**: the board must be the last legal board of the mover plus
  a legal partial turn of the opponent. An empty turn is never ended this way (that is the
  opponent moving out of turn), except on the game's first turn, where the other side simply
  moved first ("Players choose who will move first"). After an undo this is off until the
  mover's board is legal again, or the undone commit would come straight back.
* **Win**: a turn wins when committed with all four Poles on the Goal Telepads
  (``Position.winner``); before that it is a tentative win (``TentativeMoves.would_win``),
  which may still be taken back.
* **Recovery**: the clock starts at the first illegal board and runs through any number of
  changed illegal boards and hands over the mat, until a legal board is seen. The target of
  'show me what to restore' is the last legal board (the turn start plus the tentative moves).
  'Accept the board as seen' keeps the markers of moved pieces still standing where they were
  marked, and refuses a board that lacks a piece or has one too many ("Game pieces": the
  referee always plays with full sets).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.referee.events import (
    BoardSettled,
    CommitBy,
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    DrawAgreed,
    Ending,
    Event,
    FirstMoverChosen,
    Fix,
    GameResigned,
    GameStarted,
    GameWon,
    IllegalChange,
    Occluded,
    RecoveryOffered,
    Refused,
    RestoreShown,
    TentativeMoves,
    TurnCommitted,
    Uncertain,
    WarningCleared,
)
from companion.rules.teleporters import (
    Diagonal,
    Explanation,
    Move,
    Position,
    Side,
    Square,
    TurnState,
    end_turn,
    explain,
    parse_square,
    square_name,
)

PIECES_PER_SIDE = 4  # "Game pieces": four Poles and four Ports of each colour


class RefereeError(ValueError):
    """Bad input to the referee (a confidence out of range, time going backwards, ...)."""


class UncertainScope(enum.Enum):
    ALL = "all"  # any space of the mat below the threshold
    CHANGED = "changed"  # only spaces that differ from the turn start or the last clear board


class VisionState(enum.Enum):
    NONE = "none"  # nothing seen since the game started
    CLEAR = "clear"
    OCCLUDED = "occluded"
    UNCERTAIN = "uncertain"


@dataclass(frozen=True, slots=True)
class RefereeConfig:
    uncertain_below: float = 0.5  # vision's per-space confidence; 0 turns the check off
    uncertain_scope: UncertainScope = UncertainScope.ALL
    recovery_after: float = 5.0  # seconds of disagreement before recovery is offered
    commit_on_opponent_move: bool = True
    judge_unsure_after: float | None = None  # seconds of the same unsure reading: judge it

    def __post_init__(self) -> None:
        if not 0.0 <= self.uncertain_below <= 1.0:
            raise RefereeError(f"uncertain_below {self.uncertain_below!r} is not in 0..1")
        if not self.recovery_after >= 0.0:
            raise RefereeError(f"recovery_after {self.recovery_after!r} must be >= 0 seconds")
        if self.judge_unsure_after is not None and not self.judge_unsure_after >= 0.0:
            raise RefereeError(f"judge_unsure_after {self.judge_unsure_after!r} must be >= 0 "
                               "seconds")


@dataclass(frozen=True, slots=True)
class RefereeState:
    """A snapshot of what the referee believes, for the tablet and the lights."""

    turn_number: int  # of the turn in play (1 = the first)
    to_move: Side
    turn_start: Position
    seen: Position | None  # the last board vision saw clearly
    vision: VisionState
    verdict: Explanation | None  # of ``seen`` from ``turn_start``; None before any board
    expected: Position  # the last legal board: turn start plus the tentative moves
    tentative: tuple[Move, ...]
    pole_markers_left: int
    port_markers_left: int
    uncertain: tuple[str, ...] = ()
    recovery_offered: bool = False
    restore: tuple[Fix, ...] = ()
    winner: Side | None = None
    can_undo: bool = False
    ending: Ending | None = None  # how the game ended (None: it goes on)

    @property
    def illegal(self) -> bool:
        return self.verdict is not None and not self.verdict.legal

    @property
    def over(self) -> bool:
        """Won, resigned or drawn: nothing on the mat is judged any more."""
        return self.ending is not None


@dataclass(frozen=True, slots=True)
class _Commit:
    number: int
    start: Position
    prefix: TurnState
    board: Position
    turn: TurnState
    by: CommitBy


def _diff(a: Position, b: Position) -> tuple[Square, ...]:
    return tuple(sq for sq in range(64)
                 if a.poles[sq] is not b.poles[sq] or a.ports[sq] != b.ports[sq])


def _names(squares: tuple[Square, ...] | list[Square]) -> tuple[str, ...]:
    return tuple(square_name(s) for s in squares)


def describe_space(pos: Position, sq: Square) -> str:
    """The pieces on one space in the game's words: "south Pole, north Port ne", "empty"."""
    parts = []
    pole = pos.poles[sq]
    if pole is not None:
        parts.append(f"{pole.value} Pole")
    teleport = pos.teleport_at(sq)
    if teleport is not None:
        parts.append(f"{teleport.value} Teleport {Diagonal.of(pos.ports[sq][0][0]).value}")
    else:
        parts += [f"{side.value} Port {corner.value}" for corner, side in pos.ports[sq]]
    return ", ".join(parts) or "empty"


def _short_count(pos: Position) -> str | None:
    for side in Side:
        for kind, n in (("Poles", len(pos.pole_squares(side))),
                        ("Ports", len(pos.placements(side)))):
            if n != PIECES_PER_SIDE:
                return f"the board as seen has {n} {side.value} {kind}, not {PIECES_PER_SIDE}"
    return None


def _carry_marks(turn: TurnState, board: Position, side: Side) -> TurnState:
    """The markers of pieces that still stand where they were marked, on the accepted board."""
    return TurnState(
        tuple(sq for sq in turn.pole_marks if board.poles[sq] is side),
        tuple((sq, c) for sq, c in turn.port_marks if (c, side) in board.ports[sq]),
        tuple(sq for sq in turn.teleport_marks if board.teleport_at(sq) is side),
        turn.moves)


Callback = Callable[[Event], None]


class Referee:
    """Judge a stream of still boards for one game of Teleporters.

    Every input method takes the time ``t`` in seconds (never read from a clock, so a replay
    or a test is exact) and returns the events it caused, which also go to every callback
    registered with :meth:`on_event`.
    """

    def __init__(self, start: Position | None = None, config: RefereeConfig | None = None
                 ) -> None:
        self.config = config or RefereeConfig()
        self._callbacks: list[Callback] = []
        self._t = -math.inf
        self._reset(start or Position.start())

    def _reset(self, start: Position) -> None:
        self._turn_start = start
        self._prefix = TurnState()  # markers already used at the turn start (a correction)
        self._history: list[_Commit] = []
        self._seen: Position | None = None
        self._last_obs: tuple[Position, Mapping[str, float] | None] | None = None
        self._vision = VisionState.NONE
        self._verdict: Explanation | None = None
        self._expected = start
        self._expected_t: float | None = None  # when ``_expected`` was first seen
        self._expected_turn = self._prefix
        self._uncertain: tuple[str, ...] = ()
        self._unsure_reading: tuple[Position, tuple[str, ...], float] | None = None
        self._disagree_since: float | None = None
        self._recovery_offered = False
        self._restore: tuple[Fix, ...] = ()
        self._winner: Side | None = start.winner()
        self._ending: Ending | None = None if self._winner is None else Ending.RULE
        self._opponent_commit_armed = True

    # --- public API ----------------------------------------------------------------------

    def on_event(self, callback: Callback) -> None:
        """Call ``callback`` with every event, in order, as it is produced."""
        self._callbacks.append(callback)

    @property
    def state(self) -> RefereeState:
        turn = self._expected_turn
        return RefereeState(
            turn_number=len(self._history) + 1, to_move=self._turn_start.to_move,
            turn_start=self._turn_start, seen=self._seen, vision=self._vision,
            verdict=self._verdict, expected=self._expected, tentative=turn.moves,
            pole_markers_left=turn.pole_markers_left, port_markers_left=turn.port_markers_left,
            uncertain=self._uncertain, recovery_offered=self._recovery_offered,
            restore=self._restore, winner=self._winner, can_undo=bool(self._history),
            ending=self._ending)

    def new_game(self, start: Position | None = None, *, t: float | None = None
                 ) -> list[Event]:
        """Start over from ``start`` (default: the book's set-up, south to move)."""
        t = self._clock(t)
        start = start or Position.start()
        self._reset(start)
        return self._emit([GameStarted(t, start)])

    def observe(self, position: Position | Mapping[str, Any] | None,
                confidences: Mapping[str, float] | None = None, *, t: float) -> list[Event]:
        """One report from vision: a still board (Position or its JSON), or None (occluded)."""
        if position is None:
            return self.observe_occluded(t=t)
        return self.observe_position(position, confidences, t=t)

    def observe_position(self, position: Position | Mapping[str, Any],
                         confidences: Mapping[str, float] | None = None, *, t: float
                         ) -> list[Event]:
        """A still board, with vision's confidence per space (``{"e4": 0.93, ...}``)."""
        t = self._clock(t)
        pos = self._coerce(position)
        low = self._low_confidence(pos, confidences)  # bad input raises even after a win
        self._last_obs = (pos, None if confidences is None else dict(confidences))
        if self._ending is not None:
            return []  # the game is over: nothing on the mat is judged any more
        events: list[Event] = []
        if low and self._unsure_settled(pos, tuple(name for name, _ in low), t):
            low = []
        if low:
            squares = tuple(name for name, _ in low)
            if self._vision is not VisionState.UNCERTAIN or squares != self._uncertain:
                events.append(Uncertain(t, squares, tuple(c for _, c in low),
                                        self.config.uncertain_below))
            self._vision, self._uncertain = VisionState.UNCERTAIN, squares
            return self._emit(events)
        if self._vision in (VisionState.OCCLUDED, VisionState.UNCERTAIN):
            events.append(BoardSettled(t, self._vision.value))
        self._vision, self._uncertain = VisionState.CLEAR, ()
        if self._seen is None or self._verdict is None or not pos.same_board(self._seen):
            self._seen = pos
            events += self._judge(pos, t)
        events += self._recovery_due(t)
        return self._emit(events)

    def _unsure_settled(self, pos: Position, squares: tuple[str, ...], t: float) -> bool:
        """True once the same board has been read, with some spaces unsure, for
        ``judge_unsure_after`` seconds (never, by default)."""
        wait = self.config.judge_unsure_after
        if wait is None:
            return False
        held = self._unsure_reading
        # Which spaces fall under the threshold flickers from exposure to exposure; the
        # reading is what must hold.
        if (held is None or not held[0].same_board(pos)
                or self._vision is not VisionState.UNCERTAIN):
            self._unsure_reading = (pos, squares, t)
            return False
        return t - held[2] >= wait

    def observe_occluded(self, t: float) -> list[Event]:
        """A hand (or an arm, a sleeve) over the mat."""
        t = self._clock(t)
        if self._ending is not None or self._vision is VisionState.OCCLUDED:
            return []
        self._vision, self._uncertain = VisionState.OCCLUDED, ()
        return self._emit([Occluded(t)])

    def observe_still(self, t: float) -> list[Event]:
        """Vision reports the board still and unchanged since its last report (the stability
        gate reports a board only once): judge the last report again, e.g. after a hand."""
        if self._last_obs is None:
            self._clock(t)
            return []
        pos, conf = self._last_obs
        return self.observe_position(pos, conf, t=t)

    def tick(self, t: float) -> list[Event]:
        """Time passes with nothing new seen: recovery may be due."""
        t = self._clock(t)
        if self._ending is not None:
            return []
        return self._emit(self._recovery_due(t))

    def end_turn(self, t: float, source: CommitBy | str = CommitBy.TABLET) -> list[Event]:
        """End turn, pressed on the tablet or on the board's button."""
        t = self._clock(t)
        by = CommitBy(source)
        if by is CommitBy.OPPONENT:  # the referee's own inference, never an action
            raise RefereeError(f"source {source!r}: End turn comes from the tablet or the bridge")
        why = self._why_not_commit(by)
        if why:
            return self._emit([Refused(t, "end_turn", why)])
        return self._emit(self._commit(by, t))

    def undo_last_commit(self, t: float | None = None) -> list[Event]:
        """Reopen the last committed turn; the board seen now is judged from its start."""
        t = self._clock(t)
        if self._ending in (Ending.RESIGNATION, Ending.AGREEMENT):
            # the players' word ends the match in the log: it is not taken back
            return self._emit([Refused(t, "undo", f"{self._over_words()}; start a new game")])
        if not self._history:
            return self._emit([Refused(t, "undo", "no committed turn to undo")])
        c = self._history.pop()
        self._turn_start, self._prefix, self._winner = c.start, c.prefix, None
        self._ending = None
        self._expected, self._expected_turn = c.board, c.turn
        self._disagree_since, self._recovery_offered, self._restore = None, False, ()
        self._opponent_commit_armed = False
        events: list[Event] = [CommitUndone(t, c.start.to_move, c.number, c.turn.moves)]
        board = self._seen if self._seen is not None else c.board
        events += self._judge(board, t)
        return self._emit(events)

    def accept_board(self, t: float) -> list[Event]:
        """'Accept the board as seen': it becomes the turn start, logged as a correction."""
        t = self._clock(t)
        why = self._why_not_seen("accept the board")
        if why is None and self._seen is not None:
            why = _short_count(self._seen)
            if why:
                why += ": put the missing piece back (or take the extra one off) first"
        if why or self._seen is None:
            return self._emit([Refused(t, "accept_board", why or "nothing seen yet")])
        seen, side = self._as_in_turn(self._seen), self._turn_start.to_move
        events: list[Event] = [CorrectionAccepted(
            t, side, self._expected, seen, _names(_diff(self._expected, seen)))]
        self._prefix = _carry_marks(self._expected_turn, seen, side)
        self._turn_start = seen
        events += self._judge(seen, t)
        return self._emit(events)

    def show_restore(self, t: float) -> list[Event]:
        """'Show me what to restore': the spaces that differ from the last legal board."""
        t = self._clock(t)
        why = self._why_not_seen("show what to restore")
        if why is None and not (self._verdict is not None and not self._verdict.legal):
            why = "the board agrees with the referee: nothing to restore"
        if why or self._seen is None:
            return self._emit([Refused(t, "show_restore", why or "nothing seen yet")])
        self._restore = self._fixes(self._seen)
        return self._emit([RestoreShown(t, self._restore)])

    def resign(self, side: Side, t: float) -> list[Event]:
        """``side`` resigns (either side may, whoever is to move): the other side wins."""
        t = self._clock(t)
        side = Side.parse(side)  # a PositionError (ValueError) names a bad side
        if self._ending is not None:
            return self._emit([Refused(t, "resign", self._over_words())])
        self._winner, self._ending = side.opponent, Ending.RESIGNATION
        self._restore = ()
        return self._emit([GameResigned(t, side)])

    def agree_draw(self, t: float) -> list[Event]:
        """Both players agree to a draw."""
        t = self._clock(t)
        if self._ending is not None:
            return self._emit([Refused(t, "draw", self._over_words())])
        self._ending, self._restore = Ending.AGREEMENT, ()
        return self._emit([DrawAgreed(t)])

    def die_rolled(self, value: int, source: str = "bridge", *, t: float, sides: int = 6
                   ) -> list[Event]:
        """A roll of the electronic die (or one typed on the tablet). Teleporters has no die:
        the roll is only logged; the games that use one read it from the log."""
        t = self._clock(t)
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
            raise RefereeError(f"a die has at least 2 sides, not {sides!r}")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RefereeError(f"die value {value!r} is not 1..{sides}")
        return self._emit([DieRolled(t, value, sides, source)])

    # --- judging -------------------------------------------------------------------------

    def _judge(self, pos: Position, t: float) -> list[Event]:
        # A board says nothing of whose turn it is (vision cannot see the markers): it is
        # always the turn start's side, whenever the board was first seen.
        pos = self._as_in_turn(pos)
        expl = explain(self._turn_start, pos, self._prefix)
        if expl.legal:
            return self._legal(pos, expl, t)
        if self.config.commit_on_opponent_move and self._opponent_commit_armed:
            events = self._opponent_started(pos, t)
            if events is not None:
                return events
        return self._illegal(pos, expl, t)

    def _legal(self, pos: Position, expl: Explanation, t: float) -> list[Event]:
        events: list[Event] = []
        if self._verdict is not None and not self._verdict.legal:
            events.append(WarningCleared(t))
        if self._expected_t is None or not pos.same_board(self._expected):
            self._expected_t = t
        self._verdict, self._expected, self._expected_turn = expl, pos, expl.turn
        self._disagree_since, self._recovery_offered, self._restore = None, False, ()
        self._opponent_commit_armed = True
        side = self._turn_start.to_move
        moves = expl.turn.moves
        touched: list[str] = []
        for m in moves:
            touched += [n for n in _names(m.squares()) if n not in touched]
        mk = expl.markers()
        events.append(TentativeMoves(
            t, side, moves, mk["pole_used"], mk["port_used"], tuple(touched),
            expl.alternatives, pos.winner() is side))
        return events

    def _illegal(self, pos: Position, expl: Explanation, t: float) -> list[Event]:
        self._verdict = expl
        if self._disagree_since is None:
            self._disagree_since = t
        reason = expl.violations[0]
        events: list[Event] = [IllegalChange(
            t, self._turn_start.to_move, reason.rule, _names(expl.squares), reason.message,
            expl.violations)]
        if self._restore:  # keep the list shown up to date while the players fix the board
            self._restore = self._fixes(pos)
            events.append(RestoreShown(t, self._restore))
        return events

    def _opponent_started(self, pos: Position, t: float) -> list[Event] | None:
        """The board as (the mover's last legal board, committed) + the opponent's moves."""
        first_turn = not self._history
        if not self._expected_turn.moves and not first_turn:
            return None  # an untouched turn ends only by End turn
        nxt = end_turn(self._expected)
        expl = explain(nxt, pos)
        if not expl.legal or not expl.moves:
            return None
        events: list[Event]
        if not self._expected_turn.moves:
            self._turn_start = self._turn_start.replace(to_move=nxt.to_move)
            self._expected = self._expected.replace(to_move=nxt.to_move)
            events = [FirstMoverChosen(t, nxt.to_move)]
        else:
            events = self._commit(CommitBy.OPPONENT, t)
            if self._ending is not None:
                return events
        return events + self._legal(pos, expl, t)

    def _as_in_turn(self, pos: Position) -> Position:
        side = self._turn_start.to_move
        return pos if pos.to_move is side else pos.replace(to_move=side)

    def _commit(self, by: CommitBy, t: float) -> list[Event]:
        side, board, turn = self._turn_start.to_move, self._expected, self._expected_turn
        number = len(self._history) + 1
        self._history.append(_Commit(number, self._turn_start, self._prefix, board, turn, by))
        events: list[Event] = [TurnCommitted(t, side, number, turn.moves, by, board,
                                             self._expected_t)]
        nxt = end_turn(board)
        self._turn_start, self._prefix = nxt, TurnState()
        self._expected, self._expected_turn = nxt, self._prefix
        self._verdict = Explanation(True)  # the board seen is the new turn's start
        self._disagree_since, self._recovery_offered, self._restore = None, False, ()
        self._opponent_commit_armed = True
        winner = board.winner()
        if winner is not None:
            self._winner, self._ending = winner, Ending.RULE
            events.append(GameWon(t, winner, board))
        return events

    def _recovery_due(self, t: float) -> list[Event]:
        if (self._recovery_offered or self._disagree_since is None or self._seen is None
                or self._vision is not VisionState.CLEAR
                or t - self._disagree_since < self.config.recovery_after):
            return []
        self._recovery_offered = True
        return [RecoveryOffered(t, self._disagree_since,
                                _names(_diff(self._expected, self._seen)))]

    def _fixes(self, seen: Position) -> tuple[Fix, ...]:
        return tuple(Fix(square_name(sq), describe_space(self._expected, sq),
                         describe_space(seen, sq)) for sq in _diff(self._expected, seen))

    # --- checks and input ----------------------------------------------------------------

    def _why_not_commit(self, by: CommitBy = CommitBy.TABLET) -> str | None:
        if self._ending is not None:
            return self._over_words()
        if by is CommitBy.RECORDING:
            # Nobody can look again after the recording's end: the last board seen clearly
            # and judged legal is the turn's end, unless the last judgement was illegal.
            if self._verdict is not None and not self._verdict.legal:
                return f"the board is not legal: {self._verdict.violations[0].message}"
            return None
        if self._vision is VisionState.OCCLUDED:
            return "a hand is over the mat: end the turn once the board is clear"
        if self._vision is VisionState.UNCERTAIN:
            return (f"vision is not sure of {', '.join(self._uncertain)}: "
                    "let it look again, then end the turn")
        if self._verdict is not None and not self._verdict.legal:
            return f"the board is not legal: {self._verdict.violations[0].message}"
        return None

    def _why_not_seen(self, what: str) -> str | None:
        if self._ending is not None:
            return self._over_words()
        if self._vision is VisionState.OCCLUDED:
            return f"a hand is over the mat: {what} once the board is clear"
        if self._vision is VisionState.UNCERTAIN:
            return f"vision is not sure of {', '.join(self._uncertain)}"
        if self._seen is None:
            return "nothing seen yet"
        return None

    def _over_words(self) -> str:
        if self._ending is Ending.AGREEMENT:
            return "the game is over: drawn by agreement"
        assert self._winner is not None
        if self._ending is Ending.RESIGNATION:
            return (f"the game is over: {self._winner.opponent.value} resigned, "
                    f"{self._winner.value} won")
        return f"the game is over: {self._winner.value} won"

    def _clock(self, t: float | None) -> float:
        if t is None:
            return self._t if math.isfinite(self._t) else 0.0
        if isinstance(t, bool) or not isinstance(t, int | float) or math.isnan(t):
            raise RefereeError(f"time {t!r} is not a number of seconds")
        if t < self._t:
            raise RefereeError(f"time {t!r} is before the last input at {self._t!r}")
        self._t = float(t)
        return self._t

    def _coerce(self, position: Position | Mapping[str, Any]) -> Position:
        if isinstance(position, Mapping):
            position = Position.from_json(dict(position))
        if not isinstance(position, Position):
            raise RefereeError(f"not a position: {position!r}")
        # Vision knows neither whose turn it is nor the variant: the referee does.
        return position.replace(to_move=self._turn_start.to_move,
                                variant=self._turn_start.variant)

    def _low_confidence(self, pos: Position, confidences: Mapping[str, float] | None
                        ) -> list[tuple[str, float]]:
        if confidences is None:
            return []
        threshold = self.config.uncertain_below
        changed: set[Square] | None = None
        if self.config.uncertain_scope is UncertainScope.CHANGED:
            changed = set(_diff(self._turn_start, pos))
            if self._seen is not None:
                changed |= set(_diff(self._seen, pos))
        low: list[tuple[Square, float]] = []
        for name, c in confidences.items():
            sq = parse_square(name)  # a PositionError (ValueError) names a bad square
            if (isinstance(c, bool) or not isinstance(c, int | float) or math.isnan(c)
                    or not 0.0 <= c <= 1.0):
                raise RefereeError(f"confidence {c!r} for {name} is not in 0..1")
            if c < threshold and (changed is None or sq in changed):
                low.append((sq, float(c)))
        return [(square_name(sq), c) for sq, c in sorted(low)]

    def _emit(self, events: list[Event]) -> list[Event]:
        for event in events:
            for callback in self._callbacks:
                callback(event)
        return events


__all__ = ["Referee", "RefereeConfig", "RefereeError", "RefereeState", "UncertainScope",
           "VisionState", "describe_space"]
