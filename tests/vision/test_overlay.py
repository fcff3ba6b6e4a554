"""The overlay (vision.overlay): what vision sees, drawn over the frame it saw it in."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules.teleporters import Position
from vision.config import GATE
from vision.errors import VisionError
from vision.gate import Palette
from vision.matfind import project
from vision.overlay import (
    GRID,
    HAND,
    OUTLINE,
    SURE,
    UNSURE,
    MatView,
    draw_caption,
    draw_overlay,
    legend,
)
from vision.simtable import CameraPose, Hand, Scene, SimFrame, render

SCENE = Scene(pose=CameraPose(tilt_deg=12, width=640, height=360), seed=21)


@pytest.fixture(scope="module")
def start() -> SimFrame:
    return render(Position.start().to_json(), SCENE)


def near(image: np.ndarray, colour: tuple[int, int, int], uv: np.ndarray, r: int = 4,
         tol: int = 40) -> int:
    """Pixels within ``r`` of image point ``uv`` that are ``colour`` (within ``tol``)."""
    u, v = np.round(uv).astype(int)
    patch = image[v - r:v + r + 1, u - r:u + r + 1].astype(int)
    return int((np.abs(patch - np.array(colour)).max(axis=-1) <= tol).sum())


def test_draws_a_new_image_of_the_same_shape_and_leaves_the_frame(start: SimFrame) -> None:
    """Issue 21: the overlay is a pure function: (H, W, 3) uint8 BGR in, the same shape out,
    the input untouched."""
    before = start.image.copy()
    out = draw_overlay(start.image, MatView(start.homography))
    assert out.shape == start.image.shape and out.dtype == np.uint8
    assert out is not start.image and np.array_equal(start.image, before)
    assert not np.array_equal(out, start.image)


def test_outline_and_grid_lie_on_the_mat(start: SimFrame) -> None:
    """Issue 21: the found mat outline and the 8x8 grid are drawn where the homography puts
    them: the outline's colour on each edge's midpoint and the grid's on each inner line,
    and not in the middle of a space."""
    out = draw_overlay(start.image, MatView(start.homography))
    for mid in project(start.homography, np.array([[4, 0], [8, 4], [4, 8], [0, 4]], float)):
        assert near(out, OUTLINE, mid, r=2) > 0
    for k in range(1, 8):
        on_line = project(start.homography, np.array([[k, 4.5], [4.5, k]], float))
        assert all(near(out, GRID, uv, r=2) > 0 for uv in on_line)
    centre = project(start.homography, np.array([[4.5, 4.5]]))[0]
    assert near(out, GRID, centre, r=3) == 0 and near(out, OUTLINE, centre, r=3) == 0


def test_reading_is_drawn_sure_green_and_unsure_orange(start: SimFrame) -> None:
    """Issue 21: each space's reading is drawn in its confidence's colour: the start
    position's Poles green where sure, orange where the space is unsure; an empty space is
    marked only when unsure."""
    conf = np.ones(64)
    conf[2] = 0.2  # c1, south's Pole: unsure
    conf[36] = 0.3  # e5, an empty space: unsure
    view = MatView(start.homography, oriented=True, position=Position.start().to_json(),
                   confidence=conf)
    out = draw_overlay(start.image, view)
    c1, d1, e5, d5 = project(start.homography,
                             np.array([[2.5, 0.5], [3.5, 0.5], [4.5, 4.5], [3.5, 4.5]]))
    assert near(out, UNSURE, c1, r=8) > 0 and near(out, SURE, c1, r=8) == 0
    assert near(out, SURE, d1, r=8) > 0 and near(out, UNSURE, d1, r=8) == 0
    assert near(out, UNSURE, e5, r=8) > 0
    assert near(out, UNSURE, d5, r=8) == 0 and near(out, SURE, d5, r=8) == 0


def test_ports_are_drawn_in_their_corner(start: SimFrame) -> None:
    """Issue 21: a Port is drawn in its corner of the space (b2's south Port in the sw
    corner), not in the others."""
    view = MatView(start.homography, position=Position.start().to_json(),
                   confidence=np.ones(64))
    out = draw_overlay(start.image, view)
    sw, ne = project(start.homography, np.array([[1.12, 1.12], [1.88, 1.88]]))
    assert near(out, SURE, sw, r=3) > 0 and near(out, SURE, ne, r=3) == 0


def test_hand_mask_is_tinted_where_foreign_colours_are(start: SimFrame) -> None:
    """Issue 21: the hand mask, from the palette the gate uses, is tinted magenta over the
    hand and nowhere near the far side of the mat; the mask is what foreign_fraction
    measures."""
    palette = Palette.learn(start.image, start.homography)
    frame = render(Position.start().to_json(), SCENE.with_(seed=22),
                   Hand(reach=(4.0, 2.5))).image
    mask = palette.foreign_mask(frame, start.homography)
    assert mask.shape == (GATE.check_px, GATE.check_px) and mask.any()
    assert palette.foreign_fraction(frame, start.homography) > 0
    out = draw_overlay(frame, MatView(start.homography, occluded=True, hand=mask,
                                      hand_margin=GATE.margin))
    hand_at, far = project(start.homography, np.array([[4.0, 2.0], [4.5, 7.5]]))
    assert near(out, HAND, hand_at, r=3, tol=90) > 0
    assert near(out, HAND, far, r=3, tol=90) == 0
    clean = render(Position.start().to_json(), SCENE.with_(seed=23)).image
    assert not palette.foreign_mask(clean, start.homography).any()


def test_legend_names_what_is_drawn(start: SimFrame) -> None:
    """Issue 21: the legend explains the letters and colours shown, and only those."""
    assert legend(MatView(start.homography)) == ()
    reading = legend(MatView(start.homography, position=Position.start().to_json()))
    assert "S/N Pole" in reading[0] and "orange unsure" in reading[0]
    assert any("magenta" in line for line in legend(MatView(start.homography, occluded=True)))
    clean = np.zeros(start.image.shape[:2], bool)  # a hand mask that tints nothing
    assert legend(MatView(start.homography, hand=clean)) == ()
    clean[300:310, 600:610] = True
    assert any("magenta" in line for line in legend(MatView(start.homography, hand=clean)))


def test_bad_input_is_a_vision_error_naming_it(start: SimFrame) -> None:
    """Issue 21: an image of the wrong shape or type, a singular homography or a confidence
    of the wrong length is refused with a VisionError naming it."""
    with pytest.raises(VisionError, match=r"\(360, 640\) uint8"):
        draw_overlay(start.image[:, :, 0], MatView(start.homography))
    with pytest.raises(VisionError, match="float64"):
        draw_overlay(start.image.astype(float), MatView(start.homography))
    with pytest.raises(VisionError, match="invertible homography"):
        draw_overlay(start.image, MatView(np.zeros((3, 3))))
    with pytest.raises(VisionError, match=r"\(63,\)"):
        draw_overlay(start.image, MatView(start.homography, confidence=np.ones(63)))
    with pytest.raises(VisionError, match="square"):
        draw_overlay(start.image, MatView(start.homography, hand=np.zeros((4, 5), bool)))


def test_caption_alone_is_written_on_a_copy(start: SimFrame) -> None:
    """Issue 21: a frame with no mat gets the reason written on it, on a copy."""
    out = draw_caption(start.image, ("no mat found",))
    assert out.shape == start.image.shape and not np.array_equal(out[:20], start.image[:20])
    assert np.array_equal(out[-100:], start.image[-100:])
