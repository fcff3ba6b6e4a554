"""The LED and die board as the live session sees it: the link it needs of the board, and an
in-process stand-in that records what it is shown (tests, and the demo where no pseudo-terminal
can be opened)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Protocol

from firmware_bridge.bridge import BridgeStatus, ButtonPress, LinkState
from firmware_bridge.bridge import DieRoll as BoardRoll
from firmware_bridge.colors import Color


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
