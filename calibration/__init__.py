"""Camera and mat calibration, and the versioned profiles it writes."""

from calibration.errors import CalibrationError
from calibration.intrinsics import CameraIntrinsics, calibrate_from_images, undistorter
from calibration.profile import Profile, calibrate

__all__ = ["CalibrationError", "CameraIntrinsics", "Profile", "calibrate",
           "calibrate_from_images", "undistorter"]
