"""Frames to board readings: a profile's detector and the stability gate, one frame at a time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from vision.config import GATE
from vision.errors import VisionError
from vision.gate import GateState, StabilityGate, changed, motion_view

if TYPE_CHECKING:
    import numpy as np

    from calibration.profile import Profile
    from vision.detect import Detection, Detector


@dataclass(frozen=True, slots=True)
class Sighting:
    """What vision made of one frame: the gate's state, a newly stable board (``reported``),
    and the frame's own reading with its per-space confidences (None under a hand)."""

    t: float
    state: GateState
    reported: dict[str, Any] | None
    reading: dict[str, Any] | None
    confidences: dict[str, float] | None
    lost: str = ""  # why the mat could not be seen at all (not found in the frame)


class Vision:
    """A profile's detector and stability gate: a frame in, a :class:`Sighting` out. Used by
    the frame thread only."""

    def __init__(self, detector: Detector, gate: StabilityGate | None = None) -> None:
        self.detector = detector
        self.gate = gate or StabilityGate()
        self.reads = 0  # frames read in full (the others reused an unchanged frame's reading)
        self._ref: tuple[np.ndarray, Detection] | None = None
        self._streak = 0  # full readings in a row that read the same position

    @classmethod
    def from_profile(cls, profile: Profile, whole_set: bool = True) -> Vision:
        """``whole_set``: every piece of the set is on the mat (a game); False where a board
        holds part of it (a Solitaire Quest), so that no reading is fitted to the set."""
        detector = profile.detector()
        detector.whole_set = whole_set
        return cls(detector, profile.gate())

    def see(self, image: np.ndarray, t: float) -> Sighting:
        try:
            image, fix = self.detector.prepare(image)
        except VisionError as exc:  # no mat in this frame: a glitch, a bumped camera, a sleeve
            self._ref, self._streak = None, 0
            return Sighting(t, self.gate.lost(t).state, None, None, None, lost=str(exc))
        top = motion_view(image, fix.homography)
        ref = self._ref
        if (ref is not None and not ref[1].occluded and self._streak >= GATE.agree_frames
                and float(ref[1].confidence.min()) >= GATE.reuse_confidence
                and not changed(top, ref[0])):
            # Nothing has changed since readings that agreed and were sure of every space:
            # they stand. Unsure, occluded or lone readings are read again (a new exposure
            # may settle them, or show a misread).
            found = replace(ref[1], fix=fix)
        else:
            found = self.detector.read(image, fix)
            self.reads += 1
            same = (ref is not None and found.position is not None
                    and found.position == ref[1].position)
            self._streak = self._streak + 1 if same else 1
            self._ref = (top, found)
        event = self.gate.update(t, image, fix.homography, found.position, found.occluded,
                                 top)
        conf = None if found.occluded else found.confidences_json()
        return Sighting(t, event.state, event.position, found.position, conf)

    def reset(self) -> None:
        """Forget what was reported, so the board on the mat is reported afresh."""
        self.gate = StabilityGate(still_s=self.gate.still_s)
        self._ref, self._streak = None, 0
