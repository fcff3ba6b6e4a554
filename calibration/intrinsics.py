"""Lens calibration: the camera's intrinsics and distortion from a printed checkerboard shown in
several poses, stored with ROS ``camera_info``-style fields, and undistortion of frames.

Workflow: print the sheet (:func:`write_sheet`), photograph it flat in 10-20 poses (tilted
each way, in the middle and the corners of the frame), :func:`calibrate_from_images`, then
give the result to mat calibration, which undistorts every frame with :func:`undistorter`
before it finds the mat. Without intrinsics the mat homography is used alone.

Fields follow ``sensor_msgs/CameraInfo``: ``K`` the 3x3 camera matrix and ``R`` the
rectification rotation (identity for one camera), ``P`` the 3x4 projection matrix of the
*undistorted* frames, all row-major; ``D = (k1, k2, p1, p2, k3)`` for ``plumb_bob`` (OpenCV's
model). Pixel coordinates are ``(u, v)``: u right, v down, pixel centres at integers.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.files import read_json_file, write_text_atomically
from vision.config import LENS
from vision.errors import SourceError
from vision.sources import (
    IMAGE_SUFFIXES,
    FrameSource,
    SourceEvent,
    SourceEventKind,
    natural_key,
    read_image_file,
)

INTRINSICS_KIND = "tabletop-companion/camera-intrinsics"
INTRINSICS_VERSION = 1
DISTORTION_MODEL = "plumb_bob"
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


def _numbers(value: Any, name: str, n: int) -> tuple[float, ...]:
    """``value`` as exactly ``n`` finite floats, or an error naming the field and the value."""
    if (not isinstance(value, (list, tuple)) or len(value) != n
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)
            or not all(math.isfinite(x) for x in value)):
        raise CalibrationError(f"intrinsics field {name!r} must be {n} finite numbers, "
                               f"got {value!r}")
    return tuple(float(x) for x in value)


def _count(value: Any, name: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise CalibrationError(f"intrinsics field {name!r} must be a whole number >= {least}, "
                               f"got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class CameraIntrinsics:
    """One camera at one resolution. Construction checks every field (CalibrationError)."""

    width: int  # px, of the frames calibrated (and the only size this undistorts)
    height: int
    K: tuple[float, ...]  # 9: camera matrix, row-major (fx 0 cx, 0 fy cy, 0 0 1)
    D: tuple[float, ...]  # 5: k1, k2, p1, p2, k3
    R: tuple[float, ...] = IDENTITY  # 9: rectification rotation, row-major
    P: tuple[float, ...] = ()  # 12: projection of undistorted frames; () = (K | 0)
    distortion_model: str = DISTORTION_MODEL
    rms_px: float = 0.0  # reprojection error of the calibration's views
    views: int = 0  # views the calibration used (0: entered by hand)
    created: str = ""

    def __post_init__(self) -> None:
        _count(self.width, "width", 1)
        _count(self.height, "height", 1)
        if self.distortion_model != DISTORTION_MODEL:
            raise CalibrationError(f"intrinsics field 'distortion_model' must be "
                                   f"{DISTORTION_MODEL!r}, got {self.distortion_model!r}")
        K = _numbers(self.K, "K", 9)
        if K[0] <= 0 or K[4] <= 0 or K[3] != 0 or K[6] != 0 or K[7] != 0 or K[8] != 1:
            raise CalibrationError(f"intrinsics field 'K' must be (fx s cx, 0 fy cy, 0 0 1) "
                                   f"with fx, fy > 0, got {list(K)}")
        D = _numbers(self.D, "D", 5)
        R = _numbers(self.R, "R", 9)
        if not np.allclose(np.reshape(R, (3, 3)) @ np.reshape(R, (3, 3)).T, np.eye(3),
                           atol=1e-6):
            raise CalibrationError(f"intrinsics field 'R' must be a rotation, got {list(R)}")
        P = (*K[:3], 0.0, *K[3:6], 0.0, *K[6:], 0.0) if self.P == () else \
            _numbers(self.P, "P", 12)
        if P[0] <= 0 or P[5] <= 0 or P[8:11] != (0.0, 0.0, 1.0):
            raise CalibrationError(f"intrinsics field 'P' must be (fx' 0 cx' tx, 0 fy' cy' ty, "
                                   f"0 0 1 0), got {list(P)}")
        rms = self.rms_px
        if (not isinstance(rms, (int, float)) or isinstance(rms, bool) or not math.isfinite(rms)
                or rms < 0):
            raise CalibrationError(f"intrinsics field 'rms' must be a number >= 0, got {rms!r}")
        _count(self.views, "views", 0)
        for name, value in (("K", K), ("D", D), ("R", R), ("P", P), ("rms_px", float(rms))):
            object.__setattr__(self, name, value)  # normalised: floats, tuples

    # --- arrays --------------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def camera_matrix(self) -> np.ndarray:
        """(3, 3) float64 K of the raw (distorted) frames."""
        return np.array(self.K, np.float64).reshape(3, 3)

    @property
    def dist_coeffs(self) -> np.ndarray:
        """(5,) float64 (k1, k2, p1, p2, k3)."""
        return np.array(self.D, np.float64)

    @property
    def rectification(self) -> np.ndarray:
        """(3, 3) float64 R."""
        return np.array(self.R, np.float64).reshape(3, 3)

    @property
    def rectified_matrix(self) -> np.ndarray:
        """(3, 3) float64: the camera matrix of undistorted frames (P's left 3x3). Give this,
        not K, to anything that works on undistorted frames."""
        return np.array(self.P, np.float64).reshape(3, 4)[:, :3].copy()

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) float (u, v) pixels of raw frames -> (N, 2) float64 (u, v) pixels of the
        undistorted frames :func:`undistorter` makes."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS,
                    LENS.undistort_iterations, LENS.undistort_eps)
        out = cv2.undistortPoints(pts, self.camera_matrix, self.dist_coeffs, None,
                                  self.rectification, self.rectified_matrix, criteria)
        return out.reshape(-1, 2)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """The inverse: (N, 2) float (u, v) undistorted pixels -> (N, 2) float64 raw pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        rays = np.column_stack([pts, np.ones(len(pts))]) @ np.linalg.inv(
            self.rectified_matrix).T @ self.rectification  # back through R: camera frame
        uv, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), self.camera_matrix,
                                  self.dist_coeffs)
        return uv.reshape(-1, 2)

    # --- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"kind": INTRINSICS_KIND, "version": INTRINSICS_VERSION,
                "created": self.created, "width": self.width, "height": self.height,
                "distortion_model": self.distortion_model, "D": list(self.D),
                "K": list(self.K), "R": list(self.R), "P": list(self.P),
                "rms": self.rms_px, "views": self.views}

    @classmethod
    def from_json(cls, doc: Any) -> CameraIntrinsics:
        if not isinstance(doc, dict) or doc.get("kind") != INTRINSICS_KIND:
            kind = doc.get("kind") if isinstance(doc, dict) else type(doc).__name__
            raise CalibrationError(f"not tabletop-companion camera intrinsics (kind {kind!r})")
        version = doc.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise CalibrationError(f"intrinsics version must be a whole number >= 1, "
                                   f"got {version!r}")
        if version > INTRINSICS_VERSION:
            raise CalibrationError(f"intrinsics version {version} is newer than this program "
                                   f"reads ({INTRINSICS_VERSION}): update tabletop-companion")
        missing = [k for k in ("width", "height", "K", "D") if k not in doc]
        if missing:
            raise CalibrationError(f"intrinsics lack {', '.join(missing)}")
        created = doc.get("created", "")
        return cls(width=doc["width"], height=doc["height"], K=doc["K"], D=doc["D"],
                   R=doc.get("R", IDENTITY), P=doc.get("P", ()),
                   distortion_model=doc.get("distortion_model", DISTORTION_MODEL),
                   rms_px=doc.get("rms", 0.0), views=doc.get("views", 0),
                   created=created if isinstance(created, str) else str(created))

    def save(self, path: str | Path) -> None:
        write_text_atomically(path, json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> CameraIntrinsics:
        doc = read_json_file(path, "intrinsics")
        try:
            return cls.from_json(doc)
        except CalibrationError as exc:
            raise CalibrationError(f"{path}: {exc}") from None

    @classmethod
    def from_calibration(cls, K: np.ndarray, D: np.ndarray, size: tuple[int, int],
                         rms_px: float = 0.0, views: int = 0) -> CameraIntrinsics:
        """From OpenCV's (3, 3) K and (1, 5) or (5,) D for ``size`` (width, height) frames;
        P is chosen so the undistorted frame keeps ``LENS.new_matrix_alpha`` of what the lens
        saw (1: every pixel, so a mat filling the raw frame is never cut off)."""
        K = np.asarray(K, np.float64)
        D = np.asarray(D, np.float64).ravel()[:5]
        D = np.concatenate([D, np.zeros(5 - len(D))])
        new, _ = cv2.getOptimalNewCameraMatrix(K, D, size, LENS.new_matrix_alpha, size)
        P = np.column_stack([new, np.zeros(3)])
        return cls(width=int(size[0]), height=int(size[1]), K=tuple(K.ravel().tolist()),
                   D=tuple(D.tolist()), P=tuple(P.ravel().tolist()), rms_px=float(rms_px),
                   views=int(views),
                   created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))


