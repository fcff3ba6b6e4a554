"""The mat model and the simulated table (issue 3: "A mat model as data ... `companion mat`",
"A simulated table ... deterministic for a seed, with ground truth")."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.mat import MatModel, draw_mat, write_mat
from vision.simtable import CameraPose, Hand, Lighting, Scene, Sensor, make_camera, render

START = {"game": "teleporters", "to_move": "south",
         "poles": {"c1": "south", "d1": "south", "e1": "south", "f1": "south",
                   "c8": "north", "d8": "north", "e8": "north", "f8": "north"},
         "ports": [{"square": "b2", "side": "south", "corner": "sw"},
                   {"square": "c3", "side": "south", "corner": "sw"},
                   {"square": "f3", "side": "south", "corner": "se"},
                   {"square": "g2", "side": "south", "corner": "se"},
                   {"square": "b7", "side": "north", "corner": "nw"},
                   {"square": "c6", "side": "north", "corner": "nw"},
                   {"square": "f6", "side": "north", "corner": "ne"},
                   {"square": "g7", "side": "north", "corner": "ne"}]}
CLEAN = Sensor(noise=0, blur=0, jpeg_quality=None)


def mat_pixel(model: MatModel, px: int, x: float, y: float) -> tuple[int, int]:
    """Pixel (row, col) of mat point (x, y) in a drawing at ``px`` pixels per space."""
    return round((8 + model.border - y) * px), round((x + model.border) * px)


def test_mat_drawing_has_telepads_and_portpad_stripes_where_the_model_says() -> None:
    model = MatModel()
    img = draw_mat(model, 40)
    assert img.shape == (round(model.extent * 40),) * 2 + (3,) and img.dtype == np.uint8
    south = np.array(model.colours.side["south"])
    north = np.array(model.colours.side["north"])
    # A Telepad's coloured square (c1), away from its round spot.
    r, c = mat_pixel(model, 40, 2.15, 0.15)
    assert np.abs(img[r, c].astype(int) - south).max() < 12
    r, c = mat_pixel(model, 40, 3.15, 7.85)
    assert np.abs(img[r, c].astype(int) - north).max() < 12
    # b2's stripe runs along its west edge (start corner sw); its east edge is plain.
    r, c = mat_pixel(model, 40, 1.08, 1.5)
    assert np.abs(img[r, c].astype(int) - south).max() < 12
    r, c = mat_pixel(model, 40, 1.92, 1.5)
    assert np.abs(img[r, c].astype(int) - south).max() > 60


def test_write_mat_fits_the_paper(tmp_path: Path) -> None:
    w, h = write_mat(tmp_path / "mat.png", paper="A3", dpi=150)
    assert w == h and w <= (297 - 20) / 25.4 * 150 + 1
    assert cv2.imread(str(tmp_path / "mat.png")).shape[:2] == (h, w)


@pytest.mark.parametrize("kwargs, words", [({"paper": "A9"}, "A9"), ({"dpi": 5}, "dpi"),
                                           ({"path_suffix": ".txt"}, ".png")])
def test_write_mat_bad_input(tmp_path: Path, kwargs: dict, words: str) -> None:
    suffix = kwargs.pop("path_suffix", ".png")
    with pytest.raises(VisionError, match=words):
        write_mat(tmp_path / f"mat{suffix}", **kwargs)


def test_render_is_deterministic_for_a_seed() -> None:
    scene = Scene(seed=7, pose=CameraPose(width=320, height=180))
    a, b = render(START, scene), render(START, scene)
    assert np.array_equal(a.image, b.image)
    c = render(START, scene.with_(seed=8))
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("table", ["check", "wood", "cloth"])
def test_a_scenes_frames_keep_its_table(table: str) -> None:
    # The hand gate watches the table round the mat: a frame is the scene with another seed
    # for its noise, and the tablecloth must not be redrawn between frames.
    scene = Scene(seed=1001, table=table, pose=CameraPose(tilt_deg=20, width=320, height=180),
                  sensor=Sensor(noise=0.0, blur=0.0, jpeg_quality=None))
    frames = [render(START, scene.with_(seed=scene.seed * 1000 + k)).image.astype(float)
              for k in range(4)]
    for f in frames[1:]:
        assert np.abs(f - frames[0]).max() < 1.0
    assert not np.array_equal(
        render(START, scene.with_(table_seed=1002)).image, frames[0].astype(np.uint8))


def test_truth_corners_follow_the_homography() -> None:
    f = render(START, Scene(pose=CameraPose(tilt_deg=30, azimuth_deg=40)))
    pts = np.array([[0, 0, 1], [8, 0, 1], [8, 8, 1], [0, 8, 1]], float) @ f.homography.T
    assert np.allclose(pts[:, :2] / pts[:, 2:], f.corners, atol=1e-6)
    assert f.image.shape == (720, 1280, 3)
    # South is at the bottom of the image when the camera leans from the south.
    assert f.corners[0, 1] > f.corners[3, 1] and f.corners[1, 1] > f.corners[2, 1]


def test_straight_down_view_sees_a_square_grid() -> None:
    f = render(START, Scene(pose=CameraPose()))
    d = np.diff(np.vstack([f.corners, f.corners[:1]]), axis=0)
    sides = np.hypot(d[:, 0], d[:, 1])
    assert sides.max() / sides.min() < 1.001


def test_a_pole_top_is_displaced_from_its_base_away_from_the_camera() -> None:
    """Issue 3: "a tall Pole seen obliquely covers part of the next space; its top is
    displaced from its base"."""
    pose = CameraPose(tilt_deg=35)
    cam = make_camera(pose, MatModel())
    base, top = cam.project(np.array([[3.5, 3.5, 0.0], [3.5, 3.5, 0.9]]))
    assert top[1] < base[1] - 10  # seen from the south, the top lies further north (up)
    pos = {"poles": {"d4": "south"}, "ports": []}
    img = render(pos, Scene(pose=pose, sensor=CLEAN, lighting=Lighting(gradient=0))).image
    red = img[:, :, 2].astype(int) - img[:, :, 0].astype(int)
    mid = ((base + top) / 2).round().astype(int)
    assert red[mid[1], mid[0]] > 80  # the Pole's body between its base and its top


