"""Helpers shared by the vision tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from calibration.profile import Profile
from companion.rules.teleporters import Position
from vision.classify import SampleLayout
from vision.simtable import Scene, render


def assert_reads_exactly(profile: Profile, scene: Scene, position: dict[str, Any],
                         seed: int) -> None:
    """A frame of ``position`` rendered with ``seed`` reads back exactly: every Pole and
    every Port, nothing more."""
    truth = Position.from_json({**position, "to_move": "south"})
    frame = render(position, scene.with_(seed=scene.seed * 1000 + seed)).image
    seen = Position.from_json(profile.detector().detect(frame).position)
    assert seen.poles == truth.poles and seen.ports == truth.ports


def blank_evidence(layout: SampleLayout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels (64, S), log-likelihoods (64, S, 3) and camouflage (64, S, 2) of a bare board:
    every sample plainly bare mat, none camouflaged."""
    s = layout.points.shape[1]
    loglik = np.zeros((64, s, 3))
    loglik[..., 1:] = -30.0
    return np.zeros((64, s), int), loglik, np.zeros((64, s, 2), bool)
