"""Lens calibration (issue 3: "Lens distortion: `companion calibrate camera` estimates
intrinsics from a printed checkerboard sheet (shown in several poses), stored in the profile
with camera_info-style fields, and detection undistorts with it when present").

Everything is simulated with fixed seeds: a cheap webcam (62 degree field of view, barrel
distortion k1 = -0.25) photographs the printed sheet in ten poses and the mat filling its
frame. The names say which requirement each test checks."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.errors import CalibrationError
from calibration.intrinsics import (
    CameraIntrinsics,
    calibrate_from_images,
    capture_views,
    draw_sheet,
    find_board,
    undistorter,
)
from calibration.profile import Profile, calibrate, with_intrinsics
from companion.commands.main import main
from companion.rules.teleporters import Position
from vision.distortion import (
    distort,
    distort_points,
    ideal_points,
    render_distorted,
    render_sheet,
    sheet_pose,
)
from vision.simtable import CameraPose, Scene, make_camera
from vision.sources import Frame, SourceEvent, SourceEventKind

K_TRUE = make_camera(CameraPose(distance=10.0), Scene().mat).K  # the webcam: f = 1065 px
D_TRUE = np.array([-0.25, 0.08, 0.001, -0.0005, 0.0])  # strong barrel, slightly decentred
# (where the sheet's centre is, tilt, azimuth, roll, distance in mm): the middle, flat and
# then tilted towards each edge of the frame, each corner of the frame, one steep view.
POSES = [((640, 360), 0, 0, 0, 420), ((640, 360), 35, 0, 0, 460), ((640, 360), 35, 60, 90, 480),
         ((640, 360), 35, 150, 180, 460), ((640, 360), 35, 250, 270, 480),
         ((330, 200), 25, 45, 15, 620), ((950, 200), 25, 135, -15, 620),
         ((330, 520), 25, 225, 10, 620), ((950, 520), 25, 315, -10, 620),
         ((640, 360), 45, 30, 30, 520)]
START = Position.start().to_json()
# The mat filling a 1280x720 frame from straight above, as a webcam on a short arm sees it.
MAT_SCENE = Scene(pose=CameraPose(tilt_deg=0, fill=1.1), seed=11)
EDGE_POSITION = {"poles": {"a1": "south", "h8": "north", "a8": "south", "h1": "north"},
                 "ports": [{"square": "a5", "side": "south", "corner": "nw"},
                           {"square": "h4", "side": "north", "corner": "se"}]}


def grid_pixels(step: int = 40) -> np.ndarray:
    uu, vv = np.meshgrid(np.arange(0, 1280, step, dtype=float), np.arange(0, 720, step,
                                                                           dtype=float))
    return np.column_stack([uu.ravel(), vv.ravel()])


@pytest.fixture(scope="module")
def sheets() -> list:
    return [render_sheet(sheet_pose(*pose), D=D_TRUE, seed=i) for i, pose in enumerate(POSES)]


@pytest.fixture(scope="module")
def views(sheets: list) -> dict[str, np.ndarray]:
    return {f"view{i}.png": s.image for i, s in enumerate(sheets)}


@pytest.fixture(scope="module")
def lens(views: dict[str, np.ndarray]) -> CameraIntrinsics:
    return calibrate_from_images(views)


@pytest.fixture(scope="module")
def start_image() -> np.ndarray:
    return render_distorted(START, MAT_SCENE, D_TRUE).image


@pytest.fixture(scope="module")
def profile(lens: CameraIntrinsics, start_image: np.ndarray) -> Profile:
    return calibrate(start_image, intrinsics=lens)


def one_line_error(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("companion calibrate: ") or err.startswith("companion detect: ")
    for w in words:
        assert w in err, err
    return err


# ----------------------------------------------------------------------------------------------
# The simulated lens


def test_simulated_distortion_points_and_images_agree() -> None:
    """vision/distortion.py: ideal_points inverts distort_points, and distort() moves image
    content where distort_points says."""
    pts = grid_pixels(16)
    assert np.abs(distort_points(ideal_points(pts, K_TRUE, D_TRUE), K_TRUE, D_TRUE)
                  - pts).max() < 1e-6
    ideal = np.zeros((720, 1280), np.uint8)
    cv2.circle(ideal, (1000, 150), 6, 255, -1)
    bent = distort(ideal, K_TRUE, D_TRUE)
    m = cv2.moments(bent)
    seen = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    assert np.abs(seen - distort_points(np.array([[1000.0, 150.0]]), K_TRUE, D_TRUE)[0]
                  ).max() < 0.5


def test_sheet_corners_are_found_where_the_simulated_lens_put_them(sheets: list) -> None:
    """The simulated photos are faithful: OpenCV finds every inner corner of every view
    within 0.2 px of where the lens model put it."""
    for s in sheets:
        found = find_board(s.image)
        assert found is not None
        err = min(np.abs(found - s.corners).max(), np.abs(found[::-1] - s.corners).max())
        assert err < 0.2


# ----------------------------------------------------------------------------------------------
# Calibration


def test_k_and_d_are_recovered_from_ten_views(lens: CameraIntrinsics) -> None:
    """calibrate_from_images recovers K and D (findChessboardCorners + cornerSubPix +
    calibrateCamera) with rms under 0.5 px. D is judged by the pixels it moves: k2 alone may
    trade off against the others without changing the image."""
    assert lens.views == len(POSES) and lens.rms_px < 0.5
    K = lens.camera_matrix
    assert K[0, 0] == pytest.approx(K_TRUE[0, 0], rel=0.005)
    assert K[1, 1] == pytest.approx(K_TRUE[1, 1], rel=0.005)
    assert np.abs(K[:2, 2] - K_TRUE[:2, 2]).max() < 3.0
    assert lens.D[0] == pytest.approx(D_TRUE[0], abs=0.01)
    pts = grid_pixels()
    moved = distort_points(pts, K, lens.dist_coeffs) - distort_points(pts, K_TRUE, D_TRUE)
    assert np.abs(moved).max() < 1.0
    assert lens.distortion_model == "plumb_bob" and lens.R == (1, 0, 0, 0, 1, 0, 0, 0, 1)


def test_undistorted_frames_are_pinhole_frames(lens: CameraIntrinsics, sheets: list) -> None:
    """undistorter(): the sheet's corners, curved in the raw frame, lie on a plane seen by a
    pinhole camera once undistorted (a homography fits them to a fraction of a pixel)."""
    undistort = undistorter(lens)
    obj = np.array([[i, j] for j in range(6) for i in range(9)], np.float64)

    def misfit(corners: np.ndarray) -> float:
        H, _ = cv2.findHomography(obj, corners, 0)
        p = np.column_stack([obj, np.ones(len(obj))]) @ H.T
        return float(np.abs(p[:, :2] / p[:, 2:] - corners).max())

    raw = sheets[0].image  # the biggest view: bent most
    straight = find_board(undistort(raw))
    assert straight is not None and misfit(straight) < 0.2
    assert misfit(find_board(raw)) > 1.0
    assert undistort(raw).shape == raw.shape


def test_undistorter_refuses_another_frame_size(lens: CameraIntrinsics) -> None:
    with pytest.raises(CalibrationError, match="640x480 but the lens calibration is for "
                       "1280x720"):
        undistorter(lens)(np.zeros((480, 640, 3), np.uint8))


def test_too_few_views_names_the_images_that_failed(views: dict[str, np.ndarray]) -> None:
    blank = np.full((720, 1280, 3), 128, np.uint8)
    few = dict(list(views.items())[:3]) | {"blank-a.png": blank, "blank-b.png": blank}
    with pytest.raises(CalibrationError, match=r"found whole in 3 of 5 images but 5 are "
                       r"needed; not found in: blank-a.png, blank-b.png"):
        calibrate_from_images(few)


def test_images_of_different_sizes_are_refused(views: dict[str, np.ndarray]) -> None:
    mixed = dict(views) | {"small.png": cv2.resize(views["view0.png"], (640, 360))}
    with pytest.raises(CalibrationError, match=r"small\.png is 640x360 but view0\.png is "
                       r"1280x720"):
        calibrate_from_images(mixed)


# ----------------------------------------------------------------------------------------------
# JSON


def test_intrinsics_json_round_trips_with_camera_info_fields(lens: CameraIntrinsics,
                                                             tmp_path: Path) -> None:
    doc = lens.to_json()
    assert {"width", "height", "distortion_model", "D", "K", "R", "P", "rms", "views",
            "version", "kind"} <= set(doc)
    assert len(doc["D"]) == 5 and len(doc["K"]) == 9 and len(doc["R"]) == 9
    assert len(doc["P"]) == 12
    lens.save(tmp_path / "lens.json")
    assert CameraIntrinsics.load(tmp_path / "lens.json") == lens


finite = st.floats(-1e4, 1e4, allow_nan=False)


@st.composite
def intrinsics(draw: st.DrawFn) -> CameraIntrinsics:
    fx, fy, px, py = (draw(st.floats(1e-3, 1e5)) for _ in range(4))
    K = (fx, draw(finite), draw(finite), 0.0, fy, draw(finite), 0.0, 0.0, 1.0)
    P = (px, 0.0, draw(finite), draw(finite), 0.0, py, draw(finite), draw(finite),
         0.0, 0.0, 1.0, 0.0)
    return CameraIntrinsics(draw(st.integers(1, 100_000)), draw(st.integers(1, 100_000)), K,
                            tuple(draw(st.lists(finite, min_size=5, max_size=5))), P=P,
                            rms_px=draw(st.floats(0, 100)), views=draw(st.integers(0, 500)),
                            created=draw(st.text(max_size=20)))


@settings(max_examples=60, deadline=None)
@given(intrinsics())
def test_any_valid_intrinsics_round_trip_through_json_text(lens: CameraIntrinsics) -> None:
    assert CameraIntrinsics.from_json(json.loads(json.dumps(lens.to_json()))) == lens


@pytest.mark.parametrize("change, words", [
    ({"version": 99}, "newer"),
    ({"version": 0}, "version must be"),
    ({"version": "1"}, "version must be"),
    ({"kind": "tabletop-companion/teleporters-profile"}, "not tabletop-companion camera"),
    ({"D": [0.1, 0.2, 0.0, 0.0]}, "'D' must be 5 finite numbers, got [0.1, 0.2, 0.0, 0.0]"),
    ({"D": [float("nan"), 0, 0, 0, 0]}, "'D' must be 5 finite numbers"),
    ({"K": [-5, 0, 640, 0, 900, 360, 0, 0, 1]}, "fx, fy > 0, got [-5.0"),
    ({"K": "eye"}, "'K' must be 9 finite numbers, got 'eye'"),
    ({"R": [2, 0, 0, 0, 1, 0, 0, 0, 1]}, "'R' must be a rotation"),
    ({"width": 0}, "'width' must be a whole number >= 1, got 0"),
    ({"height": 720.5}, "'height' must be a whole number"),
    ({"distortion_model": "fisheye"}, "'plumb_bob', got 'fisheye'"),
    ({"rms": -1}, "'rms' must be a number >= 0, got -1"),
])
def test_bad_intrinsics_json_names_the_offending_value(lens: CameraIntrinsics, change: dict,
                                                       words: str) -> None:
    with pytest.raises(CalibrationError) as err:
        CameraIntrinsics.from_json(lens.to_json() | change)
    assert words in str(err.value)


# ----------------------------------------------------------------------------------------------
# The mat through the lens


def test_homography_alone_cannot_follow_a_strong_barrel(lens: CameraIntrinsics) -> None:
    """Why the lens calibration matters for a k1 = -0.25 webcam: no homography comes within
    3 px of the 81 grid crossings as the lens bends them, while after undistortion one fits
    to a fraction of a pixel."""
    cam = make_camera(MAT_SCENE.pose, MAT_SCENE.mat)
    grid = np.array([[x, y, 0.0] for y in range(9) for x in range(9)])
    seen = distort_points(cam.project(grid), K_TRUE, D_TRUE)

    def misfit(points: np.ndarray) -> float:
        H, _ = cv2.findHomography(grid[:, :2], points, 0)
        p = np.column_stack([grid[:, :2], np.ones(81)]) @ H.T
        return float(np.abs(p[:, :2] / p[:, 2:] - points).max())

    assert misfit(seen) > 3.0
    assert misfit(lens.undistort_points(seen)) < 0.5


def test_strongly_distorted_start_is_calibrated_and_read_with_intrinsics(
        profile: Profile) -> None:
    """calibrate(..., intrinsics=) undistorts the start image first and keeps the lens in the
    profile; its detector undistorts every frame, so pieces at the frame's bent edges are
    read right."""
    assert profile.intrinsics is not None
    assert np.allclose(profile.K, profile.intrinsics.rectified_matrix)
    detector = profile.detector()
    for seed in (21, 22):
        frame = render_distorted(EDGE_POSITION, MAT_SCENE.with_(seed=seed), D_TRUE)
        seen = detector.detect(frame.image).position
        assert Position.from_json(seen).same_board(Position.from_json(EDGE_POSITION)), seen


def test_profile_keeps_intrinsics_and_old_profiles_without_them_still_load(
        profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "profile.json"
    profile.save(path)
    again = Profile.load(path)
    assert again.intrinsics == profile.intrinsics
    doc = json.loads(path.read_text())
    del doc["intrinsics"]  # as written before lens calibration existed
    path.write_text(json.dumps(doc))
    assert Profile.load(path).intrinsics is None
    doc["intrinsics"] = profile.intrinsics.to_json() | {"D": [1, 2]}
    path.write_text(json.dumps(doc))
    with pytest.raises(CalibrationError, match="'D' must be 5 finite numbers"):
        Profile.load(path)


def test_adding_the_same_lens_to_a_profile_keeps_its_homography(profile: Profile) -> None:
    """with_intrinsics carries the mat homography into the new undistorted frame: through
    the raw frame and back again when the profile had a lens calibration already."""
    again = with_intrinsics(profile, profile.intrinsics)
    grid = np.array([[x, y, 1.0] for y in range(9) for x in range(9)])
    a, b = grid @ profile.homography.T, grid @ again.homography.T
    assert np.abs(a[:, :2] / a[:, 2:] - b[:, :2] / b[:, 2:]).max() < 0.05
    other = dataclasses.replace(profile.intrinsics, width=640, height=480)
    with pytest.raises(CalibrationError, match="profile is for 1280x720"):
        with_intrinsics(profile, other)


# ----------------------------------------------------------------------------------------------
# Live capture


class ScriptedCamera:
    """A frame source playing a list of images and events, like a camera would send them."""

    name = "scripted camera"

    def __init__(self, script: list) -> None:
        self.script = list(script)

    def read(self) -> Frame | SourceEvent:
        if not self.script:
            return SourceEvent(SourceEventKind.ENDED, "done", 0.0)
        item = self.script.pop(0)
        if isinstance(item, SourceEventKind):
            return SourceEvent(item, "scripted", 0.0)
        return Frame(item, 0.0, 0)

    def close(self) -> None:
        self.script = []


def test_live_capture_takes_still_new_poses_only(views: dict[str, np.ndarray]) -> None:
    """--camera N --views V: a view is taken when the sheet is whole, held still (two frames
    alike) and in a pose (place, size, tilt) unlike every view taken so far."""
    v = list(views.values())
    blank = np.full_like(v[0], 128)
    script = [v[0], v[0], v[0], v[0],  # taken once, then the same pose again: skipped
              blank, v[2], blank,  # moving: never two frames alike
              v[1], v[1], v[9], v[9],  # v[9] is tilted much as v[1] is: not a new pose
              SourceEventKind.DISCONNECTED, v[3], v[3], v[4], v[4], v[5], v[5], v[6], v[6]]
    taken = capture_views(ScriptedCamera(script), 5, sleep=lambda s: None)
    assert list(taken) == [f"view {i}" for i in range(1, 6)]
    for name, want in zip(taken, [v[0], v[1], v[3], v[4], v[5]], strict=True):
        assert np.array_equal(taken[name], want)
    with pytest.raises(CalibrationError, match="only 2 distinct views of the sheet before "
                       "the end of scripted camera; 5 are needed"):
        capture_views(ScriptedCamera(script[:10]), 5, sleep=lambda s: None)


# ----------------------------------------------------------------------------------------------
# The command line


def test_cli_prints_a_sheet_the_detector_finds(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`companion calibrate camera --print-sheet sheet.png [--paper A4]`."""
    path = tmp_path / "sheet.png"
    assert main(["calibrate", "camera", "--print-sheet", str(path), "--paper", "A4"]) == 0
    assert "24 mm squares" in capsys.readouterr().out
    sheet = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    assert sheet.shape == (2480, 3508)  # A4 landscape at 300 dpi
    assert find_board(cv2.resize(sheet, (1280, 905), interpolation=cv2.INTER_AREA)) is not None
    img, square = draw_sheet("A3", 100)
    assert square == 37 and img.shape == (1169, 1654)


