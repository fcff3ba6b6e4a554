"""Pieces the colour cannot show: Ports and Poles coloured like the mat they stand on.

A white wall on cream paper, or a black one on dark cloth, looks like the bare mat in every
sample :mod:`vision.classify` reads: its top is the same colour, and its faces and its shadow
are only darker, as a shadow is. What still gives it away is its shape. Every measure here
compares log lightness with the empty-mat photo's at the same points, so a shade or a
change of exposure, which scales lightness, drops out.

* Walls (:func:`wall_structure`). Across a grid line, a standing wall makes a pattern (a lit
  top, a shaded face, a cast shadow, each a few pixels wide) that stays the same all along
  the wall, while a shadow falling across the line is broad, or crosses it, and varies
  along it. Each edge's wall region is read as profiles across the edge at several places
  along it, and the median profile along the edge is the wall's structure. Lines of sight
  that pass a Pole read standing are left out: a Pole's body is structure too.
* Pole bodies (:func:`pole_body`): up a Pole's axis, the change against the mat beside it.
* A Pole's own shadow (:class:`PoleShadow`), learned from the start Poles', where the light
  casts a clear one.
* The rim of a Pole's top (:func:`pole_rim`): across it, the top meets its own flank, its
  shadow or the mat beyond, which light it otherwise even where all three share a colour;
  bare mat shows no such edge there that its empty photo did not.

Coordinates: mat points in spaces, (x, y) = (file, rank) from the a1 corner, z up; image
points (u, v) in pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.classify import (
    EDGES,
    SIDES,
    WALL_SAMPLES,
    PieceGeometry,
    SampleLayout,
    clear_needed,
    clear_of_other_pieces,
    disc_columns,
    masked_median,
    nan_to,
    neighbour_squares,
    pole_cylinders,
)
from vision.config import CLASSIFY, GATE
from vision.geometry import CameraModel
from vision.raycast import Rays, clearance_each
from vision.stats import clip, median, median_of_sorted, sorted_along

_FAR = 1000.0
_NEIGHBOURHOOD = neighbour_squares()  # (64, 9), the space itself included
# (64, 25): where the light's change round a space is measured when too few of its
# neighbours are bare: wide enough that a Pole or two coloured like the mat, not yet read,
# do not move the median
_LIGHT_AROUND = neighbour_squares(2)
_LIGHTNESS = np.array([0.114, 0.587, 0.299], np.float32)  # B, G, R
# (64, 2) each space's centre on the mat
_CENTRES = np.column_stack([np.arange(64) & 7, np.arange(64) >> 3]) + 0.5


def log_change(light: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """The change from the empty look in log lightness (a shade or an exposure, which scale
    lightness, shift it alike everywhere); black kept finite by ``line_dark``."""
    return np.log((light + CLASSIFY.line_dark) / (empty + CLASSIFY.line_dark))


def _spread(values: np.ndarray, floor: float) -> float | None:
    """A robust standard deviation (1.4826 MADs) of the finite ``values``, at least
    ``floor``; None when none is finite."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None
    return max(1.4826 * float(median(np.abs(finite - median(finite)))), floor)


@dataclass(frozen=True, slots=True)
class LineLayout:
    """Where each space's four wall regions are read across (see the module docstring).

    points: (64, 4, J, K, 2) float mat points on the mat (z = 0), EDGES order, J places
    along each edge, K points across it; NaN where the point is off the mat (the table
    round it is no steady reference). poles_in_view: (64, 4, J, K) int16 bits, one per
    neighbour (bit n: neighbour n, west to east then south to north, the space itself 4),
    whose Pole, standing, the point's line of sight passes within ``line_pole_clear``.
    on_mat: (64, 4, K) bool, derived: the points across each edge on the mat at every place
    along it (:func:`wall_structure` reads it every frame)."""

    points: np.ndarray
    poles_in_view: np.ndarray
    on_mat: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "on_mat", ~np.isnan(self.points[..., 0]).any(axis=2))


def _across(edge: str, file: int, rank: int, along: float, inset: np.ndarray) -> np.ndarray:
    """(N, 2) mat points ``inset`` spaces in from the edge, ``along`` of the way along it."""
    if edge == "s":
        return np.column_stack([np.full_like(inset, file + along), rank + inset])
    if edge == "n":
        return np.column_stack([np.full_like(inset, file + along), rank + 1 - inset])
    if edge == "w":
        return np.column_stack([file + inset, np.full_like(inset, rank + along)])
    return np.column_stack([file + 1 - inset, np.full_like(inset, rank + along)])


def _inset_of(edge: str, file: int, rank: int, xy: np.ndarray) -> np.ndarray:
    """How far in from the edge mat points (N, 2) lie."""
    if edge == "s":
        return xy[:, 1] - rank
    if edge == "n":
        return rank + 1 - xy[:, 1]
    if edge == "w":
        return xy[:, 0] - file
    return file + 1 - xy[:, 0]


