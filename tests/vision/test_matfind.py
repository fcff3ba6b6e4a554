"""Mat finding without fiducials (issue 3: "find the mat's outline/grid in a frame without
fiducials, sub-pixel corners, homography to a top-down grid; track it frame to frame and
re-find it when the camera or mat is bumped"). Frames come from the simulated table."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.rules.teleporters.random_play import random_midgame
from vision.errors import VisionError
from vision.matfind import MatTracker, _fitted, _gray, find_mat
from vision.simtable import CameraPose, Hand, Lighting, Scene, Sensor, render, vary_look


def midgame(seed: int) -> dict:
    return random_midgame(random.Random(seed), 12).to_json()


def corner_error(fix, truth: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    return min(float(np.abs(fix.rotated(k).corners - truth).max()) for k in range(4))


@pytest.mark.parametrize("tilt, azimuth, table, brightness", [
    (0, 0, "wood", 1.0), (15, 60, "cloth", 0.8), (25, 180, "wood", 1.1),
    (35, 20, "cloth", 0.6), (35, 250, "wood", 1.0),
])
def test_mat_is_found_to_a_pixel_at_any_tilt(tilt: float, azimuth: float, table: str,
                                             brightness: float) -> None:
    scene = Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=azimuth), table=table,
                  lighting=Lighting(brightness=brightness, gradient=0.35), seed=int(tilt))
    frame = render(midgame(int(azimuth)), scene)
    fix = find_mat(frame.image)
    assert corner_error(fix, frame.corners) < 1.5
    assert fix.crossings >= 30 and fix.rms_px < 1.0


# A borderless dark print on a dark cloth (the mat-coloured patch that looks most like the
# mat is a space short of the grid, so the next outlines are fitted too).
BORDERLESS = vary_look(Scene(pose=CameraPose(tilt_deg=10, azimuth_deg=345),
                             lighting=Lighting(gradient=0.45), sensor=Sensor(), seed=1021))


@pytest.mark.parametrize("scene, position", [
    (BORDERLESS, {"poles": {}, "ports": []}),
    (BORDERLESS.with_(seed=2), midgame(2)),
    # ... in dim light, the mat's edge lost in the cloth: only the inner lines, which run to
    # the mat's edge, outline it (with its corners cut off)
    (BORDERLESS.with_(lighting=Lighting(brightness=0.55, gradient=0.2),
                      pose=CameraPose(tilt_deg=10, azimuth_deg=15),
                      sensor=Sensor(noise=3.0, blur=0.6, jpeg_quality=85)),
     {"poles": {}, "ports": []}),
    # Dim light and a noisy camera: faint light lines on a dark mat on a check tablecloth.
    (vary_look(Scene(pose=CameraPose(tilt_deg=35, azimuth_deg=30),
                     lighting=Lighting(brightness=0.55),
                     sensor=Sensor(noise=6, blur=1.0, jpeg_quality=70), seed=1014)),
     midgame(1014)),
])
def test_mat_is_found_on_dark_prints_in_hard_light(scene: Scene, position: dict) -> None:
    """Issue 16: mat finding for any printed 8x8 grid (light lines on dark cloth, any
    border or none, a patterned table, dim light)."""
    frame = render(position, scene)
    assert corner_error(find_mat(frame.image), frame.corners) < 1.5


def test_a_fit_with_an_inner_line_off_the_print_is_refused() -> None:
    """Pieces hide much of this frame's grid and the only outline that can be fitted puts
    some inner lines between the printed ones: no mat is reported, rather than a wrong one
    (calibrating with an empty-mat photo takes the grid from that photo instead)."""
    frame = render(midgame(1), BORDERLESS.with_(seed=1))
    try:
        fix = find_mat(frame.image)
    except VisionError:
        return
    assert corner_error(fix, frame.corners) < 1.5


def _with_marble_veins(image: np.ndarray, mat_corners: np.ndarray, seed: int) -> np.ndarray:
    """``image`` with light veins wandering over the table round the mat (not on it), as a
    dark marble table shows: blobs of many corners, joined across the frame."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    veins = np.zeros((h, w), np.uint8)
    for _ in range(40):
        p = rng.uniform([0, 0], [w, h])
        heading = rng.uniform(0, 2 * np.pi)
        trail = [p.copy()]
        for _ in range(30):
            heading += rng.normal(0, 0.5)
            p = p + 25 * np.array([np.cos(heading), np.sin(heading)])
            trail.append(p.copy())
        cv2.polylines(veins, [np.array(trail, np.int32)], False, 255, int(rng.integers(3, 12)))
    mat = np.zeros_like(veins)
    cv2.fillConvexPoly(mat, mat_corners.astype(np.int32), 255)
    veins[cv2.dilate(mat, np.ones((25, 25), np.uint8)) > 0] = 0
    share = cv2.GaussianBlur(veins, (0, 0), 1.5)[..., None] / 255.0
    return (image * (1 - share) + np.array([210, 212, 215]) * share).astype(np.uint8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_plain_mat_is_found_on_a_veined_marble_table(seed: int) -> None:
    """Issue 16 (a held-out Blender render: a laminate print on black marble, "a mat-like
    shape was found but its grid lines could not be fitted"): the veins join into big
    outlines of many corners, each giving many guessed quadrilaterals, and the biggest 32
    outlines were all guesses; the mat's own clean outline was never scored. Outlines
    that are quadrilaterals are now scored before guesses, a few guesses per outline."""
    scene = Scene(pose=CameraPose(tilt_deg=25, azimuth_deg=15 * seed, fill=0.7),
                  table="cloth", table_colour=(45, 42, 40), sensor=Sensor(), seed=seed)
    frame = render({"poles": {}, "ports": []}, scene)
    image = _with_marble_veins(frame.image, frame.corners, seed)
    assert corner_error(find_mat(image), frame.corners) < 1.5


@pytest.mark.parametrize("tilt, azimuth, dx, dy", [(29, 20, 2, 1), (20, 200, 2, 0),
                                                    (10, 60, -2, 2)])
def test_a_first_fit_two_spaces_off_is_brought_home_a_space_at_a_time(
        tilt: float, azimuth: float, dx: int, dy: int) -> None:
    """Issue 16, "no mat found" (the 49th Blender draw, held out: an engraved wood mat at
    29 degrees, whose rough first fit lay a space and more off): a fit is moved home a
    space at a time and refitted each time, so one two spaces off ends on the printed
    grid, not one off (or refused)."""
    scene = Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=azimuth), table="wood",
                  lighting=Lighting(), seed=5)
    frame = render({"poles": {}, "ports": []}, scene)
    off = frame.homography @ np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
    fix = _fitted(_gray(frame.image), [(off, 99.0, 1)], 1.0)
    assert fix is not None and corner_error(fix, frame.corners) < 1.0


