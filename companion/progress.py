"""Progress of the long jobs (``clip``, ``referee`` over a recording, calibrating from one,
the benchmarks' loops), drawn by tqdm on stderr, and only when stderr is a terminal: output
that is piped, redirected or captured by tests gets nothing extra. What a command reports
(its events, its result) stays on stdout; a line printed while the bar is drawn goes
through :meth:`Progress.above`, so the bar never overwrites it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, TextIO, TypeVar

from tqdm import tqdm

T = TypeVar("T")
REDRAW_EVERY_S = 0.25  # a bar redrawn more often only costs the job time
FALLBACK_COLUMNS, FALLBACK_ROWS = 80, 24


def _columns(stream: Any) -> int | None:
    """The terminal's width (0 where it says none); None where it cannot be asked."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None


def is_terminal(stream: Any) -> bool:
    """True when ``stream`` is an open terminal (a closed stream, or a stand-in without
    ``isatty``, is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """One bar: ``what`` done out of ``total`` (None: a count without an end) ``unit``s.
    Use as a context manager, or call :meth:`close`; the bar is wiped when done."""

    def __init__(self, what: str, total: int | None = None, unit: str = "frame",
                 err: TextIO | None = None) -> None:
        stream = err if err is not None else sys.stderr
        self.on = is_terminal(stream)
        # A terminal that reports no size (a fresh pty, a serial console) gets a bar of
        # FALLBACK_COLUMNS on a screen of FALLBACK_ROWS: tqdm draws nothing in zero of either.
        sized = _columns(stream) != 0
        self._bar = tqdm(total=total, desc=what, unit=unit, file=stream, disable=not self.on,
                         leave=False, dynamic_ncols=sized,
                         ncols=None if sized else FALLBACK_COLUMNS,
                         nrows=None if sized else FALLBACK_ROWS,
                         mininterval=REDRAW_EVERY_S)

    def update(self, n: int = 1) -> None:
        """``n`` more done."""
        self._bar.update(n)

    def track(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, one step of the bar each as it is taken."""
        for item in items:
            yield item
            self._bar.update(1)

    def set(self, done: int, **fields: object) -> None:
        """``done`` in all, and fields shown after the count (``turns=7``)."""
        if not self.on:
            return
        if fields:
            self._bar.set_postfix(fields, refresh=False)
        self._bar.update(done - self._bar.n)

    @contextmanager
    def above(self) -> Iterator[None]:
        """Print a line (on stdout or stderr) with the bar out of its way: wiped before,
        drawn again after."""
        if not self.on:
            yield
            return
        self._bar.clear()
        try:
            yield
        finally:
            self._bar.refresh()

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


__all__ = ["Progress", "is_terminal"]
