"""Issue 21: "Progress bars on every long job (`clip`, `referee`, benchmarks, calibration from
a recording) on stderr, using an established library (tqdm or rich). Events go to stdout."
And "the referee's progress line is printed over its event lines" no more. Checked with a
pseudo-terminal as stderr (the bar is drawn) and without one (nothing extra is printed)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.commands.main import main
from companion.commands.referee import referee_recording
from companion.progress import Progress
from companion.sim.clips import ClipScript, make_clip, sample_scene, write_folder
from tests.memo import remembered
from tests.terminal import Terminal


@pytest.fixture(scope="module", autouse=True)
def _calibrated_once() -> Iterator[None]:
    """Three tests here referee the same recording, each calibrating from its same first still
    frame and planning the same sample layout: the first answer for exactly those inputs is
    kept and copied, as in test_referee. The refereeing and its bars are done afresh."""
    import calibration.profile
    import vision.detect

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(calibration.profile, "calibrate", remembered(calibration.profile.calibrate))
        patch.setattr(vision.detect, "sample_layout", remembered(vision.detect.sample_layout))
        yield


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two turns on the simulated table: a short recording, as frames."""
    script = ClipScript(turns=(("Pd1-d3",), ("Pd8-d6",)))
    clip = make_clip(script, sample_scene(640, 360, 0.0, 0.0, seed=5))
    folder = tmp_path_factory.mktemp("rec") / "frames"
    write_folder(clip.frames(), folder)
    return folder


def test_the_referee_draws_its_bar_on_a_terminal_and_never_over_an_event_line(
        recording: Path, tmp_path: Path) -> None:
    """Issue 21: with stdout and stderr on one terminal, the bar ("refereeing frames",
    frames done of the total) is drawn on stderr, and wiped before each event line, so no
    event line is printed after the bar's text."""
    term = Terminal()
    referee_recording(str(recording), db=str(tmp_path / "m.sqlite3"), fps=10.0,
                      out=term.file, err=term.file)
    screen = term.text()
    assert "refereeing frames" in screen and "frame/s" in screen
    lines = [line for line in screen.replace("\r\n", "\n").split("\n") if "COMMIT" in line]
    assert len(lines) == 2
    for line in lines:  # what a terminal shows of it: the text after the last return
        assert "frame/s" not in line.rsplit("\r", 1)[-1], repr(line)
        assert line.rsplit("\r", 1)[-1].lstrip().startswith("0:"), repr(line)


def test_the_referee_prints_nothing_extra_when_stderr_is_not_a_terminal(
        recording: Path, tmp_path: Path) -> None:
    """Issue 21: piped or captured, stderr gets no bar (and calibrating says nothing)."""
    out, err = io.StringIO(), io.StringIO()
    referee_recording(str(recording), db=str(tmp_path / "m.sqlite3"), fps=10.0,
                      out=out, err=err)
    assert err.getvalue() == "" and "COMMIT" in out.getvalue()


def test_calibrating_from_a_recording_shows_its_own_bar(recording: Path,
                                                        tmp_path: Path) -> None:
    """Issue 21: calibration from a recording's first still frames has a bar too."""
    term = Terminal()
    referee_recording(str(recording), db=str(tmp_path / "m.sqlite3"), fps=10.0,
                      out=io.StringIO(), err=term.file)
    assert "calibrating the mat" in term.text()


def test_clip_shows_a_bar_on_a_terminal_and_nothing_without_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: `companion clip` (110 s without a word before) counts its frames on stderr
    when it is a terminal; its report stays on stdout."""
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term.file)
    assert main(["clip", "--out", str(tmp_path / "a"), "--size", "320x180", "--fps", "5"]) == 0
    monkeypatch.undo()
    screen = term.text()
    assert "writing a" in screen and "frame/s" in screen
    assert "wrote " in capsys.readouterr().out
    assert main(["clip", "--out", str(tmp_path / "b"), "--size", "320x180", "--fps", "5"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "wrote " in captured.out


def test_a_bar_is_off_where_its_stream_is_no_terminal() -> None:
    """Issue 21: the bar itself: off (nothing written) for a plain stream; lines printed
    "above" it go through untouched either way."""
    plain = io.StringIO()
    with Progress("job", 10, err=plain) as bar:
        assert not bar.on
        for _ in bar.track(range(10)):
            pass
        with bar.above():
            print("event", file=plain)
    assert plain.getvalue() == "event\n"


def test_calibrating_a_lens_from_photos_shows_a_bar_on_a_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: "every command that runs over 2 s shows progress on stderr when it is a
    terminal": `calibrate camera --images` looks for the sheet in each photo (about a second
    each), counted on stderr; its result line stays on stdout, and piped it adds nothing."""
    import cv2

    from vision.distortion import render_sheet, sheet_pose

    poses = [((640, 360), 0, 0, 0, 420), ((640, 360), 35, 0, 0, 460),
             ((640, 360), 35, 60, 90, 480), ((640, 360), 35, 150, 180, 460),
             ((640, 360), 35, 250, 270, 480), ((640, 360), 45, 30, 30, 520)]
    files = []
    for i, pose in enumerate(poses):
        files.append(str(tmp_path / f"view{i}.png"))
        cv2.imwrite(files[-1], render_sheet(sheet_pose(*pose), seed=i).image)
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term.file)
    assert main(["calibrate", "camera", "--images", *files, "--out",
                 str(tmp_path / "a.json")]) == 0
    monkeypatch.undo()
    screen = term.text()
    assert "finding the sheet" in screen and "/6 [" in screen  # counted out of 6 photos
    assert "lens calibrated from 6 views" in capsys.readouterr().out
    assert main(["calibrate", "camera", "--images", *files, "--out",
                 str(tmp_path / "b.json")]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "lens calibrated from 6 views" in captured.out