def line_layout(camera: CameraModel, geometry: PieceGeometry | None = None) -> LineLayout:
    """The profiles across every edge for this camera: each spans, on the mat, where the
    edge's wall would show (its box's corners seen down to the mat) and a margin each side."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    t, h = g.wall_thickness, g.wall_height
    c = camera.centre
    along = np.linspace(cfg.line_along_from, 1 - cfg.line_along_from, cfg.line_along)
    n_j, n_k = cfg.line_along, cfg.line_across
    pts = np.zeros((64, 4, n_j, n_k, 2))
    box = np.array([(0.0, 0.0), (t, 0.0), (0.0, h), (t, h)])  # (inset, height) corners
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        for i, edge in enumerate(EDGES):
            for j, a in enumerate(along):
                corners = _across(edge, f, r, a, box[:, 0])
                k = (c[2] / (c[2] - box[:, 1]))[:, None]
                seen = _inset_of(edge, f, r, c[:2] + (corners - c[:2]) * k)
                span = np.linspace(seen.min() - cfg.line_margin, seen.max() + cfg.line_margin,
                                   n_k)
                pts[sq, i, j] = _across(edge, f, r, a, span)
    off = ((pts < 0) | (pts > 8)).any(axis=-1)
    pts[off] = np.nan
    # each point's line of sight against every Pole of its neighbourhood
    m = n_j * n_k * 4
    each = np.repeat(np.nan_to_num(pts, nan=-_FAR).reshape(64, m, 2), 9, axis=1)
    cyl = np.repeat(pole_cylinders(g), m, axis=0).reshape(64, m * 9, 4)
    near = _past_pole(camera, each.reshape(-1, 2), cyl.reshape(-1, 4), g
                      ).reshape(64, 4, n_j, n_k, 9)
    bits = ((near < cfg.line_pole_clear) << np.arange(9)).sum(axis=-1)
    return LineLayout(pts, bits.astype(np.int16))


def _past_pole(camera: CameraModel, points: np.ndarray, cylinders: np.ndarray,
               geometry: PieceGeometry) -> np.ndarray:
    """(N,) how far the line of sight to each mat point (N, 2), on the mat, keeps from its
    Pole (N, 4: x, y, radius, height), in spaces."""
    rays = Rays(camera.centre, np.column_stack([points, np.zeros(len(points))]),
                geometry.pole_height + 0.05)
    none = np.full((len(points), 1, 2, 3), _FAR)
    none[..., 1, :] += 0.1
    return clearance_each(rays, cylinders[:, None], none, CLASSIFY.ray_iterations)


Maps = tuple[np.ndarray, np.ndarray, tuple[int, ...]]


def sample_maps(points: np.ndarray, camera: CameraModel, heights: np.ndarray | None = None
                ) -> Maps:
    """Where mat points (..., 2) at ``heights`` (...; default on the mat) lie in the image:
    (N, 1, 2) float32 pixel coordinates (u, v) of the N points not NaN, which they are
    (bool, flat), and the points' shape. Constant while the camera stays put: kept from
    frame to frame."""
    flat = points.reshape(-1, 2)
    known = ~np.isnan(flat[:, 0])
    z = 0.0 if heights is None else heights.reshape(-1)[known]
    uv = camera.image_points(flat[known], z)
    return uv.reshape(-1, 1, 2).astype(np.float32), known, points.shape[:-1]


def lightness_at(image: np.ndarray, maps: Maps) -> np.ndarray:
    """Lightness (float32, as :func:`vision.classify.read_colour`'s) of ``image``
    ((H, W, 3) uint8 BGR) at every point of ``maps`` (:func:`sample_maps`), in the points'
    shape; NaN where a point is."""
    uv, known, shape = maps
    out = np.full(len(known), np.nan, np.float32)
    # OpenCV's stubs miss remap's documented map2=None (map1 then holds x and y)
    bgr = cv2.remap(image, uv, None, cv2.INTER_LINEAR,  # type: ignore[call-overload]
                    borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float32)
    out[known] = (bgr @ _LIGHTNESS + 4.0) / 255.0  # as read_colour's
    return out.reshape(shape)


ShadowOnLines = list[tuple[np.ndarray, np.ndarray]]


def lines_in_shadow(lines: LineLayout, shadow: PoleShadow | None) -> ShadowOnLines | None:
    """Per space (64), where a Pole standing there casts its shadow (``shadow``, learned
    for this table) on the profile points of :class:`LineLayout`: their flat indices into
    ``lines.points[..., 0]``, and the change in log lightness (negative: darker) the shadow
    makes at each (at its nearest offset within ``line_shadow_clear``). None with no
    shadow learned. A shadow reaches no further than the Pole's neighbours' spaces."""
    if shadow is None:
        return None
    reach = CLASSIFY.line_shadow_clear
    pts = lines.points.reshape(64, -1, 2)
    per = pts.shape[1]
    out: ShadowOnLines = []
    for q in range(64):
        falls = _CENTRES[q] + shadow.offsets  # (N, 2)
        spaces = _NEIGHBOURS[q][_NEIGHBOURS[q] >= 0]
        p = pts[spaces].reshape(-1, 2)
        d = np.nan_to_num(np.linalg.norm(p[:, None] - falls[None], axis=-1), nan=np.inf)
        near = d.argmin(axis=1)
        hit = d[np.arange(len(p)), near] <= reach
        idx = (spaces[:, None] * per + np.arange(per)[None]).reshape(-1)[hit]
        out.append((idx, shadow.change[near[hit]].astype(np.float32)))
    return out


def poles_near(poles: np.ndarray) -> np.ndarray:
    """(64,) int16: for each space, which of its neighbourhood's spaces (bit n, as
    :attr:`LineLayout.poles_in_view`'s) hold a Pole of ``poles`` (64,) bool."""
    standing = np.where(_NEIGHBOURHOOD >= 0, poles[np.maximum(_NEIGHBOURHOOD, 0)], False)
    return (standing << np.arange(9)).sum(axis=1).astype(np.int16)


def wall_structure(light: np.ndarray, empty: np.ndarray, lines: LineLayout,
                   poles: np.ndarray, noise: float = 1.0,
                   in_shadow: ShadowOnLines | None = None) -> np.ndarray:
    """(64, 4) float32: how strongly each edge's wall region shows a wall's structure, in
    standard deviations of the frame's own noise (0 where too little of it is in clear
    view). ``light`` and ``empty`` (64, 4, J, K): lightness now and on the empty mat
    (:func:`lightness_at`); ``poles`` (64,) bool: Poles read standing, whose bodies the
    profiles must not take for walls, nor the edges of their shadows: where a Pole stands,
    the darkening its shadow makes (``in_shadow``, :func:`lines_in_shadow`) is taken out of
    the change (a shadow falling across an edge's region is as sharp a step as a wall's
    face, and a wall standing in it still shows)."""
    cfg = CLASSIFY
    change = log_change(light, empty)
    bits = poles_near(poles)
    if in_shadow is not None:
        shade = np.zeros(change.size, np.float32)
        for q in np.flatnonzero(poles):
            idx, dark = in_shadow[q]
            np.minimum.at(shade, idx, dark)
        change = change - shade.reshape(change.shape)
    change = np.where((lines.poles_in_view & bits[:, None, None, None]) != 0, np.nan, change)
    # the frame's noise, from every third point (thousands: plenty, and a third the sort)
    sigma = _spread(change.reshape(-1)[::3], cfg.line_sigma_floor * noise)
    if sigma is None:
        return np.full((64, 4), np.nan, np.float32)
    # a whole profile kept only where every point of it is in clear view
    # points off the mat are left out of every profile of their edge alike (they lie at
    # the same place across it); a profile with a point past a Pole is left out whole
    on_mat = lines.on_mat  # (64, 4, K)
    clear = np.isfinite(change) | ~on_mat[:, :, None]
    whole = clear[..., 0].copy()  # (64, 4, J): np.all over K, a lane at a time (a third)
    for k in range(1, clear.shape[3]):
        whole &= clear[..., k]
    n_whole, n_on = whole.sum(axis=2), on_mat.sum(axis=2)  # (64, 4) each
    enough = (n_whole >= cfg.line_least_along) & (n_on >= 2)
    view = whole[..., None] & on_mat[:, :, None]  # (64, 4, J, K)
    offset = masked_median(change.reshape(64, 4, -1), view.reshape(64, 4, -1))  # (64, 4)
    rel = change - offset[..., None, None]
    # The medians along and across each edge sort seven values a lane: a sorting network
    # (masked_median's values, with the values left out as +inf) costs a fifth of np.sort.
    # Every point in view is finite (whole), and so is every on-mat point of a whole place.
    on_k = on_mat[:, :, None, :]  # (64, 4, 1, K)
    profile = median_of_sorted(sorted_along(np.where(view, rel, np.inf), 2),
                               n_whole[:, :, None] * on_mat)  # (64, 4, K)
    n_k = np.maximum(n_on, 1)
    shape = np.sqrt((profile * profile * on_mat).sum(axis=2) / n_k)
    # ... and most places along the edge must show structure of their own: a Pole's body
    # leaning over the middle of the edge (a Pole too like the mat to be read) shows at a
    # few places, and the median profile may take it from them (places not whole, whose
    # points may be NaN, are left out below: their medians do not matter)
    own = rel - median_of_sorted(sorted_along(np.where(on_k, rel, np.inf), 3),
                                 n_on[:, :, None])[..., None]
    each = np.sqrt((np.where(on_mat[:, :, None], own, 0.0) ** 2).sum(axis=3) / n_k[..., None])
    score = np.minimum(shape, masked_median(each, whole)) / sigma
    return np.asarray(np.where(enough, score, np.nan), np.float32)


@dataclass(frozen=True, slots=True)
class LinePatterns:
    """The empty photo's pattern across every edge, for :func:`veiled_lines` (planned once
    per camera fix, see :func:`line_patterns`).

    pattern: (64, 4, J, K) float32 log lightness of each profile across the edge about its
    own mean (0 where a point is off the mat); strength: (64, 4) its sum of squares;
    readable: (64, 4) bool, the edges with at least ``line_kept_points`` points and
    ``line_kept_structure`` log lightness a point to lose; poles_in_view: (64, 4) int16, the
    neighbours' Poles (:class:`LineLayout`'s bits) that any point of the edge's profiles
    sees past."""

    pattern: np.ndarray
    strength: np.ndarray
    readable: np.ndarray
    poles_in_view: np.ndarray


def line_patterns(empty: np.ndarray, poles_in_view: np.ndarray) -> LinePatterns:
    """The empty look across every edge (``empty`` (64, 4, J, K) lightness,
    :func:`lightness_at`) as :func:`veiled_lines` reads it; ``poles_in_view``
    (64, 4, J, K): the same points' :attr:`LineLayout.poles_in_view`."""
    log = np.log(empty + CLASSIFY.line_dark)
    use = np.isfinite(log)
    log = np.where(use, log, 0.0)
    count = use.sum(axis=3, keepdims=True)
    pattern = np.where(use, log - log.sum(axis=3, keepdims=True) / np.maximum(count, 1), 0.0)
    strength = (pattern * pattern).sum(axis=(2, 3))
    points = use.sum(axis=(2, 3))
    readable = ((points >= GATE.line_kept_points)
                & (strength >= GATE.line_kept_structure ** 2 * np.maximum(points, 1)))
    seen_past = np.bitwise_or.reduce(poles_in_view.reshape(64, 4, -1), axis=2)
    return LinePatterns(pattern.astype(np.float32), strength.astype(np.float32), readable,
                        seen_past.astype(np.int16))


def veiled_lines(light: np.ndarray, patterns: LinePatterns, poles: np.ndarray,
                 walls: np.ndarray) -> np.ndarray:
    """(64, 4) bool: the edges whose look across the line in the empty photo (the grid
    line, a pad's print beside it; ``patterns``, :func:`line_patterns`) is gone, where no
    piece read explains it: something over the mat hides the print (a hand coloured like
    the mat, which neither colour nor the set's count tells from it). ``light``
    (64, 4, J, K): lightness now (:func:`lightness_at`); ``poles`` (64,) bool: Poles read
    standing, whose lines of sight leave an edge out; ``walls`` (64, 4) bool: a wall read
    standing on the edge's line (the space's own or the neighbour's across it). In log
    lightness a shade or an exposure scales the pattern across a line without changing its
    shape: an edge is veiled where less than ``line_kept`` of it projects onto what is seen
    now."""
    bits = poles_near(poles)
    # (a point off the mat, NaN, weighs nought: np.fmax reads it as 0)
    now = np.log(np.fmax(light, 0.0) + np.float32(CLASSIFY.line_dark))
    # the pattern sums to nought across each profile: the frame's own mean drops out
    kept = (now * patterns.pattern).sum(axis=(2, 3))
    return (patterns.readable & ((patterns.poles_in_view & bits[:, None]) == 0)
            & (kept < GATE.line_kept * patterns.strength) & ~walls)


@dataclass(frozen=True, slots=True)
class PoleAxes:
    """Where each space's Pole would show its body: mat points (64, Z, 3, 2) at heights
    (64, Z, 3), Z heights up the body, on the axis of the Pole that may stand on the space
    (index 0) and beside it either way across the line of sight (1, 2)."""

    points: np.ndarray
    heights: np.ndarray


def pole_axes(camera: CameraModel, geometry: PieceGeometry | None = None) -> PoleAxes:
    """The points :func:`pole_body` reads, for this camera."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    z = np.array(cfg.body_heights) * g.pole_height
    centre = _CENTRES
    away = centre - camera.centre[:2]
    dist = np.linalg.norm(away, axis=1, keepdims=True)
    away = np.where(dist > 1e-6, away / np.maximum(dist, 1e-6), np.array([[0.0, 1.0]]))
    across = np.column_stack([-away[:, 1], away[:, 0]]) * cfg.body_beside
    offsets = np.stack([np.zeros_like(across), -across, across], axis=1)  # (64, 3, 2)
    pts = np.broadcast_to(centre[:, None, None] + offsets[:, None], (64, len(z), 3, 2)).copy()
    heights = np.broadcast_to(z[None, :, None], (64, len(z), 3)).copy()
    return PoleAxes(pts, heights)


def pole_body(light: np.ndarray, empty: np.ndarray, noise: float = 1.0) -> np.ndarray:
    """(64,) float32: how strongly each space shows a Pole's body, in standard deviations of
    the frame's own noise: the change from the empty look (log lightness) on the Pole's
    axis against beside it, the median of its size up the body. A Pole coloured like the
    mat still has a body lit unlike the mat round it (its side faces the light otherwise),
    which a shadow falling over the space darkens alike on and beside the axis. ``light``, ``empty``
    (64, Z, 3): lightness at :class:`PoleAxes`' points now and on the empty mat."""
    change = log_change(light, empty)
    sigma = _spread(change, CLASSIFY.line_sigma_floor * noise)
    if sigma is None:
        return np.zeros(64, np.float32)
    body = change[:, :, 0] - 0.5 * (change[:, :, 1] + change[:, :, 2])  # (64, Z)
    # The median size of the change up the body, whatever its sign: a cylinder lit from
    # one side is darker low on its shaded flank and lighter near its lit top (a signed
    # median cancels them); one height alone is no body.
    size = masked_median(np.abs(nan_to(body, 0.0)), ~np.isnan(body))  # none in view: 0
    return size.astype(np.float32) / np.float32(sigma)


@dataclass(frozen=True, slots=True)
class PoleRims:
    """Where each space's Pole would show the rim of its top: mat points (64, N, 2, 2) on
    N lines across the rim at the Pole's height, just inside it (index 0) and just outside
    (1); their heights (64, N, 2); and which lines (64, N) bool are in clear view: both
    lines of sight keep clear of every other Pole and wall that may stand on the space or
    round it, so a neighbour leaning into view is no rim."""

    points: np.ndarray
    heights: np.ndarray
    clear: np.ndarray


def pole_rims(camera: CameraModel, geometry: PieceGeometry | None = None) -> PoleRims:
    """The points :func:`pole_rim` reads, for this camera."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    angle = np.linspace(0.0, 2.0 * np.pi, cfg.rim_directions, endpoint=False)
    ways = np.column_stack([np.cos(angle), np.sin(angle)])  # (N, 2)
    radii = np.array([cfg.rim_inside, cfg.rim_outside]) * (g.pole_diameter / 2)
    pts = _CENTRES[:, None, None] + ways[None, :, None] * radii[None, None, :, None]
    heights = np.full(pts.shape[:-1], g.pole_height)
    targets = np.concatenate([pts, heights[..., None]], axis=-1).reshape(64, -1, 3)
    clearance = clear_of_other_pieces(camera, targets, g).reshape(64, -1, 2)
    clear = np.asarray((clearance >= clear_needed(camera)).all(axis=2), bool)
    return PoleRims(pts, heights, clear)


def pole_rim(light: np.ndarray, empty: np.ndarray, rims: PoleRims, noise: float = 1.0
             ) -> np.ndarray:
    """(64,) float32: how strongly each space shows the rim of a Pole's top, in standard
    deviations of the frame's own noise: the median, over the lines in clear view, of the
    change from the empty look (log lightness) inside the rim against outside it (signed:
    positive where inside changed up from outside). A
    Pole's top is lit otherwise than what lies past its rim (its flank, its shadow, the mat
    far below), whatever their colours; on bare mat both points change alike (a shade, an
    exposure), and lines across the print's own edges are left out. NaN where too
    few lines are in clear view. ``light``, ``empty`` (64, N, 2): lightness at
    :class:`PoleRims`' points now and on the empty mat. (In two steps, :func:`rim_lines`
    and :func:`rim_size`, where some lines are left out frame by frame.)"""
    return rim_size(*rim_lines(light, empty, rims, noise))


def rim_lines(light: np.ndarray, empty: np.ndarray, rims: PoleRims, noise: float = 1.0
              ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pole_rim`'s lines: the change across each (64, N) float32, in the frame's
    noise deviations, and which are read (64, N) bool (none where too few are in view to
    measure the noise)."""
    change = log_change(light, empty)
    across = change[..., 0] - change[..., 1]  # (64, N)
    # Not across the print's own edges (a Telepad's disc round the same centre): a frame a
    # little softer or sharper than the empty photo changes them all one way, as a rim.
    printed = np.abs(log_change(empty[..., 0], empty[..., 1]))
    seen = rims.clear & np.isfinite(across) & (printed <= CLASSIFY.rim_print_edge)
    sigma = _spread(across[seen], max(CLASSIFY.line_sigma_floor * noise,
                                      CLASSIFY.rim_sigma_floor))
    if sigma is None:  # too little in view to tell noise from a rim: no line is read
        return np.zeros(across.shape, np.float32), np.zeros(seen.shape, bool)
    return (nan_to(across, 0.0) / sigma).astype(np.float32), seen