# ----------------------------------------------------------------------------------------------
# Undistortion


def undistorter(intrinsics: CameraIntrinsics) -> Callable[[np.ndarray], np.ndarray]:
    """A function undistorting frames of this camera: (H, W) or (H, W, C) uint8 raw frame ->
    the same shape, as the pinhole camera ``rectified_matrix`` would see it (black where the
    lens saw nothing). A frame of another size is a CalibrationError.

    The maps are computed here, once (6 ms at 1280x720); each frame then costs one
    ``cv2.remap`` with fixed-point maps: 5.5 ms median at 1280x720, 7 ms at 1920x1080 (BGR,
    the 2-core CI machine)."""
    w, h = intrinsics.size
    map1, map2 = cv2.initUndistortRectifyMap(
        intrinsics.camera_matrix, intrinsics.dist_coeffs, intrinsics.rectification,
        intrinsics.rectified_matrix, (w, h), cv2.CV_16SC2)

    def undistort(frame: np.ndarray) -> np.ndarray:
        if frame.ndim not in (2, 3) or frame.shape[:2] != (h, w):
            got = "x".join(str(n) for n in frame.shape[1::-1]) if frame.ndim >= 2 else \
                str(frame.shape)
            raise CalibrationError(f"the frame is {got} but the lens calibration is for "
                                   f"{w}x{h}: calibrate the lens at this resolution")
        return cv2.remap(frame, map1, map2, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)

    return undistort


