"""A shadow's colour (issue 16: vision on mats, lights and pieces our drawing never showed).
Under a warm lamp and a cool window, the light a piece blocks is warmer than the light still
reaching its shadow, so a shadow on the bare mat is bluer, not only darker. Calibration with
an empty-mat photo measures that tint round the start Poles; a shadow shifted by it is bare
mat (a held-out Blender render, black/scarlet pieces under a warm LED strip: the scarlet
walls' bluish shadows read as black walls, five frames of six wrong)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.profile import CalibrationError, Profile, calibrate
from companion.rules.teleporters import Position
from tests.memo import remembered
from vision.classify import (
    ColourModel,
    bare_mat_distance,
    colour_features,
    sample_evidence,
    shadow_tint,
)
from vision.config import CLASSIFY
from vision.simtable import CameraPose, Lighting, PieceStyle, Scene, Sensor, render

EMPTY = {"poles": {}, "ports": []}
# a blue-grey fill: a shadow keeps 70% of blue, 45% of green, 25% of red (B, G, R)
KEEP = np.array([0.7, 0.45, 0.25])


def _shadowed(bgr: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Pixels (N, 3) with the key light blocked by ``depth`` (N,) 0..1."""
    return np.clip(bgr * (1 - depth[:, None] * (1 - KEEP)), 0, 255).astype(np.uint8)


def _round_poles(seed: int, shaded: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Features (2, N, 3) of varied paper round each side's start Poles in a start photo
    (``shaded`` points of each in a bluish shadow of any depth) and in the empty photo."""
    rng = np.random.default_rng(seed)
    now, bare = [], []
    for _ in range(2):
        paper = rng.uniform(150, 230, (200, 3))
        depth = np.zeros(200)
        depth[:shaded] = rng.uniform(0.5, 1.0, shaded)
        lit = np.clip(paper + rng.normal(0, 2, paper.shape), 0, 255).astype(np.uint8)
        now.append(colour_features(_shadowed(lit.astype(float), depth)))
        bare.append(colour_features(paper.astype(np.uint8)))
    return np.stack(now), np.stack(bare)


def test_a_bluish_shadows_tint_is_measured_round_both_sides_poles() -> None:
    now, bare = _round_poles(1)
    tint = shadow_tint(now, bare)
    assert tint is not None
    # darker (log lightness down) is bluer: R/G falls and B/G rises with it
    assert tint[0] > 0.3 and tint[1] < -0.3
    light = np.log((now[..., 0] + 0.02) / (bare[..., 0] + 0.02))
    predicted = light[..., None] * tint
    shaded = light < -0.3
    assert np.abs((now[..., 1:] - bare[..., 1:] - predicted)[shaded]).max() < 0.15


def test_shadows_that_only_darken_have_no_tint() -> None:
    rng = np.random.default_rng(2)
    paper = rng.uniform(150, 230, (2, 200, 3))
    depth = np.zeros((2, 200, 1))
    depth[:, :40] = rng.uniform(0.5, 1.0, (2, 40, 1))
    now = colour_features((paper * (1 - 0.6 * depth)).reshape(-1, 3).astype(np.uint8))
    bare = colour_features(paper.reshape(-1, 3).astype(np.uint8))
    assert shadow_tint(now.reshape(2, 200, 3), bare.reshape(2, 200, 3)) is None


def test_no_tint_from_too_few_shadows_or_from_one_sides_alone() -> None:
    now, bare = _round_poles(3, shaded=CLASSIFY.tint_least - 1)
    assert shadow_tint(now, bare) is None
    # one side's points blurred with its own pieces' colour (redder as darker), the
    # other's bluish: the two disagree, and no side's colour is taken for the light's
    now, bare = _round_poles(4)
    redder = now.copy()
    redder[1, :, 1:] = bare[1, :, 1:] - (now[1, :, 1:] - bare[1, :, 1:])
    tint = shadow_tint(redder, bare)
    assert tint is None or np.abs(tint).max() < 1e-6


def test_a_tinted_shadow_is_bare_mat_not_a_black_piece() -> None:
    """The Blender scene's case: a deep bluish shadow on cream paper, next to black
    pieces. Without the tint it is far from the bare look (a piece, and the black side's
    nearest); with it, bare mat."""
    paper = np.array([[200.0, 210.0, 220.0]])
    shadow = colour_features(_shadowed(paper, np.array([0.9])))
    look = colour_features(paper.astype(np.uint8))
    now, bare = _round_poles(1)
    tint = shadow_tint(now, bare)
    assert tint is not None
    assert bare_mat_distance(shadow, look) > CLASSIFY.colour_sigma
    assert bare_mat_distance(shadow, look, tint=tint) < CLASSIFY.piece_changes
    rng = np.random.default_rng(5)
    black = ColourModel.learn(colour_features(rng.normal(25, 6, (80, 3)).clip(0, 255)
                                              .astype(np.uint8)))
    scarlet = ColourModel.learn(colour_features(
        (np.array([31.0, 59.0, 221.0]) * rng.uniform(0.4, 1.0, (80, 1))
         + rng.normal(0, 4, (80, 3))).clip(0, 255).astype(np.uint8)))
    colours = {"south": black, "north": scarlet}
    untinted, _, _ = sample_evidence(shadow[None], colours, look[None])
    tinted, _, _ = sample_evidence(shadow[None], colours, look[None], tint=tint)
    assert untinted[0, 0] == 1  # read as black
    assert tinted[0, 0] == 0  # bare mat


SCENE = Scene(pose=CameraPose(tilt_deg=20, azimuth_deg=20),
              style=PieceStyle(colours={"south": (22, 22, 22), "north": (31, 59, 221)}),
              sensor=Sensor(noise=1, blur=0.4, jpeg_quality=95), seed=31)


@pytest.mark.parametrize("tint", [0.0, 0.8])
def test_calibration_learns_the_tables_shadow_tint(tint: float) -> None:
    scene = SCENE.with_(lighting=Lighting(shadow=0.55, shadow_tint=tint, gradient=0.1))
    empty = render(EMPTY, scene.with_(seed=31999)).image
    profile = calibrate(render(Position.start().to_json(), scene).image, empty=empty)
    if tint == 0.0:
        assert profile.tint is None or np.abs(profile.tint).max() < 0.1
    else:
        assert profile.tint is not None
        assert profile.tint[0] > 0.3 and profile.tint[1] < -0.2
        again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
        assert again.tint is not None and np.allclose(again.tint, profile.tint, atol=1e-4)
        assert np.allclose(again.detector().tint, profile.tint, atol=1e-4)


@remembered  # the same profile for every bad value: calibrated once, copied for each
def _plain_profile_doc(seed: int) -> dict:
    return calibrate(render(Position.start().to_json(), Scene(seed=seed)).image).to_json()


@pytest.mark.parametrize("bad", [[0.1], [0.1, "x"], [0.1, 5.0], [float("nan"), 0.0]])
def test_a_profile_with_a_bad_shadow_tint_is_refused(bad: list) -> None:
    doc = _plain_profile_doc(3)
    doc["shadow_tint"] = bad
    with pytest.raises(CalibrationError, match="shadow_tint"):
        Profile.from_json(doc)
