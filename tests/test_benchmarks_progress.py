"""Issue 21: "Progress bars on every long job (`clip`, `referee`, benchmarks, calibration from
a recording) on stderr, using an established library (tqdm or rich). Events go to stdout."
Every benchmark script, run small with a pseudo-terminal as stderr, draws its bar there and
not on stdout; piped, it adds nothing to stderr."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest

from companion.sim.clips import ClipScript
from tests.benchmarks import BENCHMARKS, load_benchmark
from tests.terminal import Terminal

# benchmark: (small arguments, a bar's text it must draw)
CASES: dict[str, tuple[list[str], str]] = {
    "bench_rules": (["--quick", "--positions", "4", "--turns", "2", "--illegal", "1"],
                    "explaining 4-move turns"),
    "bench_portals": (["--games", "2"], "playing games"),
    "bench_telic": (["--games", "2"], "playing games"),
    "bench_portal_hex": (["--games", "2"], "playing games"),
    "bench_matchlog": (["--quick", "--commits", "3", "--matches", "20", "--turns", "5",
                        "--repeats", "2"], "timing commit_full"),
    "bench_bridge": (["--rounds", "2"], "virtual: PING"),
    "bench_pipeline": (["--changes", "1", "--size", "640x360"], "rendering the changes"),
    "bench_vision": (["--scenes", "1", "--positions", "1", "--no-empty"], "reading scenes"),
    "bench_recorded": (["--sizes", "640x360", "--fps", "10", "--runs", "1"],
                       "refereeing 640x360"),
}
PIPED_TOO = {"bench_rules", "bench_portals", "bench_telic", "bench_portal_hex"}  # run in 1 s


@pytest.fixture(autouse=True)
def _opencv_threads() -> Iterator[None]:
    """bench_vision times detection on one core: the worker gets its threads back after."""
    threads = cv2.getNumThreads()
    yield
    cv2.setNumThreads(threads)


def _small(name: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> list[str]:
    """``args``, and the module made smaller where its arguments cannot: bench_vision times
    no frame size, bench_recorded records a two-turn clip into ``tmp_path``."""
    bench = load_benchmark(name)
    if name == "bench_vision":
        monkeypatch.setattr(bench, "SPEED_SIZES", ())
    if name == "bench_recorded":
        monkeypatch.setattr(bench, "sample_script",
                            lambda: ClipScript(turns=(("Pd1-d3",), ("Pd8-d6",))))
        return [*args, "--cache", str(tmp_path)]
    return args


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("bench_*.py")))
def test_a_benchmark_draws_its_bar_on_a_terminal_stderr(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: run at a terminal, the benchmark's bar is drawn on stderr; its report
    stays on stdout, with no bar in it (a bar's line ends in its rate, "... it/s]"). The
    quick ones are run piped too: then stderr gets no bar (only the stage lines it had)."""
    assert name in CASES, f"benchmarks/{name}.py: give it small arguments and its bar here"
    args, bar = CASES[name]
    args = _small(name, args, tmp_path, monkeypatch)
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term.file)
    load_benchmark(name).main(args)
    monkeypatch.undo()
    screen = term.text()
    assert bar in screen and "/s]" in screen, screen[-500:]
    out = capsys.readouterr().out
    assert "/s]" not in out and "\r" not in out
    if name in PIPED_TOO:
        load_benchmark(name).main(args)
        err = capsys.readouterr().err
        assert bar not in err and "\r" not in err