# ----------------------------------------------------------------------------------------------
# Finding the sheet and calibrating


def _check_pattern(pattern: tuple[int, int]) -> tuple[int, int]:
    if (len(pattern) != 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                     for n in pattern) or min(pattern) < 2):
        raise CalibrationError(f"a pattern is (columns, rows) of inner corners, each at "
                               f"least 2, got {pattern!r}")
    return pattern


def _gray(image: np.ndarray, name: str) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or not (
            image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (1, 3))):
        shape = getattr(image, "shape", None)
        raise CalibrationError(f"{name}: expected an (H, W) or (H, W, 3) uint8 image, "
                               f"got {shape}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 and image.shape[2] == 3 \
        else image.reshape(image.shape[:2])


def _refine(gray: np.ndarray, corners: np.ndarray, pattern: tuple[int, int]) -> np.ndarray:
    """(N, 2) corners to a fraction of a pixel, with a window under half a square wide."""
    cols, rows = pattern
    grid = corners.reshape(rows, cols, 2)
    spacing = min(np.linalg.norm(np.diff(grid, axis=0), axis=2).min(),
                  np.linalg.norm(np.diff(grid, axis=1), axis=2).min())
    half = int(min(LENS.subpix_half_max, max(2, LENS.subpix_half_share * spacing)))
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, LENS.subpix_iterations,
                LENS.subpix_eps_px)
    fine = cv2.cornerSubPix(gray, corners.reshape(-1, 1, 2).astype(np.float32), (half, half),
                            (-1, -1), criteria)
    return fine.reshape(-1, 2).astype(np.float64)


def find_board(image: np.ndarray, pattern: tuple[int, int] = LENS.pattern,
               name: str = "image") -> np.ndarray | None:
    """The sheet's inner corners in ``image`` ((H, W) or (H, W, 3) uint8 BGR): (cols * rows,
    2) float64 (u, v), row by row as OpenCV orders them, or None when the whole board is not
    seen."""
    gray = _gray(image, name)
    cols, rows = _check_pattern(pattern)
    flags = (cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
             | cv2.CALIB_CB_FAST_CHECK)
    ok, corners = cv2.findChessboardCorners(gray, (cols, rows), flags=flags)
    if not ok or corners is None:
        return None
    return _refine(gray, corners.reshape(-1, 2), pattern)


