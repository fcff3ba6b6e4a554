"""The referee's events as text: one line per event (``--headless``, ``companion referee``)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from companion.live.api import Links, Update
from companion.referee import Event
from firmware_bridge.colors import Color

if TYPE_CHECKING:
    from companion.rules import TableGame


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
    appended to the last line of an update when they change. ``game``: the session's
    (``session.game``; None: the default table game), whose squares the LEDs name."""

    def __init__(self, out: TextIO, game: TableGame | None = None) -> None:
        self.out = out
        self.game = game
        self.lines = 0
        self._board: dict[str, Color] | None = None
        self._links: Links | None = None
        self._lock = threading.Lock()

    def __call__(self, update: Update) -> None:
        from companion.live.lights import lights_for

        with self._lock:
            lines = []
            for ev in update.events:
                label, words = describe_event(ev)
                lines.append(f"t={ev.t:5.1f}s  {label:<9} {words}")
            board = lights_for(update.state, guide=update.guide, game=self.game)
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
