"""Match log values: matches, committed turns and events, and replaying them with the rules core.

Everything here is a frozen value. Times are timezone-aware UTC ``datetime`` values kept to the
millisecond (the store's resolution), and durations are seconds kept to the millisecond, so a
value read back from the store or from an export compares equal to the one written.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import NamedTuple, NewType, TypeVar

from companion.matchlog.errors import MatchLogError
from companion.rules.errors import MoveError, RulesError
from companion.rules.teleporters import (
    GAME,
    Move,
    Position,
    Side,
    TurnState,
    Variant,
    Violation,
    end_turn,
    parse_move,
    play,
    square_name,
)

E = TypeVar("E", bound=enum.Enum)
MatchId = NewType("MatchId", int)
EventId = NewType("EventId", int)

SIDES: tuple[str, ...] = tuple(s.value for s in Side)
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# Tags with a meaning of their own in the text export; anything else is kept in ``tags``.
RESERVED_TAGS = frozenset({"Game", "Variant", "Start", "Started", "Ended", "Result",
                           *(s.capitalize() for s in SIDES)})
_SQUARE_NAME = re.compile(r"[a-h][1-8]")
_RULE_ID = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9_.-]*)?")  # "-" means "no rule" in exports


# -- time --------------------------------------------------------------------------------------


def utc_now() -> datetime:
    return normalise_time(datetime.now(UTC), "now")


def normalise_time(value: datetime, what: str) -> datetime:
    """Aware UTC, whole milliseconds: what the store keeps."""
    if not isinstance(value, datetime):
        raise MatchLogError(f"{what} must be a datetime, got {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        # A naive time is ambiguous across tablets and time zones: refuse it.
        raise MatchLogError(f"{what} must be timezone-aware, got {value.isoformat()}")
    value = value.astimezone(UTC)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def to_ms(value: datetime) -> int:
    return (value - _EPOCH) // _MS  # exact, unlike float timestamps


def from_ms(ms: int) -> datetime:
    return _EPOCH + ms * _MS


def iso(value: datetime) -> str:
    """``2026-05-09T10:00:41.200Z``."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{value.microsecond // 1000:03d}Z"


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z")


def parse_iso(text: str) -> datetime:
    m = _ISO.fullmatch(text)
    if not m:
        raise MatchLogError(f"{text!r} is not a UTC time like 2026-05-09T10:00:41.200Z")
    try:
        year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
        return datetime(year, month, day, hour, minute, second,
                        microsecond=int((m[7] or "0").ljust(3, "0")) * 1000, tzinfo=UTC)
    except ValueError as exc:
        raise MatchLogError(f"{text!r}: {exc}") from None


def normalise_seconds(value: float, what: str = "time taken") -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or value < 0:
        raise MatchLogError(f"{what} must be a finite number of seconds >= 0, got {value!r}")
    return round(value * 1000) / 1000


# -- enums -------------------------------------------------------------------------------------


class Result(enum.Enum):
    """How a match ended. An unfinished match has no result (``None``; ``*`` in exports)."""

    SOUTH = "south"  # south won
    NORTH = "north"  # north won
    DRAW = "draw"
    ABANDONED = "abandoned"

    @classmethod
    def parse(cls, value: object) -> Result:
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(r.value for r in cls)
            raise MatchLogError(f"unknown result {value!r}: one of {allowed}") from None

    @classmethod
    def win(cls, side: Side) -> Result:
        return cls(side.value)


class Termination(enum.Enum):
    """How a finished match came to its result, kept as its ``Termination`` tag (a tag travels
    in exports with the others, and needs no new column)."""

    RULE = "rule"  # won by the rules: four Poles on the Goal Telepads
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"  # a draw both players agreed to


TERMINATION_TAG = "Termination"


class EventKind(enum.Enum):
    ILLEGAL = "illegal"  # an illegal-move warning, and how it was resolved
    CORRECTION = "correction"  # the board accepted as seen
    DIE = "die"  # a die roll and where it was read from
    NOTE = "note"  # anything else the referee or the players want kept


