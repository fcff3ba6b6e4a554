"""Vision: frame sources (``sources``), the simulated table (``simtable``, ``mat``), mat
finding and tracking (``matfind``), the camera model (``geometry``, ``raycast``,
``distortion``), piece classification (``classify``, ``detect``) and the
stability/occlusion gate (``gate``). Thresholds live in ``config``; how it works:
docs/vision.md.
"""
