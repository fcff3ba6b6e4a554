"""The overlay: what vision sees, drawn over the frame it saw it in.

:func:`draw_overlay` is a pure function: it takes a frame and a :class:`MatView` (the mat's
homography and, when a profile read the frame, the position, each space's confidence and
the occlusion verdict) and returns a new frame with

* the mat's outline (the 8x8 grid's edge) and its 7+7 inner grid lines;
* the files and ranks named along the south and west edges (only when the orientation is
  known: mat finding alone cannot tell which corner is a1);
* each space's reading: a Pole as a circle with its side's letter (``S`` south, ``N``
  north), a Port as an L along its corner's two edges with the side's lower-case letter;
  drawn green where the space was read sure, orange where unsure (with its confidence);
* the hand mask (pixels of colours foreign to the mat, tinted magenta) and the verdict;
* caption lines and a legend at the top left.

Coordinates: mat (x, y) in spaces, x east along the files, y north along the ranks, the grid
spanning [0, 8]^2 (as :mod:`vision.matfind`); images (u, v) in pixels, u right, v down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError
from vision.mat import CORNER_SIGNS, FILES, parse_square

BGR = tuple[int, int, int]
OUTLINE: BGR = (255, 255, 0)  # cyan: the mat's edge
GRID: BGR = (230, 230, 120)  # paler cyan: the inner lines
SURE: BGR = (60, 220, 60)  # green
UNSURE: BGR = (0, 150, 255)  # orange
HAND: BGR = (255, 0, 255)  # magenta
TEXT: BGR = (255, 255, 255)
SHADOW: BGR = (0, 0, 0)
HAND_ALPHA = 0.5  # how strongly the hand mask tints what it covers
SIDE_LETTER = {"south": "S", "north": "N"}
# Shapes, in spaces: a Pole's circle radius, a Port's L set in from its corner and its arms
POLE_R = 0.22
PORT_INSET = 0.1
PORT_ARM = 0.38
UNSURE_BELOW = 0.5  # as the referee's default (referee.RefereeConfig.uncertain_below)


@dataclass(frozen=True, slots=True)
class MatView:
    """What the overlay shows of one frame.

    ``homography``: (3, 3) mat (x, y, 1) -> image (u, v, w). ``oriented``: a profile fixed
    which corner is a1, so files and ranks are named. ``position``: the rules core's JSON
    form of the reading (``poles`` {square: side}, ``ports`` [{square, side, corner}]),
    None when nothing was read. ``confidence``: (64,) per space, index file + 8 * rank, or
    None. ``occluded``: the detector held the frame back (a hand or something foreign over
    the mat). ``hand``: (N, N) bool, the mat top-down where colours foreign to it were seen,
    pixel (0, 0) at mat (-hand_margin, 8 + hand_margin) and (N, N) at (8 + hand_margin,
    -hand_margin), row 0 the north edge (as :meth:`vision.gate.Palette.foreign_mask` gives
    it); None: no mask. ``caption``: lines written at the top left."""

    homography: np.ndarray
    oriented: bool = False
    position: Mapping[str, Any] | None = None
    confidence: np.ndarray | None = None
    occluded: bool = False
    hand: np.ndarray | None = None
    hand_margin: float = 0.0
    caption: tuple[str, ...] = ()
    unsure_below: float = UNSURE_BELOW


def _project(H: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """(N, 2) mat points -> (N, 2) image points through ``H``."""
    p = np.column_stack([xy, np.ones(len(xy))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def _pts(uv: np.ndarray) -> np.ndarray:
    """Image points as cv2's drawing functions take them: int32 in 1/16 pixel (shift 4)."""
    return np.round(uv * 16).astype(np.int32).reshape(-1, 1, 2)


def _check(image: np.ndarray, view: MatView) -> None:
    if (not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3
            or image.dtype != np.uint8):
        shape = getattr(image, "shape", None)
        raise VisionError(f"the overlay draws on an (H, W, 3) uint8 image, got {shape} "
                          f"{getattr(image, 'dtype', type(image).__name__)}")
    H = np.asarray(view.homography, float)
    if H.shape != (3, 3) or not np.isfinite(H).all() or abs(np.linalg.det(H)) < 1e-12:
        raise VisionError(f"the overlay needs a (3, 3) invertible homography, got "
                          f"{np.asarray(view.homography).tolist()}")
    if view.confidence is not None and np.shape(view.confidence) != (64,):
        raise VisionError(f"confidence is one per space (64,), got {np.shape(view.confidence)}")
    if view.hand is not None:
        hand = np.asarray(view.hand)
        if hand.ndim != 2 or hand.shape[0] != hand.shape[1] or hand.shape[0] < 1:
            raise VisionError(f"the hand mask is a square (N, N) array, got {hand.shape}")