class Resolution(enum.Enum):
    """How an illegal-move warning ended."""

    PUT_RIGHT = "put-right"  # the players set the board right
    ACCEPTED = "accepted"  # the board was accepted as seen (a Correction event follows)
    MISREAD = "misread"  # the camera misread the board; the warning was dismissed


class DieSource(enum.Enum):
    ELECTRONIC = "electronic"  # the die on the LED board
    CAMERA = "camera"  # a physical die read by the camera
    TYPED = "typed"  # typed in on the tablet


def parse_enum(cls: type[E], value: object, what: str) -> E:
    """``cls(value)``, or a :class:`MatchLogError` listing the values allowed."""
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in cls)
        raise MatchLogError(f"unknown {what} {value!r}: one of {allowed}") from None


def printable(text: str) -> str:
    """``text`` as it may reach a terminal: control characters (an ANSI escape, a NUL, a
    line break inside a name) shown as U+FFFD, so an imported name cannot move the cursor,
    recolour the screen or break a line."""
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IllegalMove:
    """A warning the referee gave: the rule (its id in the rules core), the spaces lit red, the
    sentence shown, and how it was resolved (``None`` while it stands)."""

    message: str
    squares: tuple[str, ...] = ()
    rule: str = ""
    resolution: Resolution | None = None

    kind = EventKind.ILLEGAL

    def __post_init__(self) -> None:
        object.__setattr__(self, "squares", tuple(self.squares))
        for name in self.squares:
            if not isinstance(name, str) or not _SQUARE_NAME.fullmatch(name):
                raise MatchLogError(f"illegal-move warning: {name!r} is not a square like e4")
        if not isinstance(self.rule, str) or not _RULE_ID.fullmatch(self.rule):
            raise MatchLogError(f"illegal-move warning: rule id {self.rule!r}: letters, digits "
                                "and . _ - (starting with a letter or digit)")
        if not isinstance(self.message, str):
            raise MatchLogError(f"illegal-move warning: message must be text, got "
                                f"{self.message!r}")
        if self.resolution is not None:
            object.__setattr__(self, "resolution",
                               parse_enum(Resolution, self.resolution, "resolution"))

    @classmethod
    def from_violation(cls, violation: Violation) -> IllegalMove:
        """From the rules core's ``Violation`` (the reason ``explain`` gives)."""
        return cls(violation.message, tuple(square_name(s) for s in violation.squares),
                   violation.rule.id)


@dataclass(frozen=True, slots=True)
class Correction:
    """The board accepted as seen: from now on it is the start of the turn in progress."""

    position: Position
    note: str = ""

    kind = EventKind.CORRECTION

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise MatchLogError(f"a correction needs a Position, got {self.position!r}")


@dataclass(frozen=True, slots=True)
class DieRoll:
    value: int
    source: DieSource

    kind = EventKind.DIE

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 1:
            raise MatchLogError(f"a die roll must be a whole number >= 1, got {self.value!r}")
        object.__setattr__(self, "source", parse_enum(DieSource, self.source, "die source"))


@dataclass(frozen=True, slots=True)
class Note:
    text: str

    kind = EventKind.NOTE


