"""Issue 18, the fuzz suite: generated inputs for every file format a user hands the program,
through the public command line. "No input in the fuzz suite produces a traceback, a hang over
10 s, or memory over 500 MB": each input ends in an exit code (0 or 1 for a verdict, 2 for bad
input, with one line naming it), in under 10 s. Serial frames are fuzzed against the firmware
in tests/firmware_bridge/test_firmware_host.py."""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path
from typing import Any

import cv2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands.main import main
from companion.matchlog.export import export_json_text, export_text
from companion.rules import GAMES
from tests.companion.matchlog.helpers import random_match
from tests.memo import demo_table_profile, remembered

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
HANG_S = 10.0
MEMORY_MB = 500

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=6),
    max_leaves=30)


def mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a few characters deleted, replaced or inserted: almost right."""
    def apply(edits: list[tuple[int, int, str]]) -> str:
        out = text
        for where, kind, char in edits:
            i = where % (len(out) + 1)
            out = (out[:i] + out[i + 1:] if kind == 0 else out[:i] + char + out[i + 1:]
                   if kind == 1 else out[:i] + char + out[i:])
        return out

    return st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 2),
                              st.sampled_from(list('{}[]",:0123456789 -.aePpVnNsS/\n\x00é'))),
                    min_size=1, max_size=6).map(apply)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module", autouse=True)
def peak_at_start() -> float:
    """The process's peak memory before this module's first test (others ran before it)."""
    return _peak_mb()


def run(argv: list[str], capsys: pytest.CaptureFixture[str], codes: set[int]) -> int:
    start = time.monotonic()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    took = time.monotonic() - start
    err = capsys.readouterr().err
    assert took < HANG_S, (argv, took)
    assert code in codes, (argv, code, err)
    assert "Traceback" not in err, err
    if code == 2:
        assert err.strip(), argv
    return code


def positions_of(game: str) -> st.SearchStrategy[str]:
    core = GAMES[game]
    start_json = json.dumps(core.position_json(core.start()))
    start_text = core.position_text(core.start())
    return st.one_of(st.text(max_size=200), json_values.map(json.dumps),
                     mutated(start_json), mutated(start_text),
                     st.dictionaries(st.sampled_from(["game", "to_move", "poles", "ports",
                                                      "variant", "board", "pieces", "x"]),
                                     json_values, max_size=5).map(json.dumps))


@pytest.mark.parametrize("game", list(GAMES))
def test_judge_takes_any_position_file(game: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    core = GAMES[game]
    good = tmp_path / "start.json"
    good.write_text(json.dumps(core.position_json(core.start())))

    @FUZZ
    @given(text=positions_of(game), first=st.booleans())
    def check(text: str, first: bool) -> None:
        bad = tmp_path / "input.txt"
        bad.write_text(text, encoding="utf-8", errors="surrogatepass") if text.isascii() \
            else bad.write_bytes(text.encode("utf-8", "replace"))
        pair = [str(bad), str(good)] if first else [str(good), str(bad)]
        run(["judge", "--game", game, *pair], capsys, {0, 1, 2})

    check()


def test_matches_import_takes_any_export(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    match = random_match(3, 6)
    exports = [export_text(match), export_json_text(match)]

    @FUZZ
    @given(text=st.one_of(st.sampled_from(exports).flatmap(mutated), st.text(max_size=300),
                          json_values.map(json.dumps)))
    def check(text: str) -> None:
        path = tmp_path / "export.txt"
        path.write_bytes(text.encode("utf-8", "replace"))
        run(["matches", "import", str(path), "--db", str(tmp_path / "m.sqlite3")], capsys,
            {0, 2})

    check()


@pytest.fixture(scope="module")
def profile_doc(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    from companion.rules.teleporters import Position
    from companion.sim.demo import SCENE
    from vision.simtable import render

    image = render(Position.start().to_json(), SCENE.with_(seed=99)).image
    frame = tmp_path_factory.mktemp("profile") / "frame.png"
    cv2.imwrite(str(frame), image)
    return demo_table_profile().to_json(), frame


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every scalar's path in a JSON document, lists sampled (a profile holds thousands)."""
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _paths(v, (*prefix, k))]
    if isinstance(doc, list):
        picks = range(len(doc)) if len(doc) <= 4 else (0, len(doc) // 2, len(doc) - 1)
        return [p for i in picks for p in _paths(doc[i], (*prefix, i))] + [prefix]
    return [prefix]


@pytest.mark.filterwarnings("error::RuntimeWarning")  # NumPy's would reach the terminal
def test_detect_takes_any_damaged_profile(profile_doc: tuple[dict[str, Any], Path],
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.detect

    # Planning the sample layout (ray casts from the camera, ~1 s) was most of each example,
    # and most damage leaves the camera alone: a layout is planned once per distinct camera,
    # geometry and camouflage; damage to any of them still plans afresh.
    monkeypatch.setattr(vision.detect, "sample_layout", remembered(vision.detect.sample_layout))
    doc, frame = profile_doc
    paths = _paths(doc)
    weird = st.one_of(st.just(float("nan")), st.just(float("inf")), st.just(1e300),
                      st.just(-1), st.just(0), st.just(None), st.just("x"), st.just([]),
                      st.just({}), st.integers(-2**64, 2**64), json_values)

    @FUZZ
    @given(edits=st.lists(st.tuples(st.sampled_from(paths), weird), min_size=1, max_size=3))
    def check(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
        damaged = json.loads(json.dumps(doc))
        for path, value in edits:
            if not path:
                damaged = value
                continue
            node = damaged
            try:
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                continue  # an earlier edit replaced what this path went through
        profile = tmp_path / "profile.json"
        profile.write_text(json.dumps(damaged))  # NaN and Infinity as Python writes them
        run(["detect", "--profile", str(profile), str(frame)], capsys, {0, 2})

    check()


def test_the_fuzzing_stays_under_the_memory_ceiling(peak_at_start: float) -> None:
    """After the generated inputs above (pytest keeps a file's order): the process's peak
    grew by less than the ceiling (run alone, the whole process peaks near 220 MB)."""
    grown = _peak_mb() - peak_at_start
    assert grown < MEMORY_MB, grown


@pytest.mark.filterwarnings("error")  # a NumPy warning would reach the user's terminal
@pytest.mark.parametrize(("path", "value", "words"), [
    (("noise",), float("nan"), "'noise' is not a finite number"),
    (("homography", 0, 0), float("inf"), "'homography'[0][0] is not a finite number"),
    (("image_size", 0), 10**9, "is not a frame size"),
    # beyond float32: NumPy warned on stderr and read them as infinite
    (("empty_mat", 3, 2, 0), 1e39, "'empty_mat'[3][2][0] is 1e+39, beyond what a profile"),
    (("noise",), -10**40, "'noise' is -1e+40, beyond what a profile holds"),
    (("empty_mat",), [[[0.5, 0.0, 0.0]]], "empty_mat is [1, 1, 3]"),  # was an IndexError
    (("homography",), [[0, 0, 0], [0, 0, 0], [0, 0, 1]], "singular"),  # was read, and wrong
    # null reads as NaN: was an IndexError deep in mat finding (found by the fuzz test)
    (("homography", 0, 0), None, "the homography holds a number that is not finite"),
    (("camera", "K"), [[None, 0, 0], [0, 1, 0], [0, 0, 1]], "K holds a number that is not"),
    # a lightness no pixel gives: was a NumPy warning from a logarithm (found by the fuzz test)
    (("empty_mat", 63, 37, 0), -1, "empty_mat[63, 37, 0] is -1, not a colour a camera gives"),
    (("empty_mat", 5, 2, 1), 7.5, "empty_mat[5, 2, 1] is 7.5, not a colour"),
    (("camera", "K"), [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "no positive focal lengths"),
    (("hidden_inks",), ["east"], "hidden_inks ['east'] is not a list of sides"),
])
def test_a_profile_with_nan_or_absurd_sizes_is_refused(
        profile_doc: tuple[dict[str, Any], Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], path: tuple[Any, ...], value: Any,
        words: str) -> None:
    """Issue 18, silent wrong answers: "A damaged profile (NaN numbers, sizes of 1e9) is
    accepted". It is refused, naming what is wrong."""
    doc, frame = profile_doc
    damaged = json.loads(json.dumps(doc))
    node = damaged
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps(damaged))
    assert main(["detect", "--profile", str(profile), str(frame)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
