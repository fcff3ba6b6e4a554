"""Camera and mat calibration, versioned profiles (issue 3)."""
