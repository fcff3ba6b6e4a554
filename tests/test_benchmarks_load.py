"""Every benchmark script the README quotes figures from still loads: its imports name
things the project has (``benchmarks/bench_recorded.py`` imported ``calibrate_from`` from
where a refactor had moved it away, and stopped with a traceback before measuring)."""

from __future__ import annotations

import pytest

from tests.benchmarks import BENCHMARKS, load_benchmark


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_script_loads(name: str) -> None:
    module = load_benchmark(name)
    assert module.__doc__, f"benchmarks/{name}.py says what it measures"
