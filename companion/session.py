"""The live referee session: frames -> vision -> referee -> match log, LEDs and app.

``Session`` implements ``companion.session_api.SessionLike``. One frame flows one way:

    FrameSource -> Detector -> StabilityGate -> Referee -> events
        -> MatchStore (a committed turn is durable before anyone is told)
        -> LEDs (``companion.lights.frame_for(state).send(board)``)
        -> ``on_update`` subscribers (the tablet app, the text printer)

Time is the frames' own (``Frame.t``): the simulated table's seconds in the demo, so a demo run
is the same on every machine, and the camera's clock live. Actions from other threads (the
tablet's buttons, the board's button and die) happen at the time of the last frame.

Threads: the frame loop runs in a worker (:meth:`start`, :meth:`close`) or in the caller's thread
(:meth:`run`, or :meth:`process` one frame at a time). Detection runs outside the lock; the
referee, the match log, the LEDs and the subscribers are behind one lock, because the app and
the board's link thread call in too.

Decisions the issue left open:

* **Re-looking**: while the referee is unsure of some spaces (or has just seen a hand), every
  still frame is read again and re-reported, as a player would look again; the stability gate
  alone reports a board only once.
* **The match log never stops a game**: if the store fails mid-game the session says so on the
  status line (``Links.detail``) and goes on without recording.
* **Undo**: the store keeps committed turns, so an undone turn stays in the log, followed by a
  note and a correction back to the reopened turn's start: the log still replays.
* **New game** abandons the match in progress (result "abandoned") and begins a new one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from companion.lights import LightFrame, frame_for
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
    TurnRecord,
    default_db_path,
)
from companion.referee import (
    CommitBy,
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    Event,
    FirstMoverChosen,
    GameStarted,
    GameWon,
    IllegalChange,
    Referee,
    RefereeConfig,
    RefereeError,
    RefereeState,
    TurnCommitted,
    VisionState,
    WarningCleared,
)
from companion.rules.teleporters import Position, end_turn
from companion.session_api import Link, Links, Update
from firmware_bridge.bridge import BridgeStatus, ButtonPress, LinkState
from firmware_bridge.bridge import DieRoll as BoardRoll
from firmware_bridge.colors import Color
from vision.config import GATE
from vision.errors import VisionError
from vision.gate import GateState, StabilityGate, changed, motion_view
from vision.sources import Frame, FrameSource, SourceEvent, SourceEventKind

if TYPE_CHECKING:
    import numpy as np

    from calibration.profile import Profile
    from vision.detect import Detection, Detector

log = logging.getLogger(__name__)

FPS_WINDOW = 30  # frames the camera's frame rate is averaged over
RETRY_PAUSE_S = 0.05  # between reads of a camera that is away


class SessionError(ValueError):
    """A session asked to do something it cannot (no vision, already running, closed)."""


# --- the board's link --------------------------------------------------------------------------


class BoardLink(Protocol):
    """What the session needs of the LED/die board: ``firmware_bridge.Bridge`` or a fake."""

    def show(self, board_colors: Mapping[str, Color]) -> None: ...

    def set_status(self, name: str, color: Color) -> None: ...

    def on_event(self, callback: Callable[[BoardRoll | ButtonPress], None]) -> None: ...

    def status(self) -> BridgeStatus: ...

    def close(self) -> None: ...


class RecordingBoard:
    """An in-process stand-in for the board: keeps every LED picture it is sent, and has a
    button and a die. For tests, and for the demo where no pseudo-terminal can be opened."""

    def __init__(self, name: str = "in-process board") -> None:
        self.name = name
        self.shown: list[dict[str, Color]] = []  # every Bridge.show, in order
        self.status_leds: dict[str, Color] = {}
        self._callbacks: list[Callable[[BoardRoll | ButtonPress], None]] = []
        self._seq = 0
        self._lock = threading.Lock()
        self._closed = False

    def show(self, board_colors: Mapping[str, Color]) -> None:
        with self._lock:
            self.shown.append(dict(board_colors))

    def set_status(self, name: str, color: Color) -> None:
        with self._lock:
            self.status_leds[name] = color

    @property
    def board(self) -> dict[str, Color]:
        """What the board's spaces show now (spaces left out are off)."""
        with self._lock:
            return dict(self.shown[-1]) if self.shown else {}

    def on_event(self, callback: Callable[[BoardRoll | ButtonPress], None]) -> None:
        self._callbacks.append(callback)

    def press_button(self) -> None:
        self._deliver(lambda seq: ButtonPress(0, seq))

    def roll_die(self, value: int, sides: int = 6) -> None:
        self._deliver(lambda seq: BoardRoll(sides, value, seq))

    def _deliver(self, make: Callable[[int], BoardRoll | ButtonPress]) -> None:
        with self._lock:
            self._seq += 1
            item = make(self._seq)
        for callback in list(self._callbacks):
            callback(item)

    def status(self) -> BridgeStatus:
        return BridgeStatus(LinkState.CLOSED if self._closed else LinkState.CONNECTED,
                            self.name, in_sync=True)

    def close(self) -> None:
        self._closed = True


