"""Where a wall is read (issue 16, "vision that works on mats and pieces it has never seen"):
a player's Port stands a little off its corner and a little turned, and a light wall's
inner face may lie in its own shade, so each wall sample has other readings
(:attr:`vision.classify.SampleLayout.shifted`) and the one that shows a wall best is read."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.errors import CalibrationError
from calibration.profile import Profile, calibrate
from companion.rules.teleporters import Position
from tests.memo import remembered
from vision.classify import (
    EDGES,
    OTHER_READINGS,
    WALL_SAMPLES,
    ColourModel,
    lines_worth_reading,
    may_show_a_piece,
    neighbour_squares,
    sample_evidence,
    sample_layout,
    shift_choice,
    shiftable_edges,
    shifted_wall_samples,
    take_shift,
)
from vision.config import CLASSIFY
from vision.geometry import camera_model
from vision.simtable import CameraPose, Scene, render

EMPTY: dict[str, Any] = {"poles": {}, "ports": []}
W = WALL_SAMPLES


def _loglik(wall_like: dict[tuple[int, int, int], float]) -> np.ndarray:
    """Scores (64, 4W, 1 + R, 3) of bare mat everywhere, but where ``wall_like`` gives
    (space, edge, reading) a wall's likeness (south's score over no piece's) for each of
    the edge's samples."""
    ll = np.zeros((64, 4 * W, 1 + OTHER_READINGS, 3))
    ll[..., 1:] = -10.0  # bare mat: no piece's score 0, each side's far below
    for (q, e, k), like in wall_like.items():
        ll[q, e * W:(e + 1) * W, k, 1] = like
        ll[q, e * W:(e + 1) * W, k, 0] = 0.0
    return ll


def _all_clear() -> np.ndarray:
    return np.ones((64, 4 * W, OTHER_READINGS, 2), bool)


def _edge(choice: np.ndarray, q: int, e: int) -> list[int]:
    return [int(c) for c in choice[q, e * W:(e + 1) * W]]


S, N, WEST, EAST = (EDGES.index(e) for e in ("s", "n", "w", "e"))
C3 = 2 + 8 * 2
D3 = C3 + 1  # east of c3: its west edge is across c3's east edge


def test_an_edge_is_read_where_its_wall_shows_and_bare_mat_stays_as_planned() -> None:
    """A wall a little off its planned samples shows at another reading; the edge's samples
    move there together. An edge showing bare mat every way, or a reading that gains too
    little over the planned one, keeps the planned reading."""
    gain = CLASSIFY.wall_shift_gain
    ll = _loglik({(C3, EAST, 0): -2.0, (C3, EAST, 1): 5.0, (C3, EAST, 2): -3.0,
                  (C3, WEST, 0): 0.0, (C3, WEST, 2): (gain - 1) / W,
                  (C3, S, 3): -0.5})  # less bare than planned (-10), but bare
    choice = shift_choice(ll, _all_clear())
    assert _edge(choice, C3, EAST) == [1, 1, 1]
    assert _edge(choice, C3, WEST) == [0, 0, 0]
    assert _edge(choice, C3, S) == [0, 0, 0]
    assert not np.delete(choice, np.s_[EAST * W:(EAST + 1) * W], axis=1)[C3].any()
    assert not np.delete(choice, C3, axis=0).any()


