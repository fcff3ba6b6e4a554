"""What a profile's detector (or mat finding alone) sees in a frame, as an overlay image
(:mod:`vision.overlay`), and writing it: for ``companion look``, ``calibrate`` and
``detect --overlay``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.files import write_atomically
from vision.config import GATE
from vision.detect import Detection, Detector
from vision.errors import VisionError
from vision.mat import square_name
from vision.matfind import MatFix, find_mat
from vision.overlay import UNSURE_BELOW, MatView, draw_caption, draw_overlay

OVERLAY_SUFFIXES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg"}
NO_PROFILE = "no profile: outline and grid only (pieces are read with a profile)"


@dataclass(frozen=True, slots=True)
class Look:
    """One frame looked at: the overlay drawn ((H, W, 3) uint8 BGR), what the profile's
    detector read (None without a profile), the one-line summary the commands print, and
    whether the mat was found at all."""

    image: np.ndarray
    detection: Detection | None
    summary: str
    mat_found: bool = True


def _fit_text(fix: MatFix) -> str:
    return (f"mat found: {fix.crossings} of 49 grid crossings fitted, {fix.rms_px:.2f} px off")


def unsure_spaces(found: Detection, below: float = UNSURE_BELOW) -> tuple[str, ...]:
    """The spaces ``found`` read less sure than ``below``, by name."""
    if found.occluded:
        return ()
    return tuple(square_name(int(sq) % 8, int(sq) // 8)
                 for sq in np.flatnonzero(np.asarray(found.confidence) < below))


def _reading_text(found: Detection) -> str:
    if found.occluded or found.position is None:
        return "occluded: a hand or something foreign is over the mat; no position read"
    pieces = len(found.position["poles"]) + len(found.position["ports"])
    unsure = unsure_spaces(found)
    shown = ", ".join(unsure[:8]) + (", ..." if len(unsure) > 8 else "")
    return (f"{pieces} pieces read, all spaces sure" if not unsure else
            f"{pieces} pieces read, {len(unsure)} space{'s' * (len(unsure) != 1)} unsure "
            f"({shown})")


def look_with(detector: Detector, frame: np.ndarray, track: bool = True) -> Look:
    """``frame`` ((H, W, 3) uint8 BGR, as the camera gave it) read by ``detector`` (a
    profile's), and the overlay of what it read drawn over the frame as the detector saw it
    (undistorted with a lens calibration). ``track`` as :meth:`Detector.detect`. Raises
    VisionError for a frame the profile cannot read (another size; the mat not found)."""
    image, fix = detector.prepare(frame, track)
    found = detector.read(image, fix)
    hand = (None if detector.palette is None
            else detector.palette.foreign_mask(image, found.fix.homography, detector.drift))
    summary = _reading_text(found)
    view = MatView(found.fix.homography, oriented=True, position=found.position,
                   confidence=None if found.occluded else found.confidence,
                   occluded=found.occluded, hand=hand, hand_margin=GATE.margin,
                   caption=(summary,))
    return Look(draw_overlay(image, view), found, summary)


def look_without_profile(frame: np.ndarray) -> Look:
    """What mat finding alone sees in ``frame`` ((H, W, 3) uint8 BGR): the outline and the
    grid, no pieces and no names (which corner is a1 takes a profile). No mat found: the
    frame with the reason written on it."""
    try:
        fix = find_mat(frame)
    except VisionError as exc:
        summary = str(exc)
        return Look(draw_caption(frame, (summary,)), None, summary, mat_found=False)
    summary = f"{_fit_text(fix)}; {NO_PROFILE}"
    view = MatView(fix.homography, caption=(_fit_text(fix), NO_PROFILE))
    return Look(draw_overlay(frame, view), None, summary)



def overlay_path_for(profile_path: str | Path) -> Path:
    """Where ``calibrate`` puts the overlay of the profile it writes: beside it, ``.json``
    replaced by ``.overlay.png`` (``table.json`` -> ``table.overlay.png``)."""
    p = Path(profile_path)
    stem = p.stem if p.suffix.lower() == ".json" else p.name
    return p.with_name(f"{stem}.overlay.png")


def overlay_format(path: str | Path) -> str:
    """The image format ``path`` names (``.png`` or ``.jpg``); raises CalibrationError for
    any other, before any work is done."""
    ext = OVERLAY_SUFFIXES.get(Path(path).suffix.lower())
    if ext is None:
        raise CalibrationError(f"cannot write {path}: an overlay is a .png or .jpg file")
    return ext


def write_overlay(path: str | Path, image: np.ndarray) -> None:
    """Write ``image`` to ``path`` (.png, or .jpg/.jpeg) whole or not at all: through a temp
    file beside it and a rename. Raises CalibrationError naming the path."""
    path = Path(path)
    ext = overlay_format(path)
    ok, buf = cv2.imencode(ext, image)
    if not ok:
        raise CalibrationError(f"cannot write {path}: OpenCV could not encode the image")
    write_atomically(path, buf.tobytes())


__all__ = ["Look", "look_with", "look_without_profile", "overlay_format", "overlay_path_for",
           "unsure_spaces", "write_overlay"]