def test_cli_calibrates_lens_then_mat_then_detects(views: dict[str, np.ndarray],
                                                   start_image: np.ndarray, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The whole workflow on the command line: `calibrate camera --images DIR --out`, then
    `calibrate --image start.png --intrinsics ... --out profile.json`, then `detect`; and
    `calibrate camera --images ... --profile` adds a lens to an existing profile."""
    folder = tmp_path / "views"
    folder.mkdir()
    for name, image in views.items():
        cv2.imwrite(str(folder / name), image)
    lens_path, profile_path = tmp_path / "lens.json", tmp_path / "profile.json"
    assert main(["calibrate", "camera", "--images", str(folder), "--out", str(lens_path)]) == 0
    assert "from 10 views" in capsys.readouterr().out
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), start_image)
    assert main(["calibrate", "--image", str(start), "--intrinsics", str(lens_path), "--out",
                 str(profile_path)]) == 0
    now = tmp_path / "now.png"
    cv2.imwrite(str(now), render_distorted(EDGE_POSITION, MAT_SCENE.with_(seed=23),
                                           D_TRUE).image)
    capsys.readouterr()
    assert main(["detect", "--profile", str(profile_path), str(now), "--json"]) == 0
    seen = json.loads(capsys.readouterr().out)["position"]
    assert Position.from_json(seen).same_board(Position.from_json(EDGE_POSITION))
    files = [str(folder / n) for n in list(views)[:6]]
    assert main(["calibrate", "camera", "--images", *files, "--profile",
                 str(profile_path)]) == 0
    assert Profile.load(profile_path).intrinsics.views == 6


def test_cli_bad_inputs_exit_2_with_one_line(views: dict[str, np.ndarray],
                                             start_image: np.ndarray, lens: CameraIntrinsics,
                                             profile: Profile, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 3: "A bad or unreadable image ... gives a clear error and exit code 2", for
    every bad input of the lens calibration: one line on stderr, no traceback."""
    good = []
    for name, image in list(views.items())[:4]:
        good.append(str(tmp_path / name))
        cv2.imwrite(good[-1], image)
    blank = str(tmp_path / "blank.png")
    cv2.imwrite(blank, np.full((720, 1280, 3), 128, np.uint8))
    small = str(tmp_path / "small.png")
    cv2.imwrite(small, cv2.resize(views["view5.png"], (640, 360)))
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    empty = tmp_path / "empty"
    empty.mkdir()
    out = str(tmp_path / "lens.json")
    camera = ["calibrate", "camera"]

    def fails(argv: list[str], *words: str) -> None:
        assert main(argv) == 2, argv
        one_line_error(capsys, *words)

    fails([*camera, "--images", str(tmp_path / "nope.png"), "--out", out], "no such image")
    fails([*camera, "--images", str(text), "--out", out], "notes.png: not an image")
    fails([*camera, "--images", str(empty), "--out", out], "holds no images")
    fails([*camera, "--images", *good, blank, "--out", out],
          "found whole in 4 of 5 images but 5 are needed; not found in:", "blank.png")
    fails([*camera, "--images", *good, small, "--out", out], "small.png is 640x360 but")
    fails([*camera, "--images", *good], "--out PATH and/or --profile PATH")
    fails([*camera, "--images", *good, "--pattern", "9by6", "--out", out], "--pattern")
    fails([*camera, "--camera", "0", "--views", "3", "--out", out], "--views must be at least")
    fails([*camera, "--print-sheet", str(tmp_path / "no" / "dir" / "s.png")], "cannot write")
    fails([*camera, "--print-sheet", str(tmp_path / "s.txt")], "write the sheet as")
    fails([*camera, "--print-sheet", str(tmp_path / "s.png"), "--dpi", "10"], "dpi")
    fails([*camera, "--images", *good, "--profile", str(tmp_path / "missing.json")],
          "cannot read profile")
    assert not Path(out).exists()  # nothing is written when the input is bad

    start = str(tmp_path / "start.png")
    cv2.imwrite(start, start_image)
    lens_path = tmp_path / "lens.json"
    profile_path = str(tmp_path / "profile.json")
    mat = ["calibrate", "--image", start, "--out", profile_path, "--intrinsics", str(lens_path)]
    lens_path.write_text("{ not json")
    fails(mat, "not valid JSON")
    lens_path.write_text(json.dumps(lens.to_json() | {"version": 99}))
    fails(mat, "newer than this program reads")
    lens_path.write_text(json.dumps(lens.to_json() | {"K": [1, 0, 0]}))
    fails(mat, "'K' must be 9 finite numbers")
    lens_path.write_text(json.dumps(dataclasses.replace(lens, width=640, height=480
                                                        ).to_json()))
    fails(mat, "1280x720 but the lens calibration is for 640x480")
    fails(["calibrate", "--intrinsics", str(lens_path), "--out", profile_path], "--image")

    small_profile = dataclasses.replace(profile, image_size=(640, 480))
    small_profile.save(profile_path)
    fails([*camera, "--images", *views_on_disk(views, tmp_path), "--profile", profile_path],
          "the profile is for 640x480 frames but the lens calibration for 1280x720")
    profile.save(profile_path)
    fails(["detect", "--profile", profile_path, small], "640x360 but the lens calibration")
    for argv in ([*camera], [*camera, "--print-sheet", "a.png", "--images", "b.png"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2


def views_on_disk(views: dict[str, np.ndarray], folder: Path) -> list[str]:
    paths = []
    for name, image in views.items():
        path = folder / f"all-{name}"
        if not path.exists():
            cv2.imwrite(str(path), image)
        paths.append(str(path))
    return paths


def test_cli_unavailable_camera_exits_2(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`calibrate camera --camera N` with no camera N: a one-line error, not a hang."""
    assert main(["calibrate", "camera", "--camera", "97", "--out",
                 str(tmp_path / "lens.json")]) == 2
    one_line_error(capsys, "camera 97 cannot be opened")