def test_a_reading_that_may_see_the_wall_across_counts_only_where_that_wall_shows_none(
        ) -> None:
    """A wall's lit top seen past where the wall across its edge would stand: where that
    wall's readings show none, the top is this edge's wall (a light wall whose inner
    face lies in its own shade is read by its top); where they show one, it may be that
    wall, and the edge keeps its planned reading."""
    ok = _all_clear()
    ok[C3, EAST * W:(EAST + 1) * W, 2, 0] = False  # the top's view passes d3's west wall
    top = {(C3, EAST, 0): -1.0, (C3, EAST, 3): 20.0}
    assert _edge(shift_choice(_loglik(top), ok), C3, EAST) == [3, 3, 3]
    d3_wall = {**top, (D3, WEST, 0): 8.0}
    assert _edge(shift_choice(_loglik(d3_wall), ok), C3, EAST) == [0, 0, 0]
    # the 45th Blender draw's b4: an ivory wall on white laminate, faint as planned and
    # plain at another reading, is a wall across too
    faint = {**top, (D3, WEST, 0): -0.2, (D3, WEST, 1): 1.5}
    assert _edge(shift_choice(_loglik(faint), ok), C3, EAST) == [0, 0, 0]
    # the simulated benchmark's white walls on white paper seen straight down: bare mat
    # at every reading, where the mat looks like the white side's colour, may hide one
    mute = np.zeros((64, 4 * W, 1 + OTHER_READINGS), bool)
    assert _edge(shift_choice(_loglik(top), ok, mute=mute), C3, EAST) == [3, 3, 3]
    mute[D3, WEST * W + 1, 0] = True
    assert _edge(shift_choice(_loglik(top), ok, mute=mute), C3, EAST) == [0, 0, 0]


def test_a_reading_dark_along_a_stretch_only_is_a_shadow_not_a_wall() -> None:
    """The 49th Blender draw's b1 (black and scarlet on engraved wood, two lamps): a
    black Pole's lamp shadow across the edge beside it darkens two of the edge's wall
    tops like a black wall, the third not; a wall along the edge shows at each."""
    ll = _loglik({(C3, N, 0): -3.0, (C3, N, 3): 20.0})
    ll[C3, N * W + 1, 3, 1] = -2.0  # the middle top shows bare mat
    assert _edge(shift_choice(ll, _all_clear()), C3, N) == [0, 0, 0]
    ll[C3, N * W + 1, 3, 1] = 1.0
    assert _edge(shift_choice(ll, _all_clear()), C3, N) == [3, 3, 3]


def test_an_edge_beside_a_pole_keeps_its_planned_readings() -> None:
    """The 49th Blender draw's b1 (black and scarlet Poles on engraved wood, two lamps):
    a Pole's lamp shadows fall on every side of it, dark as a black wall. An edge of its
    space, or across from it, keeps its planned samples, which were chosen clear of it;
    the others land on the mat round it. Two spaces away, the edges move again."""
    ll = _loglik({(C3, EAST, 0): -3.0, (C3, EAST, 1): 9.0})
    pole = np.zeros(64, bool)
    for beside in (C3, D3):
        pole[:] = False
        pole[beside] = True
        assert _edge(shift_choice(ll, _all_clear(), pole), C3, EAST) == [0, 0, 0]
    pole[:] = False
    pole[D3 + 1] = True
    assert _edge(shift_choice(ll, _all_clear(), pole), C3, EAST) == [1, 1, 1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 0.5), st.floats(0.0, 0.3))
def test_edges_that_cannot_move_need_no_other_readings(seed: int, poles: float,
                                                         spare: float) -> None:
    """Detection scores the other readings only of lines that may move (speed: the
    detection target of issue 16): edges by a Pole, and lines none of whose readings may
    show a wall at each usable sample. What the rest would show never changes where any
    edge is read; and a line's two edges are shiftable together."""
    rng = np.random.default_rng(seed)
    pole = rng.random(64) < poles
    ll = rng.normal(0.0, 4.0, (64, 4 * W, 1 + OTHER_READINGS, 3))
    ok = rng.random((64, 4 * W, OTHER_READINGS, 2)) < 0.8
    mute = rng.random((64, 4 * W, 1 + OTHER_READINGS)) < 0.05
    shiftable = shiftable_edges(pole)
    across = neighbour_squares()[:, (1, 7, 3, 5)]  # s, n, w, e neighbours
    facing = [EDGES.index({"s": "n", "n": "s", "w": "e", "e": "w"}[e]) for e in EDGES]
    for q in range(64):
        for e in range(4):
            if across[q, e] >= 0:
                assert shiftable[q, e] == shiftable[across[q, e], facing[e]]
    # may: every sample scored a side's over no piece's, and some more (a cheap test errs
    # that way)
    side = np.maximum(ll[..., 1], ll[..., 2]) - ll[..., 0]
    may = (side[..., 1:] > 0) | (rng.random(side[..., 1:].shape) < spare)
    rows = np.repeat(lines_worth_reading(may, ok, shiftable), W, axis=1)
    assert not (rows & ~np.repeat(shiftable, W, axis=1)).any()
    unread = ll.copy()
    unread[~rows] = (0.0, -1e6, -1e6)
    unheard = mute & rows[..., None]
    assert np.array_equal(shift_choice(ll, ok, pole, mute),
                          shift_choice(unread, ok, pole, unheard))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.floats(1.0, 3.0))