def test_mat_is_found_with_a_hand_resting_on_its_edge() -> None:
    frame = render(midgame(1), Scene(pose=CameraPose(tilt_deg=20)),
                   Hand(reach=(7.5, 2.0), from_deg=0))
    assert corner_error(find_mat(frame.image), frame.corners) < 2.0


def test_no_mat_in_view_is_a_clear_error() -> None:
    rng = np.random.default_rng(0)
    table = (rng.normal(120, 20, (360, 640, 3))).clip(0, 255).astype(np.uint8)
    with pytest.raises(VisionError, match="no mat found"):
        find_mat(table)


def test_bad_image_is_a_clear_error() -> None:
    with pytest.raises(VisionError, match="uint8"):
        find_mat(np.zeros((10, 10, 3), np.float32))


def test_tracker_follows_a_bumped_camera_and_keeps_the_labels() -> None:
    position = midgame(5)
    before = render(position, Scene(pose=CameraPose(tilt_deg=20)))
    tracker = MatTracker()
    first = tracker.update(before.image)
    k = min(range(4), key=lambda q: np.abs(first.rotated(q).corners - before.corners).max())
    tracker.fix = first.rotated(k)  # calibration fixes which corner is a1
    # Still camera: refined in place, no re-find.
    again = tracker.update(before.image)
    assert tracker.refound == 1 and np.abs(again.corners - before.corners).max() < 1.5
    # Bumped: the view turns and shifts; the tracker re-finds the mat, labels kept.
    bumped = render(position, Scene(pose=CameraPose(tilt_deg=24, azimuth_deg=12,
                                                    aim=(4.4, 3.8), roll_deg=4)))
    fix = tracker.update(bumped.image)
    assert tracker.refound == 2
    assert np.abs(fix.corners - bumped.corners).max() < 1.5


def _checkerboard(scene: Scene, border: float = 0.4) -> Scene:
    """``scene`` on a checkerboard: no grid lines, every other space a darker shade (a chess
    board, or the Blender-rendered checker mat in benchmarks/blender)."""
    from dataclasses import replace

    from vision.mat import MatPrint, PortpadMark, QuadrantMark, TelepadMark

    mat = scene.mat
    colours = replace(mat.colours, base=(225, 232, 236), checker=(120, 150, 175),
                      border=(40, 40, 44))
    return scene.with_(mat=replace(mat, line_width=0.0, border=border, colours=colours,
                                   print=MatPrint(QuadrantMark.NONE, TelepadMark.RING,
                                                  PortpadMark.TRIANGLE)))


@pytest.mark.parametrize("tilt, azimuth, border", [(0, 0, 0.4), (20, 30, 0.4), (30, 200, 0.0)])
def test_a_checkerboard_with_no_grid_lines_is_found_by_its_edges(tilt: float, azimuth: float,
                                                                 border: float) -> None:
    """Issue 16 (mats our drawing never showed; the Blender-rendered checker mat was refused,
    "its grid lines could not be fitted"): a mat whose spaces alternate in shade, with no
    printed lines, is found by the edges where its spaces meet (EDGES), as well as a lined
    one by its lines."""
    from vision.matfind import EDGES

    scene = _checkerboard(Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=azimuth),
                                lighting=Lighting(gradient=0.3), seed=7), border)
    frame = render(midgame(3), scene)
    fix = find_mat(frame.image)
    assert fix.polarity == EDGES
    assert corner_error(fix, frame.corners) < 1.5
    assert fix.crossings >= 30 and fix.rms_px < 1.0
    tracker = MatTracker(fix)
    assert corner_error(tracker.update(frame.image), frame.corners) < 1.5


