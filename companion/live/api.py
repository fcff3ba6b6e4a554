"""What the tablet app sees of a running referee session, and what it may ask of it.

The app (``companion/app``) only ever talks to a ``SessionLike``: the live pipeline
(``companion.live.session``: frames -> vision -> referee -> LEDs -> match log) implements it, and
the app's tests use a scripted fake. Everything here is called on the app's main thread;
``on_update`` callbacks may arrive on any thread, so the app hands them to Kivy's ``Clock``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.live.guide import Guide
from companion.referee import Event, RefereeState


class Link(enum.Enum):
    """State of one connection the app shows (camera, LED/die board)."""

    NONE = "none"  # not configured in this session (e.g. no board)
    CONNECTING = "connecting"
    OK = "ok"
    LOST = "lost"  # was there, reconnecting
    SIMULATED = "simulated"  # the demo's simulated table or virtual board


@dataclass(frozen=True, slots=True)
class Links:
    camera: Link = Link.NONE
    board: Link = Link.NONE
    detail: str = ""  # one line for the status bar, e.g. "camera 0, 30 fps"


@dataclass(frozen=True, slots=True)
class Update:
    """One change: the referee's events (possibly none) and the state after them."""

    events: tuple[Event, ...]
    state: RefereeState
    links: Links
    last_die: int | None = None  # the last die value rolled, if any
    guide: Guide | None = None  # the companion's chosen turn, when one is being carried out


class SessionLike(Protocol):
    """A referee session as the app drives it. Each action's events also reach
    ``on_update`` subscribers, so the app has one path for everything it shows."""

    @property
    def state(self) -> RefereeState: ...

    @property
    def links(self) -> Links: ...

    def on_update(self, callback: Callable[[Update], None]) -> None: ...

    def end_turn(self) -> None: ...

    def undo_last_commit(self) -> None: ...

    def new_game(self) -> None: ...

    def accept_board(self) -> None: ...

    def show_restore(self) -> None: ...

    def resign(self, side: Any) -> None: ...  # a side of the game played

    def agree_draw(self) -> None: ...

    def close(self) -> None: ...
