"""benchmarks/bench_rules.py: the side-by-side run against python-chess, and what it says
when python-chess is missing.

Requirement: move generation is measured against python-chess "side by side in one run
(`benchmarks/bench_rules.py`; keep `movegen.ratio_moves_per_second` in its JSON), and a missing
python-chess gets one line naming the `bench` extra".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.benchmarks import load_benchmark


def _bench() -> ModuleType:
    return load_benchmark("bench_rules")


def test_without_python_chess_one_line_names_the_bench_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No traceback and no half-run report: exit status 2 and one line on stderr with the
    install command."""
    bench = _bench()
    monkeypatch.setitem(sys.modules, "chess", None)  # `import chess` now raises ImportError
    assert bench.main(["--quick"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [bench.MISSING_CHESS]
    assert "python-chess is not installed" in err and "pip install -e '.[bench]'" in err


def test_a_small_run_writes_both_figures_and_the_ratio(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON keeps movegen.teleporters, movegen.python_chess and
    movegen.ratio_moves_per_second (ours / python-chess, moves per second)."""
    pytest.importorskip("chess")
    bench = _bench()
    out_json = tmp_path / "bench.json"
    assert bench.main(["--quick", "--positions", "4", "--turns", "2", "--illegal", "1",
                       "--json", str(out_json)]) == 0
    report = capsys.readouterr().out
    assert "RATIO teleporters / python-chess" in report
    movegen = json.loads(out_json.read_text())["movegen"]
    ours = movegen["teleporters"]["moves_per_second"]
    theirs = movegen["python_chess"]["moves_per_second"]
    assert ours > 0 and theirs > 0
    assert movegen["ratio_moves_per_second"] == pytest.approx(ours / theirs)