def _object_points(pattern: tuple[int, int], square_size: float) -> np.ndarray:
    cols, rows = pattern
    i, j = np.meshgrid(np.arange(cols), np.arange(rows))
    return np.column_stack([i.ravel() * square_size, j.ravel() * square_size,
                            np.zeros(cols * rows)]).astype(np.float32)


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def calibrate_from_images(images: Mapping[str, np.ndarray] | Sequence[np.ndarray],
                          pattern: tuple[int, int] = LENS.pattern, square_size: float = 25.0,
                          *, min_views: int = LENS.min_views,
                          log: Callable[[str], None] | None = None,
                          step: Callable[[], None] | None = None) -> CameraIntrinsics:
    """Intrinsics and distortion from photos of the sheet: ``images`` maps a name (used in
    messages) to an (H, W, 3) uint8 BGR or (H, W) grey image, all the same size; a plain
    sequence is named ``image 1``, ``image 2``... ``pattern`` is the sheet's inner corners
    (columns, rows); ``square_size`` (any unit) does not change K or D.

    ``step`` is called as each image has been looked at (a progress bar's).
    Images where the sheet is not found whole are skipped (named through ``log``); fewer
    than ``min_views`` views left, a size mismatch, or a fit worse than ``LENS.max_rms_px``
    is a CalibrationError naming the images concerned."""
    named = list(images.items()) if isinstance(images, Mapping) else [
        (f"image {i + 1}", im) for i, im in enumerate(images)]
    pattern = _check_pattern(tuple(pattern))  # type: ignore[arg-type]
    if not (isinstance(square_size, (int, float)) and math.isfinite(square_size)
            and square_size > 0):
        raise CalibrationError(f"square size must be a positive number, got {square_size!r}")
    if not named:
        raise CalibrationError("no images of the calibration sheet were given")
    size: tuple[int, int] | None = None
    first = ""
    found: list[tuple[str, np.ndarray]] = []
    missed: list[str] = []
    for name, image in named:
        _gray(image, name)
        h, w = image.shape[:2]
        if size is None:
            size, first = (w, h), name
        elif (w, h) != size:
            raise CalibrationError(f"{name} is {w}x{h} but {first} is {size[0]}x{size[1]}: "
                                   "take every view with the same camera at one resolution")
        corners = find_board(image, pattern, name)
        if corners is None:
            missed.append(name)
        else:
            found.append((name, corners))
        if step is not None:
            step()
    assert size is not None
    cols, rows = pattern
    if len(found) < min_views:
        raise CalibrationError(
            f"the {cols}x{rows} sheet was found whole in {len(found)} of {len(named)} images "
            f"but {min_views} are needed; not found in: {_names(missed)}")
    if missed and log is not None:
        log(f"sheet not found whole in {len(missed)} of {len(named)} images, skipped: "
            f"{_names(missed)}")
    obj = _object_points(pattern, float(square_size))
    flags = cv2.CALIB_FIX_K3 if LENS.fix_k3 else 0
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-10)
    # OpenCV's stubs want output arrays where the documented call passes None to have them made
    rms, K, D, _, _, _, _, per_view = cv2.calibrateCameraExtended(  # type: ignore[call-overload]
        [obj] * len(found), [c.reshape(-1, 1, 2).astype(np.float32) for _, c in found], size,
        None, None, flags=flags, criteria=criteria)
    per_view = np.asarray(per_view, np.float64).ravel()
    if not (math.isfinite(rms) and np.isfinite(K).all() and np.isfinite(D).all()):
        raise CalibrationError("the lens fit failed (no finite solution): show the sheet "
                               "tilted in more varied poses")
    if rms > LENS.max_rms_px:
        worst = [found[i][0] for i in np.argsort(-per_view)[:3]]
        raise CalibrationError(f"the views fit the lens model badly (rms {rms:.2f} px, at most "
                               f"{LENS.max_rms_px} allowed); worst: {', '.join(worst)}; is "
                               "the sheet flat and the pattern right?")
    return CameraIntrinsics.from_calibration(K, D, size, rms, len(found))


