"""Simulated lens distortion, for tests and benchmarks: what a cheap webcam lens does to the
simulated table's ideal pinhole frames, and a printed checkerboard sheet seen through it.

The lens model is OpenCV's (ROS's ``plumb_bob``): a point at normalised image coordinates
``(x, y) = ((u - cx) / fx, (v - cy) / fy)`` with ``r^2 = x^2 + y^2`` is imaged at
``x' = x (1 + k1 r^2 + k2 r^4 + k3 r^6) + 2 p1 x y + p2 (r^2 + 2 x^2)`` (and likewise for
``y'`` with ``p1``, ``p2`` swapped), then ``u' = fx x' + cx``. ``D = (k1, k2, p1, p2, k3)``;
``k1 < 0`` is the barrel distortion of wide webcam lenses.

Pixel coordinates are ``(u, v)``: u right, v down, pixel centres at integers. Images are
``(H, W)`` or ``(H, W, C)`` uint8 (BGR when coloured), as everywhere in ``vision``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.config import LENS
from vision.errors import VisionError
from vision.mat import MatModel
from vision.simtable import (
    Camera,
    CameraPose,
    Hand,
    Scene,
    Sensor,
    SimFrame,
    _sensor,  # the table's own noise and JPEG model, applied after the lens as in a camera
    make_camera,
    render,
)


def _check_lens(K: np.ndarray, D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    K = np.asarray(K, np.float64)
    D = np.asarray(D, np.float64).ravel()
    if K.shape != (3, 3) or not np.isfinite(K).all() or K[0, 0] <= 0 or K[1, 1] <= 0:
        raise VisionError(f"a camera matrix is 3x3 with positive focal lengths, got {K.tolist()}")
    if D.size not in (4, 5, 8) or not np.isfinite(D).all():
        raise VisionError(f"distortion coefficients are (k1, k2, p1, p2[, k3]), got {D.tolist()}")
    return K, D


def distort_points(points: np.ndarray, K: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Where the lens images points an ideal pinhole camera ``K`` would put at ``points``.

    ``points``: (N, 2) float (u, v) ideal pixels. ``K``: (3, 3). ``D``: (4,), (5,) or (8,).
    Returns (N, 2) float64 (u, v) distorted pixels."""
    K, D = _check_lens(K, D)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    xy = (pts - K[:2, 2]) / np.array([K[0, 0], K[1, 1]])
    obj = np.column_stack([xy, np.ones(len(xy))])
    uv, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), K, D)
    return uv.reshape(-1, 2)


def ideal_points(points: np.ndarray, K: np.ndarray, D: np.ndarray) -> np.ndarray:
    """The inverse of :func:`distort_points`: (N, 2) float (u, v) distorted pixels -> (N, 2)
    float64 (u, v) pixels of the ideal pinhole camera ``K`` (iterative, to ``LENS``'s
    tolerance)."""
    K, D = _check_lens(K, D)
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, LENS.undistort_iterations,
                LENS.undistort_eps)
    out = cv2.undistortPoints(pts, K, D, None, None, K, criteria)
    return out.reshape(-1, 2)


_MAPS: dict[tuple[bytes, bytes, int, int], tuple[np.ndarray, np.ndarray]] = {}


