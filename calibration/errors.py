"""Errors of the calibration package: each a ``ValueError`` naming the offending value."""

from __future__ import annotations

from vision.errors import VisionError


class CalibrationError(VisionError):
    """Calibration could not be done, or a profile cannot be read."""
