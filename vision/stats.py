"""Medians of the small arrays a frame is full of, without ``np.median``'s overhead.

``np.median`` spends ~25 us per call checking its arguments, partitioning for NaNs and
averaging through ``np.mean``; a frame takes ~20 medians of a few hundred values. These give
the very same values (bit for bit: the same order statistics, averaged in the same dtype)
in a fifth of the time.
"""

from __future__ import annotations

from functools import cache
from typing import cast

import numpy as np

# np.clip's own ufunc (np.clip checks its arguments in Python, then calls it); NumPy's
# stubs do not list it, and NumPy 1.x (which pyproject allows) keeps it elsewhere: there
# np.clip itself serves, the same values
_clip_ufunc = getattr(getattr(getattr(np, "_core", None), "umath", None), "clip", np.clip)


def median(values: np.ndarray) -> np.floating:
    """``np.median`` of a 1-D float array (NaN if any value is NaN, as there; NaN with
    NumPy's warning when empty)."""
    n = values.shape[0]
    if n == 0:
        return cast(np.floating, np.median(values))
    lo, hi = (n - 1) // 2, n // 2
    # the same order statistics as np.partition's: a whole sort (SIMD, one pass) costs less
    # than partitioning about three of them (a quarter of it for thousands of values)
    part = np.sort(values)
    if np.isnan(part[n - 1]):  # NaN sorts last: any NaN is there
        return cast(np.floating, part[n - 1])
    # as np.mean of the middle one or two: their sum from 0 in their own dtype (so -0.0
    # comes out 0.0, as there), halved for two
    zero = part.dtype.type(0)
    if lo == hi:
        return cast(np.floating, zero + part[lo])
    return cast(np.floating, (zero + part[lo] + part[hi]) / 2)



@cache
def _network(n: int) -> tuple[tuple[int, int], ...]:
    """Batcher's odd-even merge sort of ``n`` values: the compare-exchanges (lower index
    first) for the next power of two, less those that reach past ``n`` (the values there
    would be +inf, and never move)."""
    size = 1 << max(n - 1, 0).bit_length()
    pairs = []
    p = 1
    while p < size:
        k = p
        while k >= 1:
            for j in range(k % p, size - k, 2 * k):
                for i in range(min(k, size - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return tuple((a, b) for a, b in pairs if b < n)


def sorted_along(values: np.ndarray, axis: int) -> list[np.ndarray]:
    """The slices of ``values`` (no NaN) along ``axis``, sorted elementwise: item i holds
    each lane's i-th smallest value (the values of ``np.sort(values, axis)``, its slices).
    For a short axis (a few values in each of thousands of lanes) a sorting network, a
    ufunc call per compare-exchange over every lane at once, costs a fraction of
    ``np.sort``, which pays per lane."""
    # contiguous lanes first: every compare-exchange then runs over contiguous memory
    rows = list(np.ascontiguousarray(np.moveaxis(values, axis, 0)))
    for a, b in _network(len(rows)):
        rows[a], rows[b] = np.minimum(rows[a], rows[b]), np.maximum(rows[a], rows[b])
    return rows


def median_of_sorted(rows: list[np.ndarray], n: np.ndarray) -> np.ndarray:
    """:func:`vision.classify.masked_median`'s answer (bit for bit) from the
    :func:`sorted_along` slices of values whose left-out ones were +inf, ``n`` (int,
    broadcastable to a slice's shape) of each lane kept: the mean of its middle two kept
    values, in their dtype; 0 where none is kept."""
    shape = rows[0].shape
    ordered = np.stack(rows).reshape(-1)
    m = ordered.size // len(rows)
    n = np.broadcast_to(n, shape).reshape(-1)
    lane = np.arange(m)
    lo = ordered[np.maximum(n - 1, 0) // 2 * m + lane]
    hi = ordered[n // 2 * m + lane]
    return np.where(n > 0, (lo + hi) / 2, 0.0).reshape(shape)


def clip(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """``np.clip(values, lo, hi)`` of a float array, bit for bit: the very ufunc it calls,
    without its wrapper's checks (which cost three times the clip of 64 values)."""
    return cast(np.ndarray, _clip_ufunc(values, lo, hi))