def test_hand_over_the_mat_is_ground_truth_occluded() -> None:
    scene = Scene(pose=CameraPose(width=640, height=360))
    assert not render(START, scene).occluded
    assert render(START, scene, Hand(reach=(4, 4))).occluded
    assert not render(START, scene, Hand(reach=(-6, -6), from_deg=225)).occluded


@pytest.mark.parametrize("position, words", [
    ({"poles": {"z1": "south"}}, "z1"),
    ({"poles": {"a1": "west"}}, "west"),
    ({"ports": [{"square": "a2", "side": "south", "corner": "up"}]}, "Port"),
    ("{not json", "JSON"),
])
def test_render_rejects_bad_positions(position: object, words: str) -> None:
    with pytest.raises(VisionError, match=words):
        render(position)  # type: ignore[arg-type]


def test_render_rejects_a_camera_below_the_horizon() -> None:
    with pytest.raises(VisionError, match="tilt"):
        render(START, Scene(pose=CameraPose(tilt_deg=85)))


def test_the_mat_layout_is_the_rules_cores_own() -> None:
    """Issue 17: "square names and the Telepad/Portpad layout come from
    rules/teleporters/board.py; vision reads them from there, so a Portpad variant reaches
    it"."""
    from calibration.profile import START_POLES, START_PORTS
    from companion.rules.teleporters import Position, Variant
    from vision.mat import home_telepads, parse_square, portpads, square_name

    start = Position.start()
    model = MatModel()
    for side, names in model.home_telepads.items():
        for name in names:
            f, r = parse_square(name)
            assert start.poles[f + 8 * r].value == side and square_name(f, r) == name
    assert {name: (side, corner) for name, (side, corner) in model.portpads.items()} == {
        p["square"]: (p["side"], p["corner"]) for p in start.to_json()["ports"]}
    assert (model.home_telepads, model.portpads) == (START_POLES, START_PORTS)
    pads = {"a2": ("south", "sw"), "c2": ("south", "se"), "f2": ("south", "sw"),
            "h2": ("south", "se"), "a7": ("north", "nw"), "c7": ("north", "ne"),
            "f7": ("north", "nw"), "h7": ("north", "ne")}
    moved = Variant.from_json({"portpads": {
        name: {"side": side, "corner": corner} for name, (side, corner) in pads.items()}})
    assert portpads(moved) == pads
    assert home_telepads(moved) == model.home_telepads
    with pytest.raises(VisionError, match="i9"):
        parse_square("i9")
