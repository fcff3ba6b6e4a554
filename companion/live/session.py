"""The live referee session: frames -> vision -> referee -> match log, LEDs and app.

``Session`` implements ``companion.live.api.SessionLike``. One frame flows one way:

    FrameSource -> Detector -> StabilityGate -> Referee -> events
        -> MatchStore (a committed turn is durable before anyone is told)
        -> LEDs (``companion.live.lights.frame_for(state).send(board)``)
        -> ``on_update`` subscribers (the tablet app, the text printer, the companion)

The companion, playing a side, is one more subscriber: the turn it chooses comes back as a
guide (:meth:`set_guide`) that changes only what the LEDs light; the referee judges the
camera's boards all the same.

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
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.live.api import Link, Links, Update
from companion.live.board import BoardLink
from companion.live.guide import Guide
from companion.live.lights import LightFrame, frame_for
from companion.live.recorder import Recorder
from companion.live.sighting import Sighting, Vision
from companion.matchlog import (
    MatchId,
    MatchLogError,
    MatchStore,
    Note,
)
from companion.referee import (
    CommitBy,
    DieRolled,
    Event,
    Referee,
    RefereeConfig,
    RefereeError,
    RefereeState,
    Refused,
    VisionState,
)
from companion.rules import GAMES, TableGame
from firmware_bridge.bridge import ButtonPress, LinkState
from firmware_bridge.bridge import DieRoll as BoardRoll
from vision.gate import GateState
from vision.sources import Frame, FrameSource, SourceEvent, SourceEventKind

if TYPE_CHECKING:
    import numpy as np

    from calibration.profile import Profile

log = logging.getLogger(__name__)

FPS_WINDOW = 30  # frames the camera's frame rate is averaged over
RETRY_PAUSE_S = 0.05  # between reads of a camera that is away


class SessionError(ValueError):
    """A session asked to do something it cannot (no vision, already running, closed)."""


_BOARD_LINKS = {LinkState.CONNECTING: Link.CONNECTING, LinkState.CONNECTED: Link.OK,
                LinkState.DISCONNECTED: Link.LOST, LinkState.CLOSED: Link.NONE}


class Session:
    """One game refereed live. See the module docstring for the flow and the threads.

    ``vision``: the detector and gate (None: positions come in through :meth:`observe`).
    ``source``: frames for :meth:`run`/:meth:`start`. ``board``: the LED/die board (a
    ``firmware_bridge.Bridge``, :class:`RecordingBoard`, or None). ``store``: the match log (or
    None). ``game``: what is played (default the registry's table game, Teleporters).
    ``start``: the game's start position (default the book's set-up). ``simulated``:
    camera and board are the demo's. ``recording_epoch``: refereeing a recording that began at
    this wall-clock time (the log's times are then the recording's). The session closes the
    source, board and store it was given when it is closed.
    """

    def __init__(self, *, vision: Vision | None = None, source: FrameSource | None = None,
                 board: BoardLink | None = None, store: MatchStore | None = None,
                 start: Any = None, config: RefereeConfig | None = None,
                 players: Mapping[str, str] | None = None,
                 tags: Mapping[str, str] | None = None, simulated: bool = False,
                 log_note: str = "", recording_epoch: datetime | None = None,
                 game: TableGame | None = None) -> None:
        self.game = game or GAMES.table()
        self._vision = vision
        self._source = source
        self._board = board
        self._store = store
        self._start = start or self.game.start()
        self._referee = Referee(self._start, config)
        self._recorder = (None if store is None
                          else Recorder(store, players, tags, recording_epoch, self.game))
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
        self._guide: Guide | None = None
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

    def flush_log(self) -> int:
        """Try now to write what waits for the match log (whatever the backoff says); the
        committed turns still not recorded."""
        with self._lock:
            if self._recorder is not None and self._recorder.waiting:
                self._recorder.flush(self._t, now=True)
            return self.unrecorded_turns

    @property
    def unrecorded_turns(self) -> int:
        """Committed turns the match log could not take (yet): after :meth:`close`, turns
        that were never recorded."""
        return 0 if self._recorder is None else self._recorder.waiting_turns

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
        """End the turn; a player's press (the tablet, the board's button) is refused while
        turns still wait for a match log that cannot be written: the turn stays open
        (Refused, with why) until the log takes them. A recording's end still commits."""
        def end(t: float) -> list[Event]:
            rec = self._recorder
            pressed = CommitBy(source) in (CommitBy.TABLET, CommitBy.KEYBOARD, CommitBy.BRIDGE)
            if rec is not None and rec.waiting_turns and pressed:
                rec.flush(t, now=True)  # a player's press is worth a try at once
                if rec.waiting_turns:
                    return [Refused(t, "end_turn", f"{rec.problem}; the turn stays open")]
            return self._referee.end_turn(t, source)

        self._act(end)

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

    def resign(self, side: Any) -> None:
        """``side`` resigns: the other side wins, and the match log's match is finished."""
        self._act(lambda t: self._referee.resign(side, t))

    def agree_draw(self) -> None:
        """Both players agree to a draw: the match log's match is finished, drawn."""
        self._act(lambda t: self._referee.agree_draw(t))

    def die_rolled(self, value: int, sides: int = 6, source: str = "tablet") -> None:
        """A roll typed on the tablet (the board's die arrives by itself)."""
        self._act(lambda t: self._referee.die_rolled(value, source, t=t, sides=sides))

    @property
    def guide(self) -> Guide | None:
        """The companion's chosen turn the LEDs guide the player through (None: none)."""
        with self._lock:
            return self._guide

    def set_guide(self, guide: Guide | None) -> None:
        """Light ``guide``'s moves one by one as the camera sees them made (None: stop).
        It changes only the LEDs and what subscribers are shown: the referee still judges
        what the camera sees."""
        with self._lock:
            self._guide = guide
            self._send_lights(self._referee.state, force=False)

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

    def stop(self) -> None:
        """End the frame loop after the frame in hand (quit at the terminal); what was
        committed is kept. :meth:`close` still closes the source, board and store."""
        self._stop.set()

    def close(self) -> None:
        """Stop the frame loop and close the source, the board and the store (after a last
        try at writing what waits for the match log: :attr:`unrecorded_turns` then counts
        the turns that were never recorded)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._recorder is not None and self._recorder.waiting:
                self._recorder.flush(self._t, now=True)  # a last try: the backoff is moot
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

    def observe(self, position: Any | Mapping[str, Any] | None,
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
        anyone is told; one the log cannot take yet waits in it, and the LEDs and the status
        line say so). Called with the lock held."""
        state = self._referee.state
        rec = self._recorder
        waited = rec is not None and rec.waiting
        if waited and rec is not None:
            rec.flush(self._t)  # what waits goes first, when the backoff allows
        for ev in events:
            if isinstance(ev, DieRolled):
                self._last_die = ev.value
            if rec is not None:
                rec.handle(ev, state)
        waiting = rec is not None and rec.waiting
        if events or force_lights or waiting != waited:
            self._send_lights(state, force_lights or waiting != waited)
        links = self._compute_links()
        if events or links != self._links:
            self._links = links
            update = Update(tuple(events), state, links, self._last_die, self._guide)
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
        frame = frame_for(state, unrecorded=self._recorder is not None
                          and self._recorder.waiting_turns > 0, guide=self._guide,
                          game=self.game)
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
