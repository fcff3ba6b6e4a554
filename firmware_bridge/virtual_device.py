"""A virtual LED/die board on a pseudo-terminal: the firmware's protocol, in Python.

For the demo and for machines without simavr: the bridge opens its port like a real board's.
The port is a symlink that stays put across ``unplug()``/``replug()`` (a new pty behind it),
like a udev ``/dev/serial/by-id`` name. ``reset()`` is a board reset: RAM (LEDs, event ring)
is lost and a new boot id announced. ``protocol=1`` makes it a board still on firmware 1.0
(no piecepack die), to try the host's fallback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.device import DeviceCore, LedState
from firmware_bridge.protocol import PROTOCOL_VERSION, Event, Message


class VirtualDevice:
    """Start with :meth:`start` (returns the port path); stop with :meth:`stop`."""

    def __init__(self, *, seed: int | None = None, heartbeat_s: float = 1.0,
                 baud: int | None = None, link_dir: str | None = None,
                 protocol: int = PROTOCOL_VERSION) -> None:
        self._rng = random.Random(seed)
        self.protocol = protocol             # the newest version its firmware speaks
        self.core = DeviceCore(boot_id=self._rng.getrandbits(16), protocol=protocol)
        self.heartbeat_s = heartbeat_s
        self.baud = baud                     # pace bytes like a real line; None = instant
        self._dir = Path(link_dir or tempfile.mkdtemp(prefix="companion-board-"))
        self.port = str(self._dir / "ttyBOARD0")
        self._lock = threading.RLock()
        self._master = -1
        self._slave = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._booted = time.monotonic()
        self.mangle_rx: Callable[[bytes], bytes] | None = None   # fault injection for tests
        self.mangle_tx: Callable[[bytes], bytes] | None = None
        self.silent = False                  # True: swallow everything, answer nothing
        self._watchers: list[Callable[[LedState | Event], None]] = []

    # --- control ---------------------------------------------------------------------------
    def start(self) -> str:
        self._plug()
        self._thread = threading.Thread(target=self._run, name="virtual-board", daemon=True)
        self._thread.start()
        return self.port

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._lock:
            self._unplug_fds()
        with contextlib.suppress(OSError):  # already gone when the cable was out
            os.unlink(self.port)
        with contextlib.suppress(OSError):
            self._dir.rmdir()

    def unplug(self) -> None:
        """The USB cable comes out (the board keeps power and state, as with a mains supply)."""
        with self._lock:
            self._unplug_fds()
            with contextlib.suppress(OSError):
                os.unlink(self.port)

    def replug(self) -> None:
        with self._lock:
            self._plug()

    def reset(self) -> None:
        """The board reboots: state lost, new boot id, a heartbeat at once."""
        with self._lock:
            observers = self.core.observers        # the display outlives a reboot
            self.core = DeviceCore(boot_id=self._rng.getrandbits(16), protocol=self.protocol)
            self.core.observers = observers
            self._notify_all()                     # the LEDs went dark
            self._booted = time.monotonic()
            self._send([self.core.heartbeat(0)])

    def press_button(self) -> None:
        with self._lock:
            self._send([self.core.press_button(self._rng)])

    def state(self) -> LedState:
        with self._lock:
            return self.core.state()

    def watch(self, callback: Callable[[LedState | Event], None]) -> None:
        """Call ``callback`` with a snapshot of the LEDs after every change the board applies,
        and with every event (roll, press) it makes. It runs on the board's thread, under its
        lock, so it must be quick: hand the value to a queue."""
        with self._lock:
            if not self._watchers:
                self.core.observers.append(self._observe)
            self._watchers.append(callback)

    def _observe(self, msg: Message) -> None:
        # the snapshot is taken here, on the board's thread under its lock: always consistent
        value = msg if isinstance(msg, Event) else self.core.state()
        for callback in self._watchers:
            callback(value)

    def _notify_all(self) -> None:
        state = self.core.state()
        for callback in self._watchers:
            callback(state)

    def __enter__(self) -> VirtualDevice:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- pty -------------------------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)          # no echo, no line discipline: bytes pass as they are
        os.set_blocking(master, False)
        self._master, self._slave = master, slave   # keep the slave open: no EIO when idle
        tmp = self._dir / f".link{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.port)

    def _unplug_fds(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    def _send(self, frames: list[bytes]) -> None:
        if self._master < 0 or self.silent:
            return
        for frame in frames:
            data = self.mangle_tx(frame) if self.mangle_tx else frame
            if self.baud:
                time.sleep(len(data) * 10 / self.baud)
            try:
                os.write(self._master, data)
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EIO):
                    raise
                # nobody reading and the buffer full: a real UART drops bytes too

    def _run(self) -> None:
        next_beat = time.monotonic()
        while not self._stop.is_set():
            master = self._master
            if master < 0:
                time.sleep(0.02)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
            except (OSError, ValueError):
                continue                      # unplugged under us
            with self._lock:
                if ready and master == self._master:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data and self.baud:
                        time.sleep(len(data) * 10 / self.baud)
                    if data and self.mangle_rx:
                        data = self.mangle_rx(data)
                    if data and not self.silent:
                        self._send(self.core.feed(data))
                now = time.monotonic()
                if now >= next_beat:
                    next_beat = now + self.heartbeat_s
                    self._send([self.core.heartbeat(int(now - self._booted))])
