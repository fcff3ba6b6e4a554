"""Camera and mat calibration, and the versioned profiles it writes."""

from calibration.profile import CalibrationError, Profile, calibrate

__all__ = ["CalibrationError", "Profile", "calibrate"]
