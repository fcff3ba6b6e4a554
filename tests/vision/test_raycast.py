"""Lines of sight over the mat (issue 3: "use the Pole's height (parallax) rather than fight
it"): the geometry that decides where each wall is sampled, checked against cases worked out
by hand, and the printed-ink map that says where a side's colour is on the bare mat."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.classify import EDGES, WALL_SAMPLES, sample_layout
from vision.geometry import camera_model
from vision.mat import MatModel, printed_ink
from vision.raycast import (
    REACH,
    Rays,
    Solids,
    clearance,
    clearance_each,
    depth_inside,
    edge_box,
)
from vision.simtable import CameraPose, Scene, render

ABOVE = np.array([0.5, 0.5, 50.0])  # a camera almost straight above (0.5, 0.5)


def test_a_vertical_ray_beside_a_pole_clears_it_by_the_gap() -> None:
    pole = Solids.of([(0.5, 0.5, 0.175, 0.9)], [])
    rays = Rays(np.array([0.75, 0.5, 1e6]), np.array([[0.75, 0.5, 0.0]]), 0.95)
    assert clearance(rays, pole)[0] == pytest.approx(0.25 - 0.175, abs=1e-3)
    far = Rays(np.array([2.0, 0.5, 1e6]), np.array([[2.0, 0.5, 0.0]]), 0.95)
    assert clearance(far, pole)[0] > 0.1  # beyond REACH: only "clear" is promised


def test_a_ray_through_a_wall_has_negative_clearance_and_depth_inside() -> None:
    lo, hi = edge_box(0, 0, "s", 0.06, 0.3)
    wall = Solids.of([], [(lo, hi)])
    # Straight down through the wall's middle: 0.03 from its long faces.
    rays = Rays(np.array([0.5, 0.03, 1e6]), np.array([[0.5, 0.03, 0.0]]), 0.95)
    assert clearance(rays, wall)[0] == pytest.approx(-0.03, abs=1e-3)
    assert depth_inside(rays, np.stack([lo, hi]))[0] == pytest.approx(0.03, abs=1e-3)


def test_an_oblique_ray_passes_over_a_low_wall_but_not_a_tall_pole() -> None:
    """From the south at 45 degrees, the ray to (0.5, 1.0) on the mat is at height 0.5 where
    it crosses y = 0.5: above a 0.3 wall there, through a 0.9 Pole."""
    camera = np.array([0.5, -9.0, 10.0])
    target = np.array([[0.5, 1.0, 0.0]])
    rays = Rays(camera, target, 0.95)
    wall = Solids.of([], [(np.array([0.0, 0.47, 0.0]), np.array([1.0, 0.53, 0.3]))])
    pole = Solids.of([(0.5, 0.5, 0.175, 0.9)], [])
    assert clearance(rays, wall)[0] > 0.1
    assert clearance(rays, pole)[0] < 0


@settings(max_examples=40, deadline=None)
@given(st.floats(0.05, 0.95), st.floats(0.05, 0.95), st.floats(-3, 3), st.floats(-3, 3))
def test_clearance_matches_a_dense_scan(x: float, y: float, cx: float, cy: float) -> None:
    """The golden-section search finds the same nearest approach as scanning the ray
    finely: distance to a convex solid is convex along a line."""
    camera = np.array([cx, cy, 6.0])
    rays = Rays(camera, np.array([[x, y, 0.0]]), 0.95)
    boxes = np.stack([np.stack(edge_box(0, 0, e, 0.06, 0.3)) for e in EDGES])[None]
    cyl = np.array([[[0.5, 0.5, 0.175, 0.9]]])
    fast = clearance_each(rays, cyl, boxes, iterations=30)[0]
    s = np.linspace(0, 1, 4001)
    pts = rays.at(s[None, :])[0]
    dense = np.inf
    for lo, hi in boxes[0]:
        q = np.abs(pts - (lo + hi) / 2) - (hi - lo) / 2
        d = np.linalg.norm(np.maximum(q, 0), axis=1) + np.minimum(q.max(axis=1), 0)
        dense = min(dense, d.min())
    dxy = np.hypot(pts[:, 0] - 0.5, pts[:, 1] - 0.5) - 0.175
    dz = np.abs(pts[:, 2] - 0.45) - 0.45
    dd = np.stack([dxy, dz], axis=1)
    dense = min(dense, (np.minimum(dd.max(axis=1), 0) + np.linalg.norm(np.maximum(dd, 0),
                                                                       axis=1)).min())
    # Solids further than REACH from the ray are skipped: there only "this clear" is promised.
    assert fast >= dense - 2e-3
    if dense < REACH:
        assert fast == pytest.approx(dense, abs=2e-3)


def test_wall_samples_are_clear_of_every_neighbour_that_may_stand() -> None:
    """Each edge's chosen samples see through the space's own wall and keep clear of the
    other walls and Poles that may stand round it, at every tilt the issue names."""
    for tilt in (0, 20, 35):
        frame = render({"poles": {}, "ports": []},
                       Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=15), seed=1))
        cam = camera_model(frame.homography, 1280, 720)
        layout = sample_layout(cam)
        w = layout.weight[:, layout.wall].reshape(64, 4, WALL_SAMPLES)
        # Most edges have a fully clear sample; none is left with nothing usable.
        assert (w.max(axis=2) >= 0.5).mean() > 0.95, tilt
        assert (w.max(axis=2) > 0.05).all(), tilt


def test_printed_ink_follows_the_mat_model() -> None:
    """Home Telepads (a ring round the plain centre) and Portpad stripes along their corner's
    two edges carry the side's colour; plain spaces carry none."""
    mat = MatModel()
    pts = np.array([[2.15, 0.15],  # c1 Telepad, in the ring: south
                    [2.5, 0.5],  # c1 centre spot: plain
                    [3.5, 7.85],  # d8 Telepad ring: north
                    [1.05, 1.5],  # b2 west stripe (south Portpad, sw)
                    [1.5, 1.05],  # b2 south stripe
                    [1.5, 1.5],  # b2 middle: plain
                    [6.95, 6.5],  # g7 east stripe (north Portpad, ne)
                    [4.5, 4.5]])  # e5: plain
    assert printed_ink(mat, pts).tolist() == [1, 0, 2, 1, 1, 0, 2, 0]
