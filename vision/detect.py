"""Detection of a whole frame: keep hold of the mat, sample every space, read the position."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.classify import (
    ColourModel,
    PieceGeometry,
    SampleLayout,
    image_samples,
    label_samples,
    position_json,
    read_board,
    read_colour,
    sample_layout,
)
from vision.config import CLASSIFY
from vision.geometry import CameraModel, camera_model
from vision.matfind import MatFix, MatTracker


@dataclass(frozen=True, slots=True)
class Detection:
    position: dict[str, Any]  # the rules core's JSON form
    confidence: np.ndarray  # (64,) per space, index = file + 8 * rank
    fix: MatFix

    def confidences_json(self) -> dict[str, float]:
        return {f"{'abcdefgh'[sq & 7]}{(sq >> 3) + 1}": round(float(c), 3)
                for sq, c in enumerate(self.confidence)}


@dataclass
class Detector:
    """Reads positions from frames of one camera, with a calibration's colours and mat fix."""

    colours: dict[str, ColourModel]
    fix: MatFix
    width: int
    height: int
    K: np.ndarray | None = None  # from a lens calibration
    empty: np.ndarray | None = None  # (64, S, 3) Lab of the empty mat, NaN where unseen
    geometry: PieceGeometry = field(default_factory=PieceGeometry)
    _tracker: MatTracker = field(init=False)
    _layout: tuple[np.ndarray, SampleLayout] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._tracker = MatTracker(self.fix)

    def camera(self, fix: MatFix) -> tuple[CameraModel, SampleLayout, np.ndarray]:
        """Camera, sample layout and image sample points for a fix. The layout depends only on
        where the camera is, so it is kept until the camera moves."""
        cam = camera_model(fix.homography, self.width, self.height, self.K)
        if (self._layout is None or np.abs(self._layout[0] - cam.centre).max()
                > CLASSIFY.layout_tolerance):
            self._layout = (cam.centre, sample_layout(cam, self.geometry))
        layout = self._layout[1]
        return cam, layout, image_samples(layout, cam)

    def detect(self, image: np.ndarray, track: bool = True) -> Detection:
        """Read ``image`` ((H, W, 3) uint8 BGR). With ``track`` the mat is followed (and
        re-found if the camera moved); otherwise the calibration's fix is used as it is."""
        fix = self._tracker.update(image) if track else self.fix
        _, layout, uv = self.camera(fix)
        feat = read_colour(image, uv)
        labels, _ = label_samples(feat, self.colours, self.empty)
        readings = read_board(labels, layout)
        conf = np.array([r.confidence for r in readings])
        return Detection(position_json(readings), conf, fix)
