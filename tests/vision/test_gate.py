"""Occlusion and the stability gate (issue 3: "a frame sequence is reported as a position only
after the board has been still and unoccluded for a configurable time (default about 0.3 s);
hands/arms over the mat are detected and reported as 'occluded', never as pieces")."""

from __future__ import annotations

import random

import pytest

from calibration.profile import Profile, calibrate
from companion.rules.teleporters import Position, parse_move, play
from companion.rules.teleporters.random_play import random_midgame
from vision.gate import GateState, StabilityGate
from vision.simtable import CameraPose, Hand, Scene, render
from vision.sources import Frame, Shot, SimulatedSource, frames

SCENE = Scene(pose=CameraPose(tilt_deg=20, azimuth_deg=350, width=960, height=540), seed=21)
START = Position.start().to_json()


@pytest.fixture(scope="module")
def profile() -> Profile:
    return calibrate(render(START, SCENE).image)


@pytest.mark.parametrize("seed", range(6))
def test_a_hand_over_the_mat_is_occluded_never_pieces(profile: Profile, seed: int) -> None:
    rng = random.Random(seed)
    position = random_midgame(rng, 8).to_json()
    hand = Hand(reach=(rng.uniform(1.5, 6.5), rng.uniform(1.5, 6.5)),
                from_deg=rng.choice([0, 90, 180, 270]), height=rng.uniform(1.0, 2.5))
    detector = profile.detector()
    seen = detector.detect(render(position, SCENE.with_(seed=seed), hand).image)
    assert seen.occluded and seen.position is None and seen.status == "occluded"
    clear = detector.detect(render(position, SCENE.with_(seed=seed + 10)).image)
    assert not clear.occluded and clear.position is not None


def test_the_gate_reports_each_still_position_once_and_never_under_a_hand(
        profile: Profile) -> None:
    after, _ = play(Position.start(), parse_move("Pd1-d3"))
    script = [Shot(START, 0.6), Shot(START, 0.5, Hand(reach=(3.5, 1.5), from_deg=270)),
              Shot(after.to_json(), 0.6)]
    source = SimulatedSource(script, SCENE, fps=10)
    detector, gate = profile.detector(), StabilityGate()
    reported: list[tuple[float, dict]] = []
    states = []
    for item in frames(source):
        if not isinstance(item, Frame):
            continue
        found = detector.detect(item.image)
        event = gate.update(item.t, item.image, found.fix.homography, found.position,
                            found.occluded)
        states.append(event.state)
        if event.position is not None:
            reported.append((item.t, event.position))
        if item.truth is not None and item.truth.occluded:
            assert event.state is GateState.OCCLUDED and event.position is None
    assert [Position.from_json(p).same_board(Position.start()) for _, p in reported[:1]] == [True]
    assert len(reported) == 2 and Position.from_json(reported[1][1]).same_board(after)
    assert reported[0][0] >= 0.3 - 1e-9  # still for the configured time first
    assert reported[1][0] >= 1.1 + 0.3 - 1e-9  # ... and again after the hand left
    assert GateState.OCCLUDED in states
