"""Answers of expensive pure functions kept for a test module: calibrating the same frame, or
planning the same camera's sample layout, gives the same result every time, so tests that
need it again take a copy of the first instead of paying for it again."""

from __future__ import annotations

import copy
import functools
import pickle
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def remembered(plan: Callable[P, R], keep: int = 8) -> Callable[P, R]:
    """``plan`` (a pure function of its arguments) with its answers kept, each by the pickled
    bytes of what it was given: only a call with exactly the same inputs is answered from
    the store, and with a copy, so nothing downstream can change what is kept. At most
    ``keep`` answers are held (the fuzz suite's memory test reads the process's peak)."""
    kept: dict[bytes, R] = {}

    @functools.wraps(plan)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            key = pickle.dumps((args, sorted(kwargs.items())))
        except Exception:  # inputs pickle cannot write: worked out afresh
            return plan(*args, **kwargs)
        if key not in kept:
            if len(kept) >= keep:
                kept.clear()
            kept[key] = plan(*args, **kwargs)
        return copy.deepcopy(kept[key])

    return wrapper