def test_a_sample_scored_a_sides_may_show_a_piece(seed: int, tinted: bool,
                                                  noise: float) -> None:
    """The cheap test that spares scoring (:func:`vision.classify.may_show_a_piece`) never
    misses a sample :func:`vision.classify.sample_evidence` scores as a side's over no
    piece's: near the bare look, far from it, in shade, with the look unknown."""
    rng = np.random.default_rng(seed)
    n = 600
    bare = np.column_stack([rng.uniform(0.2, 0.9, n), rng.normal(0, 0.3, (n, 2))])
    bare[rng.random(n) < 0.05] = np.nan
    kind = rng.integers(0, 4, n)
    south = np.array([0.3, 0.5, -0.4]) + rng.normal(0, 0.05, (200, 3))
    north = np.array([0.7, -0.2, 0.3]) + rng.normal(0, 0.05, (200, 3))
    colours = {"south": ColourModel.learn(south), "north": ColourModel.learn(north)}
    feat = np.where((kind == 0)[:, None], np.nan_to_num(bare, nan=0.5)
                    + rng.normal(0, 0.01, (n, 3)),  # as the bare mat looked
                    np.where((kind == 1)[:, None], south[rng.integers(0, 200, n)],
                             np.where((kind == 2)[:, None], north[rng.integers(0, 200, n)],
                                      np.nan_to_num(bare, nan=0.5) * (0.5, 1, 1)  # shade
                                      + rng.normal(0, 0.05, (n, 3)))))
    feat[:, 0] = np.clip(feat[:, 0], 0.02, 1.0)
    feat, bare = feat.astype(np.float32), bare.astype(np.float32)
    tint = rng.normal(0, 0.2, (2, 2)).astype(np.float32) if tinted else None
    _, ll, _ = sample_evidence(feat, colours, bare, noise=noise, tint=tint)
    side = np.maximum(ll[..., 1], ll[..., 2]) - ll[..., 0]
    assert (side > 0).sum() > n // 4
    may = may_show_a_piece(feat, bare, noise, tint=tint)
    assert not (side > 0)[~may].any()
    assert not may.all()


def test_a_wall_that_may_look_as_the_mat_does_is_not_moved() -> None:
    """White walls on cream paper in a low sun (the 48th Blender draw's b2 as our simulated
    table draws it): as planned, a white wall looks as the paper does, which looks like the
    white side's colour, and is read by its shape (vision.shapes); moved, its samples find
    its shadow, dark as a black wall."""
    ll = _loglik({(C3, WEST, 0): -3.0, (C3, WEST, 1): 20.0})
    mute = np.zeros((64, 4 * W, 1 + OTHER_READINGS), bool)
    assert _edge(shift_choice(ll, _all_clear(), mute=mute), C3, WEST) == [1, 1, 1]
    mute[C3, WEST * W + 2, 0] = True
    assert _edge(shift_choice(ll, _all_clear(), mute=mute), C3, WEST) == [0, 0, 0]


def test_a_sample_whose_other_reading_is_not_clear_keeps_its_own() -> None:
    """Most of an edge's samples must be clear to move it, and one that is not stays."""
    ll = _loglik({(C3, N, 0): -2.0, (C3, N, 1): 6.0})
    ok = _all_clear()
    ok[C3, N * W, 0] = False  # the first sample's outward reading sees another piece
    assert _edge(shift_choice(ll, ok), C3, N) == [0, 1, 1]
    ok[C3, N * W + 1, 0] = False
    assert _edge(shift_choice(ll, ok), C3, N) == [0, 0, 0]


