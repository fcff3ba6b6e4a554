"""A ``SessionLike`` over an in-process :class:`~companion.referee.Referee`, fed by a script.

No camera and no board: the script hands it still boards (``observe``), hands over the mat
(``occluded``), die rolls and the passing of time, the way the live session feeds vision's
reports. The screenshots script, the app's tests and demos use it; the app cannot tell it from
the live pipeline (``companion.live.session``), which is the point.

Time is virtual: every input moves the clock on by ``step`` seconds, and :meth:`wait` moves it
on further (so 'recovery offered after 5 s of disagreement' takes no real time).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.live.api import Link, Links, Update
from companion.referee import Event, Referee, RefereeState
from companion.rules.teleporters import Position, Side

SIMULATED = Links(Link.SIMULATED, Link.SIMULATED, "scripted session")


class ScriptedSession:
    """Implements :class:`companion.live.api.SessionLike`; every input publishes one
    :class:`Update` (its events and the state after them) to the ``on_update`` callbacks."""

    def __init__(self, referee: Referee | None = None, *, links: Links = SIMULATED,
                 step: float = 0.25) -> None:
        self.referee = referee or Referee()
        self._links = links
        self._callbacks: list[Callable[[Update], None]] = []
        self._lock = threading.RLock()  # scripts may feed from a worker thread, like vision
        self._t = 0.0
        self._step = step
        self.last_die: int | None = None
        self.closed = False

    # --- SessionLike -----------------------------------------------------------------------

    @property
    def state(self) -> RefereeState:
        return self.referee.state

    @property
    def links(self) -> Links:
        return self._links

    def on_update(self, callback: Callable[[Update], None]) -> None:
        self._callbacks.append(callback)

    def end_turn(self) -> None:
        self._run(lambda t: self.referee.end_turn(t))

    def undo_last_commit(self) -> None:
        self._run(lambda t: self.referee.undo_last_commit(t))

    def new_game(self) -> None:
        self._run(lambda t: self.referee.new_game(t=t))

    def accept_board(self) -> None:
        self._run(lambda t: self.referee.accept_board(t))

    def show_restore(self) -> None:
        self._run(lambda t: self.referee.show_restore(t))

    def resign(self, side: Side) -> None:
        self._run(lambda t: self.referee.resign(side, t))

    def agree_draw(self) -> None:
        self._run(lambda t: self.referee.agree_draw(t))

    def close(self) -> None:
        self.closed = True

    # --- the script's inputs ---------------------------------------------------------------

    def new_game_from(self, start: Position) -> list[Event]:
        return self._run(lambda t: self.referee.new_game(start, t=t))

    def observe(self, position: Position | Mapping[str, Any],
                confidences: Mapping[str, float] | None = None) -> list[Event]:
        """Vision reports a still board."""
        return self._run(lambda t: self.referee.observe_position(position, confidences, t=t))

    def occluded(self) -> list[Event]:
        """Vision reports a hand over the mat."""
        return self._run(lambda t: self.referee.observe_occluded(t))

    def roll(self, value: int, sides: int = 6) -> list[Event]:
        """The electronic die rolled ``value``."""
        self.last_die = value
        return self._run(lambda t: self.referee.die_rolled(value, t=t, sides=sides))

    def wait(self, seconds: float) -> list[Event]:
        """Time passes with nothing new seen (recovery may become due)."""
        with self._lock:
            self._t += seconds
        return self._run(lambda t: self.referee.tick(t))

    def set_links(self, links: Links) -> None:
        """A connection changed: the app hears it as an update without events."""
        with self._lock:
            self._links = links
            self._publish([])

    # --- plumbing --------------------------------------------------------------------------

    def _run(self, action: Callable[[float], list[Event]]) -> list[Event]:
        with self._lock:
            self._t += self._step
            events = action(self._t)
            self._publish(events)
        return events

    def _publish(self, events: list[Event]) -> None:
        update = Update(tuple(events), self.referee.state, self._links, self.last_die)
        for callback in list(self._callbacks):
            callback(update)


__all__ = ["SIMULATED", "ScriptedSession"]
