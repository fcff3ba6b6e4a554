"""Occlusion and stability: never report a position while a hand is over the mat, and only
once the board has been still for a while.

Occlusion: calibration records which chromaticities the mat region shows (the printed mat,
both sides' pieces, in light and shade), as a histogram. A hand or an arm is a large blob
of colours outside that palette over the mat. Stability: the mat, warped top-down and shrunk,
must change less than a threshold between frames for ``still_s`` seconds without occlusion
before its position is reported, and a position is reported once, when it changes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.classify import colour_features, undo_drift
from vision.config import GATE

BINS = GATE.palette_bins


def _top_down(image: np.ndarray, homography: np.ndarray, size: int) -> np.ndarray:
    """The grid (plus a small margin) warped top-down to ``size`` x ``size`` px (BGR)."""
    m = GATE.margin
    scale = size / (8 + 2 * m)
    S = np.array([[scale, 0, m * scale], [0, -scale, (8 + m) * scale], [0, 0, 1]], float)
    return cv2.warpPerspective(image, S @ np.linalg.inv(homography), (size, size),
                               flags=cv2.INTER_AREA)


def motion_view(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The grid top-down, small, grey and smoothed: ``(motion_px, motion_px)`` float32, for
    telling whether anything moved between two frames."""
    return cv2.GaussianBlur(cv2.cvtColor(_top_down(image, homography, GATE.motion_px),
                                         cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)


def changed(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two :func:`motion_view` images differ by more than noise and sub-pixel refits
    (which change every pixel a little; a moved piece or a hand changes a few a lot)."""
    return float(np.mean(np.abs(a - b) > GATE.motion_grey)) > GATE.motion_fraction


LEVELS = GATE.palette_levels


def _bins(bgr: np.ndarray, drift: tuple[float, np.ndarray] | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of an (H, W, 3) uint8 image: its colour bin (lightness level, then the two
    chromaticities), and whether it is too dark for its chromaticity to mean anything; with
    the camera's ``drift`` since calibration taken out (:func:`vision.classify.camera_drift`)."""
    feat = colour_features(bgr.reshape(-1, 3))
    if drift is not None:
        feat = undo_drift(feat, drift)
    span = GATE.chroma_span
    q = np.clip(((feat[:, 1:] + span) / (2 * span) * BINS).astype(np.int32), 0, BINS - 1)
    level = np.clip((feat[:, 0] * LEVELS).astype(np.int32), 0, LEVELS - 1)
    dark = feat[:, 0] < GATE.dark_lightness
    shape = bgr.shape[:2]
    return ((level * BINS + q[:, 0]) * BINS + q[:, 1]).reshape(shape), dark.reshape(shape)


@dataclass(frozen=True)
class Palette:
    """Which colours the mat region shows when nothing foreign is over it (the printed mat,
    both sides' pieces, their shading), by lightness level and chromaticity: a hand over the
    dark printed border has nearly the border's chromaticity, but not its lightness."""

    known: np.ndarray  # (LEVELS * BINS * BINS,) bool

    @classmethod
    def learn(cls, image: np.ndarray, homography: np.ndarray, noise: float = 1.0) -> Palette:
        """The palette of ``image`` ((H, W, 3) uint8 BGR) within the mat. Each known colour
        is widened by ``palette_grow`` bins of chromaticity, times the camera's ``noise``
        (:func:`vision.classify.camera_noise`) rounded up: a noisy camera scatters a
        colour's pixels further."""
        chroma_grow = GATE.palette_grow * int(np.ceil(noise - 1e-9))
        top = _top_down(image, homography, GATE.palette_px)
        b, dark = _bins(top)
        counts = np.bincount(b[~dark].ravel(), minlength=LEVELS * BINS * BINS)
        known = (counts >= GATE.palette_min_count).reshape(LEVELS, BINS, BINS)
        grown = known.copy()
        for axis, reach in ((0, GATE.palette_grow_levels), (1, chroma_grow),
                            (2, chroma_grow)):
            for shift in range(1, reach + 1):
                # Shade and noise move a colour a little; np.roll must not wrap round.
                lo = np.zeros_like(known)
                hi = np.zeros_like(known)
                src = [slice(None)] * 3
                dst = [slice(None)] * 3
                src[axis], dst[axis] = slice(shift, None), slice(None, -shift)
                lo[tuple(dst)] = known[tuple(src)]
                hi[tuple(src)] = known[tuple(dst)]
                grown |= lo | hi
        return cls(grown.ravel())

    def union(self, other: Palette) -> Palette:
        """The colours known to either palette."""
        return Palette(self.known | other.known)

    def foreign_fraction(self, image: np.ndarray, homography: np.ndarray,
                         drift: tuple[float, np.ndarray] | None = None) -> float:
        """Share of the mat covered by the largest blob of foreign colour, seen with the
        camera's exposure and white balance at calibration (``drift``: how they moved)."""
        top = _top_down(image, homography, GATE.check_px)
        b, dark = _bins(top, drift)
        foreign = (~self.known[b] & ~dark).astype(np.uint8)
        open_px = GATE.foreign_open_px
        foreign = cv2.morphologyEx(foreign, cv2.MORPH_OPEN, np.ones((open_px, open_px), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(foreign, connectivity=8)
        if n <= 1:
            return 0.0
        return float(stats[1:, cv2.CC_STAT_AREA].max()) / foreign.size

    def to_json(self) -> dict[str, Any]:
        return {"bins": BINS, "levels": LEVELS,
                "known": np.packbits(self.known).tobytes().hex()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Palette:
        if int(doc["bins"]) != BINS or int(doc.get("levels", 1)) != LEVELS:
            raise ValueError(f"palette has {doc.get('levels', 1)} x {doc['bins']} x "
                             f"{doc['bins']} bins, expected {LEVELS} x {BINS} x {BINS}")
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(doc["known"]), np.uint8))
        return cls(bits[: LEVELS * BINS * BINS].astype(bool))


class GateState(enum.Enum):
    OCCLUDED = "occluded"
    MOVING = "moving"
    STILL = "still"


@dataclass(frozen=True, slots=True)
class GateEvent:
    """What the gate says about one frame; ``position`` only on a newly stable board."""

    t: float
    state: GateState
    position: dict[str, Any] | None = None


@dataclass
class StabilityGate:
    """Feed it every frame's time, image and detection; it says when a position is final.

    A position is reported once the mat has been still and unoccluded for ``still_s``
    seconds, and ``agree`` still frames in a row have read it (one misread frame is not a
    move), and only when it differs from the last one reported. An occluded frame (a hand
    over the mat) never yields a position and restarts the wait.
    """

    still_s: float = GATE.still_s
    agree: int = GATE.agree_frames
    _last_top: np.ndarray | None = field(default=None, init=False)
    _readings: list[dict[str, Any] | None] = field(default_factory=list, init=False)
    _still_since: float | None = field(default=None, init=False)
    _reported: dict[str, Any] | None = field(default=None, init=False)

    def lost(self, t: float) -> GateEvent:
        """A frame in which the mat could not be found: like a hand, it restarts the wait."""
        self._still_since, self._last_top, self._readings = None, None, []
        return GateEvent(t, GateState.OCCLUDED)

    def update(self, t: float, image: np.ndarray, homography: np.ndarray,
               position: dict[str, Any] | None, occluded: bool,
               top: np.ndarray | None = None) -> GateEvent:
        """``top``: :func:`motion_view` of this frame, when the caller has it already."""
        if occluded:
            self._still_since, self._last_top, self._readings = None, None, []
            return GateEvent(t, GateState.OCCLUDED)
        if top is None:
            top = motion_view(image, homography)
        moved = self._last_top is None or changed(top, self._last_top)
        self._last_top = top
        self._readings = [*self._readings[-(self.agree - 1):], position] if self.agree > 1 \
            else [position]
        if moved or self._still_since is None:
            self._still_since = t
            return GateEvent(t, GateState.MOVING)
        if t - self._still_since + 1e-9 < self.still_s or position is None:
            return GateEvent(t, GateState.MOVING)
        if len(self._readings) < self.agree or any(r != position for r in self._readings):
            return GateEvent(t, GateState.MOVING)  # a reading of its own: look once more
        if position == self._reported:
            return GateEvent(t, GateState.STILL)
        self._reported = position
        return GateEvent(t, GateState.STILL, position)
