"""``companion look``, and the overlay ``calibrate`` writes beside its profile and
``detect --overlay`` writes: what the camera sees, drawn over its frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.commands import look as look_command
from companion.commands.main import main
from companion.rules.teleporters import Position, parse_move, play
from vision.matfind import project
from vision.overlay import HAND, OUTLINE, SURE, UNSURE
from vision.simtable import CameraPose, Hand, Scene, render

SCENE = Scene(pose=CameraPose(tilt_deg=12, width=640, height=360), seed=31)


def count(image: np.ndarray, colour: tuple[int, int, int], tol: int = 30) -> int:
    """Pixels of ``colour`` (within ``tol`` on every channel)."""
    return int((np.abs(image.astype(int) - np.array(colour)).max(axis=-1) <= tol).sum())


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Photos of the simulated table (start, after Pd1-d3, a hand over the mat, no mat) and
    a profile calibrated from the start photo with ``companion calibrate``."""
    where = tmp_path_factory.mktemp("look")
    later, _ = play(Position.start(), parse_move("Pd1-d3"))
    frames = {"start": render(Position.start().to_json(), SCENE),
              "later": render(later.to_json(), SCENE.with_(seed=32)),
              "hand": render(later.to_json(), SCENE.with_(seed=33), Hand(reach=(4.0, 2.5)))}
    out: dict[str, Any] = {"homography": frames["start"].homography, "dir": where}
    for name, frame in frames.items():
        out[name] = str(where / f"{name}.png")
        cv2.imwrite(out[name], frame.image)
    out["blank"] = str(where / "blank.png")
    cv2.imwrite(out["blank"], np.full((360, 640, 3), 120, np.uint8))
    out["big"] = str(where / "big.png")
    cv2.imwrite(out["big"], cv2.resize(frames["start"].image, (1280, 720)))
    out["profile"] = str(where / "table.json")
    return out


