"""A pseudo-terminal for the tests of what a command draws on a terminal (progress bars)."""

from __future__ import annotations

import os
import pty
import threading


class Terminal:
    """A pseudo-terminal: ``file`` writes to it as a program's stderr would, ``text()`` is
    all that reached the screen (read on a thread, so a long job never blocks on it)."""

    def __init__(self) -> None:
        self.master, slave = pty.openpty()
        self.file = os.fdopen(slave, "w", buffering=1)
        self._got: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the slave side closed
                return
            if not chunk:
                return
            self._got.append(chunk)

    def text(self) -> str:
        self.file.close()
        self._reader.join(timeout=5)
        os.close(self.master)
        return b"".join(self._got).decode("utf-8", "replace")