def _inverse_map(K: np.ndarray, D: np.ndarray, width: int, height: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    key = (K.tobytes(), D.tobytes(), width, height)
    if key not in _MAPS:
        if len(_MAPS) > 4:
            _MAPS.clear()
        uu, vv = np.meshgrid(np.arange(width, dtype=np.float64),
                             np.arange(height, dtype=np.float64))
        ideal = ideal_points(np.column_stack([uu.ravel(), vv.ravel()]), K, D)
        _MAPS[key] = (ideal[:, 0].reshape(height, width).astype(np.float32),
                      ideal[:, 1].reshape(height, width).astype(np.float32))
    return _MAPS[key]


def distort(image: np.ndarray, K: np.ndarray, D: np.ndarray) -> np.ndarray:
    """The frame a lens with distortion ``D`` forms of a scene an ideal pinhole camera ``K``
    renders as ``image``. Same shape and dtype as ``image`` ((H, W) or (H, W, C)).

    Each output pixel samples ``image`` (bilinear) where :func:`ideal_points` says its light
    came from. With barrel distortion the corners of the output see beyond the ideal frame:
    those pixels repeat its edge, so render the ideal frame larger (as :func:`render_distorted`
    and :func:`render_sheet` do) when the corners matter. Maps are cached per K, D and size."""
    if image.ndim not in (2, 3) or image.shape[0] < 1 or image.shape[1] < 1:
        raise VisionError(f"expected an (H, W) or (H, W, C) image, got shape {image.shape}")
    K, D = _check_lens(K, D)
    h, w = image.shape[:2]
    mx, my = _inverse_map(K, D, w, h)
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _margins(K: np.ndarray, D: np.ndarray, width: int, height: int) -> tuple[int, int]:
    """Pixels to add on each side (x, y) of the ideal frame so that every pixel of the
    distorted ``width`` x ``height`` frame sees inside it."""
    n = 65
    t = np.linspace(0, 1, n)
    border = np.vstack([np.column_stack([t * (width - 1), np.zeros(n)]),
                        np.column_stack([t * (width - 1), np.full(n, height - 1.0)]),
                        np.column_stack([np.zeros(n), t * (height - 1)]),
                        np.column_stack([np.full(n, width - 1.0), t * (height - 1)])])
    ideal = ideal_points(border, K, D)
    mx = max(0.0, -ideal[:, 0].min(), ideal[:, 0].max() - (width - 1))
    my = max(0.0, -ideal[:, 1].min(), ideal[:, 1].max() - (height - 1))
    return math.ceil(mx) + 2, math.ceil(my) + 2


# ----------------------------------------------------------------------------------------------
# The simulated table through a distorting lens


def render_distorted(position: dict[str, Any] | str, scene: Scene, D: np.ndarray,
                     hand: Hand | None = None) -> SimFrame:
    """``render(position, scene, hand)`` as a camera whose lens has distortion ``D`` sees it.

    The scene is rendered by the simulated table on a canvas enlarged round the same pinhole
    camera (same centre, orientation and focal length), distorted, and cropped back to the
    pose's size; then the sensor's noise and JPEG compression are applied (its blur is the
    lens's, before distortion). Ground truth: ``corners`` are where the distorted frame shows
    the grid corners; ``homography`` and ``camera_matrix`` are the ideal pinhole camera's
    (the distorted frame has no homography)."""
    D = np.asarray(D, np.float64).ravel()
    pose = scene.pose
    cam = make_camera(pose, scene.mat)
    _check_lens(cam.K, D)
    mx, my = _margins(cam.K, D, pose.width, pose.height)
    f = float(cam.K[0, 0])
    big_w, big_h = pose.width + 2 * mx, pose.height + 2 * my
    aim = np.array([pose.aim[0], pose.aim[1], 0.0])
    # Same camera, wider field of view: the crop's principal point stays at the pose's centre.
    big_pose = replace(pose, width=big_w, height=big_h,
                       fov_deg=math.degrees(2 * math.atan(big_w / 2 / f)),
                       distance=float(np.linalg.norm(cam.C - aim)))
    optics = replace(scene.sensor, noise=0.0, jpeg_quality=None)
    frame = render(position, scene.with_(pose=big_pose, sensor=optics), hand)
    big_K = frame.camera_matrix
    image = distort(frame.image, big_K, D)[my:my + pose.height, mx:mx + pose.width]
    rng = np.random.default_rng(scene.seed * 7919 + 1)
    image = _sensor(np.ascontiguousarray(image), replace(scene.sensor, blur=0.0), rng)
    shift = np.array([[1.0, 0, -mx], [0, 1, -my], [0, 0, 1]])
    corners = distort_points(frame.corners, big_K, D) - np.array([mx, my])
    return SimFrame(image, frame.position, corners, shift @ frame.homography, cam.K,
                    frame.occluded)


# ----------------------------------------------------------------------------------------------
# A printed checkerboard sheet through a distorting lens


@dataclass(frozen=True, slots=True)
class SheetView:
    """A simulated photo of the calibration sheet and its ground truth."""

    image: np.ndarray  # (H, W, 3) uint8 BGR
    corners: np.ndarray  # (rows * cols, 2) float64 (u, v) true inner corners, row by row
    K: np.ndarray  # (3, 3) the camera's intrinsics
    D: np.ndarray  # (5,) its distortion (k1, k2, p1, p2, k3)


SUPERSAMPLE = 2  # the ideal sheet is drawn at twice the size and averaged down (no aliasing)
_TEX_PX = 96  # texture pixels per square: edges stay crisp at any view in the tests


def sheet_object_points(pattern: tuple[int, int], square: float) -> np.ndarray:
    """(rows * cols, 2) float64 (x, y) of the inner corners on the sheet in the simulation's
    world (x right, y up the sheet, origin at the sheet's centre), row by row from the top
    left: the order :func:`render_sheet` reports them in."""
    cols, rows = pattern
    i, j = np.meshgrid(np.arange(cols), np.arange(rows))
    x = (i.ravel() - (cols - 1) / 2) * square
    y = ((rows - 1) / 2 - j.ravel()) * square
    return np.column_stack([x, y]).astype(np.float64)


def _sheet_texture(pattern: tuple[int, int]) -> np.ndarray:
    """The sheet seen from above: (cols + 1) x (rows + 1) squares, the top-left one black,
    with one square of white paper round them. (H, W) uint8, ``_TEX_PX`` per square."""
    cols, rows = pattern
    nx, ny = cols + 3, rows + 3  # squares across the paper, margin included
    a, b = np.meshgrid(np.arange(nx * _TEX_PX) // _TEX_PX, np.arange(ny * _TEX_PX) // _TEX_PX)
    board = (a >= 1) & (a <= cols + 1) & (b >= 1) & (b <= rows + 1)
    black = board & ((a + b) % 2 == 0)
    return np.where(black, 28, 232).astype(np.uint8)


def sheet_pose(at: tuple[float, float], tilt_deg: float, azimuth_deg: float, roll_deg: float,
               distance: float, width: int = 1280, height: int = 720,
               fov_deg: float = 62.0) -> CameraPose:
    """A camera pose (for :func:`render_sheet`) from which the sheet's centre appears at
    pixel ``at`` = (u, v) of the ideal frame: the aim point is moved across the sheet's plane
    until it does (Newton steps on the pinhole projection)."""
    pose = CameraPose(tilt_deg=tilt_deg, azimuth_deg=azimuth_deg, roll_deg=roll_deg,
                      distance=distance, width=width, height=height, fov_deg=fov_deg)
    target = np.array(at, np.float64)
    origin = np.zeros((1, 3))

    def seen(aim: np.ndarray) -> np.ndarray:
        cam = make_camera(replace(pose, aim=(float(aim[0]), float(aim[1]))), MatModel())
        return cam.project(origin)[0]

    aim = np.zeros(2)
    step = distance * 1e-3
    for _ in range(6):
        now = seen(aim)
        if np.abs(now - target).max() < 0.05:
            break
        J = np.column_stack([(seen(aim + d) - now) / step for d in np.eye(2) * step])
        aim = aim + np.linalg.solve(J, target - now)
    return replace(pose, aim=(float(aim[0]), float(aim[1])))


def render_sheet(pose: CameraPose, pattern: tuple[int, int] = LENS.pattern,
                 square: float = 25.0, K: np.ndarray | None = None,
                 D: np.ndarray | None = None, noise: float = 2.0, blur: float = 0.6,
                 seed: int = 0) -> SheetView:
    """The checkerboard sheet lying flat (centre at the world origin, columns along x) as the
    simulated table's camera at ``pose`` sees it through a lens ``D``.

    ``pose`` is the simulated table's: ``distance`` (required here) and ``aim`` are in the
    same unit as ``square``; aiming off the sheet's centre puts the sheet off the frame's.
    ``K`` replaces the pose's own intrinsics (e.g. an off-centre principal point); ``D``
    defaults to no distortion. The paper lies on a darker table."""
    if pose.distance is None:
        raise VisionError("render_sheet needs a camera distance in the pose")
    cols, rows = pattern
    cam = make_camera(pose, MatModel())  # the distance is given: the mat is not consulted
    K = cam.K if K is None else np.asarray(K, np.float64)
    D = np.zeros(5) if D is None else np.asarray(D, np.float64).ravel()
    _check_lens(K, D)
    w, h = pose.width, pose.height
    mx, my = _margins(K, D, w, h)
    big_K = K + np.array([[0, 0, mx], [0, 0, my], [0, 0, 0]])
    s = SUPERSAMPLE
    # Pixel u of the big frame is the mean of pixels s*u .. s*u + s-1 of the supersampled one.
    up = np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]])
    plane = Camera(up @ big_K, cam.R, cam.C, w, h).plane_homography()
    tex = _sheet_texture(pattern)
    k = square / _TEX_PX  # world size of a texture pixel
    left, top = -(cols + 3) / 2 * square, (rows + 3) / 2 * square
    tex_to_world = np.array([[k, 0, left + k / 2], [0, -k, top - k / 2], [0, 0, 1]])
    size = ((w + 2 * mx) * s, (h + 2 * my) * s)
    ideal = cv2.warpPerspective(tex, plane @ tex_to_world, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=90)
    ideal = cv2.resize(ideal, (w + 2 * mx, h + 2 * my), interpolation=cv2.INTER_AREA)
    if blur > 0:  # the lens's blur, before it bends the image
        ideal = cv2.GaussianBlur(ideal, (0, 0), blur)
    image = distort(ideal, big_K, D)[my:my + h, mx:mx + w]
    image = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_GRAY2BGR)
    image = _sensor(image, Sensor(noise=noise, blur=0.0, jpeg_quality=None),
                    np.random.default_rng(seed))
    world = sheet_object_points(pattern, square)
    truth = Camera(K, cam.R, cam.C, w, h).project(np.column_stack([world, np.zeros(len(world))]))
    return SheetView(image, distort_points(truth, K, D), K, D)