def _space_px(H: np.ndarray) -> float:
    """A space's side in image pixels, the median over the grid (for sizing text)."""
    xy = np.array([[x, y] for y in range(9) for x in range(9)], float)
    uv = _project(H, xy).reshape(9, 9, 2)
    sides = np.concatenate([np.linalg.norm(np.diff(uv, axis=0), axis=-1).ravel(),
                            np.linalg.norm(np.diff(uv, axis=1), axis=-1).ravel()])
    return float(np.median(sides))


def _text(img: np.ndarray, text: str, at: tuple[float, float], scale: float, colour: BGR,
          centred: bool = True) -> None:
    """``text`` at image point ``at`` (its centre, or its baseline's left end), outlined in
    black so it reads on any mat."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    x, y = (at[0] - w / 2, at[1] + h / 2) if centred else at
    org = (round(x), round(y))
    cv2.putText(img, text, org, font, scale, SHADOW, thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _draw_hand(img: np.ndarray, view: MatView) -> None:
    assert view.hand is not None
    hand = np.asarray(view.hand).astype(np.uint8)
    n, m = hand.shape[0], view.hand_margin
    scale = n / (8 + 2 * m)
    # top-down pixel (u, v) -> mat (u / scale - m, 8 + m - v / scale) -> image
    S_inv = np.array([[1 / scale, 0, -m], [0, -1 / scale, 8 + m], [0, 0, 1]], float)
    h, w = img.shape[:2]
    seen = cv2.warpPerspective(hand, np.asarray(view.homography, float) @ S_inv, (w, h),
                               flags=cv2.INTER_NEAREST).astype(bool)
    tint = np.array(HAND, np.float32)
    img[seen] = (img[seen] * (1 - HAND_ALPHA) + tint * HAND_ALPHA).astype(np.uint8)


def _grid(img: np.ndarray, H: np.ndarray, thick: int) -> None:
    t = np.linspace(0.0, 8.0, 33)  # each line as a polyline: a lens-free homography is exact
    for k in range(1, 8):
        for line in (np.column_stack([np.full_like(t, k), t]),
                     np.column_stack([t, np.full_like(t, k)])):
            cv2.polylines(img, [_pts(_project(H, line))], False, GRID, thick, cv2.LINE_AA, 4)
    edge = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], float)
    cv2.polylines(img, [_pts(_project(H, edge))], True, OUTLINE, thick + 1, cv2.LINE_AA, 4)


def _names(img: np.ndarray, H: np.ndarray, scale: float) -> None:
    """Files below rank 1 and ranks left of file a: which way round the profile holds it."""
    for f in range(8):
        _text(img, FILES[f], tuple(_project(H, np.array([[f + 0.5, -0.3]]))[0]), scale, OUTLINE)
    for r in range(8):
        _text(img, str(r + 1), tuple(_project(H, np.array([[-0.3, r + 0.5]]))[0]), scale,
              OUTLINE)


def _reading(img: np.ndarray, view: MatView, scale: float, thick: int) -> None:
    """Every space's Pole and Ports, each in its space's confidence colour; an unsure space
    also gets its number."""
    H = np.asarray(view.homography, float)
    conf = None if view.confidence is None else np.asarray(view.confidence, float)
    position = view.position or {}
    poles: dict[int, str] = {}
    ports: dict[int, list[tuple[str, str]]] = {}
    for name, side in dict(position.get("poles", {})).items():
        f, r = parse_square(name)
        poles[f + 8 * r] = str(side)
    for port in position.get("ports", []):
        f, r = parse_square(port["square"])
        ports.setdefault(f + 8 * r, []).append((str(port["corner"]), str(port["side"])))

    def colour(sq: int) -> BGR:
        return UNSURE if conf is not None and conf[sq] < view.unsure_below else SURE

    for sq, side in poles.items():
        cx, cy = sq % 8 + 0.5, sq // 8 + 0.5
        ring = np.column_stack([cx + POLE_R * np.cos(np.linspace(0, 2 * np.pi, 25)),
                                cy + POLE_R * np.sin(np.linspace(0, 2 * np.pi, 25))])
        cv2.polylines(img, [_pts(_project(H, ring))], True, colour(sq), thick + 1,
                      cv2.LINE_AA, 4)
        _text(img, SIDE_LETTER.get(side, "?"), tuple(_project(H, np.array([[cx, cy]]))[0]),
              scale, colour(sq))
    for sq, here in ports.items():
        x0, y0 = sq % 8, sq // 8
        for corner, side in here:
            sx, sy = CORNER_SIGNS[corner]
            # the corner's point, set in a little, and the ends of the L's two arms
            cx = x0 + 0.5 + sx * (0.5 - PORT_INSET)
            cy = y0 + 0.5 + sy * (0.5 - PORT_INSET)
            arms = np.array([[cx - sx * PORT_ARM, cy], [cx, cy], [cx, cy - sy * PORT_ARM]])
            cv2.polylines(img, [_pts(_project(H, arms))], False, colour(sq), thick + 1,
                          cv2.LINE_AA, 4)
            mark = np.array([[cx - sx * 0.15, cy - sy * 0.15]])
            _text(img, SIDE_LETTER.get(side, "?").lower(), tuple(_project(H, mark)[0]),
                  scale * 0.8, colour(sq))
    if conf is None:
        return
    for unsure in np.flatnonzero(conf < view.unsure_below):
        sq = int(unsure)
        x0, y0 = sq % 8, sq // 8
        box = np.array([[x0 + 0.06, y0 + 0.06], [x0 + 0.94, y0 + 0.06],
                        [x0 + 0.94, y0 + 0.94], [x0 + 0.06, y0 + 0.94]])
        cv2.polylines(img, [_pts(_project(H, box))], True, UNSURE, thick, cv2.LINE_AA, 4)
        if sq not in poles:  # the number where the Pole's letter is not
            _text(img, f"{conf[sq]:.2f}", tuple(_project(H, np.array([[x0 + 0.5, y0 + 0.5]]))[0]),
                  scale * 0.7, UNSURE)


def legend(view: MatView) -> tuple[str, ...]:
    """The legend lines :func:`draw_overlay` writes under the caption for ``view``."""
    lines = []
    if view.position is not None:
        lines.append(f"S/N Pole, s/n Port in its corner; green sure, orange unsure "
                     f"(< {view.unsure_below:.2f})")
    # only where magenta is drawn: a mask of a clean frame tints nothing
    if (view.hand is not None and bool(np.asarray(view.hand).any())) or view.occluded:
        lines.append("magenta: colours foreign to the mat (a hand?)")
    return tuple(lines)


def _caption(img: np.ndarray, lines: Sequence[str], scale: float) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(scale * 2))
    y = 0
    for line in lines:
        (w, h), base = cv2.getTextSize(line, font, scale, thick)
        step = h + base + 6
        # a dark band behind each line: the frame under it may be anything
        band = img[y:y + step, 0:w + 12]
        band[:] = (band * 0.35).astype(np.uint8)
        cv2.putText(img, line, (6, y + h + 3), font, scale, TEXT, thick, cv2.LINE_AA)
        y += step


def _caption_scale(img: np.ndarray) -> float:
    return float(np.clip(img.shape[1] / 1600.0, 0.35, 0.8))


def draw_caption(image: np.ndarray, lines: Sequence[str]) -> np.ndarray:
    """``image`` ((H, W, 3) uint8 BGR) with ``lines`` written at its top left, as
    :func:`draw_overlay` writes its caption: for a frame with no mat to draw. A new array."""
    _check(image, MatView(np.eye(3)))
    img = image.copy()
    _caption(img, lines, _caption_scale(img))
    return img


def draw_overlay(image: np.ndarray, view: MatView) -> np.ndarray:
    """``image`` ((H, W, 3) uint8 BGR, as the detector saw it: undistorted when there is a
    lens calibration) with ``view`` drawn over it; a new (H, W, 3) uint8 BGR array, the input
    untouched. Raises :class:`VisionError` for an image or view of the wrong shape."""
    _check(image, view)
    img = image.copy()
    H = np.asarray(view.homography, float)
    space = _space_px(H)
    scale = float(np.clip(space / 70.0, 0.3, 1.2))
    thick = 1 if space < 60 else 2
    if view.hand is not None:
        _draw_hand(img, view)
    _grid(img, H, thick)
    if view.oriented:
        _names(img, H, scale * 0.8)
    _reading(img, view, scale, thick)
    _caption(img, (*view.caption, *legend(view)), _caption_scale(img))
    return img


__all__ = ["MatView", "draw_caption", "draw_overlay", "legend"]