EventData = IllegalMove | Correction | DieRoll | Note


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened during turn ``turn`` (the turn in progress: committed turns + 1).

    ``id`` is the store's, so it takes no part in comparisons.
    """

    turn: int
    at: datetime
    data: EventData
    id: EventId | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.turn, bool) or not isinstance(self.turn, int) or self.turn < 1:
            raise MatchLogError(f"an event's turn must be a number >= 1, got {self.turn!r}")
        if not isinstance(self.data, IllegalMove | Correction | DieRoll | Note):
            raise MatchLogError(f"an event is an IllegalMove, Correction, DieRoll or Note, "
                                f"got {self.data!r}")
        object.__setattr__(self, "at", normalise_time(self.at, "event time"))


# -- turns -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One committed turn: who played it, the moves in notation (empty: a pass), the markers
    they used, the position after it (handed to the other side: the next turn's start), the
    time it took and when it was committed."""

    side: Side
    moves: tuple[str, ...]
    position: Position
    seconds: float
    committed_at: datetime = field(default_factory=utc_now)
    pole_markers: int = 0
    port_markers: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "side", _side(self.side))
        notation = []
        for m in self.moves:
            text = m if isinstance(m, str) else m.notation()
            try:
                notation.append(parse_move(text).notation())  # the canonical spelling
            except MoveError as exc:
                raise MatchLogError(str(exc)) from None
        object.__setattr__(self, "moves", tuple(notation))
        if not isinstance(self.position, Position):
            raise MatchLogError(f"a turn's position must be a Position, got {self.position!r}")
        object.__setattr__(self, "seconds", normalise_seconds(self.seconds))
        object.__setattr__(self, "committed_at",
                           normalise_time(self.committed_at, "committed_at"))
        for what, n in (("Pole", self.pole_markers), ("Port", self.port_markers)):
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 2:
                raise MatchLogError(f"{what} markers used must be 0, 1 or 2, got {n!r}")

    @classmethod
    def played(cls, start: Position, moves: Sequence[Move | str], seconds: float,
               committed_at: datetime | None = None) -> TurnRecord:
        """The turn ``moves`` make from ``start`` (the turn's start position), replayed with
        the rules core: markers and the resulting position come from the rules. Raises
        :class:`MatchLogError` naming the first move that is not legal."""
        after, side, pole, port = replay_turn(start, moves)
        return cls(side, tuple(m if isinstance(m, str) else m.notation() for m in moves),
                   after, seconds, committed_at or utc_now(), pole, port)


def replay_turn(start: Position, moves: Sequence[Move | str]
                ) -> tuple[Position, Side, int, int]:
    """Play ``moves`` from ``start``: (position handed over, side that moved, Pole markers used,
    Port markers used). Raises :class:`MatchLogError` quoting the move that is not legal."""
    pos, turn = start, TurnState()
    for m in moves:
        try:
            move = parse_move(m) if isinstance(m, str) else m
            pos, turn = play(pos, move, turn)
        except MoveError as exc:
            raise MatchLogError(str(exc)) from None
    return (end_turn(pos), start.to_move, TurnState.POLE_MARKERS - turn.pole_markers_left,
            TurnState.PORT_MARKERS - turn.port_markers_left)


def _side(value: object) -> Side:
    if isinstance(value, Side):
        return value
    try:
        return Side(value)
    except ValueError:
        raise MatchLogError(f"unknown side {value!r}: one of {', '.join(SIDES)}") from None


# -- matches -----------------------------------------------------------------------------------


def normalise_players(players: Mapping[str, str] | None) -> dict[str, str]:
    """Side name -> player name, in the game's side order."""
    players = dict(players or {})
    for side, name in players.items():
        if side not in SIDES:
            raise MatchLogError(f"players: unknown side {side!r}: one of {', '.join(SIDES)}")
        if not isinstance(name, str):
            raise MatchLogError(f"players: {side}'s name must be text, got {name!r}")
    return {s: players[s] for s in SIDES if s in players}


# A match's name (``companion matches rename``) is this tag: it travels in exports with the
# others, and a store needs no new column for it.
NAME_TAG = "Name"
MAX_NAME = 200


def normalise_name(name: object) -> str:
    """A match name: text, stripped, 1 to ``MAX_NAME`` characters, none of them a control
    character (a name is printed in lists)."""
    if not isinstance(name, str):
        raise MatchLogError(f"a match name must be text, got {name!r}")
    text = name.strip()
    if not text:
        raise MatchLogError(f"a match name needs a character that is not a space, got {name!r}")
    if len(text) > MAX_NAME:
        raise MatchLogError(f"a match name has at most {MAX_NAME} characters, got {len(text)} "
                            f"({text[:20]!r}...)")
    if not text.isprintable():
        raise MatchLogError(f"a match name cannot hold control characters, got {text!r}")
    return text