def test_readings_are_taken_sample_by_sample() -> None:
    values = np.zeros((64, 16, 3))
    wall = slice(2, 2 + 4 * W)
    readings = np.arange(1 + OTHER_READINGS, dtype=float)[None, None, :, None] * np.ones(
        (64, 4 * W, 1, 3))
    choice = np.zeros((64, 4 * W), int)
    choice[5, 0], choice[5, 4] = 3, 1
    out = take_shift(values, readings, choice, wall)
    assert out[5, 2, 0] == 3 and out[5, 6, 0] == 1 and out[5, 3, 0] == 0
    assert not out[:, :2].any() and not values.any()


def test_other_readings_are_planned_across_each_edge_and_on_its_top() -> None:
    """The outward and inward readings lie wall_shift across the edge from the planned
    sample, at its height; the top reading on the wall's top."""
    cam = camera_model(render(EMPTY, Scene(pose=CameraPose(tilt_deg=20), seed=1)).homography,
                       1280, 720)
    layout = sample_layout(cam)
    assert layout.shifted is not None and layout.shift_ok is not None
    planned = layout.points[:, layout.wall]
    step = layout.shifted[:, :, 1, :2] - layout.shifted[:, :, 0, :2]
    assert np.allclose(np.linalg.norm(step, axis=-1), 2 * CLASSIFY.wall_shift)
    assert np.allclose((layout.shifted[:, :, 0, :2] + layout.shifted[:, :, 1, :2]) / 2, planned)
    g = 0.3 - CLASSIFY.wall_surface  # PieceGeometry's wall height, less the surface inset
    assert np.allclose(layout.shifted[:, :, 2, 2], g)
    inset = np.minimum(layout.shifted[..., 2, :2] % 1.0, 1 - layout.shifted[..., 2, :2] % 1.0)
    assert np.allclose(inset.min(axis=-1), 0.03)  # the middle of a 0.06 wall
    uv = shifted_wall_samples(layout, cam)
    assert uv.shape == (64, 4 * W, OTHER_READINGS, 2) and np.isfinite(uv).all()
    # squares across each edge, as shift_choice pairs them
    nb = neighbour_squares()
    assert nb[C3, 5] == D3


def _empty_and_start(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    return (render(EMPTY, scene.with_(seed=scene.seed * 1000 + 999)).image,
            render(Position.start().to_json(), scene).image)


@remembered
def _profile(scene: Scene) -> Profile:
    empty, start = _empty_and_start(scene)
    return calibrate(start, empty=empty)


def test_the_empty_look_at_the_other_readings_round_trips_and_a_damaged_one_is_refused(
        ) -> None:
    """Calibration with an empty-mat photo keeps its look at every other reading; a
    profile keeps it through JSON, refuses one damaged, and one laid out for other
    settings (another shape) reads its walls as planned. Without the photo there is
    none."""
    scene = Scene(pose=CameraPose(tilt_deg=20), seed=5)
    profile = _profile(scene)
    looks = profile.empty_walls_shifted
    assert looks is not None and looks.shape == (64, 4 * W, OTHER_READINGS, 3)
    again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
    assert again.empty_walls_shifted is not None
    assert np.allclose(again.empty_walls_shifted, looks, atol=1e-4)
    doc = profile.to_json()
    doc["empty_walls_shifted"][3][2][1][0] = 7.5  # no camera pixel is that light
    with pytest.raises(CalibrationError, match=r"empty_walls_shifted\[3, 2, 1, 0\] is 7.5"):
        Profile.from_json(doc)
    doc = profile.to_json()
    doc["empty_walls_shifted"] = doc["empty_walls_shifted"][:32]
    assert Profile.from_json(doc).empty_walls_shifted is None
    assert calibrate(_empty_and_start(scene)[1]).empty_walls_shifted is None
