"""The match log as the live session writes it: every referee event into a ``MatchStore``, a
committed turn durable before anyone is told."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from companion.matchlog import (
    Correction,
    DieRoll,
    DieSource,
    EventId,
    IllegalMove,
    MatchId,
    MatchLogError,
    MatchStore,
    Note,
    Resolution,
    Result,
    Termination,
    TurnRecord,
    default_db_path,
)
from companion.referee import (
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    DrawAgreed,
    Event,
    FirstMoverChosen,
    GameResigned,
    GameStarted,
    GameWon,
    IllegalChange,
    RefereeState,
    TurnCommitted,
    WarningCleared,
)
from companion.rules import GAMES, TableGame

log = logging.getLogger(__name__)


def open_store(path: str | None, say: Callable[[str], None]) -> MatchStore | None:
    """The match store at ``path``; without one the default store, or None (said why) when it
    cannot be opened: a game is never refused for want of a log. An explicit ``path`` that
    cannot be opened raises :class:`MatchLogError`."""
    if path is not None:
        try:
            return MatchStore(path)
        except OSError as exc:  # e.g. a folder that cannot be made
            raise MatchLogError(f"cannot open the match store {path}: "
                                f"{exc.strerror or exc}") from None
    default = default_db_path()
    try:
        return MatchStore(default)
    except (MatchLogError, OSError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        say(f"match log: cannot open {default} ({why}): playing without recording "
            "(give --db PATH to record)")
        return None


RETRY_FIRST_S = 1.0  # after a failed write, the store is tried again this much later...
RETRY_MOST_S = 30.0  # ... doubling each time up to this


# the referee's events the match log keeps
_RECORDED = (GameStarted, TurnCommitted, GameWon, GameResigned, DrawAgreed, IllegalChange,
             WarningCleared, CorrectionAccepted, FirstMoverChosen, CommitUndone, DieRolled)


class Recorder:
    """Writes the referee's events to a ``MatchStore``. Times are the session's seconds,
    anchored to the wall clock when the session began.

    Nothing is dropped when the store fails ("database is locked", a full disk): the events
    not yet written wait, in order, and are written when it works again, tried again with
    backoff (:meth:`flush`). Meanwhile :attr:`problem` says so and how many turns wait."""

    def __init__(self, store: MatchStore, players: Mapping[str, str] | None,
                 tags: Mapping[str, str] | None, epoch: datetime | None = None,
                 game: TableGame | None = None) -> None:
        self.store = store
        self.game = game or GAMES.table()
        self.players = dict(players or {})
        self.tags = dict(tags or {})
        self.match_id: MatchId | None = None
        self.finished = False
        self.problem = ""
        # A recording's epoch is its t = 0, and its turns are timed when their board was
        # first seen, so a turn's time points at its frame; live, turns are timed when ended.
        self._epoch: datetime | None = epoch
        self._t0 = 0.0
        self.recording = epoch is not None
        self._turn_start: Any = None  # the turn in progress, as the log has it
        self._turn_t = 0.0
        self._open_warnings: list[EventId] = []
        # events not yet written, with the turn start the referee had then (an undo needs it)
        self._waiting: list[tuple[Event, Any]] = []
        self._retry_at = 0.0
        self._backoff = RETRY_FIRST_S
        self._error = ""  # the store's last refusal, while events wait

    def at(self, t: float) -> datetime:
        assert self._epoch is not None
        return self._epoch + timedelta(seconds=t - self._t0)

    @property
    def waiting_turns(self) -> int:
        """Committed turns not yet in the store."""
        return sum(isinstance(ev, TurnCommitted) for ev, _ in self._waiting)

    @property
    def waiting(self) -> bool:
        return bool(self._waiting)

    def handle(self, event: Event, state: RefereeState) -> None:
        if isinstance(event, _RECORDED):  # the others (tentative moves, hands) are not kept
            self._waiting.append((event, state.turn_start))
        self.flush(event.t)

    def flush(self, t: float, now: bool = False) -> bool:
        """Write the waiting events, in order, unless the last failure was less than the
        backoff ago (``now``: try anyway, as at the end of a session). True when none wait."""
        if self._waiting and self._error and not now and t < self._retry_at:
            self._say()
            return False
        while self._waiting:
            ev, turn_start = self._waiting[0]
            try:
                self._handle(ev, turn_start)
            except (MatchLogError, OSError) as exc:  # kept; the game goes on
                self._error = str(exc)
                self._retry_at, self._backoff = t + self._backoff, min(
                    2 * self._backoff, RETRY_MOST_S)
                self._say()
                log.warning("%s", self.problem)
                return False
            self._waiting.pop(0)
        self.problem = self._error = ""
        self._backoff = RETRY_FIRST_S
        return True

    def _say(self) -> None:
        self.problem = (f"match log: cannot write ({self._error}); {self.waiting_turns} "
                        "turn(s) kept until it can")

    def _handle(self, ev: Event, turn_start: Any) -> None:
        """Write one event. The store calls come before this object's own changes, so a
        failed write is tried again whole."""
        if isinstance(ev, GameStarted):
            if self.match_id is not None and not self.finished:
                self.store.finish_match(self.match_id, Result.ABANDONED, ended_at=self.at(ev.t))
                self.finished = True
            if self._epoch is None:
                self._epoch = datetime.now().astimezone()
                self._t0 = ev.t
            self.match_id = self.store.begin_match(ev.position, self.players,
                                                   started_at=self.at(ev.t), tags=self.tags)
            self.finished, self._turn_start, self._turn_t = False, ev.position, ev.t
            self._open_warnings = []
            return
        if self.match_id is None or self._turn_start is None:
            return
        mid, at = self.match_id, self.at(ev.t)
        if isinstance(ev, TurnCommitted):
            record, note = self._record(ev)
            self.store.commit_turn(mid, record)
            if note:
                self.store.record_event(mid, Note(note), at=at)
            self._turn_start = record.position
            self._turn_t = (ev.settled_t if self.recording and ev.settled_t is not None
                            else ev.t)
            self._open_warnings = []
        elif isinstance(ev, GameWon):
            self.store.finish_match(mid, Result.win(ev.side), ended_at=at,
                                    how=Termination.RULE)
            self.finished = True
        elif isinstance(ev, GameResigned):
            self.store.finish_match(mid, Result.win(ev.winner), ended_at=at,
                                    how=Termination.RESIGNATION)
            self.finished = True
        elif isinstance(ev, DrawAgreed):
            self.store.finish_match(mid, Result.DRAW, ended_at=at, how=Termination.AGREEMENT)
            self.finished = True
        elif isinstance(ev, IllegalChange):
            self._open_warnings.append(self.store.record_event(
                mid, IllegalMove(ev.message, ev.squares, ev.rule.id), at=at))
        elif isinstance(ev, WarningCleared):
            self._resolve(Resolution.PUT_RIGHT)
        elif isinstance(ev, CorrectionAccepted):
            self._resolve(Resolution.ACCEPTED)
            changed = ", ".join(ev.squares) or "nothing"
            self.store.record_event(mid, Correction(
                ev.accepted, f"the board was accepted as seen (changed: {changed})"), at=at)
            self._turn_start = ev.accepted
        elif isinstance(ev, FirstMoverChosen):
            start = self._turn_start.replace(to_move=ev.side)
            self.store.record_event(mid, Correction(start, f"{ev.side.value} moved first"),
                                    at=at)
            self._turn_start = start
        elif isinstance(ev, CommitUndone):
            if self.finished:  # the winning turn undone: the match goes on
                self.store.reopen_match(mid)
                self.finished = False
            # The store keeps committed turns: log the undo and go back to its start.
            self.store.record_event(mid, Note(f"turn {ev.number} ({ev.side.value}) undone"),
                                    at=at)
            self.store.record_event(mid, Correction(
                turn_start, f"turn {ev.number} reopened"), at=at)
            self._turn_start, self._turn_t = turn_start, ev.t
        elif isinstance(ev, DieRolled):
            source = DieSource.ELECTRONIC if ev.source == "bridge" else DieSource.TYPED
            self.store.record_event(mid, DieRoll(ev.value, source), at=at)

    def _resolve(self, resolution: Resolution) -> None:
        for event_id in self._open_warnings:
            self.store.resolve_warning(event_id, resolution)
        self._open_warnings = []

    def _record(self, ev: TurnCommitted) -> tuple[TurnRecord, str]:
        """The committed turn, replayed from the log's turn start. After a correction the
        referee's moves include those made before it: the log keeps the ones after."""
        assert self._turn_start is not None
        after = self.game.end_turn(ev.position)
        t = ev.settled_t if self.recording and ev.settled_t is not None else ev.t
        seconds, at = max(0.0, t - self._turn_t), self.at(t)
        for k in range(len(ev.moves) + 1):
            try:
                record = TurnRecord.played(self._turn_start, ev.moves[k:], seconds, at)
            except MatchLogError:
                continue
            if record.position.same_board(after):
                return record, ""
        # Should not happen; keep the referee's word rather than lose the turn.
        return (TurnRecord(ev.side, tuple(m.notation() for m in ev.moves), after, seconds, at),
                f"turn {ev.number} could not be replayed from the logged start")