def normalise_tags(tags: Mapping[str, str] | None) -> dict[str, str]:
    out = {}
    for name, value in (tags or {}).items():
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
            raise MatchLogError(f"tag name {name!r}: letters, digits and _ only, "
                                "starting with a letter")
        if name in RESERVED_TAGS:
            raise MatchLogError(f"tag {name!r} is kept by the match log itself")
        if not isinstance(value, str):
            raise MatchLogError(f"tag {name}: value must be text, got {value!r}")
        out[name] = value
    return out


@dataclass(frozen=True, slots=True)
class QuestFind:
    """A Solitaire Quest solution class a player found (the first time)."""

    player: str
    quest: str
    class_number: int
    class_id: str
    found_at: datetime


class MatchSummary(NamedTuple):
    """A match as listed: no turns, just their number.

    A NamedTuple, not a frozen dataclass like the other values: listing a 10,000-match store
    builds 10,000 of these, and a frozen dataclass's ``__init__`` costs three times as much.
    """

    id: MatchId
    game: str
    players: Mapping[str, str]
    started_at: datetime
    ended_at: datetime | None
    result: Result | None
    turns: int
    name: str | None = None  # the NAME_TAG tag, given with `companion matches rename`

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    def players_text(self) -> str:
        return " v ".join(f"{printable(self.players.get(s) or '?')} ({s})" for s in SIDES)


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: the start (turn 0) or a committed turn and the position after
    it, with the events logged while that turn was in progress."""

    turn: int
    position: Position
    record: TurnRecord | None
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """A whole match. ``id`` is the store's, so it takes no part in comparisons."""

    start: Position
    players: Mapping[str, str]
    started_at: datetime
    turns: tuple[TurnRecord, ...] = ()
    events: tuple[Event, ...] = ()
    ended_at: datetime | None = None
    result: Result | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    game: str = GAME
    id: MatchId | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.game != GAME:
            raise MatchLogError(f"game {self.game!r} is not one the match log knows ({GAME})")
        object.__setattr__(self, "players", normalise_players(self.players))
        object.__setattr__(self, "tags", normalise_tags(self.tags))
        object.__setattr__(self, "started_at", normalise_time(self.started_at, "started_at"))
        object.__setattr__(self, "turns", tuple(self.turns))
        object.__setattr__(self, "events", tuple(self.events))
        if self.ended_at is not None:
            object.__setattr__(self, "ended_at", normalise_time(self.ended_at, "ended_at"))
        if self.result is not None:
            object.__setattr__(self, "result", Result.parse(self.result))
        if (self.result is None) != (self.ended_at is None):
            raise MatchLogError("a finished match has both an end time and a result, an "
                                f"unfinished one neither (ended_at={self.ended_at}, "
                                f"result={self.result})")
        if self.ended_at is not None and self.ended_at < self.started_at:
            raise MatchLogError(f"the match ended ({self.ended_at.isoformat()}) before it "
                                f"started ({self.started_at.isoformat()})")
        last = 0
        for e in self.events:
            if e.turn < last or e.turn > len(self.turns) + 1:
                raise MatchLogError(f"event of turn {e.turn} out of order (match has "
                                    f"{len(self.turns)} turns)")
            last = e.turn

    @property
    def variant(self) -> Variant:
        return self.start.variant

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    @property
    def final_position(self) -> Position:
        """The position after the last committed turn (the start if there is none)."""
        return self.turns[-1].position if self.turns else self.start

    @property
    def pending_events(self) -> tuple[Event, ...]:
        """Events of the turn in progress (never committed)."""
        return tuple(e for e in self.events if e.turn == len(self.turns) + 1)

    def position_before(self, turn: int) -> Position:
        """The start of ``turn`` (1-based; ``len(turns) + 1`` is the turn in progress): the
        previous turn's position, or the last board accepted as a correction during it."""
        if not 1 <= turn <= len(self.turns) + 1:
            raise MatchLogError(f"turn {turn} is not in this match (1..{len(self.turns) + 1})")
        pos = self.turns[turn - 2].position if turn > 1 else self.start
        for e in self.events:
            if e.turn == turn and isinstance(e.data, Correction):
                pos = e.data.position
        return pos

    def resume_position(self) -> Position:
        """Where an unfinished match picks up: its last committed position (or a board
        accepted as a correction since)."""
        return self.position_before(len(self.turns) + 1)

    def summary(self) -> MatchSummary:
        assert self.id is not None, "only a stored match has a summary"
        return MatchSummary(self.id, self.game, self.players, self.started_at, self.ended_at,
                            self.result, len(self.turns), self.tags.get(NAME_TAG))

    def replay(self) -> Iterator[ReplayStep]:
        """The start, then each committed turn with the position after it."""
        by_turn: dict[int, list[Event]] = {}
        for e in self.events:
            by_turn.setdefault(e.turn, []).append(e)
        yield ReplayStep(0, self.start, None, ())
        for n, record in enumerate(self.turns, 1):
            yield ReplayStep(n, record.position, record, tuple(by_turn.get(n, ())))