# --- vision ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sighting:
    """What vision made of one frame: the gate's state, a newly stable board (``reported``),
    and the frame's own reading with its per-space confidences (None under a hand)."""

    t: float
    state: GateState
    reported: dict[str, Any] | None
    reading: dict[str, Any] | None
    confidences: dict[str, float] | None
    lost: str = ""  # why the mat could not be seen at all (not found in the frame)


class Vision:
    """A profile's detector and stability gate: a frame in, a :class:`Sighting` out. Used by
    the frame thread only."""

    def __init__(self, detector: Detector, gate: StabilityGate | None = None) -> None:
        self.detector = detector
        self.gate = gate or StabilityGate()
        self.reads = 0  # frames read in full (the others reused an unchanged frame's reading)
        self._ref: tuple[np.ndarray, Detection] | None = None
        self._streak = 0  # full readings in a row that read the same position

    @classmethod
    def from_profile(cls, profile: Profile) -> Vision:
        return cls(profile.detector(), profile.gate())

    def see(self, image: np.ndarray, t: float) -> Sighting:
        try:
            image, fix = self.detector.prepare(image)
        except VisionError as exc:  # no mat in this frame: a glitch, a bumped camera, a sleeve
            self._ref, self._streak = None, 0
            return Sighting(t, self.gate.lost(t).state, None, None, None, lost=str(exc))
        top = motion_view(image, fix.homography)
        ref = self._ref
        if (ref is not None and not ref[1].occluded and self._streak >= GATE.agree_frames
                and float(ref[1].confidence.min()) >= GATE.reuse_confidence
                and not changed(top, ref[0])):
            # Nothing has changed since readings that agreed and were sure of every space:
            # they stand. Unsure, occluded or lone readings are read again (a new exposure
            # may settle them, or show a misread).
            found = replace(ref[1], fix=fix)
        else:
            found = self.detector.read(image, fix)
            self.reads += 1
            same = (ref is not None and found.position is not None
                    and found.position == ref[1].position)
            self._streak = self._streak + 1 if same else 1
            self._ref = (top, found)
        event = self.gate.update(t, image, fix.homography, found.position, found.occluded,
                                 top)
        conf = None if found.occluded else found.confidences_json()
        return Sighting(t, event.state, event.position, found.position, conf)

    def reset(self) -> None:
        """Forget what was reported, so the board on the mat is reported afresh."""
        self.gate = StabilityGate(still_s=self.gate.still_s)
        self._ref, self._streak = None, 0


# --- the match log -----------------------------------------------------------------------------


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


