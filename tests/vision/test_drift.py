"""A real camera's auto-exposure and white balance move between calibration and play
(issue 16, "Real cameras: auto-exposure and white balance drift between calibration and
play ... adapt the empty look and the colours online"): the frame's drift is measured on the
bare mat and taken out before any sample is judged, and before the occlusion palette."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

import vision.detect as detect
from calibration.profile import Profile, calibrate
from companion.rules.teleporters import Position
from companion.rules.teleporters.random_play import random_midgame
from vision.classify import camera_drift, undo_drift
from vision.simtable import CameraPose, Lighting, Scene, Sensor, render

EMPTY = {"poles": {}, "ports": []}
SCENE = Scene(pose=CameraPose(tilt_deg=20, azimuth_deg=350, width=960, height=540),
              lighting=Lighting(gradient=0.1), sensor=Sensor(noise=2, blur=0.5,
                                                             jpeg_quality=90), seed=616)
BRIGHTER = replace(SCENE, lighting=replace(SCENE.lighting, brightness=1.15, temperature=0.35))


@pytest.fixture(scope="module")
def profile() -> Profile:
    return calibrate(render(Position.start().to_json(), SCENE).image,
                     empty=render(EMPTY, SCENE.with_(seed=SCENE.seed + 1)).image)


def _wrong(profile: Profile, scene: Scene) -> int:
    rng = random.Random(7)
    detector = profile.detector()
    wrong = 0
    for k in range(3):
        truth = random_midgame(rng, 12)
        found = detector.detect(render(truth.to_json(), scene.with_(seed=50 + k)).image)
        if found.position is None:
            wrong += 64
            continue
        seen = Position.from_json(found.position)
        wrong += sum(truth.poles[q] is not seen.poles[q] or truth.ports[q] != seen.ports[q]
                     for q in range(64))
    return wrong


def test_a_brighter_warmer_exposure_reads_as_the_calibration_did(profile: Profile) -> None:
    assert _wrong(profile, SCENE) == 0
    assert _wrong(profile, BRIGHTER) == 0


def test_without_the_drift_taken_out_the_same_frames_go_wrong(
        profile: Profile, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: with the drift left in, the brighter frames are misread."""
    monkeypatch.setattr(detect, "camera_drift",
                        lambda feat, empty: (0.0, np.zeros(2, np.float32)))
    assert _wrong(profile, BRIGHTER) > 0


def test_the_drift_is_measured_on_the_bare_mat_not_on_the_pieces() -> None:
    rng = np.random.default_rng(3)
    empty = np.column_stack([rng.uniform(0.3, 0.8, 400), rng.normal(0, 0.1, (400, 2))]
                            ).astype(np.float32)
    frame = empty.copy()
    frame[:, 0] = (empty[:, 0] + 0.02) * 1.2 - 0.02  # exposure up 20%
    frame[:, 1:] += np.array([0.05, -0.04], np.float32)  # warmer
    frame[:120] = [0.1, 0.8, -0.5]  # pieces over 30% of the samples
    gain, step = camera_drift(frame, empty)
    assert gain == pytest.approx(np.log(1.2), abs=1e-3)
    assert step == pytest.approx([0.05, -0.04], abs=1e-3)
    back = undo_drift(frame[120:], (gain, step))
    assert np.abs(back - empty[120:]).max() < 1e-3
    # most of the mat covered (a hand): left alone rather than guessed
    frame[:300] = [0.5, 0.3, 0.3]
    assert camera_drift(frame, empty)[0] == 0.0