# -- event data as JSON (the store's ``data`` column and the JSON export) ------------------------


def event_data_to_json(data: EventData, *, position_json: bool = False) -> dict[str, object]:
    """The fields of one event's data; a correction's position as text notation, or as the
    position JSON object when ``position_json``."""
    if isinstance(data, IllegalMove):
        return {"message": data.message, "squares": list(data.squares), "rule": data.rule,
                "resolution": data.resolution.value if data.resolution else None}
    if isinstance(data, Correction):
        return {"position": data.position.to_json() if position_json
                else data.position.to_text(), "note": data.note}
    if isinstance(data, DieRoll):
        return {"value": data.value, "source": data.source.value}
    return {"text": data.text}


def event_data_from_json(kind: object, doc: object) -> EventData:
    """The inverse of :func:`event_data_to_json` (either position form)."""
    kind = parse_enum(EventKind, kind, "event kind")
    if not isinstance(doc, dict):
        raise MatchLogError(f"{kind.value} event: expected an object, got {doc!r}")
    fields = {EventKind.ILLEGAL: {"message", "squares", "rule", "resolution"},
              EventKind.CORRECTION: {"position", "note"},
              EventKind.DIE: {"value", "source"}, EventKind.NOTE: {"text"}}[kind]
    if set(doc) - fields:
        raise MatchLogError(f"{kind.value} event: unknown field(s) {sorted(set(doc) - fields)}")
    try:
        if kind is EventKind.ILLEGAL:
            squares = doc.get("squares", [])
            if not isinstance(squares, list):
                raise MatchLogError(f"illegal-move warning: squares must be a list, "
                                    f"got {squares!r}")
            return IllegalMove(doc.get("message", ""), tuple(squares), doc.get("rule", ""),
                               doc.get("resolution"))
        if kind is EventKind.CORRECTION:
            raw = doc.get("position")
            pos = Position.from_text(raw) if isinstance(raw, str) else Position.from_json(raw)
            note = doc.get("note", "")
            if not isinstance(note, str):
                raise MatchLogError(f"correction: note must be text, got {note!r}")
            return Correction(pos, note)
        if kind is EventKind.DIE:
            return DieRoll(doc.get("value"), doc.get("source"))  # type: ignore[arg-type]
        text = doc.get("text")
        if not isinstance(text, str):
            raise MatchLogError(f"note: text must be text, got {text!r}")
        return Note(text)
    except RulesError as exc:
        raise MatchLogError(f"{kind.value} event: {exc}") from None