def load_images(paths: Sequence[str | Path]) -> dict[str, np.ndarray]:
    """Images named by ``paths``, each a file or a folder (its images in natural name order),
    as ``{path: (H, W, 3) uint8 BGR}``. Missing or unreadable files are CalibrationErrors."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            inside = sorted((f for f in p.iterdir()
                             if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file()),
                            key=lambda f: natural_key(f.name))
            if not inside:
                raise CalibrationError(f"{p} holds no images ({', '.join(IMAGE_SUFFIXES)})")
            files.extend(inside)
        elif p.is_file():
            files.append(p)
        else:
            raise CalibrationError(f"{p}: no such image or folder")
    out: dict[str, np.ndarray] = {}
    for f in files:
        try:
            image = read_image_file(f)
        except SourceError as exc:
            raise CalibrationError(str(exc)) from None
        if image is None:
            raise CalibrationError(f"{f}: not an image OpenCV can read")
        out[str(f)] = image
    return out


# ----------------------------------------------------------------------------------------------
# Live capture


def _corner_move(a: np.ndarray, b: np.ndarray) -> float:
    """Largest move of a corner between two detections, px; a sheet seen turned half round
    is numbered from the other end, so both numberings are tried."""
    return float(min(np.linalg.norm(a - b, axis=1).max(),
                     np.linalg.norm(a - b[::-1], axis=1).max()))


def _view_pose(corners: np.ndarray, pattern: tuple[int, int], width: int, height: int
               ) -> np.ndarray:
    """How the sheet lies in a view, as ROS camera_calibration judges variety: (5,) float64
    (centre x / width, centre y / height, sqrt(area / frame area), 2 x keystone x, 2 x
    keystone y). The keystone is the image direction the sheet shrinks towards (its tilt),
    summed over both pairs of opposite sides; none of it depends on the corners' numbering."""
    cols, rows = pattern
    g = corners.reshape(rows, cols, 2)
    quad = np.array([g[0, 0], g[0, -1], g[-1, -1], g[-1, 0]])
    p, q = quad[2] - quad[0], quad[3] - quad[1]
    area = 0.5 * abs(p[0] * q[1] - p[1] * q[0])
    keystone = np.zeros(2)
    for a, b in (((0, 1), (3, 2)), ((1, 2), (0, 3))):  # opposite sides, a to b
        la = np.linalg.norm(quad[a[1]] - quad[a[0]])
        lb = np.linalg.norm(quad[b[1]] - quad[b[0]])
        d = (quad[b[0]] + quad[b[1]] - quad[a[0]] - quad[a[1]]) / 2
        keystone += d / max(np.linalg.norm(d), 1e-9) * (la - lb) / max(la + lb, 1e-9)
    centre = corners.mean(axis=0)
    return np.array([centre[0] / width, centre[1] / height, math.sqrt(area / (width * height)),
                     2 * keystone[0], 2 * keystone[1]])


def _find_board_quick(image: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    """find_board on a copy shrunk to ``LENS.live_detect_width``, refined at full size."""
    w = image.shape[1]
    scale = min(1.0, LENS.live_detect_width / w)
    if scale >= 1.0:
        return find_board(image, pattern)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    coarse = find_board(small, pattern)
    if coarse is None:
        return None
    # Pixel centres: u_full = (u_small + 0.5) / scale - 0.5.
    return _refine(_gray(image, "frame"), (coarse + 0.5) / scale - 0.5, pattern)


def capture_views(source: FrameSource, views: int, pattern: tuple[int, int] = LENS.pattern,
                  *, min_views: int = LENS.min_views, timeout_s: float = LENS.live_timeout_s,
                  log: Callable[[str], None] | None = None,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep) -> dict[str, np.ndarray]:
    """Views of the sheet from a live source, for :func:`calibrate_from_images`.

    A frame is taken when the whole sheet is in it, it has held still since the last frame
    (corners moved under ``LENS.live_still_px``: no motion blur), and its place, size and
    tilt in the frame (:func:`_view_pose`) differ by ``LENS.live_min_change`` from every view
    taken so far (a new pose, as ROS camera_calibration decides). Stops at ``views`` views,
    the source's end, or ``timeout_s``; fewer than ``min_views`` by then is a
    CalibrationError. Returns ``{"view 1": image, ...}``."""
    pattern = _check_pattern(pattern)
    taken: dict[str, np.ndarray] = {}
    poses: list[np.ndarray] = []
    previous: np.ndarray | None = None
    start = clock()
    reason = f"{views} views taken"
    while len(taken) < views:
        if clock() - start > timeout_s:
            reason = f"the {timeout_s:.0f} s time limit"
            break
        item = source.read()
        if isinstance(item, SourceEvent):
            if item.kind is SourceEventKind.ENDED:
                reason = f"the end of {source.name}"
                break
            if item.kind is SourceEventKind.DISCONNECTED:
                sleep(0.05)  # the source reopens the camera by itself; don't spin
            continue
        corners = _find_board_quick(item.image, pattern)
        still = (corners is not None and previous is not None
                 and _corner_move(corners, previous) < LENS.live_still_px)
        previous = corners
        if corners is None or not still:
            continue
        pose = _view_pose(corners, pattern, item.image.shape[1], item.image.shape[0])
        if poses and min(np.abs(pose - p).sum() for p in poses) < LENS.live_min_change:
            continue
        name = f"view {len(taken) + 1}"
        taken[name] = item.image.copy()
        poses.append(pose)
        if log is not None:
            log(f"{name} of {views} taken: now tilt or move the sheet")
    if len(taken) < min_views:
        raise CalibrationError(f"only {len(taken)} distinct views of the sheet before "
                               f"{reason}; {min_views} are needed (hold it still in each "
                               "pose, whole in the frame)")
    return taken


# ----------------------------------------------------------------------------------------------
# The printed sheet


SHEET_PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0), "Letter": (215.9, 279.4)}