@pytest.mark.parametrize("tilt, azimuth, seed", [(25, 30, 7), (15, 200, 8)])
def test_a_checkerboard_small_in_the_frame_is_fitted_where_it_is_every_time(
        tilt: float, azimuth: float, seed: int) -> None:
    """Issue 16 (Blender checker mat, silver and navy pieces, the mat under half the frame
    wide): each refit of the fix landed up to 7 px from the last, back and forth, so a still
    camera's frames were read where the empty look was not (4 of 6 taken for a hand). At
    40-odd pixels a space, a step's blurred edge is hardly deeper one sample (under a pixel)
    either side of its peak, and most of the grid's line samples were dropped as too
    shallow: the depth is now measured a few pixels out. The fix, and every refit of it,
    stays within a pixel of the truth."""
    from vision.matfind import refine

    scene = _checkerboard(Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=azimuth, fill=0.45),
                                lighting=Lighting(gradient=0.3),
                                sensor=Sensor(noise=2, blur=0.8, jpeg_quality=85), seed=seed))
    for position in (3, 5, 8):
        frame = render(midgame(position), scene)
        fix = find_mat(frame.image)
        assert fix.crossings == 49
        for _ in range(4):
            assert corner_error(fix, frame.corners) < 1.0
            again = refine(frame.image, fix.homography, rounds=1, polarity=fix.polarity)
            assert again is not None
            fix = again


def test_a_grid_line_is_fitted_without_a_run_of_points_off_it() -> None:
    """Issue 16 (Blender checker mat): a piece's edge beside a grid line is the stronger
    mark for a stretch of it, and even a robust (Huber) fit leaned towards that run, the
    fix a pixel or two off. The line is refitted without the points far off its first fit."""
    from vision.config import MATFIND
    from vision.matfind import _fit_line

    rng = np.random.default_rng(5)
    t = np.linspace(0, 400, 48)
    pts = np.column_stack([t, 100 + 0.25 * t + rng.normal(0, 0.3, len(t))])
    pts[30:40, 1] += 5.0  # ten points on a wall's edge beside the line
    a, b, c = _fit_line(pts, MATFIND.line_refits)
    on = np.abs(pts[:30] @ np.array([a, b]) - c)
    assert on.max() < 1.0 and abs(np.hypot(a, b) - 1) < 1e-6
    # the far end, a whole board away, stays on the line too
    assert abs(np.array([800.0, 300.0]) @ np.array([a, b]) - c) < 0.3


def test_a_checkerboard_reads_the_board() -> None:
    """Issue 16: calibration and detection on a checkerboard mat, through the fix's EDGES
    polarity (kept in the profile)."""
    import json

    from calibration.profile import Profile, calibrate
    from companion.rules.teleporters import Position

    scene = _checkerboard(Scene(pose=CameraPose(tilt_deg=20, azimuth_deg=10), seed=8))
    empty = render({"poles": {}, "ports": []}, scene.with_(seed=99)).image
    profile = calibrate(render(Position.start().to_json(), scene).image, empty=empty)
    again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
    assert again.grid_polarity == 0
    truth = midgame(5)
    found = again.detector().detect(render(truth, scene.with_(seed=5)).image)
    assert Position.from_json(found.position).same_board(Position.from_json(truth))


def test_a_still_cameras_refit_that_shows_the_lines_no_better_is_not_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16 (a Blender laminate at 1 degree in sun, its Quadrants bordered in the
    pieces' colours along grid lines): a still camera's refit landed 2.7 px off, its lines
    standing out less there than at the fix it had; the frame's samples left the points
    where the empty look was read, and six phantom Ports of a border's colour were read. A
    refit is taken only where it shows the grid better than the fix it would replace; a
    camera that moved is still followed."""
    import vision.matfind as matfind
    from vision.config import MATFIND
    from vision.matfind import MatFix

    position = midgame(5)
    scene = Scene(pose=CameraPose(tilt_deg=20))
    frame = render(position, scene)
    fix = find_mat(frame.image)
    shift = np.array([[1.0, 0.0, 3.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
    off = MatFix(shift @ fix.homography, fix.score, fix.crossings, fix.rms_px, fix.polarity)
    tracker = MatTracker(fix)
    tracker._unrefined = MATFIND.track_refine_every  # the periodic refit is due
    with monkeypatch.context() as patch:
        patch.setattr(matfind, "refine", lambda *args, **kwargs: off)
        assert tracker.update(frame.image) is fix
    # The camera moved a little (the lines still stand out near the fix): the refit finds
    # them where they are now and is taken.
    nudged = render(position, scene.with_(pose=CameraPose(tilt_deg=20, aim=(4.06, 3.95))))
    assert corner_error(fix, nudged.corners) > 2.0
    tracker._unrefined = MATFIND.track_refine_every
    assert corner_error(tracker.update(nudged.image), nudged.corners) < 1.0