@pytest.fixture(scope="module")
def calibrated(table: dict[str, Any]) -> str:
    """The stdout of ``companion calibrate`` for the table's start photo."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["calibrate", "--image", table["start"], "--out", table["profile"]]) == 0
    return buf.getvalue()


def test_calibrate_writes_the_overlay_beside_the_profile(table: dict[str, Any],
                                                         calibrated: str) -> None:
    """Issue 21: `companion calibrate --out table.json` also writes table.overlay.png, the
    overlay of what the profile reads in the start photo, and says so."""
    overlay = Path(table["dir"]) / "table.overlay.png"
    assert f"wrote {overlay}: what the profile reads in the start photo" in calibrated
    image = cv2.imread(str(overlay))
    assert image.shape == (360, 640, 3)
    assert count(image, OUTLINE) > 500 and count(image, SURE) > 200
    assert count(image, UNSURE, tol=10) == 0  # the start read sure everywhere


def test_look_image_with_profile_writes_each_reading(
        table: dict[str, Any], calibrated: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: `companion look --image IMG --profile P --out overlay.png` writes the
    overlay: outline, grid and every piece read (here d3's moved Pole, drawn green: sure)."""
    out = tmp_path / "overlay.png"
    assert main(["look", "--image", table["later"], "--profile", table["profile"],
                 "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 16 pieces read, all spaces sure\n"
    image = cv2.imread(str(out))
    d3, d1 = project(table["homography"], np.array([[3.5, 2.5], [3.5, 0.5]]))

    def green_near(uv: np.ndarray) -> int:
        u, v = np.round(uv).astype(int)
        return count(image[v - 8:v + 9, u - 8:u + 9], SURE)

    assert green_near(d3) > 10 and green_near(d1) == 0


def test_look_image_without_profile_shows_the_grid_only(
        table: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: without --profile, look shows what mat finding alone sees (outline and
    grid, no pieces) and says that pieces need a profile."""
    out = tmp_path / "grid.png"
    assert main(["look", "--image", table["start"], "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {out}: mat found: ") and " of 49 grid crossings" in said
    assert "pieces are read with a profile" in said
    image = cv2.imread(str(out))
    assert count(image, OUTLINE) > 500 and count(image, SURE, tol=10) == 0


def test_look_shows_the_hand_and_the_verdict(
        table: dict[str, Any], calibrated: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: a frame with a hand over the mat is held back: look says so and tints the
    hand magenta."""
    out = tmp_path / "hand.png"
    assert main(["look", "--image", table["hand"], "--profile", table["profile"],
                 "--out", str(out)]) == 0
    assert "occluded: a hand or something foreign is over the mat" in capsys.readouterr().out
    assert count(cv2.imread(str(out)), HAND, tol=80) > 100


@pytest.mark.parametrize(("case", "message"), [
    ("missing", "no such image"),
    ("unreadable", "not an image OpenCV can read"),
    ("not a profile", "not a text file"),
    ("other size", "the frame is 1280x720 but the profile was calibrated on 640x360"),
    ("no mat", "no mat found in the image"),
    ("suffix", "an overlay is a .png or .jpg file"),
    ("missing profile", "cannot read profile"),
])
def test_look_bad_input_is_one_line_and_exit_2(
        table: dict[str, Any], calibrated: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], case: str, message: str) -> None:
    """Issue 21: bad input to look (a missing or unreadable image, a file that is not a
    profile, a profile for other frames, no mat in the image, an output that is no image)
    gets one clear line and exit 2, never a traceback."""
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    out = str(tmp_path / "o.png")
    args = {"missing": ["--image", str(tmp_path / "none.png")],
            "unreadable": ["--image", str(junk)],
            "not a profile": ["--image", table["start"], "--profile", table["start"]],
            "other size": ["--image", table["big"], "--profile", table["profile"]],
            "no mat": ["--image", table["blank"]],
            "suffix": ["--image", table["start"], "--out", str(tmp_path / "o.txt")],
            "missing profile": ["--image", table["start"], "--profile",
                                str(tmp_path / "none.json")]}[case]
    assert main(["look", *args, *([] if case == "suffix" else ["--out", out])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion look: ") and err.count("\n") == 1 and message in err
    assert "Traceback" not in err
    if case in ("no mat", "other size"):  # the frame is written all the same, to be seen
        assert "the image as it was seen" in err and Path(out).exists()


class _Camera:
    """A ``CameraSource`` stand-in sending one photo again and again."""

    def __init__(self, image: np.ndarray, log: dict[str, Any]) -> None:
        self.image, self.log = image, log
        log["reads"] = 0

    def read(self) -> Any:
        from vision.sources import Frame

        self.log["reads"] += 1
        return Frame(self.image, 0.0, self.log["reads"])

    def close(self) -> None:
        self.log["closed"] = True


def test_look_camera_without_a_window_writes_one_frame(
        table: dict[str, Any], calibrated: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: `look --camera N` where no window can open writes the overlay of one
    settled frame to --out and says so, then closes the camera."""
    import vision.sources

    log: dict[str, Any] = {}
    photo = cv2.imread(table["later"])
    monkeypatch.setattr(vision.sources, "CameraSource",
                        lambda i, opener: _Camera(photo, log))
    monkeypatch.setattr(look_command, "open_window", lambda: (None, "no display found"))
    out = tmp_path / "cam.png"
    assert main(["look", "--camera", "0", "--profile", table["profile"], "--out",
                 str(out)]) == 0
    said = capsys.readouterr().out
    assert said == (f"no display found: wrote {out} from one frame of camera 0 instead of a "
                    "window: 16 pieces read, all spaces sure\n")
    assert out.exists() and log["reads"] == look_command.WARM_UP_FRAMES and log["closed"]


def test_look_camera_shows_each_frame_in_a_window_until_quit(
        table: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: with a window, `look --camera N` shows the overlay of every frame until the
    user quits, then writes the last one shown to --out; frames with no mat are shown with
    the reason written on them."""
    import vision.sources

    log: dict[str, Any] = {}
    photos = [cv2.imread(table["start"]), cv2.imread(table["blank"]),
              cv2.imread(table["start"])]

    class Camera(_Camera):
        def read(self) -> Any:
            from vision.sources import Frame

            self.log["reads"] += 1
            return Frame(photos[(self.log["reads"] - 1) % 3], 0.0, self.log["reads"])

    shown: list[np.ndarray] = []

    class FakeWindow:
        def show(self, image: np.ndarray) -> bool:
            shown.append(image)
            return len(shown) < 3  # the user presses q on the third frame

        def close(self) -> None:
            log["window closed"] = True

    monkeypatch.setattr(vision.sources, "CameraSource",
                        lambda i, opener: Camera(photos[0], log))
    monkeypatch.setattr(look_command, "open_window", lambda: (FakeWindow(), ""))
    out = tmp_path / "last.png"
    assert main(["look", "--camera", "0", "--out", str(out)]) == 0
    assert len(shown) == 3 and log["window closed"] and log["closed"]
    assert count(shown[0], OUTLINE) > 500 and count(shown[1], OUTLINE) == 0
    assert f"wrote {out}: the last frame shown" in capsys.readouterr().out
    assert np.array_equal(cv2.imread(str(out)), shown[2])


def test_detect_writes_an_overlay(table: dict[str, Any], calibrated: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: `companion detect --profile P IMAGE --overlay PNG` prints the position as
    before and writes the overlay of it; with several images --overlay is refused in one
    line (exit 2)."""
    out = tmp_path / "detect.png"
    assert main(["detect", "--profile", table["profile"], table["later"], "--overlay",
                 str(out)]) == 0
    said = capsys.readouterr()
    later, _ = play(Position.start(), parse_move("Pd1-d3"))
    import json

    assert Position.from_json(json.loads(said.out)).same_board(later)
    assert f"wrote {out}" in said.err and count(cv2.imread(str(out)), SURE) > 200
    assert main(["detect", "--profile", table["profile"], table["later"], table["start"],
                 "--overlay", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--overlay draws one image, and 2 were given" in err