def draw_sheet(paper: str = "A4", dpi: int = 300, pattern: tuple[int, int] = LENS.pattern
               ) -> tuple[np.ndarray, int]:
    """The calibration sheet for ``paper`` in landscape at ``dpi``: (H, W) uint8 grey and the
    side of its squares in whole mm (the biggest that fits with a white margin round them,
    which the detector needs)."""
    if paper not in SHEET_PAPER_MM:
        raise CalibrationError(f"unknown paper {paper!r}: one of {', '.join(SHEET_PAPER_MM)}")
    if not 72 <= dpi <= 1200:
        raise CalibrationError(f"dpi must be between 72 and 1200, got {dpi}")
    cols, rows = _check_pattern(pattern)
    short, long = SHEET_PAPER_MM[paper]
    margin, caption = LENS.sheet_margin_mm, LENS.sheet_caption_mm
    square = math.floor(min((long - 2 * margin) / (cols + 1),
                            (short - 2 * margin - caption) / (rows + 1)))
    if square < 5:
        raise CalibrationError(f"a {cols}x{rows} pattern does not fit {paper} paper")
    px = dpi / 25.4  # pixels per mm
    img = np.full((round(short * px), round(long * px)), 255, np.uint8)
    x0 = (long - square * (cols + 1)) / 2
    y0 = (short - caption - square * (rows + 1)) / 2
    for j in range(rows + 1):
        for i in range((j % 2), cols + 1, 2):  # the top-left square is black
            a, b = round((x0 + i * square) * px), round((y0 + j * square) * px)
            c, d = round((x0 + (i + 1) * square) * px), round((y0 + (j + 1) * square) * px)
            img[b:d, a:c] = 0
    text = (f"tabletop-companion lens calibration: {cols} x {rows} inner corners, {square} mm "
            f"squares. Print at 100%, keep it flat. Bar: 50 mm")
    scale = 2.6 * px / 22  # Hershey simplex is about 22 px tall at scale 1: text 2.6 mm tall
    thick = max(1, round(0.3 * px))
    room = (long - 2 * x0 - 55) * px  # the caption stops 5 mm short of the 50 mm bar
    wide = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0]
    scale *= min(1.0, room / wide)
    base = round((short - margin / 2) * px)
    cv2.putText(img, text, (round(x0 * px), base), cv2.FONT_HERSHEY_SIMPLEX, scale, 0, thick,
                cv2.LINE_AA)
    bar_right = round((long - x0) * px)
    cv2.line(img, (bar_right - round(50 * px), base), (bar_right, base), 0, thick * 2)
    return img, square


def write_sheet(path: str | Path, paper: str = "A4", dpi: int = 300,
                pattern: tuple[int, int] = LENS.pattern) -> tuple[int, int, int]:
    """Draw the sheet and write it (.png, .jpg, .tif). Returns (width px, height px,
    square mm)."""
    img, square = draw_sheet(paper, dpi, pattern)
    path = Path(path)
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".tif", ".tiff"):
        raise CalibrationError(f"{path}: write the sheet as .png, .jpg or .tif")
    try:
        ok = cv2.imwrite(str(path), img)
    except cv2.error as exc:
        raise CalibrationError(f"cannot write {path}: {exc}") from None
    if not ok:
        raise CalibrationError(f"cannot write {path}")
    return img.shape[1], img.shape[0], square