class _Recorder:
    """Writes the referee's events to a ``MatchStore``. Times are the session's seconds,
    anchored to the wall clock when the session began."""

    def __init__(self, store: MatchStore, players: Mapping[str, str] | None,
                 tags: Mapping[str, str] | None, epoch: datetime | None = None) -> None:
        self.store = store
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
        self._turn_start: Position | None = None  # the turn in progress, as the log has it
        self._turn_t = 0.0
        self._open_warnings: list[EventId] = []

    def at(self, t: float) -> datetime:
        assert self._epoch is not None
        return self._epoch + timedelta(seconds=t - self._t0)

    def handle(self, event: Event, state: RefereeState) -> None:
        if self.problem:
            return
        try:
            self._handle(event, state)
        except (MatchLogError, OSError) as exc:  # recording stops; the game goes on
            self.problem = f"match log stopped: {exc}"
            log.warning("%s", self.problem)

    def _handle(self, ev: Event, state: RefereeState) -> None:
        if isinstance(ev, GameStarted):
            if self.match_id is not None and not self.finished:
                self.store.finish_match(self.match_id, Result.ABANDONED, ended_at=self.at(ev.t))
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
            if note:
                self.store.record_event(mid, Note(note), at=at)
            self.store.commit_turn(mid, record)
            self._turn_start = record.position
            self._turn_t = (ev.settled_t if self.recording and ev.settled_t is not None
                            else ev.t)
            self._open_warnings = []
        elif isinstance(ev, GameWon):
            self.store.finish_match(mid, Result.win(ev.side), ended_at=at)
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
            # The store keeps committed turns: log the undo and go back to its start.
            self.store.record_event(mid, Note(f"turn {ev.number} ({ev.side.value}) undone"),
                                    at=at)
            self.store.record_event(mid, Correction(
                state.turn_start, f"turn {ev.number} reopened"), at=at)
            self._turn_start, self._turn_t = state.turn_start, ev.t
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
        after = end_turn(ev.position)
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


# --- the session -------------------------------------------------------------------------------


_BOARD_LINKS = {LinkState.CONNECTING: Link.CONNECTING, LinkState.CONNECTED: Link.OK,
                LinkState.DISCONNECTED: Link.LOST, LinkState.CLOSED: Link.NONE}


