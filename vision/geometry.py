"""The camera seen through the mat: where a point at a given height over the mat appears.

From the mat homography (mat plane -> image) and the intrinsics (from a lens calibration, or
estimated from the homography itself, or a typical webcam's when the view is straight down
and the focal length cannot be told), the camera centre ``C`` is known in mat coordinates.
A point at height ``z`` above mat point ``g`` lies on the ray from ``C`` that meets the mat at
``g' = C_xy + (g - C_xy) * C_z / (C_z - z)``, so it appears at ``H @ g'``: sampling a piece at
its real height is a scaling about the nadir followed by the homography.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.config import GEOMETRY
from vision.errors import VisionError


@dataclass(frozen=True, slots=True)
class CameraModel:
    homography: np.ndarray  # (3, 3) mat (x, y, 1) -> image (u, v, w)
    K: np.ndarray  # (3, 3) intrinsics
    centre: np.ndarray  # (3,) camera centre in mat coordinates (spaces), z up
    focal_estimated: bool  # False: the focal length was assumed, not measured

    def image_points(self, xy: np.ndarray, z: float | np.ndarray = 0.0) -> np.ndarray:
        """(N, 2) mat points at height(s) ``z`` -> (N, 2) image points (u, v)."""
        c = self.centre
        z = np.asarray(z, float)
        k = c[2] / (c[2] - z)
        g = c[:2] + (xy - c[:2]) * (k[..., None] if k.ndim else k)
        p = np.column_stack([g, np.ones(len(g))]) @ self.homography.T
        return p[:, :2] / p[:, 2:3]

    @property
    def tilt_deg(self) -> float:
        """Angle between the camera's view of the mat centre and the vertical."""
        d = self.centre - np.array([4.0, 4.0, 0.0])
        return math.degrees(math.atan2(math.hypot(d[0], d[1]), d[2]))


def default_intrinsics(width: int, height: int) -> np.ndarray:
    f = (width / 2) / math.tan(math.radians(GEOMETRY.default_hfov_deg) / 2)
    return np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])


def focal_from_homography(H: np.ndarray, cx: float, cy: float) -> float | None:
    """Focal length (px) making the homography's two plane axes orthogonal and equally long,
    with square pixels and the principal point at (cx, cy). None when the view is too
    nearly square-on for the plane to tell (then any focal length fits)."""
    h1, h2 = H[:, 0], H[:, 1]
    b1 = np.array([h1[0] - cx * h1[2], h1[1] - cy * h1[2]])
    b2 = np.array([h2[0] - cx * h2[2], h2[1] - cy * h2[2]])
    c1, c2 = h1[2], h2[2]
    scale = (np.linalg.norm(b1) + np.linalg.norm(b2)) / 2
    estimates, weights = [], []
    den = c1 * c2 * scale * scale
    if abs(den) > 1e-12:
        num = -(b1 @ b2)
        f2 = num / (c1 * c2)
        estimates.append(f2)
        weights.append(abs(c1 * c2))
    den2 = c2 * c2 - c1 * c1
    if abs(den2) > 1e-18:
        f2 = (b1 @ b1 - b2 @ b2) / den2
        estimates.append(f2)
        weights.append(abs(den2))
    good = [(e, w) for e, w in zip(estimates, weights, strict=True) if e > 0]
    if not good:
        return None
    f2 = sum(e * w for e, w in good) / sum(w for _, w in good)
    f = math.sqrt(f2)
    # Square-on views make c1, c2 vanish and the estimate meaningless.
    tilt_signal = max(abs(c1), abs(c2)) * f / max(scale, 1e-9)
    if tilt_signal < GEOMETRY.min_tilt_signal:
        return None
    return f


def camera_model(H: np.ndarray, width: int, height: int, K: np.ndarray | None = None
                 ) -> CameraModel:
    """The camera behind a mat homography. ``K`` from a lens calibration if there is one."""
    estimated = False
    if K is None:
        K = default_intrinsics(width, height)
        f = focal_from_homography(H, K[0, 2], K[1, 2])
        if f is not None and GEOMETRY.min_focal_px <= f <= GEOMETRY.max_focal_px * width:
            K = np.array([[f, 0, K[0, 2]], [0, f, K[1, 2]], [0, 0, 1.0]])
            estimated = True
    A = np.linalg.solve(K, H)
    lam = (np.linalg.norm(A[:, 0]) + np.linalg.norm(A[:, 1])) / 2
    if lam <= 0:
        raise VisionError("degenerate mat homography")
    r1 = A[:, 0] / np.linalg.norm(A[:, 0])
    r2 = A[:, 1] - (A[:, 1] @ r1) * r1
    r2 /= np.linalg.norm(r2)
    r3 = np.cross(r1, r2)
    t = A[:, 2] / lam
    R = np.column_stack([r1, r2, r3])
    centre = -R.T @ t
    if centre[2] < 0:  # the other sign of the plane normal: the camera is above the mat
        R = np.column_stack([r1, r2, -r3])
        centre = -R.T @ t
        centre[2] = abs(centre[2])
    return CameraModel(H, K, centre, estimated)
