"""Serial transport: a reader thread turns bytes into packets; writes go under a lock.

Like pyserial's ``serial.threaded``: the transport knows framing, not meaning. Decoded packets,
dropped frames and the loss of the port go to one callback, called on the reader thread.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass

import serial

from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameFault, FrameReader
from firmware_bridge.protocol import BAUD, Packet, decode_payload


@dataclass(frozen=True, slots=True)
class LinkLost:
    """The port went away (unplugged, or the device closed)."""

    reason: str


Incoming = Packet | FrameFault | LinkLost


class SerialTransport:
    """One open port. ``on_incoming`` gets every Packet, FrameFault and, once, LinkLost."""

    def __init__(self, port: str, on_incoming: Callable[[Incoming], None],
                 baud: int = BAUD) -> None:
        self.port = port
        self._on = on_incoming
        self._write_lock = threading.Lock()
        self._closing = threading.Event()
        try:
            # exclusive: a second program on the same board would corrupt both conversations
            self._serial = serial.Serial(port, baud, timeout=0.05, write_timeout=1.0,
                                         exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise BridgeError(f"cannot open {port}: {_reason(exc)}") from None
        self._serial.reset_input_buffer()
        self._thread = threading.Thread(target=self._read_loop, name=f"bridge-rx {port}",
                                        daemon=True)
        self._thread.start()

    def write(self, frame: bytes) -> None:
        """Send one frame; raises BridgeError if the port is gone."""
        with self._write_lock:
            try:
                self._serial.write(frame)
            except (serial.SerialException, OSError) as exc:
                raise BridgeError(f"write to {self.port} failed: {_reason(exc)}") from None

    def close(self) -> None:
        self._closing.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=1.0)
        with contextlib.suppress(serial.SerialException, OSError):
            self._serial.close()

    def _read_loop(self) -> None:
        reader = FrameReader()
        while not self._closing.is_set():
            try:
                data = self._serial.read(max(1, self._serial.in_waiting))
            except (serial.SerialException, OSError, TypeError) as exc:
                # TypeError: pyserial's fd became None while closing
                if not self._closing.is_set():
                    self._on(LinkLost(_reason(exc)))
                return
            for item in reader.feed(data):
                if isinstance(item, FrameFault):
                    self._on(item)
                    continue
                try:
                    self._on(decode_payload(item))
                except BridgeError as exc:
                    self._on(FrameFault(str(exc), item))


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
