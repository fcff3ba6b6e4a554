"""Where calibration puts the mat when it has both photos (issue 16: `companion calibrate
--image START --empty EMPTY`): the grid both show. Frames come from the simulated table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import calibration.profile as profile
from companion.rules.teleporters import Position
from vision.matfind import EDGES, MatFix, find_mat
from vision.simtable import CameraPose, Scene, render


def test_a_lined_grid_the_empty_photo_fits_only_as_a_checkerboard_is_taken_from_the_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16 (the 49th Blender draw, held out: an engraved wood mat at 29 degrees): the
    empty photo's lined fit failed and its checkerboard fit (both edges of each engraved
    line) lay pixels off, while the start photo's lined fit was right. The start photo's
    fit, refitted on the empty photo as lined and staying put, is the mat's: calibration
    no longer says the camera moved."""
    scene = Scene(pose=CameraPose(tilt_deg=25, azimuth_deg=30), table="wood", seed=4)
    start = render(Position.start().to_json(), scene)
    empty = render({"poles": {}, "ports": []}, scene.with_(seed=5)).image
    truth = start.corners
    real_find = find_mat

    def find(image: np.ndarray, checker: bool | None = None) -> MatFix:
        fix = real_find(image, checker)
        if image is empty:  # fitted as a checkerboard, 4 px off
            move = np.array([[1.0, 0.0, 4.0], [0.0, 1.0, 4.0], [0.0, 0.0, 1.0]])
            return MatFix(move @ fix.homography, fix.score, fix.crossings, fix.rms_px, EDGES)
        return fix

    monkeypatch.setattr(profile, "find_mat", find)
    fix = profile._fix_with_empty(start.image, empty)
    assert fix.polarity == 1
    assert min(float(np.abs(fix.rotated(k).corners - truth).max()) for k in range(4)) < 1.5


def test_photos_of_a_moved_mat_are_still_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """... but where the empty photo's grid, in either kind, lies elsewhere than the start
    photo's, the camera or the mat moved between them: one clear line, no guess."""
    scene = Scene(pose=CameraPose(tilt_deg=25, azimuth_deg=30), table="wood", seed=4)
    start = render(Position.start().to_json(), scene).image
    moved: dict[str, Any] = {"pose": CameraPose(tilt_deg=25, azimuth_deg=34)}
    empty = render({"poles": {}, "ports": []}, scene.with_(seed=5, **moved)).image
    with pytest.raises(profile.CalibrationError, match="px away"):
        profile._fix_with_empty(start, empty)
