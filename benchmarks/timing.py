"""What the rules benchmarks share: nearest-rank percentiles and one line of timings."""

from __future__ import annotations

import statistics


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q < 1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timing_line(name: str, seconds: list[float], unit: str = "ms") -> str:
    """``name  n=...  median ... p90 ... p99 ... max ...`` in ``unit`` (ms or us)."""
    k = {"ms": 1e3, "us": 1e6}[unit]
    v = [s * k for s in seconds]
    return (f"{name:<34} n={len(v):>7}  median {statistics.median(v):8.3f} {unit}"
            f"  p90 {percentile(v, 0.9):8.3f}  p99 {percentile(v, 0.99):8.3f}"
            f"  max {max(v):8.3f}")