def rim_size(across: np.ndarray, seen: np.ndarray, leave_out: np.ndarray | None = None
             ) -> np.ndarray:
    """(64,) float32: :func:`pole_rim` from :func:`rim_lines`, ``leave_out`` (64, N) bool
    lines left out besides (:func:`rim_lines_shaded`)."""
    if leave_out is not None:
        seen = seen & ~leave_out
    # A median: a top is lit otherwise than all round past its rim, one way, where noise
    # and the print's edges, slightly off from the empty photo's, change either way. Kept
    # signed (the way tells a top from a shadow's band: see vision.classify._read_poles).
    rim = masked_median(across, seen)
    return np.where(seen.sum(axis=1) >= CLASSIFY.rim_least_directions, rim,
                    np.nan).astype(np.float32)


def rim_lines_shaded(camera: CameraModel, rims: PoleRims, shadow: PoleShadow | None,
                     reach: float, geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, N, 4) uint64: for each space's rim line in clear view, the walls (64 spaces x 4
    edges, EDGES order, as bits: :func:`wall_bits`) that may cast their shadow within
    ``reach`` of where its two lines of sight meet the mat. With no Pole there the camera
    sees the mat there, and a shadow's edge between a line's two points draws a rim (a
    Port's wall beside a bare space, seen at a slant under a soft box). A wall's shadow is
    a Pole's (``shadow``) scaled to the wall's height, from every point along the wall;
    with no shadow learned, none is looked for (soft light's shadows are faint)."""
    g = geometry or PieceGeometry()
    n = rims.clear.shape[1]
    out = np.zeros((64, n, 64, 4), bool)
    if shadow is None:
        return wall_bits(out)
    c = camera.centre
    lift = c[2] / np.maximum(c[2] - rims.heights, 1e-6)  # (64, N, 2)
    landing = c[:2] + (rims.points - c[:2]) * lift[..., None]  # (64, N, 2, 2)
    cast = shadow.offsets * (g.wall_height / g.pole_height)
    ends = {"s": ((0.0, 0.0), (1.0, 0.0)), "n": ((0.0, 1.0), (1.0, 1.0)),
            "w": ((0.0, 0.0), (0.0, 1.0)), "e": ((1.0, 0.0), (1.0, 1.0))}
    for p in range(64):
        px, py = p % 8, p // 8
        # the spaces whose rim lines may meet the mat near this space's walls
        near = [q for q in range(64) if max(abs(q % 8 - px), abs(q // 8 - py)) <= 2]
        pts = landing[near]  # (Q, N, 2, 2)
        for i, edge in enumerate(EDGES):
            a, b = (np.add(e, (px, py), dtype=float) for e in ends[edge])
            # the shadow: the wall moved by each offset; each point's distance from it
            d = _segment_distance(pts[..., None, :] - cast, a, b)  # (Q, N, 2, K)
            out[near, :, p, i] = (d <= reach).any(axis=(2, 3))
    return wall_bits(out & rims.clear[:, :, None, None])


def wall_bits(walls: np.ndarray) -> np.ndarray:
    """(..., 64, 4) bool -> (..., 4) uint64: the 256 walls as bits (np.packbits' bytes in
    memory order), so that an AND of four words tells what an AND of 256 bools does."""
    packed = np.packbits(walls.reshape(*walls.shape[:-2], 256), axis=-1)
    return np.ascontiguousarray(packed).view(np.uint64)


def _segment_distance(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(...,) distance of points (..., 2) from the segment a-b (each (2,))."""
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
    return np.linalg.norm(points - (a + t[..., None] * ab), axis=-1)


def foot_change(feat: np.ndarray, empty: np.ndarray, layout: SampleLayout,
                noise: float = 1.0, occupied: np.ndarray | None = None) -> np.ndarray:
    """(64,) float32: how much each space's footprint disc changed from the empty look:
    the median size of its samples' change in log lightness, in standard deviations of the
    frame's own noise (the spread of the change over every top and footprint sample). A
    Pole coloured like the mat still stands in front of it there, its body lit otherwise
    than the mat; bare mat changes by noise, or by a shadow. ``feat``, ``empty``
    (64, S, 3): colour features now and on the empty mat (NaN: unknown); ``occupied``
    (64,) bool: spaces where Poles are read, whose footprints say nothing of the light (a
    Port's footprint is bare mat)."""
    change = log_change(feat[..., 0], empty[..., 0])
    # The camera's noise is about even in lightness, so in log lightness it grows as the
    # mat darkens: a sample of dark print changes by noise more than the light mat round it
    # does, and is weighed as much less as it is darker than the discs' median.
    dark = empty[..., 0] + CLASSIFY.line_dark
    typical = np.nanmedian(dark[:, disc_columns(layout)])
    if np.isfinite(typical):
        change = change * np.minimum(dark / typical, 1.0)
    discs = change[:, disc_columns(layout)]
    sigma = _spread(discs, CLASSIFY.line_sigma_floor * noise)
    if sigma is None:
        return np.zeros(64, np.float32)
    foot = change[:, layout.foot]
    seen = ~np.isnan(foot)  # a footprint the empty photo never saw tells nothing (0)
    # What the light did round here since the empty photo (a lamp dimmed unevenly, an
    # exposure change not quite taken out): the median footprint change of the spaces
    # round it that no piece is read on (a corner space between two Poles would otherwise
    # take their change for the light's).
    own = masked_median(foot, seen)
    bare = seen.any(axis=1) if occupied is None else seen.any(axis=1) & ~occupied
    around = []
    for nb in (_NEIGHBOURHOOD, _LIGHT_AROUND):
        keep = (nb >= 0) & bare[np.maximum(nb, 0)]
        around.append((masked_median(own[np.maximum(nb, 0)], keep), keep.sum(axis=1)))
    (near, known), (wide, _) = around
    local = np.where(known >= CLASSIFY.light_least_bare, near, wide)
    # ... yet a footprint just as the empty photo showed it is bare mat, whatever the light
    # did round it: the spaces round it may be bare and shaded (a low lamp's long shadows
    # over half of them, an unchanged footprint between them read as a Pole).
    size = np.minimum(masked_median(np.abs(foot - local[:, None]), seen),
                      masked_median(np.abs(foot), seen))
    return (size / sigma).astype(np.float32)


@dataclass(frozen=True, slots=True)
class PoleShadow:
    """A Pole's own shadow on this table, learned at calibration: mat offsets (N, 2), in
    spaces, from a Pole's centre, and the change in log lightness (N,) its shadow makes
    there (negative: darker), where it is clearly darker. Under a far light (the sun, a
    window) every Pole casts it alike (``lamp`` None). Under a lamp near the mat each
    Pole's falls away from the point under the lamp, longer the further off: ``lamp`` is
    that point (x, y, mat spaces) and the distance from it at which the offsets hold, given
    with x along the way away from the lamp and y across it (:meth:`at_spaces`). Where a
    shadow may fall on other spaces (:func:`shading_spaces`, :func:`wall_shading`,
    :func:`rim_lines_shaded`, :func:`lines_in_shadow`) is judged by a far light's: a lamp's,
    learned from its soft shadows, says too narrowly where they cannot reach."""

    offsets: np.ndarray
    change: np.ndarray
    lamp: tuple[float, float, float] | None = None

    def at_spaces(self) -> np.ndarray:
        """(64, N, 2) the offsets from each space's centre where a Pole there casts it."""
        if self.lamp is None:
            return np.broadcast_to(self.offsets, (64, *self.offsets.shape))
        return lamp_offsets(self.offsets, np.array(self.lamp[:2]), self.lamp[2], _CENTRES)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"offsets": np.round(self.offsets, 3).tolist(),
                               "change": np.round(self.change, 4).tolist()}
        if self.lamp is not None:
            doc["lamp"] = [round(float(v), 3) for v in self.lamp]
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> PoleShadow:
        offsets = np.array(doc["offsets"], float).reshape(-1, 2)
        change = np.array(doc["change"], float).reshape(-1)
        if len(offsets) != len(change) or not (np.isfinite(offsets).all()
                                                and np.isfinite(change).all()):
            raise ValueError(f"pole shadow of {len(offsets)} offsets and {len(change)} changes")
        if (np.abs(offsets) > 2).any() or (change >= 0).any() or (change < -5).any():
            raise ValueError("pole shadow offsets or changes out of range")
        lamp = doc.get("lamp")
        if lamp is not None:
            values = np.array(lamp, float).reshape(-1) if isinstance(lamp, list) else None
            if (values is None or len(values) != 3 or not np.isfinite(values).all()
                    or (np.abs(values[:2] - 4.0) > CLASSIFY.lamp_reach + 1).any()
                    or not 0.0 < values[2] <= 2 * (CLASSIFY.lamp_reach + 8)):
                raise ValueError(f"pole shadow lamp {lamp!r} is not (x, y, distance) near "
                                 "the mat")
            lamp = (float(values[0]), float(values[1]), float(values[2]))
        return cls(offsets, change, lamp)


def lamp_offsets(offsets: np.ndarray, lamp: np.ndarray, reference: float,
                 centres: np.ndarray) -> np.ndarray:
    """(P, N, 2) mat offsets from each of the Poles at ``centres`` (P, 2), mat spaces, of a
    shadow given as ``offsets`` (N, 2) along (x) and across (y) the way away from the point
    under a lamp ``lamp`` (2,), at ``reference`` spaces from it: turned to each Pole's own
    way and lengthened along it by its distance over ``reference`` (within
    ``lamp_scale_least`` and ``lamp_scale_most``: right under the lamp the shadow hides
    under the Pole, whichever way it is read)."""
    away = centres - lamp
    dist = np.linalg.norm(away, axis=1)
    unit = np.where(dist[:, None] > 1e-6, away / np.maximum(dist, 1e-6)[:, None],
                    np.array([1.0, 0.0]))
    across = np.column_stack([-unit[:, 1], unit[:, 0]])
    scale = np.clip(dist / reference, CLASSIFY.lamp_scale_least, CLASSIFY.lamp_scale_most)
    along = offsets[None, :, 0] * scale[:, None]  # (P, N)
    return unit[:, None] * along[..., None] + across[:, None] * offsets[None, :, 1, None]


def shadow_offsets() -> np.ndarray:
    """(M, 2) the offsets round a Pole's centre where its shadow is looked for."""
    g = np.linspace(-CLASSIFY.shadow_reach, CLASSIFY.shadow_reach, CLASSIFY.shadow_grid)
    return np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)


def learn_pole_shadow(changes: np.ndarray, offsets: np.ndarray, least_seen: int = 2
                      ) -> PoleShadow | None:
    """A Pole's own shadow from the start photo: ``changes`` (P, M) the change in log
    lightness from the empty photo at ``offsets`` (M, 2) round each of the P start Poles
    (NaN where the mat is out of sight there). Neighbouring start Poles' shadows fall on
    some of those points, never on all of them at once: the least darkening any start Pole
    shows at an offset is its own shadow's. Not quite: the start Poles stand in rows with
    Ports beside them, so each has a neighbour's shadow at the same offset a space away
    along its row (the row's end Pole, a Port's wall); a Pole's own shadow (one per lamp)
    runs from its foot, so only the dark points joined to the Pole's foot are kept
    (``offsets`` on the :func:`shadow_offsets` grid). None where no clear shadow is seen
    (soft light, or too little of the mat in view). An offset counts where at least
    ``least_seen`` start Poles show it."""
    cfg = CLASSIFY
    seen = ~np.isnan(changes)
    if seen.sum() < cfg.shadow_least * 4:
        return None
    own = np.where(seen.sum(axis=0) >= least_seen,
                   np.where(seen, changes, -np.inf).max(axis=0), np.nan)
    sigma = _spread(changes[seen], cfg.line_sigma_floor)
    assert sigma is not None  # enough of the mat was seen (above)
    keep = (np.isfinite(own) & (own < -cfg.shadow_sigma * sigma)
            & (np.linalg.norm(offsets, axis=1) > cfg.shadow_clear_of_pole))
    keep &= _joined_to_the_foot(keep, offsets)
    if keep.sum() < cfg.shadow_least:
        return None
    return PoleShadow(offsets[keep], own[keep])


def shadow_darkening(shadow: PoleShadow | None) -> float:
    """How much a learned shadow darkens the mat in all (its changes' sum, negated; 0 for
    none): how much of the start Poles' shadows it explains."""
    return 0.0 if shadow is None else -float(shadow.change.sum())


def learn_lamp_shadow(change: np.ndarray, origin: np.ndarray, step: float,
                      centres: np.ndarray, offsets: np.ndarray) -> PoleShadow | None:
    """A Pole's own shadow under a lamp near the mat (:attr:`PoleShadow.lamp`), from the start
    photo: ``change`` (H, W) the change in log lightness from the empty photo on a grid of
    mat points ``step`` spaces apart, row by row in y, its [0, 0] at ``origin`` (x, y)
    (NaN where the mat is out of sight); ``centres`` (P, 2) the start Poles'; ``offsets``
    (M, 2) the :func:`shadow_offsets` grid. For each point a lamp may stand over (every
    ``lamp_step`` spaces up to ``lamp_reach`` from the mat's centre, then every
    ``lamp_fine`` round the best), each start Pole's surroundings are read along its own
    way away from that point, lengthened by its distance over the start Poles' median, and
    :func:`learn_pole_shadow` keeps what every start Pole shares: the point whose shadow
    darkens most (:func:`shadow_darkening`), shown by most start Poles at each of its
    points, is the lamp's. None where no point gives one."""
    cfg = CLASSIFY
    h, w = change.shape

    def at(lamp: np.ndarray) -> PoleShadow | None:
        dist = np.linalg.norm(centres - lamp, axis=1)
        reference = float(np.median(dist))
        if reference < 1e-6:
            return None
        pts = centres[:, None] + lamp_offsets(offsets, lamp, reference, centres)
        idx = np.rint((pts - origin) / step).astype(int)  # (P, M, 2): column, row
        inside = ((idx >= 0) & (idx < np.array([w, h]))).all(axis=-1)
        idx = np.where(inside[..., None], idx, 0)
        read = np.where(inside, change[idx[..., 1], idx[..., 0]], np.nan)
        # most start Poles must show each point: a point from which some Poles' shadows
        # fall out of sight would else be judged by the others alone
        shadow = learn_pole_shadow(read, offsets, len(centres) // 2 + 1)
        return None if shadow is None else PoleShadow(
            shadow.offsets, shadow.change, (float(lamp[0]), float(lamp[1]), reference))

    def best_of(points: np.ndarray) -> tuple[PoleShadow | None, np.ndarray | None]:
        found: PoleShadow | None = None
        where = None
        for lamp in points:
            shadow = at(lamp)
            if shadow_darkening(shadow) > shadow_darkening(found):
                found, where = shadow, lamp
        return found, where

    def grid(centre: np.ndarray, reach: float, spacing: float) -> np.ndarray:
        g = np.arange(-reach, reach + 1e-9, spacing)
        return (centre + np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2))

    found, where = best_of(grid(np.array([4.0, 4.0]), cfg.lamp_reach, cfg.lamp_step))
    if where is None:
        return None
    finer, _ = best_of(grid(where, cfg.lamp_step, cfg.lamp_fine))
    return finer if shadow_darkening(finer) > shadow_darkening(found) else found


def lamp_or_shared(shared: PoleShadow | None, lamp: PoleShadow | None) -> PoleShadow | None:
    """The shadow to read this table by: ``lamp`` (:func:`learn_lamp_shadow`) where it darkens
    ``lamp_gain`` times what ``shared`` (:func:`learn_pole_shadow`, every Pole's alike)
    does, else ``shared``: under a far light both find the same shadow, and the one that
    needs no lamp is kept."""
    if lamp is not None and (shadow_darkening(lamp)
                             >= CLASSIFY.lamp_gain * shadow_darkening(shared)):
        return lamp
    return shared


def own_shadow(shared: PoleShadow | None, lamp: PoleShadow | None) -> PoleShadow | None:
    """The shadow a Pole casts of its own on this table: ``lamp``'s where one was kept
    (:func:`lamp_or_shared`), else ``shared``."""
    return lamp if lamp is not None else shared


def _joined_to_the_foot(keep: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(M,) bool: the points of ``keep`` (M,) bool, on the square grid of ``offsets``
    (M, 2) (:func:`shadow_offsets`), joined to the ring just past the Pole's foot through
    kept points (8-connected)."""
    n = CLASSIFY.shadow_grid
    step = 2 * CLASSIFY.shadow_reach / (n - 1)
    grid = keep.reshape(n, n).astype(np.uint8)
    _, labels = cv2.connectedComponents(grid, connectivity=8)
    labels = labels.reshape(-1)
    near = keep & (np.linalg.norm(offsets, axis=1) <= CLASSIFY.shadow_clear_of_pole + 1.5 * step)
    return np.isin(labels, np.unique(labels[near])) & keep


def _side_step(offsets: np.ndarray, change: np.ndarray) -> np.ndarray:
    """(P, 2) a step across each shadow's direction (from the Pole to the shadow's weight),
    ``shadow_side`` spaces long: beside a Pole's shadow, the mat is lit. ``offsets``
    (P, N, 2): each Pole's shadow points (:meth:`PoleShadow.at_spaces`); ``change`` (N,)."""
    weight = -change
    towards = (offsets * weight[:, None]).sum(axis=1) / max(float(weight.sum()), 1e-9)
    norm = np.linalg.norm(towards, axis=1, keepdims=True)
    unit = np.where(norm > 1e-6, towards / np.maximum(norm, 1e-6), np.array([1.0, 0.0]))
    return np.column_stack([-unit[:, 1], unit[:, 0]]) * CLASSIFY.shadow_side


def shadow_points(shadow: PoleShadow) -> np.ndarray:
    """(64, 3, N, 2) the mat points where a Pole on each space casts its shadow, and the same
    stepped either way across the shadow's direction; NaN further than
    ``CLASSIFY.shadow_beyond_grid`` off the grid. Just past it lies the mat's border or the
    table, flat as the mat and seen bare in the empty photo: an edge space's shadow falls
    there as much as on the mat."""
    centre = _CENTRES
    offsets = shadow.at_spaces()
    step = _side_step(offsets, shadow.change)  # (64, 2)
    shifts = np.stack([np.zeros((64, 2)), step, -step], axis=1)  # (64, 3, 2)
    pts = centre[:, None, None] + shifts[:, :, None] + offsets[:, None]
    m = CLASSIFY.shadow_beyond_grid
    return np.where(((pts >= -m) & (pts <= 8 + m)).all(axis=-1, keepdims=True), pts, np.nan)


def shadow_in_view(shadow: PoleShadow, camera: CameraModel,
                   geometry: PieceGeometry | None = None,
                   frame: tuple[int, int] | None = None) -> np.ndarray:
    """(64, 3, N) bool: the points of :func:`shadow_points` that the camera sees past that
    space's own Pole (where it stands, its body hides them), inside the ``frame`` (width,
    height) when given."""
    g = geometry or PieceGeometry()
    pts = shadow_points(shadow)
    n = pts.shape[1] * pts.shape[2]
    own = pole_cylinders(g)[:, 4]  # the space's own Pole (neighbour 4)
    flat = np.nan_to_num(pts, nan=-_FAR).reshape(-1, 2)
    clear = _past_pole(camera, flat, np.repeat(own, n, axis=0), g).reshape(pts.shape[:-1])
    seen = (clear >= CLASSIFY.line_pole_clear) & ~np.isnan(pts[..., 0])
    if frame is not None:
        uv = camera.image_points(flat).reshape(*pts.shape[:-1], 2)
        seen &= ((uv >= 0) & (uv <= np.array(frame, float) - 1)).all(axis=-1)
    return seen


def shadow_point_spaces(shadow: PoleShadow, camera: CameraModel,
                        geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, 3, N, 8) uint8, each point of :func:`shadow_points` with the spaces (64 bits,
    ``np.packbits`` order) a piece on which may change its look: the space it lies on; the
    neighbour across a nearby edge (a wall there shades it); any space whose Pole's shadow
    may fall on it (this table's shadow, from that space's centre); any neighbour whose
    Pole may stand in the camera's line of sight to it. Never the space whose shadow it
    is. A piece elsewhere leaves the point as its own Pole's shadow alone would: a long
    sun shadow is read on the points no other piece touches, not given up whole."""
    g = geometry or PieceGeometry()
    pts = shadow_points(shadow)  # (64, 3, N, 2)
    flat = pts.reshape(-1, 2)
    owner = np.repeat(np.arange(64), pts.shape[1] * pts.shape[2])
    on = ~np.isnan(flat[:, 0])
    bits = np.zeros((len(flat), 64), bool)
    idx = np.flatnonzero(on)
    x = flat[on]
    cell = np.clip(np.floor(x), 0, 7).astype(int)
    space = cell[:, 0] + 8 * cell[:, 1]
    bits[idx, space] = True
    # a wall on the edge between the point's space and a neighbour shades this far across
    at = shadow.at_spaces()  # (64, N, 2)
    reach = float(np.linalg.norm(at, axis=2).max()) * g.wall_height / g.pole_height \
        + g.wall_thickness
    frac = x - cell
    for axis, sign, near in ((0, -1, frac[:, 0]), (0, 1, 1 - frac[:, 0]),
                             (1, -1, frac[:, 1]), (1, 1, 1 - frac[:, 1])):
        other = cell.copy()
        other[:, axis] += sign
        ok = (near <= reach) & (other >= 0).all(axis=1) & (other <= 7).all(axis=1)
        bits[idx[ok], other[ok, 0] + 8 * other[ok, 1]] = True
    # A Pole stands at its space's centre and casts its shadow at the learned offsets from
    # it (to within their grid's spacing): two spaces away at most.
    spacing = 2 * CLASSIFY.shadow_reach / (CLASSIFY.shadow_grid - 1)
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            src = cell + np.array([dx, dy])
            ok = (src >= 0).all(axis=1) & (src <= 7).all(axis=1)
            rel = x[ok] - (src[ok] + 0.5)
            cast_from = at[src[ok, 0] + 8 * src[ok, 1]]  # (K, N, 2)
            near = np.linalg.norm(rel[:, None] - cast_from, axis=2).min(axis=1)
            cast = near <= 1.5 * spacing
            bits[idx[ok][cast], src[ok][cast, 0] + 8 * src[ok][cast, 1]] = True
    # A Pole on a neighbour may stand in the camera's line of sight to the point (as
    # shadow_in_view tests the space's own).
    cylinders = pole_cylinders(g)
    for k in range(9):
        p = _NEIGHBOURHOOD[space, k]
        clear = _past_pole(camera, x, cylinders[space, k], g)
        hide = (p >= 0) & (clear < CLASSIFY.line_pole_clear)
        bits[idx[hide], p[hide]] = True
    bits[np.arange(len(flat)), owner] = False
    return np.packbits(bits, axis=1).reshape(*pts.shape[:-1], 8)


def shadow_point_words(shadow: PoleShadow, camera: CameraModel,
                       geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, 3, N) uint64: :func:`shadow_point_spaces` with each point's 64 bits as one word
    (np.packbits' bytes in memory order): an AND of two words tells what an AND of eight
    bytes and np.any tell (:func:`shadow_points_clear`)."""
    spaces = np.ascontiguousarray(shadow_point_spaces(shadow, camera, geometry))
    return spaces.view(np.uint64).reshape(spaces.shape[:-1])


def shadow_points_by_own_walls(shadow: PoleShadow, reach: float,
                               geometry: PieceGeometry | None = None,
                               camera: CameraModel | None = None) -> np.ndarray:
    """(64, 3, N, 4) bool: the points of :func:`shadow_points` that a wall standing on each
    edge (EDGES order) of the space whose shadow it is may change, within ``reach`` (a
    penumbra's margin, a pixel's blur): where it casts its own shadow, the space's Pole
    shadow scaled to the wall's height from every point along the wall (as
    :func:`wall_shading`), and, with ``camera``, where it stands between the camera and the
    mat (the wall's "shadow" from a light at the camera: a dark wall there is no Pole's
    shadow). A Pole inside its Port casts its shadow past them, where its walls' shorter
    shadows end."""
    g = geometry or PieceGeometry()
    pts = shadow_points(shadow)  # (64, 3, N, 2)
    rel = np.nan_to_num(pts, nan=-_FAR).reshape(64, -1, 2) - (_CENTRES - 0.5)[:, None]
    # the ways each wall is moved from where it stands: by each offset of its shadow, and
    # with the camera out along the mat its top hides (the wall's middle stands for it:
    # its two ends differ by a few hundredths of a space)
    moves = shadow.at_spaces() * (g.wall_height / g.pole_height)  # (64, N, 2)
    out = np.zeros((*rel.shape[:2], 4), bool)
    mids = {"s": (0.5, 0.0), "n": (0.5, 1.0), "w": (0.0, 0.5), "e": (1.0, 0.5)}
    for i, edge in enumerate(EDGES):
        ways = moves
        if camera is not None:
            c = camera.centre
            mid = _CENTRES - 0.5 + np.array(mids[edge])
            away = (mid - c[:2]) * (g.wall_height / max(c[2] - g.wall_height, 1e-6))
            lean = np.linspace(0.0, 1.0, 6)
            ways = np.concatenate([moves, away[:, None] * lean[None, :, None]], axis=1)
        # each point against the wall moved each way: its distance to a unit segment
        q = rel[:, :, None] - ways[:, None]  # (64, P, M, 2), the wall's corner at 0
        across, run = (q[..., 1], q[..., 0]) if edge in "sn" else (q[..., 0], q[..., 1])
        across = across - (1.0 if edge in "ne" else 0.0)
        beyond = np.maximum(np.maximum(-run, run - 1.0), 0.0)
        out[:, :, i] = (np.hypot(across, beyond) <= reach).any(axis=2)
    return out.reshape(*pts.shape[:-1], 4)


def shadow_points_clear(words: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """(64, 3, N) bool: the shadow points no piece on the spaces ``occupied`` (64,) bool may
    change (``words``: :func:`shadow_point_words`)."""
    return (words & np.packbits(occupied).view(np.uint64)) == 0


def shading_spaces(shadow: PoleShadow | None, reach: float, stretch: float = 1.0
                   ) -> np.ndarray:
    """(64, 64) bool: for each space, the other spaces whose Pole may cast its shadow within
    ``reach`` of its centre (its footprint). A Pole stands at its space's centre, so its
    shadow falls at that centre plus ``shadow``'s offsets (this table's Pole shadow), and
    with ``stretch`` > 1 at those offsets lengthened up to that many times too, in steps of
    a tenth (the shadow learned is the part every start Pole's shares, short of its faint
    tip); with no shadow learned (soft light, whose shadows are faint, not absent), every
    neighbour's may."""
    if shadow is not None and stretch > 1.0:
        scales = np.arange(1.0, stretch + 1e-9, 0.1)
        shadow = PoleShadow(np.concatenate([shadow.offsets * k for k in scales]),
                            np.tile(shadow.change, len(scales)))
    if shadow is None:
        out = np.zeros((64, 64), bool)
        nb = _NEIGHBOURHOOD
        for q in range(64):
            out[q, nb[q][nb[q] >= 0]] = True
    else:
        between = _CENTRES[:, None] - _CENTRES[None]  # (q, p, 2): from each Pole to a space
        out = np.zeros((64, 64), bool)
        for offset in shadow.offsets:  # one at a time: (64, 64, N) would be large
            out |= np.linalg.norm(between - offset, axis=-1) <= reach
    out[np.arange(64), np.arange(64)] = False
    return out


def wall_shading(shadow: PoleShadow | None, reach: float,
                 geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, 64, 4) bool: for each space, whether a wall standing on each edge (EDGES order)
    of each space may cast its shadow within ``reach`` of its centre (its footprint). A
    wall's shadow is a Pole's (``shadow``, learned for this table) scaled to the wall's
    height, from every point along the wall; with no shadow learned, every wall of the
    space and its neighbours may."""
    near = np.zeros((3, 3, 4), bool)  # [dy + 1, dx + 1, edge]: the wall's space dx, dy away
    if shadow is None:
        near[:] = True
    else:
        g = geometry or PieceGeometry()
        cast = shadow.offsets * (g.wall_height / g.pole_height)  # (N, 2)
        along = np.linspace(0.0, 1.0, 9)
        walls = {"s": np.column_stack([along, np.zeros(9)]),
                 "n": np.column_stack([along, np.ones(9)]),
                 "w": np.column_stack([np.zeros(9), along]),
                 "e": np.column_stack([np.ones(9), along])}
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for i, edge in enumerate(EDGES):
                    falls = (walls[edge][:, None] + cast[None]).reshape(-1, 2) + np.array([dx, dy])
                    near[dy + 1, dx + 1, i] = bool(
                        (np.linalg.norm(falls - 0.5, axis=1) <= reach).any())
    out = np.zeros((64, 64, 4), bool)
    for q in range(64):
        x, y = q % 8, q // 8
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if 0 <= x + dx < 8 and 0 <= y + dy < 8:
                    out[q, q + dx + 8 * dy] = near[dy + 1, dx + 1]
    return out


def footprint_shading(shadow: PoleShadow | None, geometry: PieceGeometry | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Where a Pole's (64, 64) and a wall's (64, 64, 4) shadow may fall on a space's
    footprint (:func:`shading_spaces`, :func:`wall_shading`) on this table (``shadow``:
    its Pole shadow, None: none learned), within the footprint disc and a penumbra's
    margin, and past the learned shadow's length as its faint tip may reach."""
    reach = CLASSIFY.disc_radius + CLASSIFY.foot_shade_margin
    return (shading_spaces(shadow, reach, CLASSIFY.shadow_may_stretch),
            wall_shading(shadow, reach, geometry))


def shaded_footprints(shading: tuple[np.ndarray, np.ndarray], poles: np.ndarray,
                      walls: np.ndarray) -> np.ndarray:
    """(64,) bool: the spaces whose footprint a shadow may fall on, of the Poles standing on
    ``poles`` (64,) bool and the walls on ``walls`` (64, 4) bool (EDGES order), given
    :func:`footprint_shading`'s maps."""
    by_poles, by_walls = shading
    return np.asarray((by_poles & poles[None]).any(axis=1)
                      | (by_walls & walls[None]).any(axis=(1, 2)), bool)


def pole_shadow_score(light: np.ndarray, empty: np.ndarray, shadow: PoleShadow,
                      in_view: np.ndarray, change: np.ndarray | None = None) -> np.ndarray:
    """(64,) float32: how much of a Pole's own shadow (``shadow``) each space casts, by
    least squares on the shadow points in view (1: just as the start Poles cast theirs, 0:
    none); 0 where the mat beside the shadow is as dark (a wall's shadow, a broad shade:
    no Pole's); NaN where less than half of the shadow is in view. ``light``, ``empty``
    (64, 3, N): lightness at :func:`shadow_points` now and on the empty mat; ``change``:
    their :func:`log_change`, where the caller has it already (a frame asks twice)."""
    if change is None:
        change = log_change(light, empty)
    use = in_view & np.isfinite(change)
    k = shadow.change[None, None]
    energy = np.where(use, k * k, 0.0).sum(axis=2)  # (64, 3)
    score = np.where(use, change * k, 0.0).sum(axis=2) / np.maximum(energy, 1e-9)
    enough = energy >= 0.5 * float((shadow.change ** 2).sum())
    beside = np.where(enough[:, 1:], score[:, 1:], 0.0).max(axis=1)
    own = np.where(beside > CLASSIFY.shadow_beside_most, 0.0, score[:, 0])
    return np.where(enough[:, 0], own, np.nan).astype(np.float32)


def colour_walls_across(edge_sides: np.ndarray, like: np.ndarray) -> np.ndarray:
    """(64, 4) bool: edges across whose line the neighbouring space has a wall of a side
    whose colour its own bare look there does not share (read by its colour, not its
    shape). ``edge_sides`` (64, 4): the side (0 none, 1 south, 2 north) each edge's wall is
    read as, EDGES order; ``like`` (64, 4, 2): :func:`edge_side_like`."""
    there = np.maximum(_ACROSS, 0), _ACROSS_EDGE
    side = edge_sides[there]
    seen_like = like[there]
    shown = np.where(side == 2, seen_like[..., 1], seen_like[..., 0])  # (take_along_axis's)
    return (_ACROSS >= 0) & (side > 0) & ~shown


def with_structure(edge_ll: np.ndarray, structure: np.ndarray, side_like: np.ndarray,
                   across: np.ndarray | None = None) -> np.ndarray:
    """Each edge's evidence (64, 4, 3) for [no wall, south's, north's] with a wall's shape
    added, for a side whose colour the bare mat there shares (``side_like`` (64, 4, 2),
    :func:`edge_side_like`): there a wall of that side may look just as the bare mat did
    at every sample (its top, seen from above), so its samples' "unchanged" says no more
    than ``line_colour_floor`` against it; its structure (:func:`wall_structure` (64, 4);
    NaN where too little is in view: the colours are left to say what they can) speaks for
    it, and none against it. Other sides' walls show their colour, which says more; a
    region as flat as bare mat speaks against them too (a shadow beside a dark border
    darkens the mat to a dark wall's colour, by a few deviations, but builds no wall), and
    a wall's structure backs them where their colour fits a wall better than bare mat.
    ``across`` (64, 4) bool: edges whose line holds, on the other side, a wall read by its
    colour: that wall's structure shows across the line too, and is no evidence of one
    here."""
    cfg = CLASSIFY
    ll = clip(cfg.line_gain * (structure - cfg.line_structure), -cfg.line_cap, cfg.line_cap)
    if across is not None:
        ll = np.where(across, np.minimum(ll, 0.0), ll)
    shaped = side_like & ~np.isnan(structure)[..., None]  # (64, 4, 2)
    colour = np.maximum(edge_ll[..., 1:] - edge_ll[..., :1], -cfg.line_colour_floor)
    out = edge_ll.copy()
    # Elsewhere the colour speaks first. A region in clear view as flat as bare mat holds
    # no wall, whatever a shadow did to its colour; a wall's structure backs a side whose
    # colour already fits a wall there better than bare mat (an ivory wall on dark cloth,
    # seen past a neighbour, is no dark wall however dark cloth's wall would look).
    shown = nan_to(ll, 0.0)[..., None]
    backs = np.where(shown < 0.0, shown,
                     np.where(edge_ll[..., 1:] >= edge_ll[..., :1], shown, 0.0))
    out[..., 1:] = np.where(shaped, edge_ll[..., :1] + colour + shown, edge_ll[..., 1:] + backs)
    return out


def edge_side_like(side_like: np.ndarray, wall: slice) -> np.ndarray:
    """(64, 4, 2) bool: edges whose wall samples' bare look (``side_like`` (64, S, 2),
    :func:`vision.classify.bare_side_like`) is mostly like each side's colour."""
    like = side_like[:, wall].reshape(64, 4, WALL_SAMPLES, len(SIDES))
    return like.sum(axis=2) * 2 > WALL_SAMPLES


_NEIGHBOURS = neighbour_squares()
# The space across each edge (EDGES order; -1 off the mat) and the edge it sees there.
_ACROSS = _NEIGHBOURS[:, [1, 7, 3, 5]]
_ACROSS_EDGE = np.array([EDGES.index(o) for o in ("n", "s", "e", "w")])
