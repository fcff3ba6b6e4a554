"""Answers of expensive pure functions kept for a test module: calibrating the same frame, or
planning the same camera's sample layout, gives the same result every time, so tests that
need it again take a copy of the first instead of paying for it again."""

from __future__ import annotations

import copy
import functools
import pickle
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

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


_demo_table: list[object] = []


def demo_table_profile() -> Any:
    """``companion.sim.demo.calibrate_table()`` (the demo's simulated table calibrated from its
    rendered start position: no inputs, the same profile every time), worked out once per
    test process and handed out as a copy. Several test files need exactly this profile; the
    demo command itself still calibrates afresh wherever a test runs it."""
    from companion.sim.demo import calibrate_table

    if not _demo_table:
        _demo_table.append(calibrate_table())
    return copy.deepcopy(_demo_table[0])