class Session:
    """One game refereed live. See the module docstring for the flow and the threads.

    ``vision``: the detector and gate (None: positions come in through :meth:`observe`).
    ``source``: frames for :meth:`run`/:meth:`start`. ``board``: the LED/die board (a
    ``firmware_bridge.Bridge``, :class:`RecordingBoard`, or None). ``store``: the match log (or
    None). ``start``: the game's start position (default the book's set-up). ``simulated``:
    camera and board are the demo's. ``recording_epoch``: refereeing a recording that began at
    this wall-clock time (the log's times are then the recording's). The session closes the
    source, board and store it was given when it is closed.
    """

    def __init__(self, *, vision: Vision | None = None, source: FrameSource | None = None,
                 board: BoardLink | None = None, store: MatchStore | None = None,
                 start: Position | None = None, config: RefereeConfig | None = None,
                 players: Mapping[str, str] | None = None,
                 tags: Mapping[str, str] | None = None, simulated: bool = False,
                 log_note: str = "", recording_epoch: datetime | None = None) -> None:
        self._vision = vision
        self._source = source
        self._board = board
        self._store = store
        self._start = start or Position.start()
        self._referee = Referee(self._start, config)
        self._recorder = (None if store is None
                          else _Recorder(store, players, tags, recording_epoch))
        self._simulated = simulated
        self._log_note = log_note  # e.g. why nothing is recorded
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: list[Callable[[Update], None]] = []
        self._t = 0.0
        self._begun = False
        self._closed = False
        self._lights: LightFrame | None = None
        self._last_die: int | None = None
        self._camera = Link.NONE if source is None and vision is None else Link.CONNECTING
        self._frame_times: list[float] = []
        self._links = self._compute_links()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None  # what stopped the frame loop, if anything
        self.last_sighting: Sighting | None = None  # of the last frame processed
        if board is not None:
            board.on_event(self._on_board_event)

    @classmethod
    def from_profile(cls, profile: Profile, **kwargs: Any) -> Session:
        return cls(vision=Vision.from_profile(profile), **kwargs)

    # --- SessionLike ---------------------------------------------------------------------

    @property
    def store_path(self) -> Path | None:
        """Where this session records, for the app's match history (None: not recording)."""
        return None if self._store is None else self._store.path

    @property
    def state(self) -> RefereeState:
        with self._lock:
            return self._referee.state

    @property
    def links(self) -> Links:
        with self._lock:
            return self._links

    @property
    def vision(self) -> Vision | None:
        return self._vision

    @property
    def match_id(self) -> MatchId | None:
        """The match being recorded (None without a store)."""
        return None if self._recorder is None else self._recorder.match_id

    @property
    def log_problem(self) -> str:
        """Why nothing is (or is no longer) recorded; empty while recording."""
        if self._recorder is None:
            return self._log_note or "no match log"
        return self._recorder.problem

    def on_update(self, callback: Callable[[Update], None]) -> None:
        with self._lock:
            self._subscribers.append(callback)

    def end_turn(self, source: CommitBy | str = CommitBy.TABLET) -> None:
        self._act(lambda t: self._referee.end_turn(t, source))

    def undo_last_commit(self) -> None:
        self._act(lambda t: self._referee.undo_last_commit(t))

    def new_game(self) -> None:
        """Start over from the session's start position (a new match in the log)."""
        def restart(t: float) -> list[Event]:
            if self._vision is not None:
                self._vision.reset()  # the board on the mat is reported again
            return self._referee.new_game(self._start, t=t)

        self._act(restart, begin=False)

    def accept_board(self) -> None:
        self._act(lambda t: self._referee.accept_board(t))

    def show_restore(self) -> None:
        self._act(lambda t: self._referee.show_restore(t))

    def die_rolled(self, value: int, sides: int = 6, source: str = "tablet") -> None:
        """A roll typed on the tablet (the board's die arrives by itself)."""
        self._act(lambda t: self._referee.die_rolled(value, source, t=t, sides=sides))

    def note(self, text: str) -> None:
        """Write a note into the match log at the current time (nothing without a log)."""
        with self._lock:
            rec = self._recorder
            if rec is None or rec.problem or rec.match_id is None:
                return
            try:
                rec.store.record_event(rec.match_id, Note(text), at=rec.at(self._t))
            except (MatchLogError, OSError) as exc:
                rec.problem = f"match log stopped: {exc}"

    def close(self) -> None:
        """Stop the frame loop and close the source, the board and the store."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for thing in (self._source, self._board, self._store):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # closing must get through all of them
                    log.exception("closing %r failed", thing)

    # --- the frame loop --------------------------------------------------------------------

    def begin(self, t: float = 0.0) -> None:
        """Start the game (the match log's match, the first LED picture). Done by itself on
        the first frame or action; call it to start at a time of your choosing."""
        with self._lock:
            if self._begun:
                return
            self._begun = True
            self._t = max(self._t, t)
            self._finish(self._referee.new_game(self._start, t=self._t), force_lights=True)

    def process(self, image: np.ndarray, t: float) -> list[Event]:
        """One frame taken at ``t`` seconds: vision, then the referee. Returns its events."""
        if self._vision is None:
            raise SessionError("this session has no vision: give it a profile's detector, "
                               "or feed it positions with observe()")
        with self._lock:
            self._frame_times = [*self._frame_times[-FPS_WINDOW:], t]
            self._camera = Link.OK
        self.begin(t)
        sighting = self._vision.see(image, t)  # outside the lock: the slow part
        with self._lock:
            self.last_sighting = sighting
            return self._judge(sighting)

    def observe(self, position: Position | Mapping[str, Any] | None,
                confidences: Mapping[str, float] | None = None, *, t: float) -> list[Event]:
        """A still board from elsewhere (a recording, a test): None means a hand over the mat.
        Skips vision; everything after the referee is as for a frame."""
        self.begin(t)
        with self._lock:
            self._t = max(self._t, t)
            return self._finish(self._referee.observe(position, confidences, t=self._t))

    def run(self) -> None:
        """Read the source until it ends or the session is closed (in this thread)."""
        if self._source is None:
            raise SessionError("this session has no frame source")
        if self._thread is None:
            self._thread = threading.current_thread()
        try:
            while not self._stop.is_set():
                item = self._source.read()
                if isinstance(item, Frame):
                    self.process(item.image, item.t)
                elif self._source_event(item):
                    break
                elif item.kind is SourceEventKind.DISCONNECTED:
                    self._stop.wait(RETRY_PAUSE_S)  # the camera retries by itself: no spinning
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            self.error = exc
            with self._lock:
                self._camera = Link.LOST
                self._finish([])
            raise

    def start(self) -> None:
        """Run the frame loop in a worker thread."""
        if self._thread is not None:
            raise SessionError("the session is already running")
        if self._source is None:
            raise SessionError("this session has no frame source")
        self.begin(self._t)

        def loop() -> None:
            try:
                self.run()
            except BaseException:
                log.exception("the session's frame loop stopped")

        self._thread = threading.Thread(target=loop, name="session-frames", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the frame loop to end (the source ran out); True if it has."""
        if self._thread is None or self._thread is threading.current_thread():
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def wait_until(self, predicate: Callable[[RefereeState], bool],
                   timeout: float) -> bool:
        """Block until ``predicate(state)`` holds (checked after every update), or time out."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self._referee.state), timeout)

    # --- inside ----------------------------------------------------------------------------

    def _source_event(self, item: SourceEvent) -> bool:
        """Note a source's event; True when the source has ended."""
        with self._lock:
            if item.kind is SourceEventKind.DISCONNECTED:
                self._camera = Link.LOST
            elif item.kind is SourceEventKind.RECONNECTED:
                self._camera = Link.OK
            elif item.kind is SourceEventKind.ENDED:
                self._camera = Link.NONE if not self._simulated else self._camera
            self._finish([])
        return item.kind is SourceEventKind.ENDED

    def _judge(self, s: Sighting) -> list[Event]:
        t = self._t = max(self._t, s.t)
        ref = self._referee
        if s.state is GateState.OCCLUDED:
            events = ref.observe_occluded(t)
        elif s.reported is not None:
            events = ref.observe(s.reported, s.confidences, t=t)
        elif (s.state is GateState.STILL and s.reading is not None
              and ref.state.vision in (VisionState.UNCERTAIN, VisionState.OCCLUDED)):
            events = ref.observe(s.reading, s.confidences, t=t)  # look again
        else:
            events = ref.tick(t)
        return self._finish(events)

    def _act(self, action: Callable[[float], list[Event]], begin: bool = True) -> None:
        if begin:
            self.begin(self._t)
        with self._lock:
            self._begun = True
            try:
                events = action(self._t)
            except RefereeError as exc:  # e.g. a die value the board should never send
                log.warning("ignored: %s", exc)
                return
            self._finish(events)

    def _on_board_event(self, item: BoardRoll | ButtonPress) -> None:
        if isinstance(item, ButtonPress):
            self.end_turn(CommitBy.BRIDGE)
        else:
            self._act(lambda t: self._referee.die_rolled(item.value, "bridge", t=t,
                                                         sides=item.sides))

    def _finish(self, events: list[Event], force_lights: bool = False) -> list[Event]:
        """After the referee: log, LEDs, subscribers (in that order: a turn is on disk before
        anyone is told). Called with the lock held."""
        state = self._referee.state
        for ev in events:
            if isinstance(ev, DieRolled):
                self._last_die = ev.value
            if self._recorder is not None:
                self._recorder.handle(ev, state)
        if events or force_lights:
            self._send_lights(state, force_lights)
        links = self._compute_links()
        if events or links != self._links:
            self._links = links
            update = Update(tuple(events), state, links, self._last_die)
            for callback in list(self._subscribers):
                try:
                    callback(update)
                except Exception:  # a subscriber's bug must not stop the referee
                    log.exception("an on_update subscriber failed")
        self._changed.notify_all()
        return events

    def _send_lights(self, state: RefereeState, force: bool) -> None:
        if self._board is None:
            return
        frame = frame_for(state)
        if frame == self._lights and not force:
            return
        self._lights = frame
        try:
            frame.send(self._board)
        except Exception:  # a bad LED picture must not stop the referee
            log.exception("sending the LEDs failed")

    def _compute_links(self) -> Links:
        camera = self._camera
        if self._simulated and camera is Link.OK:
            camera = Link.SIMULATED
        board, detail = Link.NONE, []
        if self._source is not None:
            detail.append(getattr(self._source, "name", "camera"))
        if self._board is not None:
            st = self._board.status()
            board = _BOARD_LINKS[st.state]
            if self._simulated and board is Link.OK:
                board = Link.SIMULATED
            if board is not Link.OK and board is not Link.SIMULATED and st.last_error:
                detail.append(f"board: {st.last_error}")
        problem = self.log_problem if self._recorder is None else self._recorder.problem
        if problem and problem != "no match log":
            detail.append(problem)
        return Links(camera, board, "; ".join(detail))

    def fps(self) -> float:
        """Frames per second over the last frames (0 before two frames)."""
        with self._lock:
            times = self._frame_times
            if len(times) < 2 or times[-1] <= times[0]:
                return 0.0
            return (len(times) - 1) / (times[-1] - times[0])


# --- text: one line per event (``--headless``) --------------------------------------------------


def _sq(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


def describe_event(ev: Event) -> tuple[str, str]:
    """(label, plain words) for one event: its own (``LABEL``, ``describe()``)."""
    return ev.LABEL, ev.describe()


def describe_lights(board: Mapping[str, Color]) -> str:
    """``light h4, h1 red`` for ``{"h4": RED, "h1": RED}``; ``lights off`` for none."""
    if not board:
        return "lights off"
    groups: dict[Color, list[str]] = {}
    for name, color in board.items():
        groups.setdefault(color, []).append(name)
    return "light " + "; ".join(f"{_sq(names)} {color.name.lower().replace('_', ' ')}"
                                for color, names in groups.items())


class TextLog:
    """Subscribe with ``session.on_update(TextLog(out))``: one line per event, the board LEDs
    appended to the last line of an update when they change."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lines = 0
        self._board: dict[str, Color] | None = None
        self._links: Links | None = None
        self._lock = threading.Lock()

    def __call__(self, update: Update) -> None:
        from companion.lights import lights_for

        with self._lock:
            lines = []
            for ev in update.events:
                label, words = describe_event(ev)
                lines.append(f"t={ev.t:5.1f}s  {label:<9} {words}")
            board = lights_for(update.state)
            if lines and board != self._board:
                self._board = board
                lines[-1] += f" — {describe_lights(board)}"
            if self._links is not None and update.links != self._links:
                lines.append(f"         LINK      camera {update.links.camera.value}, board "
                             f"{update.links.board.value}"
                             + (f": {update.links.detail}" if update.links.detail else ""))
            self._links = update.links
            for line in lines:
                print(line, file=self.out, flush=True)
            self.lines += len(lines)


__all__ = ["BoardLink", "RecordingBoard", "Session", "SessionError", "Sighting", "TextLog",
           "Vision", "describe_event", "describe_lights", "open_store"]
