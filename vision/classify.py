"""Per-space classification: which Pole stands on each space, which Ports in which corners.

Each space is sampled at a few mat points *at the height the evidence lives at*
(:mod:`vision.geometry`), never in a top-down warp, which is what lets a tall Pole seen at
35 degrees be judged by its own top rather than smeared over its neighbour:

* ``top``: the Pole's top disc (z = Pole height), on the half facing the camera, which no
  neighbour can hide and where, with no Pole, the ray reaches the space's own floor;
* ``foot``: the Pole's footprint (z ~ 0), on the half away from the camera;
* ``wall``: each edge's wall near both ends (z just under the wall top), away from the Pole;
* ``corner``: each corner's block (same height): solid where a Port's two walls meet, a gap
  where two halves of a Teleport join, which tells its diagonal.

Every sample is a colour: the south side's, the north side's, or neither (the calibration
learned both sides' colours and what each sample looks like on the empty mat). A space's
pieces follow from the votes, with a confidence in [0, 1].
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.config import CLASSIFY
from vision.geometry import CameraModel
from vision.mat import CORNER_SIGNS, FILES, MatModel, parse_square, printed_ink
from vision.raycast import Rays, clearance_each, edge_box, silhouette_margin
from vision.stats import clip, median, sorted_along

SIDES = ("south", "north")
EDGES = ("s", "n", "w", "e")
CORNERS = ("sw", "se", "nw", "ne")
CORNER_EDGES = {"sw": ("s", "w"), "se": ("s", "e"), "nw": ("n", "w"), "ne": ("n", "e")}


@dataclass(frozen=True, slots=True)
class PieceGeometry:
    """Nominal proportions in spaces (configurable)."""

    pole_diameter: float = 0.35
    pole_height: float = 0.9
    wall_thickness: float = 0.06
    wall_height: float = 0.3
    seam_gap: float = 0.035  # a Port's walls stop this short of its open ends


WALL_SAMPLES = 3  # per edge
OTHER_READINGS = 3  # of each wall sample (SampleLayout.shifted)


@dataclass(frozen=True, slots=True)
class SampleLayout:
    """Where each space is sampled: mat points (64, S, 2) at heights (64, S), which samples
    are which kind (slices into S), and how trustworthy each sample's line of sight is."""

    points: np.ndarray
    heights: np.ndarray  # (64, S): each sample's height above the mat
    top: slice
    foot: slice
    wall: slice  # EDGES x WALL_SAMPLES
    corner: slice  # 4 samples, CORNERS: where a Port's walls meet, or a Teleport's seam
    corner_ref: slice  # CORNERS x 2: the wall tops either side of each corner
    weight: np.ndarray  # (64, S) in [0, 1]: how clear of other pieces each sample's ray is
    ink: np.ndarray  # (64, S) int8: side whose colour is printed where the ray meets the mat
    # (64, T, 36): the walls (the space's and its neighbours', as _neighbourhoods orders them)
    # that each top sample's line of sight meets below a Pole's top: with no Pole there, such
    # a wall shows in the Pole's stead.
    top_walls: np.ndarray
    # (64, 4 * WALL_SAMPLES, 36): how far each wall sample's line of sight keeps from every
    # other wall of the neighbourhood: a wall read standing there may show in its place.
    wall_near: np.ndarray
    clear: float  # spaces of clearance at which a sample is fully trusted (blur reaches less)
    # (64, 4 * WALL_SAMPLES, 9): how far each wall sample's line of sight keeps from the
    # Pole that may stand on the space and on each neighbour (_neighbourhoods order).
    pole_near: np.ndarray
    # (64, 9) bool: whether a Pole on each neighbour (_neighbourhoods order) leans its top
    # over the space as the camera sees it (its top's colour may blur into the space's discs)
    leans_over: np.ndarray
    # (64, 4 * WALL_SAMPLES, OTHER_READINGS, 3): other places to read each wall sample (mat
    # point and height): [moved CLASSIFY.wall_shift outwards across its edge, inwards, on
    # the wall's lit top]; a Port set down a little off or turned puts its wall at the
    # first two, and a light wall's faces may be in its own shade (:func:`shift_choice`);
    # None: not planned
    shifted: np.ndarray | None = None
    # (64, 4 * WALL_SAMPLES, OTHER_READINGS, 2) bool: whether each such reading's line of
    # sight keeps clear enough [of every other piece, of all but the wall across the edge]
    # to be read in the sample's stead
    shift_ok: np.ndarray | None = None
    # (64, T) uint64, derived: top_walls' 36 bits of each top sample as one word
    # (:func:`bit_words`), which _tops_explained_by_walls tests every frame
    top_wall_bits: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "top_wall_bits", bit_words(self.top_walls))


def bit_words(mask: np.ndarray) -> np.ndarray:
    """(...) uint64: each lane of ``mask`` (..., n) bool, n <= 64, as one word, bit i
    (``np.packbits`` order, in memory) set where the lane's item i is. Two masks' lanes
    share an item exactly where their words' AND is not 0: one operation on a word a lane
    where ``(a & b).any(axis=-1)`` reduces over n items, at a fraction of the cost."""
    packed = np.packbits(mask, axis=-1)
    out = np.zeros((*packed.shape[:-1], 8), np.uint8)
    out[..., :packed.shape[-1]] = packed
    return out.view(np.uint64)[..., 0]


HIDDEN_INK = 2  # added to a side's ink code where its ink may be printed (hidden_pad_ink)


def _disc(n: int, radius: float) -> np.ndarray:
    ang = np.linspace(0, 2 * np.pi, n - 1, endpoint=False)
    return np.vstack([[0.0, 0.0], np.column_stack([np.cos(ang), np.sin(ang)]) * radius])


def _wall_candidates(g: PieceGeometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate wall samples of one edge: along-edge position, inset from the edge, height."""
    cfg = CLASSIFY
    t, h, e = g.wall_thickness, g.wall_height, cfg.wall_surface
    along = np.linspace(cfg.wall_along_min, 1 - cfg.wall_along_min, cfg.wall_candidates)
    spots = [(t / 2, h - e)]  # the top face
    for z in cfg.wall_sample_heights:
        spots += [(e, z * h), (t / 2, z * h), (t - e, z * h)]  # outer face, middle, inner
    a = np.repeat(along, len(spots))
    inset, z = np.array(spots * len(along)).T
    return a, inset, z


def samples_per_space() -> int:
    """How many points :func:`sample_layout` samples per space: the top and footprint
    discs, the wall samples, the corners and the wall tops either side of each corner."""
    return 2 * CLASSIFY.disc_samples + 4 * WALL_SAMPLES + 4 + 8


def wall_candidate_count() -> int:
    """Candidate points per edge among which :func:`sample_layout` chooses wall samples."""
    return len(_wall_candidates(PieceGeometry())[0])


def _edge_xy(x0: float, y0: float, edge: str, along: np.ndarray, inset: np.ndarray
             ) -> np.ndarray:
    if edge == "s":
        return np.column_stack([x0 + along, y0 + inset])
    if edge == "n":
        return np.column_stack([x0 + along, y0 + 1 - inset])
    if edge == "w":
        return np.column_stack([x0 + inset, y0 + along])
    return np.column_stack([x0 + 1 - inset, y0 + along])


_FAR = 1000.0  # where a solid that cannot stand (off the mat) is put
# (dx, dy) into the space from each of its edges
_INWARD = {"s": (0, 1), "n": (0, -1), "w": (1, 0), "e": (-1, 0)}
# the neighbour across each edge (EDGES order; _neighbourhoods numbering), and its edge there
_ACROSS_NEIGHBOUR = (1, 7, 3, 5)
_FACING = {"s": "n", "n": "s", "w": "e", "e": "w"}


def _neighbourhoods(g: PieceGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Every solid that may stand on each space or its eight neighbours: Pole cylinders
    (64, 9, 4) and edge boxes (64, 36, 2, 3), neighbour by neighbour (west to east, then
    south to north; the space itself is neighbour 4) and EDGES within; off the mat, far off."""
    cyl = np.full((64, 9, 4), _FAR)
    boxes = np.full((64, 36, 2, 3), _FAR)
    boxes[..., 1, :] += 0.1
    for sq in range(64):
        file, rank = sq & 7, sq >> 3
        for n, (dr, df) in enumerate((dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1)):
            f, r = file + df, rank + dr
            if not (0 <= f < 8 and 0 <= r < 8):
                continue
            cyl[sq, n] = (f + 0.5, r + 0.5, g.pole_diameter / 2, g.pole_height)
            for i, e in enumerate(EDGES):
                boxes[sq, 4 * n + i] = np.stack(edge_box(f, r, e, g.wall_thickness,
                                                         g.wall_height))
    return cyl, boxes


@functools.lru_cache(maxsize=4)
def pole_cylinders(g: PieceGeometry) -> np.ndarray:
    """(64, 9, 4) the Pole (x, y, radius, height) that may stand on each space and its
    eight neighbours, in :func:`_neighbourhoods` order (the space itself is neighbour 4);
    off the mat, far off. Read-only: it is built once per geometry (~14 ms)."""
    cyl = _neighbourhoods(g)[0]
    cyl.setflags(write=False)
    return cyl


def _without(solids: np.ndarray, drop: list[int]) -> np.ndarray:
    """``solids`` (64, K, ...) with the ones at ``drop`` moved far off."""
    out = solids.copy()
    out[:, drop] = _FAR
    if out.ndim == 4:
        out[:, drop, 1, :] += 0.1
    return out


def _clear(camera: CameraModel, targets: np.ndarray, top: float, cyl: np.ndarray,
           boxes: np.ndarray) -> np.ndarray:
    """Clearance (64, M) of the rays through targets (64, M, 3), each space's from its own
    neighbourhood's solids."""
    m = targets.shape[1]
    rays = Rays(camera.centre, targets.reshape(-1, 3), top)
    return clearance_each(rays, np.repeat(cyl, m, axis=0), np.repeat(boxes, m, axis=0),
                          CLASSIFY.ray_iterations).reshape(64, m)


def _edge_targets(edge: str, a: np.ndarray, inset: np.ndarray, z: np.ndarray) -> np.ndarray:
    """(64, C, 3) the candidate wall points (:func:`_wall_candidates`) of one edge of every
    space, in mat coordinates (spaces) and height."""
    return np.stack([np.column_stack([_edge_xy(sq & 7, sq >> 3, edge, a, inset), z])
                     for sq in range(64)])


# The point and the pixels beside it: a fix a pixel off between photos must not find the
# print's colour there either.
_NEAR_OFFSETS = np.array([(0.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)],
                         np.float32)


def wall_camouflage(camera: CameraModel, empty: np.ndarray, colours: dict[str, ColourModel],
                    geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, 4, C) bool, EDGES order, :func:`_wall_candidates` order: where the line of sight
    through a candidate wall point meets bare mat that looks like a side's colour in the
    empty-mat photo ``empty`` ((H, W, 3) uint8 BGR), at the point or a pixel beside it (a
    Portpad stripe printed in the pieces' colours). A wall seen there cannot be told from
    the print, so :func:`sample_layout` looks elsewhere along the wall."""
    a, inset, z = _wall_candidates(geometry or PieceGeometry())
    out = np.zeros((64, 4, len(a)), bool)
    for i, edge in enumerate(EDGES):
        t = _edge_targets(edge, a, inset, z)
        uv = camera.image_points(t[..., :2].reshape(-1, 2), t[..., 2].reshape(-1))
        for off in _NEAR_OFFSETS:
            look = read_colour(empty, uv + off)
            out[:, i] |= bare_side_like(look, colours).any(axis=-1).reshape(64, -1)
    return out


def _spread_along(along: np.ndarray, level: np.ndarray) -> list[int]:
    """Which WALL_SAMPLES of an edge's candidates (positions ``along`` it, worth ``level``)
    to sample: the worthiest, at least ``wall_min_apart`` apart, nearer the edge's middle
    among equals (corners hold seams and neighbours' walls); in order along the edge."""
    chosen: list[int] = []
    for j in np.lexsort((np.abs(along - 0.5), -level)):
        if all(abs(along[j] - along[c]) >= CLASSIFY.wall_min_apart for c in chosen):
            chosen.append(int(j))
        if len(chosen) == WALL_SAMPLES:
            break
    return sorted(chosen, key=lambda j: along[j])


def sample_layout(camera: CameraModel, geometry: PieceGeometry | None = None,
                  walls: bool = True, mat: MatModel | None = None,
                  camouflaged: np.ndarray | None = None) -> SampleLayout:
    """Where to sample each space, chosen with the camera (:mod:`vision.raycast`). An edge's
    wall samples are the points of its wall whose line of sight, from the camera down to the
    mat, passes through that wall and keeps clearest of every other Pole and wall that may
    stand on the space or its neighbours: so a present wall is seen as itself, and an absent
    one shows bare mat, never a neighbour's wall standing in for it. ``camouflaged``
    (:func:`wall_camouflage`, for this camera): candidates whose line of sight meets print
    of a side's colour count for ``CLASSIFY.camouflaged_worth`` of their clearance, so a
    clear view of mat that differs from the pieces is taken where there is one.
    ``walls=False`` skips that search (mid-edge samples), for when only the Poles matter."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    disc = _disc(cfg.disc_samples, cfg.disc_radius)
    nt = nf = len(disc)
    nw = 4 * WALL_SAMPLES
    k_wall, k_corner = nt + nf, nt + nf + nw
    k_ref = k_corner + 4
    per_space = k_ref + 8
    pts = np.zeros((64, per_space, 2))
    zs = np.zeros((64, per_space))
    weight = np.ones((64, per_space))
    zs[:, :nt] = g.pole_height - cfg.top_below
    zs[:, nt:k_wall] = cfg.foot_height
    zs[:, k_corner:] = g.wall_height - cfg.wall_surface
    t, gap = g.wall_thickness, g.seam_gap
    top = g.pole_height + 0.05
    origin = np.column_stack([np.arange(64) & 7, np.arange(64) >> 3]).astype(float)
    centre = origin + 0.5
    towards = camera.centre[:2] - centre
    norm = np.linalg.norm(towards, axis=1, keepdims=True)
    towards = np.where(norm > 1e-6, towards / np.maximum(norm, 1e-6), 0.0)
    pts[:, :nt] = (centre + towards * cfg.top_shift)[:, None] + disc
    pts[:, nt:k_wall] = (centre - towards * cfg.foot_shift)[:, None] + disc
    for corner_i, corner in enumerate(CORNERS):
        sx, sy = CORNER_SIGNS[corner]
        cx = gap / 2 if sx < 0 else 1 - gap / 2
        cy = gap / 2 if sy < 0 else 1 - gap / 2
        pts[:, k_corner + corner_i] = origin + np.array([cx, cy])
        u = 0.5 - sx * (0.5 - cfg.corner_ref_along)
        v = 0.5 - sy * (0.5 - cfg.corner_ref_along)
        w = (t / 2 if sx < 0 else 1 - t / 2, t / 2 if sy < 0 else 1 - t / 2)
        pts[:, k_ref + 2 * corner_i] = origin + np.array([u, w[1]])
        pts[:, k_ref + 2 * corner_i + 1] = origin + np.array([w[0], v])
    cyl, boxes = _neighbourhoods(g)
    own_boxes = [16 + i for i in range(4)]

    def at(cols: slice) -> np.ndarray:
        return np.concatenate([pts[:, cols], zs[:, cols, None]], axis=2)

    # Pole samples: how clear their rays keep of every piece but the space's own Pole.
    weight[:, :k_wall] = clear_of_other_pieces(camera, at(slice(0, k_wall)), g)
    # Corners: the notch a Teleport's seam leaves, and the wall tops either side of it.
    weight[:, k_corner:] = _clear(camera, at(slice(k_corner, per_space)), top, cyl,
                                  _without(boxes, own_boxes))
    clear = clear_needed(camera)
    weight[:, :k_wall] /= clear
    weight[:, k_corner:] /= clear
    a, inset, z = _wall_candidates(g)
    shifted = np.zeros((64, per_space, OTHER_READINGS, 3))  # (wall columns kept below)
    shift_ok = np.zeros((64, per_space, OTHER_READINGS, 2), bool)
    is_top = (inset == t / 2) & (z == g.wall_height - cfg.wall_surface)
    for i, edge in enumerate(EDGES):
        cols = slice(k_wall + i * WALL_SAMPLES, k_wall + (i + 1) * WALL_SAMPLES)
        if not walls:
            along = np.linspace(0.3, 0.7, WALL_SAMPLES)
            for sq in range(64):
                pts[sq, cols] = _edge_xy(origin[sq, 0], origin[sq, 1], edge, along,
                                         np.full(WALL_SAMPLES, t / 2))
            zs[:, cols] = g.wall_height / 2
            continue
        targets = _edge_targets(edge, a, inset, z)
        own = boxes[:, 16 + i]
        margin = silhouette_margin(Rays(camera.centre, targets.reshape(-1, 3), top),
                                   np.repeat(own, len(a), axis=0)).reshape(64, -1)
        score = np.minimum(_clear(camera, targets, top, cyl, _without(boxes, [16 + i])), margin)
        # camouflage costs a share of the clearance, and a blocked view (< 0) gets worse
        worth = score if camouflaged is None else np.where(
            camouflaged[:, i], score - (1 - cfg.camouflaged_worth) * np.abs(score), score)
        level = np.round(worth / (clear * cfg.wall_worth_step))
        for sq in range(64):
            chosen = _spread_along(a, level[sq])
            pts[sq, cols] = targets[sq, chosen, :2]
            zs[sq, cols] = targets[sq, chosen, 2]
            weight[sq, cols] = np.maximum(score[sq, chosen] / clear, cfg.min_weight)
        # Other readings of the edge (shift_choice): the same samples a little outwards
        # and inwards across it, and its lit top where the top's view is clearest but for
        # the wall across the edge; each with whether its view keeps clear of the other
        # pieces, and of all but that wall.
        inward = np.array(_INWARD[edge], float)
        across = 4 * _ACROSS_NEIGHBOUR[i] + int(_ACROSS_EDGE[i])
        drops = ([16 + i], [16 + i, across])
        for k, sign in enumerate((-1.0, 1.0)):
            shifted[:, cols, k, :2] = pts[:, cols] + sign * cfg.wall_shift * inward
            shifted[:, cols, k, 2] = zs[:, cols]
        tops = targets[:, is_top]
        top_score = np.minimum(_clear(camera, tops, top, cyl, _without(boxes, drops[1])),
                               margin[:, is_top])
        top_level = np.round(top_score / (clear * cfg.wall_worth_step))
        for sq in range(64):
            shifted[sq, cols, 2] = tops[sq, _spread_along(a[is_top], top_level[sq])]
        for k in range(OTHER_READINGS):
            for m, drop in enumerate(drops):
                shift_ok[:, cols, k, m] = _clear(camera, shifted[:, cols, k], top, cyl,
                                                 _without(boxes, drop)
                                                 ) >= cfg.wall_shift_clear * clear
    weight = np.clip(weight, 0.0, 1.0)
    # Where each line of sight meets the mat, and whether a side's colour is printed there.
    c = camera.centre
    ground = c[:2] + (pts - c[:2]) * (c[2] / (c[2] - zs))[..., None]
    ink = printed_ink(mat or MatModel(), ground.reshape(-1, 2), cfg.ink_grow).reshape(64, -1)
    n_b = boxes.shape[1]
    if walls:
        tops = at(slice(0, nt))
        top_walls = _wall_clearance(camera, tops, boxes, float(tops[..., 2].max())
                                    ) < clear
        wall_near = _wall_clearance(camera, at(slice(k_wall, k_corner)), boxes,
                                    g.wall_height + 0.05)
        for i in range(4):  # a wall sample's own wall is what it looks at
            wall_near[:, i * WALL_SAMPLES:(i + 1) * WALL_SAMPLES, 16 + i] = _FAR
        pole_near = _pole_clearance(camera, at(slice(k_wall, k_corner)), cyl, top)
    else:
        top_walls = np.zeros((64, nt, n_b), bool)
        wall_near = np.full((64, nw, n_b), _FAR)
        pole_near = np.full((64, nw, 9), _FAR)
    # Where each neighbour's Pole top meets the mat along the line of sight.
    h = g.pole_height
    tops = centre + (centre - c[:2]) * (h / max(c[2] - h, 1e-6))
    nb = _NEIGHBOURS
    reach = np.linalg.norm(tops[np.maximum(nb, 0)] - centre[:, None], axis=2)
    leans_over = (nb >= 0) & (nb != np.arange(64)[:, None]) & (
        reach <= g.pole_diameter / 2 + cfg.lean_reach)
    wall = slice(k_wall, k_corner)
    return SampleLayout(pts, zs, slice(0, nt), slice(nt, k_wall), wall,
                        slice(k_corner, k_ref), slice(k_ref, per_space), weight, ink, top_walls,
                        wall_near, clear, pole_near, leans_over,
                        shifted[:, wall] if walls else None,
                        shift_ok[:, wall] if walls else None)


def clear_of_other_pieces(camera: CameraModel, targets: np.ndarray,
                          geometry: PieceGeometry | None = None) -> np.ndarray:
    """(64, M): how far the line of sight through each target (64, M, 3), from above the
    tallest piece down to the mat, keeps from every Pole and wall that may stand on its
    space or the neighbours, the space's own Pole left out (what a Pole sample looks for)."""
    g = geometry or PieceGeometry()
    cyl, boxes = _neighbourhoods(g)
    return _clear(camera, targets, g.pole_height + 0.05, _without(cyl, [4]), boxes)


def clear_needed(camera: CameraModel) -> float:
    """Spaces of clearance at which a line of sight is fully trusted: ``wall_clear``, or
    more where a space is so few pixels across that blur and JPEG reach further."""
    corners = camera.image_points(np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]))
    x, y = corners[:, 0], corners[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))
    px_per_space = max(np.sqrt(area / 64.0), 1.0)
    return max(CLASSIFY.wall_clear, CLASSIFY.blur_px / px_per_space)


def _wall_clearance(camera: CameraModel, targets: np.ndarray, boxes: np.ndarray,
                    top: float) -> np.ndarray:
    """(64, T, B): how far the line of sight through each target (64, T, 3), from height
    ``top`` down to the mat, keeps from each of its space's neighbourhood walls
    (64, B, 2, 3)."""
    n_t, n_b = targets.shape[1], boxes.shape[1]
    rays = Rays(camera.centre, np.repeat(targets.reshape(-1, 3), n_b, axis=0), top)
    each = np.broadcast_to(boxes[:, None], (64, n_t, n_b, 2, 3)).reshape(-1, 1, 2, 3)
    none = np.full((len(each), 1, 4), _FAR)
    return clearance_each(rays, none, each, CLASSIFY.ray_iterations).reshape(64, n_t, n_b)


def _pole_clearance(camera: CameraModel, targets: np.ndarray, cyl: np.ndarray, top: float
                    ) -> np.ndarray:
    """(64, T, 9): how far the line of sight through each target (64, T, 3), from height
    ``top`` down to the mat, keeps from each of its space's neighbourhood Poles
    (64, 9, 4)."""
    n_t, n_p = targets.shape[1], cyl.shape[1]
    rays = Rays(camera.centre, np.repeat(targets.reshape(-1, 3), n_p, axis=0), top)
    each = np.broadcast_to(cyl[:, None], (64, n_t, n_p, 4)).reshape(-1, 1, 4)
    none = np.full((len(each), 1, 2, 3), _FAR)
    none[..., 1, :] += 0.1
    return clearance_each(rays, each, none, CLASSIFY.ray_iterations).reshape(64, n_t, n_p)


def disc_columns(layout: SampleLayout) -> slice | np.ndarray:
    """The columns of a layout's top and footprint samples together (``np.r_`` of them):
    one slice where they adjoin, as :func:`sample_layout` lays them (a view, not a copy)."""
    top, foot = layout.top, layout.foot
    if top.stop == foot.start and top.step is None and foot.step is None:
        return slice(top.start, foot.stop)
    return np.r_[top, foot]


def masked_median(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Median over the last axis of ``values`` where ``keep`` (same shape, bool); 0 where
    nothing is kept. (NumPy's nanmedian warns on every empty slice, and is slower.)"""
    ordered = np.sort(np.where(keep, values, np.inf), axis=-1)
    width = ordered.shape[-1]
    ordered = ordered.reshape(-1)
    # (a bool sum and flat indices: a third the cost of count_nonzero and 2-D indexing)
    n = keep.sum(axis=-1).reshape(-1)
    at = np.arange(0, ordered.size, width)
    lo = ordered[at + np.maximum(n - 1, 0) // 2]
    hi = ordered[at + n // 2]
    return np.where(n > 0, (lo + hi) / 2, 0.0).reshape(keep.shape[:-1])


def nan_to(values: np.ndarray, value: float) -> np.ndarray:
    """``values`` with every NaN replaced by ``value``: ``np.nan_to_num``'s answer for
    values with no infinity among them (it also clips those), at a sixth of its cost; and
    its answer to any comparison with a finite threshold whatever the values."""
    return np.where(np.isnan(values), value, values)


def neighbour_squares(reach: int = 1) -> np.ndarray:
    """(64, (2 * reach + 1) ** 2) square index of each space's neighbours at most ``reach``
    files and ranks away, itself included, rank by rank from the south-west (for ``reach``
    1, :func:`_neighbourhoods` order); -1 off the mat."""
    steps = range(-reach, reach + 1)
    out = np.full((64, len(steps) ** 2), -1)
    for sq in range(64):
        file, rank = sq & 7, sq >> 3
        for n, (dr, df) in enumerate((dr, df) for dr in steps for df in steps):
            if 0 <= file + df < 8 and 0 <= rank + dr < 8:
                out[sq, n] = sq + df + 8 * dr
    return out


_NEIGHBOURS = neighbour_squares()
# each space's neighbour across each edge (-1 off the mat), and that edge as the neighbour's
_ACROSS = _NEIGHBOURS[:, list(_ACROSS_NEIGHBOUR)]
_ACROSS_EDGE = np.array([EDGES.index(_FACING[e]) for e in EDGES])


def shifted_wall_samples(layout: SampleLayout, camera: CameraModel) -> np.ndarray:
    """(64, 4 * WALL_SAMPLES, OTHER_READINGS, 2) image points (u, v) of the wall samples'
    other readings (:attr:`SampleLayout.shifted`)."""
    assert layout.shifted is not None
    at = layout.shifted.reshape(-1, 3)
    return camera.image_points(at[:, :2], at[:, 2]).reshape(*layout.shifted.shape[:3], 2)


def shiftable_edges(pole: np.ndarray) -> np.ndarray:
    """(64, 4) bool: the edges whose wall samples :func:`shift_choice` may read elsewhere,
    given ``pole`` (64,) bool (its argument): neither on a space whose Pole discs changed
    as a Pole changes them nor across from one. A line is both spaces' edge, so both or
    neither of its edges are shiftable: readings of the others need not be made."""
    return ~(pole[:, None] | ((_ACROSS >= 0) & pole[np.maximum(_ACROSS, 0)]))


def shift_choice(loglik: np.ndarray, ok: np.ndarray, pole: np.ndarray | None = None,
                 mute: np.ndarray | None = None) -> np.ndarray:
    """(64, 4 * WALL_SAMPLES) int: where to read each wall sample, the edge's samples
    together, as shows a wall best: 0 as planned, else 1 + the index of one of its other
    readings (:attr:`SampleLayout.shifted`: outwards, inwards, the top). ``loglik``
    (64, 4 * WALL_SAMPLES, 1 + OTHER_READINGS, 3): :func:`sample_evidence`'s scores of
    each reading of each sample; ``ok`` (:attr:`SampleLayout.shift_ok`): where another
    reading's view keeps clear of other pieces, or of all but the wall across the edge,
    which counts only where none of that wall's own readings shows one, nor may hide one
    (``mute`` (64, 4 * WALL_SAMPLES, 1 + OTHER_READINGS) bool: readings that look as the
    bare mat does where it looks like a side's colour, :func:`sample_evidence`'s
    camouflage: a white wall on white paper seen straight down shows at none). A sample whose other
    reading is not clear keeps its planned one, and most of an edge's must be. A Port
    moves as a whole, so an edge's samples move together; and only a reading that shows a
    wall at each of them, clearly over all, and clearly more than the planned one, moves
    them: an edge with no wall shows bare mat every way (a little less of it somewhere is
    no wall), and a wall read where it stands keeps its reading. ``pole`` (64,) bool:
    spaces whose Pole discs changed as a Pole changes them. An edge of such a space, or
    across from one, keeps its planned readings, which were chosen clear of the Pole: the
    others' lines of sight land on the mat round it, where its shadows may lie on every
    side (a black Pole's, from two lamps, dark as a black wall)."""
    side = np.maximum(loglik[..., 1], loglik[..., 2]) - loglik[..., 0]  # (64, 4W, 1 + R)
    every_way = side.reshape(64, 4, WALL_SAMPLES, 1 + OTHER_READINGS).sum(axis=2)
    planned = every_way[..., 0]
    across, facing = _ACROSS, _ACROSS_EDGE
    # no wall across: none of its readings shows one (a wall coloured like the mat shows
    # faintly, at one reading or another)
    shows_none = every_way.max(axis=2) < 0
    if mute is not None:
        shows_none &= ~mute.reshape(64, 4, -1).any(axis=2)
        # a wall that may look as the mat does where it stands is read by its shape
        # (vision.shapes): moved, its samples find its shadow (white walls on cream paper
        # in a low sun, their shadows read as black walls)
        allowed_here: np.ndarray = ~np.any(mute[..., 0].reshape(64, 4, WALL_SAMPLES), axis=2)
    else:
        allowed_here = np.ones((64, 4), bool)
    none_across = (across < 0) | shows_none[np.maximum(across, 0), facing[None, :]]
    usable = ok[..., 0] | (ok[..., 1] & np.repeat(none_across, WALL_SAMPLES, axis=1)[
        ..., None])  # (64, 4W, R)
    others = np.where(usable, side[..., 1:], side[..., :1])
    per_edge = others.reshape(64, 4, WALL_SAMPLES, OTHER_READINGS).sum(axis=2)
    most = usable.reshape(64, 4, WALL_SAMPLES, OTHER_READINGS).sum(axis=2) * 2 > WALL_SAMPLES
    # a wall along the edge shows at every sample; a shadow across it (a Pole's, from a
    # lamp) darkens a stretch
    every = np.all((~usable | (side[..., 1:] > 0)).reshape(
        64, 4, WALL_SAMPLES, OTHER_READINGS), axis=2)
    allowed = most & every & allowed_here[..., None]
    if pole is not None:  # on the space or across the edge
        allowed &= shiftable_edges(pole)[..., None]
    moved = np.where(allowed, per_edge, -np.inf)
    best = moved.argmax(axis=2)
    shows = np.take_along_axis(moved, best[..., None], axis=2)[..., 0]
    clearly = (shows >= CLASSIFY.wall_shift_gain) & (shows - planned >= CLASSIFY.wall_shift_gain)
    chosen = np.repeat(np.where(clearly, best + 1, 0), WALL_SAMPLES, axis=1)
    here = np.take_along_axis(usable, np.maximum(chosen - 1, 0)[..., None], axis=2)[..., 0]
    return np.where(here, chosen, 0)


def lines_worth_reading(may: np.ndarray, ok: np.ndarray, shiftable: np.ndarray
                        ) -> np.ndarray:
    """(64, 4) bool: the edges whose other readings :func:`shift_choice` needs scored: on a
    line of which an edge is shiftable (:func:`shiftable_edges`) and may move, having an
    other reading each of whose samples either may show a piece (``may`` (64, 4 *
    WALL_SAMPLES, OTHER_READINGS) bool, :func:`may_show_a_piece`) or is not usable. Usable
    are the samples clear of every other piece (``ok`` [..., 0], :attr:`SampleLayout.shift_ok`)
    and, where the wall across shows none, those clear of all but it (``ok`` [..., 1]);
    most of an edge's must be. Either edge of a line may need the other's scores (the
    wall across), so a line is read whole. The rest keep their planned readings, whatever
    they show: an edge moves only to a reading that shows a wall at each of its usable
    samples."""
    def every(usable: np.ndarray) -> np.ndarray:
        return (may | ~usable).reshape(64, 4, WALL_SAMPLES, OTHER_READINGS).all(axis=2)

    clear = ok[..., 0].reshape(64, 4, WALL_SAMPLES, OTHER_READINGS)
    each = every(ok[..., 0] | ok[..., 1]) | (
        every(ok[..., 0]) & (clear.sum(axis=2) * 2 > WALL_SAMPLES))
    edge = each.any(axis=2) & shiftable
    seen_across = (_ACROSS >= 0) & edge[np.maximum(_ACROSS, 0), _ACROSS_EDGE[None, :]]
    return (edge | seen_across) & shiftable


def take_shift(values: np.ndarray, readings: np.ndarray, choice: np.ndarray,
               wall: slice) -> np.ndarray:
    """``values`` (64, S, ...) with its wall samples' columns (``wall``) taken from
    ``readings`` (64, 4 * WALL_SAMPLES, 1 + OTHER_READINGS, ...) [planned, others] as
    ``choice`` (64, 4 * WALL_SAMPLES) (:func:`shift_choice`) says: a copy."""
    out = values.copy()
    pick = choice.reshape(64, 4 * WALL_SAMPLES, 1, *([1] * (readings.ndim - 3)))
    out[:, wall] = np.take_along_axis(readings, pick, axis=2)[:, :, 0]
    return out


def image_samples(layout: SampleLayout, camera: CameraModel) -> np.ndarray:
    """(64, S, 2) image points of every sample."""
    n, s, _ = layout.points.shape
    return camera.image_points(layout.points.reshape(-1, 2),
                               layout.heights.reshape(-1)).reshape(n, s, 2)


def read_colour(image: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Colour features (float32) of ``image`` at (..., 2) points: lightness and two log
    chromaticities, ``(L / 255, log(R / G), log(B / G))``. Shading scales R, G and B alike,
    so it moves lightness and leaves the chromaticities nearly where they were."""
    shape = uv.shape[:-1]
    maps = uv.reshape(-1, 1, 2).astype(np.float32)
    # OpenCV's stubs miss remap's documented map2=None (map1 then holds x and y)
    bgr = cv2.remap(image, maps, None, cv2.INTER_LINEAR,  # type: ignore[call-overload]
                    borderMode=cv2.BORDER_REPLICATE)
    return colour_features(bgr.reshape(-1, 3)).reshape(*shape, 3)


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) uint8 BGR -> (N, 3) float32 features (see :func:`read_colour`)."""
    out = np.empty(bgr.shape, np.float32)
    out[:, 0], out[:, 1], out[:, 2] = colour_channels(bgr)
    return out


def colour_channels(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 3) uint8 BGR -> :func:`colour_features`' three features, each (N,) float32 of
    its own. NumPy pays per row for arithmetic on an (N, 2) or (N, 3) array's columns
    together (~20 ns a row, a tenth of a millisecond per operation on a frame's samples);
    one channel at a time it pays per element."""
    f = bgr.astype(np.float32) + 4.0  # keeps the logs finite on black
    b, g, r = f[:, 0], f[:, 1], f[:, 2]
    lightness = (0.114 * b + 0.587 * g + 0.299 * r) / 255.0
    return lightness, np.log(r / g), np.log(b / g)


def _gaussian(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean (3,) and inverse covariance (3, 3), float32, of samples (N, 3), with the noise
    floor added to the covariance."""
    cov = np.cov(x.T) + np.diag(CLASSIFY.colour_floor) ** 2
    return x.mean(axis=0).astype(np.float32), np.linalg.inv(cov).astype(np.float32)


def _mahalanobis(x: np.ndarray, mean: np.ndarray, inv_cov: np.ndarray) -> np.ndarray:
    # one channel at a time (see colour_channels), into the layout x - mean would have
    d = np.empty(np.broadcast_shapes(x.shape, mean.shape), np.result_type(x, mean))
    for c in range(3):
        np.subtract(x[..., c], mean[c], out=d[..., c])
    q = (d @ inv_cov) * d
    return np.sqrt(np.maximum(q[..., 0] + q[..., 1] + q[..., 2], 0))  # as .sum(axis=-1)


LEARN_LEAST = 8  # samples a set needs to be learned as a colour's parts of its own


@dataclass(frozen=True, slots=True)
class ColourModel:
    """A side's colour over the colour features, learned from the side's lit tops, shaded
    bodies and walls. Glossy plastic under a lamp is two colours or three, not one: lit
    faces, shaded faces and what lies between. So the model is a few Gaussians split by
    lightness (``parts``); a single broad one would also cover a mat printed in a shade
    between them (a white piece's lit top and its shaded side round a cream mat).
    ``mean`` and ``inv_cov`` describe all the samples as one Gaussian."""

    mean: np.ndarray  # (3,)
    inv_cov: np.ndarray  # (3, 3)
    parts: tuple[tuple[np.ndarray, np.ndarray], ...] = ()  # (mean, inv_cov) by lightness
    # per part (or the whole), for distance_in_noise: its mean's entries (3, P, 1) and
    # its covariance's (a00, a01, a02, a11, a12, a22: (6, P, 1)), float32
    _mean: np.ndarray = field(init=False, repr=False, compare=False)
    _cov: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = self.parts or ((self.mean, self.inv_cov),)
        covs = [np.linalg.inv(ic.astype(np.float64)) for _, ic in parts]
        object.__setattr__(self, "_mean", np.array(
            [[m[c] for m, _ in parts] for c in range(3)], np.float32)[..., None])
        object.__setattr__(self, "_cov", np.array(
            [[c[i, j] for c in covs] for i, j in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2),
                                                   (2, 2))], np.float32)[..., None])

    @classmethod
    def learn(cls, samples: np.ndarray, *more: np.ndarray) -> ColourModel:
        """From samples (..., 3), and optionally sets seen otherwise (a thin wall's top
        blurred into its surroundings is paler than a Pole's): parts from the samples, and
        from each such set on its own, so that a set the samples outnumber is not dropped
        as their outliers."""
        every = _inliers(samples.reshape(-1, 3).astype(np.float64))
        sets = [_inliers(x.reshape(-1, 3).astype(np.float64)) for x in more
                if len(x) >= LEARN_LEAST]
        mean, inv_cov = _gaussian(every)
        return cls(mean, inv_cov, tuple(_gaussian(g) for x in (every, *sets)
                                        for g in _lightness_groups(x)))

    def distance(self, x: np.ndarray) -> np.ndarray:
        """Mahalanobis distance of (..., 3) features from this colour (its nearest part)."""
        if not self.parts:
            return _mahalanobis(x, self.mean, self.inv_cov)
        return functools.reduce(np.minimum, (_mahalanobis(x, m, ic) for m, ic in self.parts))

    def distance_in_noise(self, x: np.ndarray, noise_r: np.ndarray, noise_b: np.ndarray
                          ) -> np.ndarray:
        """:meth:`distance` of features (N, 3) whose log chromaticities (R/G, B/G) sensor
        noise blurs by standard deviations ``noise_r`` and ``noise_b`` (each (N,)): each
        part's covariance widened by them, sample by sample, as the bare look's allowance
        is (:func:`bare_mat_distances`). A dark wall in shade is as noisy as the shaded
        mat beside it; judged by the learned spread alone it is nearer the mat. (N,)
        float32. Every part at once, a channel at a time (see colour_channels)."""
        a00, a01, a02, a11, a12, a22 = self._cov
        d0, d1, d2 = (x[:, c][None] - self._mean[c] for c in range(3))  # (P, N) each
        b11 = a11 + noise_r * noise_r
        b22 = a22 + noise_b * noise_b
        # the widened covariance's inverse times its determinant: its cofactors
        c00 = b11 * b22 - a12 * a12
        c01 = a12 * a02 - a01 * b22
        c02 = a01 * a12 - b11 * a02
        c12 = a01 * a02 - a00 * a12
        det = a00 * c00 + a01 * c01 + a02 * c02
        q = (c00 * d0 * d0 + (a00 * b22 - a02 * a02) * d1 * d1
             + (a00 * b11 - a01 * a01) * d2 * d2
             + 2.0 * (c01 * d0 * d1 + c02 * d0 * d2 + c12 * d1 * d2)) / det
        return np.sqrt(np.maximum(q.min(axis=0), 0.0)).astype(np.float32, copy=False)

    def distance_whole(self, x: np.ndarray) -> np.ndarray:
        """Mahalanobis distance of (..., 3) features from all the samples as one Gaussian."""
        return _mahalanobis(x, self.mean, self.inv_cov)

    def to_json(self) -> dict[str, Any]:
        def part(mean: np.ndarray, inv_cov: np.ndarray) -> dict[str, Any]:
            return {"mean": [float(v) for v in mean],
                    "inv_cov": [[float(v) for v in row] for row in inv_cov]}

        return {**part(self.mean, self.inv_cov), "parts": [part(*p) for p in self.parts]}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ColourModel:
        def part(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
            mean = np.array(d["mean"], np.float32).reshape(3)
            inv_cov = np.array(d["inv_cov"], np.float32).reshape(3, 3)
            if not (np.isfinite(mean).all() and np.isfinite(inv_cov).all()):
                raise ValueError("colour model has numbers that are not finite")
            return mean, inv_cov

        whole = part(doc)
        return cls(*whole, tuple(part(p) for p in doc.get("parts", [])))


def _inliers(x: np.ndarray) -> np.ndarray:
    """Samples (N, 3) without the ones far out in some feature (edges, glints)."""
    med = np.median(x, axis=0)
    spread = np.abs(x - med)
    mad = np.median(spread, axis=0) * 1.4826 + 1e-6
    keep = x[(spread / mad).max(axis=1) <= CLASSIFY.learn_outlier_mads]
    return keep if len(keep) >= 8 else x


def _lightness_groups(x: np.ndarray) -> list[np.ndarray]:
    """Samples (N, 3) split into up to ``CLASSIFY.colour_parts`` groups by lightness (1-D
    k-means from the quantiles); a group too small for a covariance joins its neighbour."""
    k = CLASSIFY.colour_parts
    light = x[:, 0]
    centres = np.quantile(light, (np.arange(k) + 0.5) / k)
    for _ in range(20):
        which = np.abs(light[:, None] - centres[None]).argmin(axis=1)
        new = np.array([light[which == i].mean() if (which == i).any() else centres[i]
                        for i in range(k)])
        if np.allclose(new, centres):
            break
        centres = new
    groups = [x[which == i] for i in range(k) if (which == i).sum() >= CLASSIFY.part_min]
    return groups if groups else [x]


def sample_evidence(feat: np.ndarray, colours: dict[str, ColourModel],
                    empty: np.ndarray | None, inks: dict[str, ColourModel] | None = None,
                    ink_at: np.ndarray | None = None, side_like: np.ndarray | None = None,
                    noise: float = 1.0, changed: np.ndarray | None = None,
                    bright: float | None = None, shade: float | None = None,
                    tint: np.ndarray | None = None, plain: np.ndarray | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What each sample (features (..., 3)) shows. ``side_like``: :func:`bare_side_like` of
    ``empty``, and ``plain``: :func:`plain_look` of it, when the caller keeps them from
    frame to frame; ``noise``: the camera's
    (:func:`camera_noise`); ``changed`` (...) bool: samples of a disc that changed as a whole
    (:func:`disc_change`), which a piece's colour explains however near the bare look each
    one stayed; ``bright``, ``shade``, ``tint``: the table's allowances
    (:func:`bare_mat_distance`).

    * labels (...): 0 = neither side, 1 = south, 2 = north, -1 = unlike anything (it does not
      vote). A sample is a side's when it is nearer to it than to the other side and than to
      looking like no piece, each measured in its own metric;
    * log-likelihood-like scores (..., 3) of [no piece, south, north]: ``-d^2 / 2`` of each
      distance, capped so one odd sample cannot outvote the rest.

    Looking like no piece: like the empty mat's look there (where calibration saw it), like
    a side's printed ink where the ray meets a Telepad or Portpad stripe of that side
    (``ink_at``, as :attr:`SampleLayout.ink`), and at most ``CLASSIFY.colour_sigma`` away.
    A sample unlike the empty look and unlike both sides (blur mixing a thin wall top with
    its neighbour's) says only what its lightness says: much darker than the mat there is a
    piece of either side, otherwise nothing.
    """
    cfg = CLASSIFY
    if changed is None:
        changed = np.zeros(feat.shape[:-1], bool)
    # Sensor noise scatters a dark sample's chromaticity beyond the spread the learned
    # colours saw on lit faces (a grey wall in deep shade on dark neoprene read as the
    # mat's shadow, sure): each colour widened by the sample's own noise.
    flat = feat.reshape(-1, 3)
    noise_r, noise_b = chroma_noise(flat)
    ds = colours["south"].distance_in_noise(flat, noise_r, noise_b).reshape(feat.shape[:-1])
    dn = colours["north"].distance_in_noise(flat, noise_r, noise_b).reshape(feat.shape[:-1])
    side = np.minimum(ds, dn)
    none = np.full(feat.shape[:-1], cfg.colour_sigma, np.float32)
    known = np.zeros(feat.shape[:-1], bool)
    de = np.full(feat.shape[:-1], np.inf, np.float32)
    camouflage = np.zeros((*feat.shape[:-1], 2), bool)
    if empty is None:
        plain = None
    # What the mat there would look like: its lightness decides "much darker" below.
    mat_light = np.full(feat.shape[:-1], np.nan, np.float32)
    if empty is not None:
        known = ~np.isnan(empty[..., 0])
        de, still = bare_mat_distances(feat, _bare_or_self(feat, empty, known), noise, bright,
                                       shade, tint)
        # Camouflage only silences a sample that stayed as the bare mat looked: one that
        # changed as a piece changes it (piece_changes) still shows something there. Less
        # is what a noisy camera does to print of a side's colour, as often as not.
        if side_like is None:
            side_like = bare_side_like(empty, colours)
        unmoved = known & (de < cfg.piece_changes)
        camouflage = np.empty(np.broadcast_shapes((*unmoved.shape, 1), side_like.shape), bool)
        for c in range(camouflage.shape[-1]):
            camouflage[..., c] = unmoved & side_like[..., c]
        # A piece in front of the mat changes what the camera sees there, however like the
        # mat it is coloured (a white wall's lit top and shaded face on cream paper): a
        # sample just as the empty mat looked is no side's, whatever its colour; unless
        # it belongs to a group that changed as a whole (``changed``).
        # Only as sure as light needs no tint to explain it: a shadow's tint (a lamp's
        # faint shadow yellower) may take a side's colour to the shaded mat's (a beige
        # Pole's top on cream paper), and such a sample cannot tell either way.
        unchanged = np.where(known & ~changed, np.maximum(cfg.piece_changes - still, 0.0),
                             0.0)
        ds = np.sqrt(ds * ds + unchanged * unchanged)
        dn = np.sqrt(dn * dn + unchanged * unchanged)
        side = np.minimum(ds, dn)
        if plain is None:
            plain = plain_look(empty)
        # Where the bare look is unknown (a start piece hid it), the plain mat's is at least
        # as likely there as no look at all.
        none = np.where(known, np.minimum(de, none), none)
        hidden = ~known
        if hidden.any():
            x = feat[hidden]
            none[hidden] = np.minimum(none[hidden], bare_mat_distance(
                x, np.broadcast_to(plain, x.shape), noise))
        mat_light = np.where(known, empty[..., 0], plain[0])
    inked = np.zeros(feat.shape[:-1], bool)  # like ink that may be printed there
    if ink_at is not None and inks:
        for code, name in enumerate(SIDES, start=1):
            if name in inks:
                here = ink_at == code
                none = np.where(here, np.minimum(none, ink_distance(feat, inks[name], plain)),
                                none)
                # maybe printed (hidden_pad_ink): the ink itself, not its blur into the mat,
                # whose chromaticity a light side's pieces may share
                maybe = ink_at == code + HIDDEN_INK
                if maybe.any():
                    d_ink = inks[name].distance(feat)
                    none = np.where(maybe, np.minimum(none, d_ink), none)
                    inked |= maybe & (d_ink < cfg.colour_sigma)
                mat_light = np.where((ink_at == code) & ~known, inks[name].mean[0], mat_light)
    # Far from both sides yet much darker than the mat there: a piece's edge blurred with
    # something else. Whichever side, it is no bare mat.
    dark = ((side > cfg.colour_sigma) & (feat[..., 0] < cfg.piece_darker * mat_light)
            & ~inked)
    if empty is not None:  # a shadow on the bare mat is darker too, but keeps its colour
        dark &= ~known | (de > cfg.colour_sigma)
    # Much darker than the mat there and unlike both sides' learned colours: a piece's
    # edge blurred with something else, of either side: no bare mat. (Samples far from
    # every explanation otherwise say nothing: the cap makes them equal.)
    label = np.where(dark | (side < none), np.where(ds <= dn, 1, 2), 0)
    # Far from the bare look and from both sides: it does not vote for a Pole.
    label = np.where(known & ~dark & (np.minimum(de, side) > cfg.colour_sigma), -1, label)
    # (one of [none, south, north] at a time: see colour_channels)
    dtype = np.result_type(none, ds, dn)
    d = [np.where(dark, cfg.loglik_cap, np.minimum(none, cfg.loglik_cap)).astype(dtype),
         *(np.where(dark, cfg.dark_side_distance, np.minimum(x, cfg.loglik_cap)).astype(dtype)
           for x in (ds, dn))]
    # ... nor for a wall: blur mixing two walls' colours, or a wall's with the mat, is as
    # far from the bare mat as from either side (a back-to-back wall's thin top beside
    # another side's wall in front of it, read as bare mat, lost its Port its other wall)
    unlike = label == -1
    far = np.maximum(np.maximum(d[0], d[1]), d[2])
    loglik = np.empty((*label.shape, 3), dtype)
    for k in range(3):
        dk = np.where(unlike, far, d[k])
        loglik[..., k] = -0.5 * dk * dk
    # ... yet it leans to the side it is nearer, by a little: an arrangement it alone
    # decides otherwise ties, and the tie went south (a blue wall lit brighter than any
    # the start photo showed, unlike the blue model, the dark mat and red alike)
    if unlike.any():
        lean = np.float32(cfg.unlike_lean)
        loglik[..., 1] -= np.where(unlike & (ds > dn), lean, np.float32(0.0))
        loglik[..., 2] -= np.where(unlike & (dn > ds), lean, np.float32(0.0))
    return label, loglik, camouflage


def _bare_or_self(feat: np.ndarray, empty: np.ndarray, known: np.ndarray) -> np.ndarray:
    """The bare look ``empty`` (..., 3) where ``known``, else the features ``feat`` themselves
    (no distance where no bare look is known)."""
    ref = np.empty(np.broadcast_shapes(empty.shape, feat.shape), np.result_type(empty, feat))
    for c in range(3):  # one channel at a time (see colour_channels)
        ref[..., c] = np.where(known, empty[..., c], feat[..., c])
    return ref


def may_show_a_piece(feat: np.ndarray, empty: np.ndarray, noise: float = 1.0,
                     bright: float | None = None, shade: float | None = None,
                     tint: np.ndarray | None = None) -> np.ndarray:
    """(...) bool: samples (features (..., 3)) that :func:`sample_evidence` (given the same
    bare look ``empty`` (..., 3; NaN unknown) and allowances, no ``changed``) may score as
    a side's more than as no piece's; a cheap test, as it needs no colour model: a sample
    whose bare look is known scores a side's only where it is nearer to a side than to
    that look (or dark, far from it), and :func:`sample_evidence` puts it at least
    ``piece_changes`` less the tint-free distance from any side. So the tinted and the
    tint-free distances from the bare look together must reach ``piece_changes`` (a
    hair less here, for float rounding); every sample whose bare look is unknown may."""
    known = ~np.isnan(empty[..., 0])
    de, still = bare_mat_distances(feat, _bare_or_self(feat, empty, known), noise, bright,
                                   shade, tint)
    return ~known | (de + still > CLASSIFY.piece_changes - 1e-3)


def plain_look(empty: np.ndarray) -> np.ndarray:
    """(3,) the empty mat's typical look: the median of each feature over every sample of
    ``empty`` (..., 3) its photo saw (NaN where none)."""
    return np.nanmedian(empty.reshape(-1, 3), axis=0)


def disc_change(feat: np.ndarray, empty: np.ndarray, layout: SampleLayout,
                noise: float = 1.0, bright: float | None = None,
                shade: float | None = None, tint: np.ndarray | None = None) -> np.ndarray:
    """(64, 2) float32, [top, footprint] disc of every space: how unlike the bare look the
    disc is as a whole (:func:`bare_mat_distance` of the disc's mean feature from the mean
    bare look, features (64, S, 3) against ``empty`` (64, S, 3), NaN unknown); NaN where
    no sample of the disc saw the bare mat. One sample may stray by noise (a saturated
    print's small channel is noisy); a disc's mean strays much less, and a piece moves it as
    a whole."""
    f = np.stack([feat[:, layout.top], feat[:, layout.foot]], axis=1)  # (64, 2, K, 3)
    ref = np.stack([empty[:, layout.top], empty[:, layout.foot]], axis=1)
    known = ~np.isnan(ref[..., :1])
    n = known.sum(axis=2)
    mean_f = np.where(known, f, 0.0).sum(axis=2) / np.maximum(n, 1)
    mean_r = np.where(known, ref, 0.0).sum(axis=2) / np.maximum(n, 1)
    return np.where(n[..., 0] > 0, bare_mat_distance(mean_f, mean_r, noise, bright, shade, tint),
                    np.nan).astype(np.float32)


def discs_moved(change: np.ndarray) -> np.ndarray:
    """(64,) bool: spaces one of whose discs moved as a whole (``change`` (64, 2),
    :func:`disc_change`; NaN unseen) as a Pole moves it."""
    return nan_to(change, 0.0).max(axis=1) >= CLASSIFY.disc_changes


def moved_discs(change: np.ndarray, layout: SampleLayout) -> np.ndarray:
    """(64, S) bool: the top and footprint samples of every space one of whose discs moved
    as a whole (``change`` (64, 2), :func:`disc_change`) as a piece moves it: a Pole changes
    both its discs, so one that moved speaks for the other."""
    whole = discs_moved(change)
    out = np.zeros((64, layout.points.shape[1]), bool)
    out[:, layout.top] = out[:, layout.foot] = whole[:, None]
    return out


def printed_discs(empty: np.ndarray, side_like: np.ndarray, layout: SampleLayout
                  ) -> np.ndarray:
    """(64, 2, 2) bool, [top, footprint] x [south, north]: discs whose bare look (``empty``
    (64, S, 3)) is mostly like a side's colour (``side_like`` (64, S, 2),
    :func:`bare_side_like`). Constant for a calibration: kept from frame to frame."""
    out = np.zeros((64, 2, 2), bool)
    for i, disc in enumerate((layout.top, layout.foot)):
        known = ~np.isnan(empty[:, disc, 0])
        n = np.maximum(known.sum(axis=1), 1)[:, None]
        out[:, i] = (side_like[:, disc] & known[..., None]).sum(axis=1) * 2 >= n
    return out


def quiet_discs(change: np.ndarray, printed: np.ndarray, shaded: np.ndarray,
                layout: SampleLayout) -> np.ndarray:
    """(64, S, 2) bool: the top and footprint samples of every disc that, taken together
    (``change`` (64, 2), :func:`disc_change`), look as the bare mat did there, where that
    bare mat is mostly printed in a side's colour (``printed``, :func:`printed_discs`): such
    a disc says nothing of a Pole of that side, whatever its samples' labels. A disc with a
    sample in shade (``shaded`` (64, S), :func:`shaded_samples`) is not quiet: a mean of a
    Pole's lit and shaded sides can pass for the print. Quiet: not moved as a whole as a
    piece moves it (``disc_changes``); a noisy camera's samples stray on a saturated
    print, and its discs' means (of samples a few pixels apart, as noisy as one) by more
    than one deviation one time in three."""
    out = np.zeros((64, layout.points.shape[1], 2), bool)
    for i, disc in enumerate((layout.top, layout.foot)):
        still = (nan_to(change[:, i], np.inf) < CLASSIFY.disc_changes
                 ) & ~shaded[:, disc].any(axis=1)
        out[:, disc] = (still[:, None] & printed[:, i])[:, None, :]
    return out


def shaded_samples(feat: np.ndarray, empty: np.ndarray, noise: float = 1.0) -> np.ndarray:
    """(...) bool: samples (features (..., 3)) darker than the bare mat's look ``empty``
    (..., 3; NaN unknown) by more than one standard deviation of shade."""
    ratio = _log_lightness_ratio(feat, np.nan_to_num(empty, nan=0.0))
    return ~np.isnan(empty[..., 0]) & (ratio < -CLASSIFY.bare_shade_sigma * noise)


def bare_side_like(empty: np.ndarray, colours: dict[str, ColourModel]) -> np.ndarray:
    """(..., 2) bool: where the bare mat's look ``empty`` (..., 3; NaN unknown) is itself
    like [south's, north's] colour."""
    ref = np.nan_to_num(empty, nan=1e3)
    return np.stack([colours[s].distance(ref) < CLASSIFY.camouflage_sigma for s in SIDES],
                    axis=-1) & ~np.isnan(empty[..., :1])


def chroma_noise(feat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The standard deviations that sensor noise gives the log chromaticities (R/G, B/G)
    of features (..., 3), each (...) float32, from the sample's own channels: a channel's
    noise over its value, as :func:`bare_mat_distances` allows the bare look beyond its
    ``bare_chroma_sigma``."""
    dark_r, dark_b = _darkness(*_light_channels(feat))
    return CLASSIFY.bare_chroma_dark * dark_r, CLASSIFY.bare_chroma_dark * dark_b


def _darkness(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much sensor noise each log chromaticity (R/G, B/G) carries, in units of
    ``bare_chroma_dark``, from the channels R, G, B (each (...), + 4 as read): each
    channel's noise over its value, the two channels of a ratio together."""
    dim = [np.maximum(ch / 255.0, 0.02) ** -2 for ch in (r, g, b)]
    return np.sqrt((dim[0] + dim[1]) / 2), np.sqrt((dim[2] + dim[1]) / 2)


def bare_mat_distance(feat: np.ndarray, ref: np.ndarray, noise: float = 1.0,
                      bright: float | None = None, shade: float | None = None,
                      tint: np.ndarray | None = None) -> np.ndarray:
    """How unlike the bare mat's look ``ref`` features are (both (..., 3)): see
    :func:`bare_mat_distances`, whose first value this is."""
    return bare_mat_distances(feat, ref, noise, bright, shade, tint)[0]


def bare_mat_distances(feat: np.ndarray, ref: np.ndarray, noise: float = 1.0,
                       bright: float | None = None, shade: float | None = None,
                       tint: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """How unlike the bare mat's look ``ref`` features are (both (..., 3)), in standard
    deviations of what light does to a bare mat between two photos: shadows and exposure
    scale lightness (a log ratio, shade allowed more than brightening), while chromaticity
    stays put up to sensor noise, which grows as the pixel darkens. ``noise`` (>= 1) widens
    every allowance for a noisier camera (:func:`camera_noise`); ``bright`` and ``shade``:
    the brightening and shade allowed, where calibration measured this table's
    (:func:`light_allowances`); ``tint`` (K, 2) (or (2,) for one): the chromaticity shifts
    a shadow makes here per unit of log lightness (:func:`shadow_tint`), any of which may
    come with any darkening: the nearest counts. Returns that distance (float32, (...)),
    and the same without the tint (the same array where there is none): one pass for
    both, as :func:`sample_evidence` needs each every frame."""
    cfg = CLASSIFY
    ratio = _log_lightness_ratio(feat, ref)
    sl = np.where(ratio < 0, cfg.bare_shade_sigma if shade is None else shade,
                  cfg.bare_bright_sigma if bright is None else bright)
    # Each log chromaticity (R/G, B/G) is as noisy as its darker channels make it: a
    # saturated print's small channel (a teal's red) strays far more than its lightness
    # says. For grey, 1/lightness, as sensor noise is.
    # (a channel at a time: :func:`_light_of`'s values, without its (..., 3) array)
    darks = _darkness(*(np.minimum(a, b) for a, b in zip(
        _light_channels(feat), _light_channels(ref), strict=True)))
    # one chromaticity at a time (see colour_channels): R/G with R, B/G with B
    tints = np.zeros((0, 2)) if tint is None else np.asarray(tint).reshape(-1, 2)
    shade_by = np.minimum(ratio, 0.0) if len(tints) else ratio  # (read only with a tint)
    terms, scales, shifts = [], [], []
    for k, dark in ((1, darks[0]), (2, darks[1])):
        sc = cfg.bare_chroma_sigma + cfg.bare_chroma_dark * dark
        shift = feat[..., k] - ref[..., k]
        scales.append(sc)
        shifts.append(shift)
        if len(tints):
            shift = shift - shade_by * tints[0, k - 1]
        terms.append((shift / sc) ** 2)
    dc2 = terms[0] + terms[1]  # as .sum(axis=-1) of both
    for t in tints[1:]:  # lamps of two colours: the tint that explains the shift best
        other = [((s - shade_by * t[k]) / sc) ** 2
                 for k, (s, sc) in enumerate(zip(shifts, scales, strict=True))]
        dc2 = np.minimum(dc2, other[0] + other[1])
    light2 = (ratio / sl) ** 2
    tinted = (np.sqrt(light2 + dc2) / noise).astype(np.float32)
    if not len(tints):
        return tinted, tinted
    plain2 = (shifts[0] / scales[0]) ** 2 + (shifts[1] / scales[1]) ** 2
    return tinted, (np.sqrt(light2 + plain2) / noise).astype(np.float32)


def _log_lightness_ratio(feat: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Log of the lightness of features (..., 3) over ``ref``'s, black kept finite."""
    return _log_light_ratio(feat[..., 0], ref[..., 0])


def _log_light_ratio(light: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """:func:`_log_lightness_ratio` of lightnesses given alone (...)."""
    return np.log((light + 0.02) / (ref + 0.02))


def shadow_tint(feat: np.ndarray, ref: np.ndarray) -> np.ndarray | None:
    """(K, 2) float32, K 1 or 2: how a shadow on this table shifts the bare mat's log
    chromaticity (R/G, B/G) per unit of log lightness, or None where the shadows show no
    tint both sides agree on. ``feat``, ``ref`` (2, N, 3): features of the bare mat round
    [south's, north's] start Poles in the start photo and at the same points in the empty
    photo (NaN out of sight). Under one light a shadow only darkens; where the blocked light
    is warmer than the light still reaching the shadow (a lamp and a window), the shadow is
    bluer, by the same log shift on every print. Under two lamps of two colours a Pole casts
    two shadows, each tinted toward the lamp it does not block: the weaker lamp's faint one
    one way, the stronger's deep one the other. So the tint is measured twice: over the
    points in deep shadow (``tint_shade`` or more) and over those in faint shadow
    (``tint_faint`` to ``tint_shade``), the second kept only where the first is and it
    points the other way (a lamp's penumbra is tinted as its umbra). The exposure
    between the photos is taken out. Each side's tint is the median shift per unit of
    darkening over its points in that shadow; a channel's is the smaller of the two where
    they agree in sign (a piece's blurred edge tints only its own side's points), otherwise
    none. Where the two sides' deep shadows disagree in every channel (each side's pieces
    blurred into the darkest points beside them), the faint shadows' tint, where both
    sides agree on it, is learned, and with it none (0, 0): the deep ones' is unknown."""
    cfg = CLASSIFY
    ok = ~np.isnan(feat[..., 0]) & ~np.isnan(ref[..., 0])
    if ok.sum() < 2 * cfg.tint_least:
        return None
    ratio = _log_lightness_ratio(feat, ref)
    ratio = ratio - np.median(ratio[ok])
    shift = feat[..., 1:] - ref[..., 1:]
    shift = shift - np.median(shift[ok], axis=0)
    tints: list[np.ndarray] = []
    untinted = False
    for lo, hi in ((-np.inf, -cfg.tint_shade), (-cfg.tint_shade, -cfg.tint_faint)):
        per_side = []
        for s in range(2):
            dark = ok[s] & (ratio[s] < hi) & (ratio[s] >= lo)
            if dark.sum() < cfg.tint_least:
                break
            per_side.append(np.median(shift[s][dark] / ratio[s][dark, None], axis=0))
        if len(per_side) < 2:
            break
        a, b = per_side
        agree = np.sign(a) == np.sign(b)
        tint = np.clip(np.where(agree, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0),
                       -cfg.tint_max, cfg.tint_max)
        if np.abs(tint).max() <= 1e-3:
            if lo == -np.inf:
                # Both sides' deep shadows, tinted apart: a side's pieces blurred into the
                # mat next to them (a grey Pole's edge on warm wood is greyer, an orange
                # one's oranger), which the faint shadows further out are not. Where both
                # sides' faint shadows agree, theirs is the light's (held out: orange Poles'
                # warm shadows under two lamps on light wood read as grey Poles). The deep
                # shadows' own tint stays unknown: a shadow that only darkens is bare mat
                # too, as where no tint is learned.
                untinted = True
                continue
            break
        # a faint shadow's tint is a second lamp's only where it points the other way from
        # the deep one's (one lamp's penumbra is tinted as its umbra, if at all)
        if tints and float(tint @ tints[0]) >= 0.0:
            break
        tints.append(tint)
    if tints and untinted:
        tints.append(np.zeros(2))
    return np.array(tints, np.float32) if tints else None


def camera_drift(feat: np.ndarray, empty: np.ndarray) -> tuple[float, np.ndarray]:
    """How the camera's exposure and white balance moved the whole frame since calibration:
    (log lightness gain, (2,) chromaticity shift), from samples' features (..., 3) against
    the bare look ``empty`` (..., 3; NaN unknown). Exposure scales every channel (lightness
    by a factor), white balance each channel by its own (each log chromaticity by a step).
    Most samples show bare mat, so the median change is the camera's; the samples near it
    measure it (a piece or a shadow moves its own samples, not the median much). (0, 0)
    where too few samples agree."""
    cfg = CLASSIFY
    none = (0.0, np.zeros(2, np.float32))
    known = ~np.isnan(empty[..., 0])
    if known.sum() < 16:
        return none
    # one channel at a time (see colour_channels), each gathered at the known samples' flat
    # indices (a tenth the cost of a boolean mask over the channels' strided view)
    at = np.flatnonzero(known)
    f, e = ([x[..., c].reshape(-1)[at] for c in range(3)] for x in (feat, empty))  # 3 (N,)
    ratio = _log_light_ratio(f[0], e[0])
    shift = (f[1] - e[1], f[2] - e[2])  # (N,) each
    gain = float(median(ratio))
    step = np.array([median(shift[0]), median(shift[1])], shift[0].dtype)
    near = ((np.abs(ratio - gain) < cfg.drift_light)
            & (np.abs(shift[0] - step[0]) < cfg.drift_chroma)
            & (np.abs(shift[1] - step[1]) < cfg.drift_chroma))
    if near.sum() < cfg.drift_min_share * len(ratio):
        return none
    return float(median(ratio[near])), np.array([median(shift[0][near]),
                                                 median(shift[1][near])], np.float32)


def undo_drift(feat: np.ndarray, drift: tuple[float, np.ndarray]) -> np.ndarray:
    """Features (..., 3) as the calibration's exposure and white balance would show them
    (``drift``: :func:`camera_drift`)."""
    out = np.empty_like(feat)
    out[..., 0], out[..., 1], out[..., 2] = undo_drift_channels(
        feat[..., 0], feat[..., 1], feat[..., 2], drift)
    return out


def undo_drift_channels(light: np.ndarray, rg: np.ndarray, bg: np.ndarray,
                        drift: tuple[float, np.ndarray]
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`undo_drift` of features given one channel at a time (each (...), as
    :func:`colour_channels`' are), each in its own dtype (see there for why)."""
    gain, step = drift
    light = (light + 0.02) * np.float32(np.exp(-gain)) - 0.02
    # in place in a copy, as the features' own dtype (a float64 step rounds back to it)
    rg, bg = rg.copy(), bg.copy()
    rg -= step[0]
    bg -= step[1]
    return light, rg, bg


def camera_noise(feat: np.ndarray, ref: np.ndarray) -> float:
    """How much wider than the defaults the bare mat's allowances must be for this camera:
    features (N, 3) of bare mat in one photo against the same points in another (``ref``).
    Their typical (median) distance is what noise, JPEG and flicker alone make; at most
    ``CLASSIFY.bare_noise_median`` of the allowance may go to it."""
    ok = ~np.isnan(feat[:, 0]) & ~np.isnan(ref[:, 0])
    if ok.sum() < 16:
        return 1.0
    typical = float(np.median(bare_mat_distance(feat[ok], ref[ok])))
    return max(1.0, typical / CLASSIFY.bare_noise_median)


def light_allowances(feat: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """The brightening and the shade a bare sample is allowed between two photos of this
    table, in log lightness: features (N, 3) of bare mat in one photo against the same
    points in another (``ref``), the second with the start position's pieces casting their
    shadows. Exposure moves the whole mat alike and is taken out. Nothing but a piece over
    it brightens one place of the mat (a white or glossy piece on pale paper), so the
    brightening allowed is the bare mat's at its ``bare_bright_quantile``; the deepest
    shadows the pieces cast here (``bare_shade_quantile``) are the shade allowed, so a
    black piece on pale paper is no shadow. Each between its floor and its default
    (``bare_bright_sigma``, ``bare_shade_sigma``); too few samples keep the defaults."""
    cfg = CLASSIFY
    ok = ~np.isnan(feat[:, 0]) & ~np.isnan(ref[:, 0])
    if ok.sum() < cfg.bare_light_min_samples:
        return cfg.bare_bright_sigma, cfg.bare_shade_sigma
    ratio = _log_lightness_ratio(feat[ok], ref[ok])
    ratio -= np.median(ratio)
    bright = float(np.quantile(ratio, cfg.bare_bright_quantile))
    shade = -float(np.quantile(ratio, cfg.bare_shade_quantile))
    return (float(np.clip(bright, cfg.bare_bright_floor, cfg.bare_bright_sigma)),
            float(np.clip(shade, cfg.bare_shade_floor, cfg.bare_shade_sigma)))


def ink_distance(feat: np.ndarray, ink: ColourModel, plain: np.ndarray | None) -> np.ndarray:
    """Distance of features (..., 3) from printed ink, or from the ink blurred into the plain
    mat or a grid line beside it: chromaticity anywhere between the ink's and the plain
    mat's (``plain``, (3,), the empty mat's typical look), lightness not counted for that
    mix (a grid line is dark, the mat light)."""
    d = ink.distance(feat)
    if plain is None or np.isnan(plain).any():
        return d
    cov = np.linalg.inv(ink.inv_cov.astype(np.float64))
    inv_c = np.linalg.inv(cov[1:, 1:]).astype(np.float32)
    towards = (plain[1:] - ink.mean[1:]).astype(np.float32)
    rel = feat[..., 1:] - ink.mean[1:]
    t = np.clip((rel @ towards) / max(float(towards @ towards), 1e-6), 0.0, 1.0)
    off = rel - t[..., None] * towards
    mixed = np.sqrt(np.maximum(np.einsum("...i,ij,...j->...", off, inv_c, off), 0))
    return np.minimum(d, mixed)


def hidden_pad_ink(ink_at: np.ndarray, empty: np.ndarray,
                   sides: tuple[str, ...] = SIDES, mat: MatModel | None = None) -> np.ndarray:
    """(64, S) int8, as :attr:`SampleLayout.ink`: ``ink_at`` (that layout's), plus each
    side's code + ``HIDDEN_INK`` (maybe printed) at every sample of one of its own pads
    (Home Telepads, Portpads) whose bare look in ``empty`` ((64, S, 3), NaN where unknown)
    the start position hid. How a mat prints a pad under the start pieces cannot be seen
    from the start photo (a dot at a Telepad's centre): the side's ink, learned from the
    parts of its pads in view, is as likely there as the plain mat. Not the other side's
    ink: a mat prints a side's pads in its own colour. Only for ``sides``."""
    mat = mat or MatModel()
    out = ink_at.copy()
    hidden = np.isnan(empty[..., 0])
    pads = [(n, side) for side, names in mat.home_telepads.items() for n in names]
    pads += [(n, side) for n, (side, _) in mat.portpads.items()]
    for name, side in pads:
        if side not in sides:
            continue
        f, r = parse_square(name)
        q = 8 * r + f
        code = SIDES.index(side) + 1 + HIDDEN_INK
        out[q] = np.where(hidden[q] & (out[q] == 0), code, out[q])
    return out


def unexplained_spaces(feat: np.ndarray, colours: dict[str, ColourModel],
                       empty: np.ndarray | None, layout: SampleLayout, noise: float = 1.0,
                       shaded_by: np.ndarray | None = None,
                       faintly_shaded_by: np.ndarray | None = None) -> np.ndarray:
    """(64,) bool: spaces where a Pole's top and footprint discs look like neither side's
    colour nor what the empty mat looked like there. Nothing on a real board does that; a
    hand or arm does. Each disc is judged on its mean, over the samples whose ray no piece
    on a neighbour can cross (a piece's blurred edge is neither colour, and no hand); a
    space is unexplained when every disc judged is odd and none shows a side's colour (a
    Pole's shaded foot, a Port's shadow or blurred edge may pass for odd, a hand covers
    both). A disc is odd when its mean is unlike the bare look's either way it is measured:
    :func:`empty_difference`, allowed more for a noisier camera (``noise``,
    :func:`camera_noise`), or :func:`bare_mat_distance`, whose allowances know that a
    saturated print's chromaticity is noisy and that a hand's lightness is no shade, and
    it is not the colour of a Pole seen on a neighbour blurred into the bare look
    (:func:`blend_loglik`), nor darker than the bare look where a neighbour's Pole casts its
    shadow (``shaded_by`` (64, 64) bool, :func:`vision.shapes.shading_spaces` within
    ``shadow_explains`` of the space's centre): two lamps of different colours make a
    shadow of one lamp the other's colour, far from the bare look's chromaticity though
    little darker. ``faintly_shaded_by`` (64, 64) bool: where a neighbour's Pole may cast
    a shadow fainter than the one learned (the start photo at calibration: every start
    Pole's weaker lamp's shadow, and its colour bled onto the mat beside it), a disc
    darker than the bare look, and no further from it than light makes bare mat
    (:func:`bare_mat_distance` under ``unexplained_sigma``), is that shadow; skin is
    further."""
    if empty is None:
        return np.zeros(64, bool)
    cfg = CLASSIFY
    judged = np.zeros(64, int)
    odd_discs = np.zeros(64, int)
    coloured = np.zeros(64, bool)
    means: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for disc in (layout.top, layout.foot):
        f, ref = feat[:, disc], empty[:, disc]
        use = ~np.isnan(ref[..., 0]) & (layout.weight[:, disc] >= 1.0)
        n = use.sum(axis=1)
        mean_f, mean_ref = _disc_means(f, ref, use)
        # Tighter than labelling: a Pole's top and body are what the colours were learned from.
        # The sides as one Gaussian each: a disc's mean blends lit and shaded faces.
        each = np.stack([_dark_distance(colours[name], mean_f) for name in SIDES], axis=1)
        side = each.min(axis=1) <= cfg.explain_sigma
        enough = n >= cfg.unexplained_min_samples
        odd = ~side & ((empty_difference(mean_f, mean_ref) >= cfg.empty_distance * noise)
                       | (bare_mat_distance(mean_f, mean_ref, noise) >= cfg.unexplained_sigma))
        judged += enough
        odd_discs += enough & odd
        coloured |= enough & side
        means.append((enough & odd, mean_f, mean_ref))
    unexplained = (judged > 0) & (odd_discs == judged) & ~coloured
    if not unexplained.any():
        return unexplained
    # Whose Pole stands where, from every top sample the empty photo saw (a tall neighbour
    # may cross some rays: a Pole's top still shows in most).
    f = feat[:, layout.top]
    seen = ~np.isnan(empty[:, layout.top, 0])
    top = masked_median(np.moveaxis(f, 1, 2), np.moveaxis(
        np.broadcast_to(seen[..., None], f.shape), 1, 2))  # (64, 3)
    tops_of = (seen.sum(axis=1) >= cfg.unexplained_min_samples)[:, None] & np.stack(
        [_dark_distance(colours[name], top) <= cfg.explain_sigma for name in SIDES], axis=1)
    # A space whose own top shows a side's colour so is a Pole, though a neighbour's piece
    # crosses too many of its rays for the disc to be judged, and its shaded body in the
    # footprint is darker than the lit pieces the colour was learned from (a far Pole).
    unexplained &= ~tops_of.any(axis=1)
    # A disc that is the colour of a neighbour's Pole leaning its top over it, blurred into
    # the bare look there (its chroma spread by the JPEG), is a piece's edge, not a hand.
    # Only there: skin may pass for a blend of the mat and light wood or orange anywhere.
    nb = _NEIGHBOURS
    near = (layout.leans_over[..., None] & tops_of[np.maximum(nb, 0)]).any(axis=1)
    def near_poles(by: np.ndarray | None) -> np.ndarray:
        return (np.zeros(64, bool) if by is None
                else (by & tops_of.any(axis=1)[None, :]).any(axis=1))

    shadowed, faintly = near_poles(shaded_by), near_poles(faintly_shaded_by)
    for odd, mean_f, mean_ref in means:
        ask = odd & near.any(axis=1) & unexplained
        fits = np.zeros(64, bool)
        if ask.any():
            blend = blend_loglik(mean_f[ask], mean_ref[ask], colours, noise)
            fits[ask] = ((blend >= -0.5 * cfg.blend_explains ** 2) & near[ask]).any(axis=1)
        # a shadow only darkens (whatever colour the light still reaching it gives it)
        darker = odd & unexplained & (mean_f[:, 0] < mean_ref[:, 0])
        fits |= darker & shadowed
        if faintly.any():
            fits |= darker & faintly & (bare_mat_distance(mean_f, mean_ref, noise)
                                        < cfg.unexplained_sigma)
        odd_discs -= fits
    return unexplained & (odd_discs == judged)


def _disc_means(feat: np.ndarray, ref: np.ndarray, use: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """(64, 3) twice: the mean colour feature of each space's disc samples now and on the
    empty mat ((64, K, 3) each) where ``use`` (64, K): their lightness as it is, their
    chromaticity weighted by each sample's lightness in the lighter of the two photos. A
    pixel dark in both is mostly noise in its chromaticity (a dot printed at a space's
    centre): alone among bright ones it must not move the disc's colour; one dark in one
    photo only (that dot now under a hand) changed for real."""
    feat = np.where(use[..., None], feat, 0.0)  # unused samples may be unknown (NaN)
    ref = np.where(use[..., None], ref, 0.0)
    m = use.astype(np.float32)
    n = np.maximum(m.sum(axis=1), 1.0)
    w = m * np.maximum(np.maximum(feat[..., 0], ref[..., 0]), 0.0)
    total = np.maximum(w.sum(axis=1), 1e-6)[:, None]

    def mean(x: np.ndarray) -> np.ndarray:
        light = (x[..., 0] * m).sum(axis=1) / n
        chroma = (x[..., 1:] * w[..., None]).sum(axis=1) / total
        return np.concatenate([light[:, None], chroma], axis=1).astype(np.float32)

    return mean(feat), mean(ref)


def _dark_distance(model: ColourModel, x: np.ndarray) -> np.ndarray:
    """Distance of features (N, 3) from ``model`` as one Gaussian, where a dark feature's
    chromaticity counts in proportion to its lightness: it is mostly noise and reflections
    (a black Pole standing on a red pad)."""
    scale = clip(x[:, :1] / CLASSIFY.chroma_lightness, 0.2, 1.0)
    d = x - model.mean
    return model.distance_whole(model.mean + np.concatenate([d[:, :1], d[:, 1:] * scale],
                                                            axis=1))


def empty_difference(feat: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Weighted distance of colour features from the empty mat's (both (..., 3)). Dark
    pixels' chromaticities are mostly noise, so they count in proportion to lightness."""
    w = np.array(CLASSIFY.empty_weights, np.float32)
    dark = clip(np.minimum(feat[..., 0], ref[..., 0]) / CLASSIFY.chroma_lightness, 0.2, 1)
    d = (feat - ref) * w
    d[..., 1:] *= dark[..., None]
    return np.linalg.norm(d, axis=-1)


def _light_of(feat: np.ndarray) -> np.ndarray:
    """Colour features (..., 3) -> the (R, G, B) (each + 4) they were read from, float32:
    :func:`colour_features` undone. Light adds up there, not in the features."""
    channels = _light_channels(feat)
    out = np.empty((*channels[1].shape, 3), np.float32)  # (not np.stack: ~20 a frame)
    for c, values in enumerate(channels):
        out[..., c] = values
    return out


def _light_channels(feat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Colour features (..., 3) -> the R, G and B (each + 4) they were read from, each
    (...) float32 of its own: :func:`colour_features` undone, a channel at a time."""
    er, eb = np.exp(feat[..., 1]), np.exp(feat[..., 2])
    g = feat[..., 0] * 255.0 / (0.299 * er + 0.587 + 0.114 * eb)
    return ((g * er).astype(np.float32, copy=False), g.astype(np.float32, copy=False),
            (g * eb).astype(np.float32, copy=False))


@functools.lru_cache(maxsize=64)
def _wall_chroma_of(dtype: str, mean: bytes) -> np.ndarray:
    wall = _light_of(np.frombuffer(mean, dtype))
    return wall[[0, 2]] - wall[1]


def _wall_chroma(mean: np.ndarray) -> np.ndarray:
    """(2,) float32 (R - G, B - G) of a colour part's mean features (3,), as
    :func:`blend_loglik` reads walls: kept, as the sides' parts are the same every frame
    (read only: shared between calls)."""
    return _wall_chroma_of(mean.dtype.str, mean.tobytes())


def blend_loglik(feat: np.ndarray, empty: np.ndarray, colours: dict[str, ColourModel],
                 noise: float = 1.0) -> np.ndarray:
    """(..., 2) float32: how well each sample (features (..., 3)) is a wall of a side
    (south, north) blurred into the bare mat there (``empty`` (..., 3), NaN where unknown),
    as ``-d^2 / 2``, capped like :func:`sample_evidence`'s. A blend's lightness lies
    between the two; its chroma as colour differences (R - G, B - G) between theirs, even
    where a JPEG spreads the wall's chroma over dark mat (which, as ratios, looks like a
    deeper colour: light wood blurred into dark cloth passes for dark wood). ``d``: how far
    outside both, in ``CLASSIFY.blend_light_sigma`` and ``blend_chroma_sigma`` times
    ``noise``, from the nearest of the side's colour parts."""
    cfg = CLASSIFY
    cap = cfg.loglik_cap
    out = np.full((*feat.shape[:-1], 2), -0.5 * cap * cap, np.float32)
    known = ~np.isnan(empty[..., 0])
    x, bare = feat[known].astype(np.float32), empty[known].astype(np.float32)
    # the colour differences (R - G, B - G) one at a time (see colour_channels)
    xl, bl = _light_of(x), _light_of(bare)
    bc = [bl[:, 0] - bl[:, 1], bl[:, 2] - bl[:, 1]]
    rel = [xl[:, 0] - xl[:, 1] - bc[0], xl[:, 2] - xl[:, 1] - bc[1]]  # sample - bare
    for k, name in enumerate(SIDES):
        model = colours[name]
        best = np.full(len(x), np.inf, np.float32)
        for mean, _ in model.parts or ((model.mean, model.inv_cov),):
            wc = _wall_chroma(mean)
            below = np.minimum(bare[:, 0], mean[0]) - x[:, 0]
            above = x[:, 0] - np.maximum(bare[:, 0], mean[0])
            light = np.maximum(np.maximum(below, above), 0.0) / cfg.blend_light_sigma
            span = [wc[0] - bc[0], wc[1] - bc[1]]
            t = clip((rel[0] * span[0] + rel[1] * span[1])
                        / np.maximum(span[0] * span[0] + span[1] * span[1], 1e-6), 0.0, 1.0)
            off = [rel[0] - t * span[0], rel[1] - t * span[1]]
            # (np.linalg.norm's sum of squares)
            chroma = np.sqrt(off[0] * off[0] + off[1] * off[1]) / cfg.blend_chroma_sigma
            best = np.minimum(best, np.hypot(light, chroma) / noise)
        out[known, k] = -0.5 * np.minimum(best, cap) ** 2
    return out


@dataclass(frozen=True, slots=True)
class SpaceReading:
    pole: str | None
    ports: tuple[tuple[str, str], ...]  # (corner, side)
    confidence: float


def _port_configs() -> tuple[list[tuple[tuple[tuple[str, int], ...], bool]], np.ndarray]:
    """Every way Ports can stand in one space, as (Ports (corner, side index), Teleport?) and
    the side index (0 none, 1 south, 2 north) each arrangement puts on each edge (C, 4)."""
    configs: list[tuple[tuple[tuple[str, int], ...], bool]] = [((), False)]
    for s in (1, 2):
        configs += [(((c, s),), False) for c in CORNERS]
        configs.append((((CORNERS[0], s),), True))  # a Teleport: its diagonal read apart
    for c1, c2 in (("sw", "ne"), ("nw", "se")):  # two colours: a repel not carried out
        configs += [(((c1, 1), (c2, 2)), False), (((c1, 2), (c2, 1)), False)]
    states = np.zeros((len(configs), 4), int)
    for i, (ports, teleport) in enumerate(configs):
        if teleport:
            states[i] = ports[0][1]
        for corner, s in ports if not teleport else ():
            for e in CORNER_EDGES[corner]:
                states[i, EDGES.index(e)] = s
    return configs, states


_CONFIGS, _CONFIG_STATES = _port_configs()
# (C, 2): the Ports of each side (south, north) every arrangement stands; a Teleport is two
_CONFIG_PORTS = np.array([[(2 if teleport else 1) * sum(side == s for _, side in ports)
                           for s in (1, 2)] for ports, teleport in _CONFIGS])


def teleport_diagonals(image: np.ndarray, camera: CameraModel, squares: list[int],
                       geometry: PieceGeometry | None = None,
                       poles: np.ndarray | None = None) -> dict[int, tuple[bool, float]]:
    """Per square (index file + 8 * rank) holding a Teleport: whether its Ports stand in the
    sw and ne corners (True) or se and nw, and how sure (0..1). ``image``: (H, W, 3) uint8
    BGR; ``poles``: (64,) bool, the spaces read with a Pole standing (none if not given).
    Where a Port's own two walls meet, the wall top runs on unbroken round the corner;
    where two halves join, the seam breaks it: along both walls' top centre lines, the seam
    corners dip darker than the walls further along (the narrow slot between two walls
    lies in their shadow). A corner hidden behind a standing Pole (its own or a
    neighbour's) says nothing; with none seen on one diagonal, the reading is unsure."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    t, z = g.wall_thickness / 2, g.wall_height - cfg.wall_surface
    near = np.linspace(cfg.seam_from, cfg.seam_reach, cfg.seam_samples)
    far = np.linspace(*cfg.seam_ref, cfg.seam_samples)
    n = len(near)
    cyl = pole_cylinders(g)
    standing = np.zeros(64, bool) if poles is None else np.asarray(poles, bool)
    out: dict[int, tuple[bool, float]] = {}
    for sq in squares:
        f, r = sq & 7, sq >> 3
        around = cyl[sq][standing[np.clip(_NEIGHBOURS[sq], 0, 63)] & (_NEIGHBOURS[sq] >= 0)]
        legs = np.stack([_seam_legs(corner, f, r, t, along)
                         for corner in CORNERS for along in (near, far)])  # (8, 2n, 2)
        flat = legs.reshape(-1, 2)
        # one look and one line-of-sight test for all four corners (the per-frame cost)
        seen = _seen_over_poles(camera, flat, z, around).reshape(len(CORNERS), 2, 2 * n)
        light = read_colour(image, camera.image_points(flat, z))[:, 0].reshape(
            len(CORNERS), 2, 2 * n)
        dips: dict[str, float | None] = {}
        for i, corner in enumerate(CORNERS):
            seen_near, seen_far = seen[i]
            if not (seen_near[:n].any() and seen_near[n:].any() and seen_far.any()):
                dips[corner] = None
                continue
            ln = light[i, 0]
            ref = float(median(light[i, 1][seen_far]))
            dips[corner] = (2 * ref - ln[:n][seen_near[:n]].min()
                            - ln[n:][seen_near[n:]].min()) / max(ref, 1e-3)
        at_se_nw = [d for c in ("se", "nw") if (d := dips[c]) is not None]
        at_sw_ne = [d for c in ("sw", "ne") if (d := dips[c]) is not None]
        if not at_se_nw or not at_sw_ne:
            # One diagonal unseen: its seams may or may not be there, so the other's
            # dips are weighed against none, and the referee is asked to look.
            a, b = sum(at_se_nw) / max(len(at_se_nw), 1), sum(at_sw_ne) / max(len(at_sw_ne), 1)
            out[sq] = (bool(a > b), 0.0)
            continue
        seams_at_se_nw = 2 * sum(at_se_nw) / len(at_se_nw)
        seams_at_sw_ne = 2 * sum(at_sw_ne) / len(at_sw_ne)
        rel = abs(seams_at_se_nw - seams_at_sw_ne) / max(seams_at_se_nw + seams_at_sw_ne, 1e-3)
        out[sq] = (bool(seams_at_se_nw > seams_at_sw_ne), min(1.0, rel / cfg.seam_margin))
    return out


def _seam_legs(corner: str, f: int, r: int, t: float, along: np.ndarray) -> np.ndarray:
    """(2 * len(along), 2) mat points along the centre lines of the two walls meeting at
    ``corner`` of space (``f``, ``r``), ``along`` (spaces) from the corner: first the wall
    running east-west, then the one running north-south; ``t``: half a wall's thickness."""
    sx, sy = CORNER_SIGNS[corner]
    x = along if sx < 0 else 1 - along
    y = along if sy < 0 else 1 - along
    on_x = np.column_stack([x, np.full_like(along, t if sy < 0 else 1 - t)])
    on_y = np.column_stack([np.full_like(along, t if sx < 0 else 1 - t), y])
    return np.vstack([on_x, on_y]) + np.array([f, r], float)


def _seen_over_poles(camera: CameraModel, xy: np.ndarray, z: float, poles: np.ndarray
                     ) -> np.ndarray:
    """(N,) bool: whether the camera sees the points ``xy`` (N, 2) at height ``z`` (mat
    units) past the Poles ``poles`` (P, 4: x, y, radius, height). Only the line of sight
    between the camera and the point counts, so the world is lowered by ``z`` and the ray
    ends on the new floor."""
    if not len(poles):
        return np.ones(len(xy), bool)
    lowered = poles.copy()
    lowered[:, 3] -= z
    centre = camera.centre - np.array([0.0, 0.0, z])
    rays = Rays(centre, np.column_stack([xy, np.zeros(len(xy))]), float(lowered[:, 3].max()) + 0.05)
    none = np.full((len(xy), 1, 2, 3), _FAR)
    none[..., 1, :] += 0.1
    clear = clearance_each(rays, np.broadcast_to(lowered, (len(xy), *lowered.shape)), none,
                           CLASSIFY.ray_iterations)
    return clear > clear_needed(camera)


def _disc_votes(labels: np.ndarray, camouflage: np.ndarray, code: int,
                least: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Share of a disc's samples (labels (64, K)) showing side ``code``, among those that
    can tell it (not camouflaged (64, K), not unlike everything), and whether the disc is
    mute for that side (fewer than ``least`` of its samples can tell; default half)."""
    speaking = ~camouflage & (labels >= 0)
    n = speaking.sum(axis=1)
    share = ((labels == code) & speaking).sum(axis=1) / np.maximum(n, 1)
    return share, n < (least if least is not None else (labels.shape[1] + 1) // 2)


def _port_scores(loglik: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(64, arrangements) score of every Port arrangement from the wall samples'
    log-likelihoods (64, 4 * WALL_SAMPLES, 3) and weights (64, 4 * WALL_SAMPLES), and each
    edge's evidence (64, 4, 3) for [no wall, south's, north's]. Each edge's worst sample
    for each explanation is left out: one sample that met a glint, a seam or a neighbour's
    edge must not outvote the other two."""
    w = weight.reshape(64, 4, WALL_SAMPLES, 1)
    ll = loglik.reshape(64, 4, WALL_SAMPLES, 3) * w
    if WALL_SAMPLES == 3 and not np.isnan(ll).any():
        # np.sort's values by a sorting network (a tenth of its cost on 3-value lanes;
        # NaN, which it sorts last, would spread through the network's minima)
        _, mid, top = sorted_along(ll, 2)
        # as np.sum of the two (which starts from +0.0: two -0.0 sum to +0.0)
        edge_ll = (mid + top + 0.0) * WALL_SAMPLES / (WALL_SAMPLES - 1)
    else:
        edge_ll = (np.sort(ll, axis=2)[:, :, 1:].sum(axis=2) * WALL_SAMPLES
                   / (WALL_SAMPLES - 1))
    return _arrangement_scores(edge_ll), edge_ll


def _arrangement_scores(edge_ll: np.ndarray) -> np.ndarray:
    """(64, arrangements) from each edge's evidence (64, 4, 3) for [no wall, south's,
    north's]."""
    return edge_ll[:, np.arange(4), _CONFIG_STATES].sum(axis=2)


# index arrays that pick one value per space and edge (and wall sample) from a last axis
_SPACE_EDGE = (np.arange(64)[:, None], np.arange(4)[None, :])
_SPACE_EDGE_SAMPLE = (np.arange(64)[:, None, None], np.arange(4)[None, :, None],
                      np.arange(WALL_SAMPLES)[None, None, :])


def _wall_strength(edge_ll: np.ndarray, best: np.ndarray) -> np.ndarray:
    """(64, 4): how much better each edge's wall, where arrangement ``best`` (64,) stands
    one, explains its samples than no wall does; -inf where none stands."""
    side = _CONFIG_STATES[best]  # (64, 4)
    mine = edge_ll[(*_SPACE_EDGE, side)]  # (take_along_axis's values, without its set-up)
    return np.where(side > 0, mine - edge_ll[..., 0], -np.inf)


def _gather_neighbours(per_edge: np.ndarray, off: float) -> np.ndarray:
    """(64, 36): a per-edge value (64, 4) for each space's neighbourhood walls, in
    :func:`_neighbourhoods` order; ``off`` off the mat."""
    nb = _NEIGHBOURS
    return np.where((nb >= 0)[..., None], per_edge[np.maximum(nb, 0)], off).reshape(64, -1)


# The space across each edge (EDGES order; -1 off the mat), in _neighbourhoods order south,
# north, west, east, and the edge it sees there: two walls on one grid line.


def _one_wall_per_line(edge_ll: np.ndarray, best: np.ndarray, scores: np.ndarray,
                       wall_ll: np.ndarray | None = None,
                       blends: Callable[[np.ndarray], np.ndarray] | None = None
                       ) -> np.ndarray:
    """Arrangement scores (64, C) again where two spaces read walls on one grid line
    (:func:`_yielding_lines`), until no space's arrangement claims a line another's holds:
    a space that yields one line may then read a Port on lines its other neighbours'
    walls stand on (three neighbours' walls round a bare space)."""
    first = best
    aside = np.zeros((64, 4), bool)
    known = np.zeros(64, bool)
    seen: np.ndarray | None = None

    def blended(rows: np.ndarray) -> np.ndarray:
        # each space's blends worked out once, and only where asked for
        nonlocal seen
        assert blends is not None
        need = rows & ~known
        if need.any():
            part = blends(need)
            if seen is None:
                seen = np.full((64, *part.shape[1:]), -0.5 * CLASSIFY.loglik_cap ** 2,
                               np.float32)
            seen[need] = part
            known[need] = True
        assert seen is not None
        return seen

    for _ in range(CLASSIFY.line_passes):
        yields = _yielding_lines(np.where(aside[..., None], 0.0, edge_ll), best, wall_ll,
                                 None if blends is None else blended) & ~aside
        if not yields.any():
            break
        aside |= yields
        scores = _arrangement_scores(np.where(aside[..., None], 0.0, edge_ll))
        best = np.argmax(scores, axis=1)
    if aside.any():
        back = _lines_given_back(edge_ll, first, best, aside)
        if back.any():
            sq, edge = np.nonzero(back)
            aside[sq, edge] = True
            aside[_ACROSS[sq, edge], _ACROSS_EDGE[edge]] = False
            scores = _arrangement_scores(np.where(aside[..., None], 0.0, edge_ll))
    return scores


_ACROSS_SAFE = np.maximum(_ACROSS, 0)
_ONE_PORT = np.array([len(ports) == 1 and not tele for ports, tele in _CONFIGS])


def _lines_given_back(edge_ll: np.ndarray, first: np.ndarray, best: np.ndarray,
                      aside: np.ndarray) -> np.ndarray:
    """(64, 4) bool: the edges a space takes back from its neighbour across, after the
    lines were settled (``aside`` (64, 4): the edges each space yielded; ``first`` (64,):
    each space's arrangement before, ``best`` (64,) after; ``edge_ll`` (64, 4, 3)). A Port
    is two walls. Where a space's Port has yielded one wall's line and stands on the other
    alone, a line its neighbour yielded to it while losing the Port it read there, the two
    Ports each lean on one wall: the line goes back to the neighbour where its other wall
    shows more, by ``port_margin``, than this space's yielded one (walls either side of
    one line read as a third space's Port between two neighbours' Ports, each of which
    holds one of its lines)."""
    side = _CONFIG_STATES[best]
    was = _CONFIG_STATES[first]
    # each edge's own evidence for the wall an arrangement stands there, none set aside
    raw = edge_ll[(*_SPACE_EDGE, np.maximum(was, 1))] - edge_ll[..., 0]
    one = _ONE_PORT[best] & ((side > 0) & aside).any(axis=1)  # a Port with a line yielded
    held = one[:, None] & (side > 0) & ~aside  # the wall it still stands on
    there = _ACROSS_SAFE, _ACROSS_EDGE
    theirs = ((_ACROSS >= 0) & held & aside[there] & (was[there] == side)
              & _ONE_PORT[first][_ACROSS_SAFE] & ~(side > 0).any(axis=1)[_ACROSS_SAFE])
    if not theirs.any():
        return np.zeros((64, 4), bool)
    # the other wall's evidence: this space's yielded one, the neighbour's in its first Port
    mine = np.where((side > 0) & aside, raw, -np.inf).max(axis=1)  # (64,)
    other = np.where(was > 0, raw, -np.inf)  # (64, 4)
    other_there = other[_ACROSS_SAFE]  # (64, 4 edges, 4 of the neighbour's edges)
    skip = np.arange(4)[None, None, :] == _ACROSS_EDGE[None, :, None]
    theirs_other = np.where(skip, -np.inf, other_there).max(axis=2)  # (64, 4)
    return theirs & (theirs_other >= np.maximum(mine, 0.0)[:, None] + CLASSIFY.port_margin)


def _wall_across(side: np.ndarray) -> np.ndarray:
    """(64, 4) bool: the edges whose neighbour across stands a wall on the same grid line,
    given the side (64, 4) each space's arrangement stands on each edge (0: none)."""
    return (_ACROSS >= 0) & (side[_ACROSS_SAFE, _ACROSS_EDGE] > 0)


def _port_partners() -> np.ndarray:
    """(C, 4): for each arrangement and edge, the edge of the same Port's other wall (EDGES
    index), -1 where the edge stands no wall or the Port is a Teleport (four walls)."""
    partners = np.full((len(_CONFIGS), 4), -1)
    for i, (ports, teleport) in enumerate(_CONFIGS):
        for corner, _ in ports if not teleport else ():
            a, b = (EDGES.index(e) for e in CORNER_EDGES[corner])
            partners[i, a], partners[i, b] = b, a
    return partners


_PARTNERS = _port_partners()


def _with_other_wall(strength: np.ndarray, edge_ll: np.ndarray, best: np.ndarray,
                     side: np.ndarray, shared: np.ndarray) -> np.ndarray:
    """(64, 4): each edge's wall ``strength`` with how much better the same Port's other
    wall explains its own edge than no wall does (arrangements ``best`` (64,), the side
    each stands on each edge ``side`` (64, 4), evidence ``edge_ll`` (64, 4, 3)), where that
    wall is not on a line two spaces read walls on (``shared`` (64, 4)): there its evidence
    may be the neighbour's, so it says nothing."""
    partner = _PARTNERS[best]  # (64, 4)
    at = np.maximum(partner, 0)
    rows = np.arange(64)[:, None]
    other = edge_ll[rows, at, side] - edge_ll[rows, at, 0]
    says = (partner >= 0) & ~shared[rows, at]
    return strength + np.where(says, other, 0.0)


def _yielding_lines(edge_ll: np.ndarray, best: np.ndarray,
                    wall_ll: np.ndarray | None = None,
                    blends: Callable[[np.ndarray], np.ndarray] | None = None
                    ) -> np.ndarray:
    """(64, 4) bool: the edges whose evidence a space yields to its neighbour across, where
    two spaces read walls on one grid line (arrangements ``best`` (64,)): the
    walls either side of a line are a few pixels apart, so one real wall lights both
    spaces' samples (blurred into the mat, another side's wall may even pass for this
    side's). A Port is two walls: set the shared line's evidence aside, and a space whose
    other edges still call for its wall keeps it; one whose do not yields the line to its
    neighbour, unless that one's other edges do not call for a wall either and its wall
    there is the weaker. Between two sides' walls, one that the other's blurred into the
    mat does not explain stands, and where both might be such a blend, the one explained
    the better yields. ``edge_ll`` (64, 4, 3), ``best`` (64,); ``wall_ll``
    (64, 4 * WALL_SAMPLES, 3): the wall samples' own log-likelihoods, unweighted;
    ``blends``: given the spaces (64,) bool whose are needed, the wall samples as blends
    (64, 4 * WALL_SAMPLES, 2) (:func:`blend_loglik`; those of other spaces unknown),
    asked for only where two sides' walls share a line."""
    side = _CONFIG_STATES[best]
    there = np.maximum(_ACROSS, 0), _ACROSS_EDGE
    # Walls read either side of a line, of one side or of two: one may be only the other's
    # light (a red wall's edge blurred into white paper passes for a white wall; a light
    # wall's on dark cloth for a dark wood's).
    shared = (side > 0) & _wall_across(side)
    if not shared.any():
        return shared

    def rescored(aside: np.ndarray) -> np.ndarray:
        return _arrangement_scores(np.where(aside[..., None], 0.0, edge_ll))

    # How much the space's other edges call for its wall there: the arrangements with that
    # wall against those without, the shared line set aside. A clear call (line_keep_lead
    # of port_margin) keeps the line; otherwise the space whose other edges call more keeps
    # it, and where neither calls for it, the stronger wall.
    aside = rescored(shared)  # (64, C)
    mine_there = _CONFIG_STATES.T[None] == side[..., None]  # (64, 4, C)
    lead = (np.where(mine_there, aside[:, None, :], -np.inf).max(axis=2)
            - np.where(mine_there, -np.inf, aside[:, None, :]).max(axis=2))
    still = shared & (lead >= CLASSIFY.line_keep_lead * CLASSIFY.port_margin)
    strength = _wall_strength(edge_ll, best)
    across = shared & (side[there] != side)
    if wall_ll is not None and blends is not None and across.any():
        # Two sides' walls: how much better each edge's own colour explains its samples
        # than the wall across blurred into the mat does.
        own = wall_ll.reshape(64, 4, WALL_SAMPLES, 3)[(*_SPACE_EDGE_SAMPLE, side[..., None])]
        each = blends(across.any(axis=1)).reshape(64, 4, WALL_SAMPLES, 2)
        theirs = np.where((side[there] == 2)[..., None], each[..., 1], each[..., 0])
        strength = np.where(across, (own - theirs).sum(axis=2), strength)
        # A wall no blend explains (by port_margin) stands whatever stands across it,
        # unless its space's other edges speak against it (line_against): a Port is two
        # walls, and one whose other wall looks absent stands only by the line, which the
        # wall across explains (its lit top, or its shadow, need not look like that wall's
        # side; a shadow on wood may look plainly like dark wood). Where the other wall is
        # on a shared line too, or out of sight, they say nothing (lead about 0).
        # ... and only where its colour tells it from the wall across (by port_margin): a
        # face of that wall in its own shade, dark and tinted by the light, may fit either
        # side's colour as well as the other and no blend of the lit wall (a lime wall's
        # shaded face and bluish shadow under a warm LED, read as a purple wall across).
        told = (edge_ll[(*_SPACE_EDGE, side)]
                - edge_ll[(*_SPACE_EDGE, np.maximum(side[there], 1))])
        still |= across & (strength >= CLASSIFY.port_margin) & (
            lead > -CLASSIFY.line_against) & (told >= CLASSIFY.port_margin)
    # Spaces whose every wall is shared have no other edge to call (lead 0 both sides).
    neither = (lead <= 0) & (lead[there] <= 0)
    # ... unless one's other edges speak against its wall (line_against) and the other's
    # do not: a Port is two walls, and a wall whose space shows its other one absent is
    # the likelier blur of the wall across. Short of that, each wall is weighed with its
    # Port's other wall: one 8 clearer than its neighbour's is no likelier where its other
    # wall looks 8 absent.
    against = lead <= -CLASSIFY.line_against * CLASSIFY.port_margin
    whole = _with_other_wall(strength, edge_ll, best, side, shared)
    weaker = np.where(against != against[there], against, whole[there] > whole)
    return shared & ~still & (still[there] | np.where(neither, weaker, lead[there] > lead))


def _held_across(edge_ll: np.ndarray, colour_ll: np.ndarray, settled: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Where a neighbour's wall holds a space's line: (64, 4) bool, the edges whose
    neighbour across has a wall in the ``settled`` arrangements (64,) while the space has
    none there, and the arrangements' scores (64, C) from each space's evidence before the
    lines were settled (``edge_ll`` (64, 4, 3), shapes included) with only its colours
    (``colour_ll``) on those edges: the shape seen on such a line is the neighbour's wall.
    A white wall's structure on white paper, seen from both spaces, put the Port the set
    missed next door to the white Port that went missing (simulated 2027)."""
    side = _CONFIG_STATES[settled]
    held = _wall_across(side) & (side == 0)
    return held, _arrangement_scores(np.where(held[..., None], colour_ll, edge_ll))


def _back_to_back(edge_ll: np.ndarray, settled: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Where walls stand back to back: (64, 4) bool, the edges on which both a space and
    its neighbour across have a wall in the ``settled`` arrangements (64,), and the
    arrangements' scores (64, C) with those edges' evidence (``edge_ll`` (64, 4, 3)) set
    aside: either wall may be all that both spaces' samples there see."""
    side = _CONFIG_STATES[settled]
    both = (side > 0) & _wall_across(side)
    return both, _arrangement_scores(np.where(both[..., None], 0.0, edge_ll))


def _fit_the_set(scores: np.ndarray, best: np.ndarray, ports_per_side: int,
                 unshared: np.ndarray | None = None,
                 held: tuple[np.ndarray, np.ndarray] | None = None,
                 paired: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Each space's Port arrangement (64,) again, and how sure each may be read at most
    (64,): the loss of a change in ``port_margin`` (a change is no surer than the evidence
    it went against), 1 elsewhere. From ``best`` (64,) and the arrangements' scores
    (64, C), where the board reads one Port more or fewer than the set has
    (``ports_per_side`` a side: every one stands on the mat, all game long): the space read
    least surely (by less than ``set_fit_loss`` of port_margin) that changes by that one Port
    changes. Two walls back to back on one grid line, or one wall and the face of another
    that the camera sees past it, lie a few pixels apart, and a board's readings then lean
    on each other: one misreading short of the set's count is likelier than a Port gone.
    ``unshared`` (64, C): the scores before any space yielded a grid line to its neighbour
    (:func:`_one_wall_per_line`): a line given up is the likeliest place for the missing
    Port, and its own evidence says which. ``held`` (:func:`_held_across`): a change
    every wall of which it adds stands on a line a neighbour's wall holds is judged on the
    space's colours there alone (set aside, those lines would cost it nothing, and the
    shape seen on them is the neighbour's; a change with a wall of its own elsewhere, a
    Teleport's second Port beside a Port back to back with it, is judged as before).
    ``paired`` (:func:`_back_to_back`): a change every wall of which it takes away stood
    back to back with a neighbour's wall is judged with those lines set aside: the
    neighbour's wall there, a face of it in its own shade, may be all either space's
    samples saw (an orange wall's shaded face read as a grey wall back to back with it,
    on two lines at once: a grey Port beyond the set, sure).
    Two Ports short, and nothing over, are two such spaces, each changing by one Port, the
    one losing least first (a Port coloured like the mat under it, seen from above, shows
    its walls faintly; two of them in one frame are no rarer than one in two). So are two
    Ports over, and nothing short: two phantoms (a low sun's Pole shadows along grid lines
    of squares coloured like a side's pieces), each dropped only where read unsurely. One
    over and one short is one Port read as the other side's (a light side's walls in their
    own shade read dark), or a phantom and a faint Port: whichever squares the count
    losing least, a space's Port changing side counting as one change, allowed up to
    ``set_swap_loss`` of port_margin (the set proves some space wrong) and weighed, and
    read, scaled down to the others' allowance. Three short, and
    nothing over, are three faint Ports, found the same way. Nothing changes where more
    Ports are off (a hand over the mat read as pieces, which the set's count tells apart,
    :func:`vision.detect.beyond_the_set`), or where a change needed loses too much."""
    rows = np.arange(64)
    sure = np.ones(64)
    off = _CONFIG_PORTS[best].sum(axis=0) - ports_per_side  # (2,)
    if not (np.abs(off).sum() in (1, 2) or (np.abs(off).sum() == 3 and (off <= 0).all())):
        return best, sure
    loss = scores[rows, best][:, None] - scores
    if unshared is not None:
        loss = np.minimum(loss, unshared[rows, best][:, None] - unshared)
    if held is not None:
        # a change every wall of which it adds stands where a neighbour's wall holds the
        # line has no wall of its own to show for it
        edges, colour_scores = held
        adds = (_CONFIG_STATES > 0)[None] & (_CONFIG_STATES[best] == 0)[:, None, :]
        onto = adds.any(axis=2) & ~(adds & ~edges[:, None, :]).any(axis=2)  # (64, C)
        loss = np.where(onto, colour_scores[rows, best][:, None] - colour_scores, loss)
    if paired is not None:
        # a change every wall of which it takes away stood back to back with another
        edges, aside_scores = paired
        drops = (_CONFIG_STATES == 0)[None] & (_CONFIG_STATES[best] > 0)[:, None, :]
        off_lines = drops.any(axis=2) & ~(drops & ~edges[:, None, :]).any(axis=2)
        loss = np.where(off_lines, np.minimum(
            loss, aside_scores[rows, best][:, None] - aside_scores), loss)
    change = _CONFIG_PORTS[None] - _CONFIG_PORTS[best][:, None]  # (64, C, 2)
    fitted = best.copy()
    most = CLASSIFY.set_fit_loss * CLASSIFY.port_margin
    if off.sum() == 0:
        # one over, one short: one space's Port read as the other side's, or a phantom
        # and a faint Port on two spaces, whichever loses less in all
        def losses(step: np.ndarray) -> np.ndarray:  # (64, C): inf where not that step
            return np.where((change == step).all(axis=2), loss, np.inf)
        over, short = -off * (off > 0), -off * (off < 0)  # a Port dropped, a Port added
        by_step = [losses(step) for step in (-off, over, short)]
        swap, drop, add = (x.min(axis=1) for x in by_step)
        # a Port's side changed is the one misreading that squares both sides: allowed up
        # to a sure reading's margin, weighed against two changes (and read) scaled down to
        # the others' allowance
        swap_most = CLASSIFY.set_swap_loss * CLASSIFY.port_margin
        weigh = most / swap_most
        swap = np.where(swap < swap_most, swap * weigh, np.inf)
        one = int(np.argmin(swap))
        pair = drop[:, None] + add[None, :]
        pair[np.arange(64), np.arange(64)] = np.inf  # two spaces
        pair[np.maximum(drop[:, None], add[None, :]) >= most] = np.inf
        two = np.unravel_index(np.argmin(pair), pair.shape)
        if min(swap[one], pair[two]) >= most:
            return best, sure
        moves = ([(one, by_step[0])] if swap[one] <= pair[two]
                 else [(int(two[0]), by_step[1]), (int(two[1]), by_step[2])])
        for space, step_loss in moves:
            arrangement = int(np.argmin(step_loss[space]))
            fitted[space] = arrangement
            lost = max(float(loss[space, arrangement]), 0.0) * (weigh if len(moves) == 1
                                                                 else 1.0)
            sure[space] = lost / CLASSIFY.port_margin
        return fitted, sure
    # two short: each a Port some space read unsurely missed, the one losing least first
    while off.any():
        steps = [-np.sign(off) * (np.arange(2) == i) for i in np.flatnonzero(off)]
        fits = np.zeros(loss.shape, bool)
        for step in steps:  # exactly one Port of a side still off, the other side alike
            fits |= (change == step).all(axis=2)
        fits[fitted != best] = False  # a space changes once
        candidates = np.where(fits, loss, np.inf)
        sq, to = np.unravel_index(np.argmin(candidates), candidates.shape)
        if candidates[sq, to] >= most:
            return best, np.ones(64)
        fitted[sq] = to
        sure[sq] = max(float(candidates[sq, to]), 0.0) / CLASSIFY.port_margin
        off = off + change[sq, to]
    return fitted, sure


def _poles_of_each_side(standing: np.ndarray, side: np.ndarray) -> np.ndarray:
    """(2,): the Poles read standing (64,) bool of each side (south, north; ``side`` (64,))."""
    return np.array([(standing & (side == code)).sum() for code in (1, 2)])


def _fit_the_poles(standing: np.ndarray, side: np.ndarray, conf: np.ndarray,
                   lean: np.ndarray, poles_per_side: int, shaped: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each space's Pole reading again (standing (64,) bool, side (64,) 1 south 2 north, how
    sure (64,)), where the board reads one Pole more or fewer than the set has
    (``poles_per_side`` a side, all on the mat all game long), as :func:`_fit_the_set` does
    for Ports. One short: the space read without a Pole, unsurely (under ``set_fit_loss``),
    whose discs lean most to that side's colour (``lean`` (64, 2): the share of its top and
    footprint samples read in each side's colour, even where the bare mat there is printed
    in it), if they lean at least ``pole_share``: a Pole on a pad printed in its own colour.
    Failing that, the one whose shape shows that side's Pole most plainly (``shaped``
    (64, 2): :func:`_read_poles`' ``shapes``), if at least ``set_fit_shape``: a Pole its
    discs cannot tell from the pad under it, whose shape alone was too little to stand on.
    One over: that side's Pole read least surely, if unsurely. A changed space stays
    unsure. Nothing changes where more than one Pole is off."""
    off = _poles_of_each_side(standing, side) - poles_per_side
    if np.abs(off).sum() != 1:
        return standing, side, conf
    code = int(np.argmax(np.abs(off))) + 1
    unsure = conf < CLASSIFY.set_fit_loss
    standing, side, conf = standing.copy(), side.copy(), conf.copy()
    if off[code - 1] < 0:
        leaning = np.where(~standing & unsure, lean[:, code - 1], -np.inf)
        sq = int(np.argmax(leaning))
        if leaning[sq] >= CLASSIFY.pole_share:
            standing[sq], side[sq] = True, code
            conf[sq] = min(float(conf[sq]), 1.0 - float(lean[sq, code - 1]))
            return standing, side, conf
        # (lean is 0 where the pad is printed in the side's colour: its samples read bare)
        shown = (np.full(64, -np.inf) if shaped is None
                 else np.where(~standing & unsure, shaped[:, code - 1], -np.inf))
        sq = int(np.argmax(shown))
        if shown[sq] < CLASSIFY.set_fit_shape:
            return standing, side, conf
        standing[sq], side[sq] = True, code
    else:
        mine = np.where(standing & (side == code) & unsure, conf, np.inf)
        sq = int(np.argmin(mine))
        if not np.isfinite(mine[sq]):
            return standing, side, conf
        standing[sq] = False
    return standing, side, conf


EITHER_SIDE = 3  # a Pole's side (1 south, 2 north) where its shape shows, its colour not


def _whose_poles(standing: np.ndarray, side: np.ndarray, conf: np.ndarray,
                 poles_per_side: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Poles :func:`_read_poles` saw by their shapes alone, of :data:`EITHER_SIDE`
    (``side`` (64,)), given a side: where the set (``poles_per_side``, all on the mat all
    game long) is short of exactly that many Poles, all of one side, they are that side's,
    half as sure as their shapes (``conf`` (64,)): the side comes from the count, which
    one misread Pole elsewhere misleads. So, too, where it is short of more (those the
    shapes do not show are missed, and :func:`_fit_the_poles` looks for one of them as
    one misreading). Otherwise they are left unread: no Pole, and not sure of bare mat
    (0)."""
    either = side == EITHER_SIDE
    if not either.any():
        return standing, side, conf
    standing, side, conf = standing.copy(), side.copy(), conf.copy()
    short = (np.zeros(2, int) if poles_per_side is None
             else poles_per_side - _poles_of_each_side(standing, side))
    if (short.min() >= 0 and int((short > 0).sum()) == 1
            and int(short.sum()) >= int(either.sum())):
        standing[either] = True
        side[either] = int(np.argmax(short)) + 1
        conf[either] = 0.5 * conf[either]
    else:
        side[either] = 1
        conf[either] = 0.0
    return standing, side, conf


def _pieces_off(standing: np.ndarray, side: np.ndarray, arrangement: np.ndarray,
                set_size: tuple[int, int]) -> str | None:
    """"pole" or "port" where the board (Poles standing (64,) bool of side (64,), Port
    arrangements (64,)) reads exactly one piece of that kind more or fewer than the set
    (Poles, Ports) of a side has, and every other piece as the set has; "both" where it
    reads one Port more and one Pole fewer, or one Pole more and one Port fewer (one thing
    seen, read as the wrong kind: a Pole's body and shadow as walls round it, with its top
    then explained by them); "port" too where it reads two Ports fewer, and every Pole
    (two walls each faint, Ports coloured like the mat under them), two Ports more, and
    every Pole (two shadows along grid lines read as walls), or one Port of a side more
    and one of the other fewer (a Port read as the other side's). Only pieces missed, up
    to three Ports and a Pole and nothing beyond the set, are "port" or "both" too (faint
    pieces; the hand check counts only pieces beyond the set, so fitting them holds no
    frame back that it did not). Those are fitted to the set (:func:`_fit_the_poles`,
    :func:`_fit_the_set`); more pieces off than that, two Poles more, or a Pole off with
    Ports over, are something else (a hand read as pieces, or hiding them), for the hand
    check."""
    poles = _poles_of_each_side(standing, side) - set_size[0]
    ports = _CONFIG_PORTS[arrangement].sum(axis=0) - set_size[1]
    off = (int(np.abs(poles).sum()), int(np.abs(ports).sum()))
    if (poles <= 0).all() and (ports <= 0).all() and off[0] <= 1 and 0 < off[1] <= 3:
        return "both" if off[0] else "port"  # only pieces missed: nothing beyond the set
    if off == (1, 1):
        return "both" if poles.sum() == -ports.sum() else None
    if off == (0, 2):
        return "port"
    return "pole" if off == (1, 0) else "port" if off == (0, 1) else None


def _pole_leans(labels: np.ndarray, layout: SampleLayout) -> np.ndarray:
    """(64, 2): the share of each space's top and footprint samples read in each side's
    colour (labels (64, S)), whichever the bare mat's colour there."""
    discs = labels[:, disc_columns(layout)]
    return np.stack([(discs == code).mean(axis=1) for code in (1, 2)], axis=1)


def _tops_explained_by_walls(top_labels: np.ndarray, top_label: np.ndarray,
                             best: np.ndarray, layout: SampleLayout) -> np.ndarray:
    """(64,) bool: some top sample voting for the space's Pole side has a wall of that side,
    read standing (``best``: each space's Port arrangement), in its line of sight."""
    edge_side = _CONFIG_STATES[best]  # (64, 4)
    nb = _NEIGHBOURS
    box_side = np.where((nb >= 0)[..., None], edge_side[np.maximum(nb, 0)], 0).reshape(64, -1)
    voting = (top_labels == top_label[:, None]) & (top_label[:, None] > 0)  # (64, T)
    same = bit_words(box_side == top_label[:, None])  # (64,)
    # (the walls in each sample's sight first, 36 to a word: layout.top_walls' words)
    return (((layout.top_wall_bits & same[:, None]) != 0) & voting).any(axis=1)


def _shaded_by_feet(by_foot: np.ndarray,
                    shaded_with: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                    shaded: np.ndarray, footprint: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The spaces (64,) bool of ``by_foot`` (64,) bool, Poles their footprints alone show,
    on whose footprint another of them may cast its shadow where theirs may not fall back
    on it (of two that may shade each other, neither says the other is a shadow), and whose
    footprint changed less than the other's (``footprint`` (64,): a shadow mostly darkens
    a footprint less than a Pole standing on it changes it) or no more than shadows change
    one here (read where that shadow may fall, under 1: a low sun's long shadow darkens a
    footprint more than a Pole coloured like the mat changes its own). ``shaded_with``:
    given one more Pole (64,) bool, the footprints' change as read then and those a shadow
    may fall on (64,) bool; ``shaded`` (64,): those without it. Also ``footprint`` with
    those spaces' changes as read where that shadow may fall."""
    out = np.zeros(64, bool)
    cands = np.flatnonzero(by_foot)
    if len(cands) < 2:
        return out, footprint
    read = footprint.copy()
    casts, under = {}, {}
    for q in cands:
        one = np.zeros(64, bool)
        one[q] = True
        under[int(q)], falls = shaded_with(one)
        casts[int(q)] = falls & ~shaded
    for y in cands:
        for x in cands:
            if (x != y and casts[int(y)][x] and not casts[int(x)][y]
                    and (footprint[y] > footprint[x] or under[int(y)][x] < 1.0)):
                read[x] = min(read[x], under[int(y)][x]) if out[x] else under[int(y)][x]
                out[x] = True
    return out, read


def _rims_over_bare(rims: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """(64,) each space's Pole rim (:func:`vision.shapes.pole_rim`, signed; NaN: not in
    view; 0 there) against what this frame's bare spaces show (1: a rim, either way):
    ``rim_over_bare`` times their median size, and never less than ``rim_least``.
    ``occupied`` (64,) bool: spaces where pieces are read, which are no bare mat."""
    cfg = CLASSIFY
    bare = ~occupied & ~np.isnan(rims)
    if bare.sum() < cfg.rim_least_bare:
        return np.zeros(64)
    usual = float(median(np.abs(rims[bare])))
    return nan_to(rims, 0.0) / max(cfg.rim_over_bare * usual, cfg.rim_least)


@dataclass(frozen=True, slots=True)
class _PoleVotes:
    """What each space's discs say of a Pole, whatever its Port arrangement: the part of
    :func:`_read_poles` read twice a frame alike (once per arrangement), kept from the
    first read. Every array (64,); ``top_label`` 1 south 2 north; ``mutes``: per side
    (south, north), whether each of its [top, footprint] discs is mute."""

    top_label: np.ndarray  # int
    top_share: np.ndarray
    foot_share: np.ndarray
    top_mute: np.ndarray  # bool
    foot_mute: np.ndarray
    pool_share: np.ndarray
    pool_mute: np.ndarray
    mutes: list[tuple[np.ndarray, np.ndarray]]
    both: np.ndarray  # bool: both discs stand
    top_may: np.ndarray  # bool: the top alone stands, where no wall explains it
    foot_alone: np.ndarray
    pool_alone: np.ndarray
    leans: np.ndarray  # (64, 2): :func:`_pole_leans`


def _pole_votes(labels: np.ndarray, loglik: np.ndarray, camouflage: np.ndarray,
                layout: SampleLayout, side_like: np.ndarray | None = None,
                shaded: np.ndarray | None = None) -> _PoleVotes:
    """The discs' votes for :func:`_read_poles` (see there), which no Port arrangement
    changes."""
    cfg = CLASSIFY
    # A sample that the bare mat explains nearly as well as a side's colour cannot tell
    # them apart, however unlike that side the bare look there was (a cream top against a
    # white print's glare).
    cannot = np.empty((*loglik.shape[:-1], 2), bool)  # a side at a time: see colour_channels
    for c in range(2):
        cannot[..., c] = np.abs(loglik[..., c + 1] - loglik[..., 0]) < cfg.sample_tells
    camouflage = camouflage | cannot
    # Poles: most top samples in a side's colour, and its footprint agreeing, or at least
    # not clearly bare. A disc whose bare look is that side's own colour cannot tell (mute):
    # the other disc speaks alone, the top only where no wall of that side, read standing,
    # could show in its place.
    shares, mutes = [], []
    for code in (1, 2):
        top_share, top_mute = _disc_votes(labels[:, layout.top],
                                          camouflage[:, layout.top, code - 1], code)
        foot_share, foot_mute = _disc_votes(labels[:, layout.foot],
                                            camouflage[:, layout.foot, code - 1], code)
        shares.append((top_share, foot_share))
        mutes.append((top_mute, foot_mute))
    # Both discs together, where neither has enough samples that can tell on its own.
    both_discs = disc_columns(layout)
    pooled = [_disc_votes(labels[:, both_discs], camouflage[:, both_discs, code - 1], code,
                          cfg.pole_least_speaking) for code in (1, 2)]
    total = [np.where(tm, 0, t) + np.where(fm, 0, f) for (t, f), (tm, fm) in zip(
        shares, mutes, strict=True)]
    for code in (0, 1):  # no disc speaks for either side: the pooled shares decide
        total[code] = np.where((total[0] == 0) & (total[1] == 0) & ~pooled[code][1],
                               pooled[code][0], total[code])
    north = total[1] > total[0]
    top_label = np.where(north, 2, 1)
    # each space's side's values (np.where: a third the cost of stacking and indexing)
    top_share = np.where(north, shares[1][0], shares[0][0])
    foot_share = np.where(north, shares[1][1], shares[0][1])
    top_mute = np.where(north, mutes[1][0], mutes[0][0])
    foot_mute = np.where(north, mutes[1][1], mutes[0][1])
    # How strongly the footprint says bare mat rather than the Pole's side (sum of
    # log-likelihood ratios over the samples that can tell): only a clear "bare" overrules
    # a top in the side's colour. Where the bare mat is printed in that side's colour, its
    # Pole's shaded foot looks like the print in shade: such samples cannot deny it.
    foot_ll = loglik[:, layout.foot]
    # (each space's side's values: np.where, a fraction of take_along_axis's cost)
    side_ll = np.where(north[:, None], foot_ll[..., 2], foot_ll[..., 1])
    cannot = camouflage if side_like is None else side_like | camouflage
    foot_camo = np.where(north[:, None], cannot[:, layout.foot, 1], cannot[:, layout.foot, 0])
    # Only a footprint sample that looks as the bare mat did can deny: one that changed,
    # or turned darker (the Pole's shaded side, its shadow), is no sure bare mat.
    deny = foot_ll[..., 0] >= -0.5 * cfg.piece_changes ** 2
    if shaded is not None:
        deny &= ~shaded[:, layout.foot]
    foot_bare = np.where(foot_camo | ~deny, 0.0, foot_ll[..., 0] - side_ll).sum(axis=1)
    both = (~top_mute & ~foot_mute & (top_share >= cfg.foot_share)
            & (foot_share >= cfg.foot_share) & ((top_share + foot_share) / 2 >= cfg.pole_share))
    top_may = ~top_mute & (top_share >= cfg.pole_share) & (foot_bare < cfg.foot_veto)
    foot_alone = top_mute & ~foot_mute & (foot_share >= cfg.pole_share)
    pool_share = np.where(north, pooled[1][0], pooled[0][0])
    pool_mute = np.where(north, pooled[1][1], pooled[0][1])
    neither = top_mute & foot_mute
    pool_alone = neither & ~pool_mute & (pool_share >= cfg.pole_share) & (
        foot_bare < cfg.foot_veto)
    return _PoleVotes(top_label, top_share, foot_share, top_mute, foot_mute, pool_share,
                      pool_mute, mutes, both, top_may, foot_alone, pool_alone,
                      _pole_leans(labels, layout))


def _read_poles(labels: np.ndarray, loglik: np.ndarray, camouflage: np.ndarray,
                layout: SampleLayout, best: np.ndarray, side_like: np.ndarray | None = None,
                shaded: np.ndarray | None = None, bodies: np.ndarray | None = None,
                shadows: Callable[[np.ndarray], np.ndarray] | None = None,
                feet: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
                | None = None,
                rims: np.ndarray | Callable[[np.ndarray], np.ndarray] | None = None,
                votes: _PoleVotes | None = None, shadow_most: float | None = None,
                shapes: np.ndarray | None = None,
                sheltered: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per space, whether a Pole stands (64,) bool, whose (64,) 1 south 2 north, and how sure
    (64,), given each space's Port arrangement ``best`` (64,) (see :func:`read_board`).
    ``votes``: :func:`_pole_votes` of the same evidence, when the caller has it already;
    ``shadow_most``: the deepest a Pole's own shadow may score (None: the configured one);
    ``shapes``: a (64, 2) float array (south, north) filled, when given, with how plainly
    (0..1) a Pole's shape shows in each space read without a Pole or walls, for the side
    whose discs cannot tell its Pole there from the bare mat (0 elsewhere);
    ``sheltered``: as ``shadows``, given also the walls read standing (64, 4) bool, on the
    shadow points no wall of the space's own may shade (a Pole inside its Port)."""
    cfg = CLASSIFY
    deepest = cfg.shadow_most if shadow_most is None else shadow_most
    if votes is None:
        votes = _pole_votes(labels, loglik, camouflage, layout, side_like, shaded)
    v = votes
    top_label, top_share, foot_share = v.top_label, v.top_share, v.foot_share
    top_mute, foot_mute, pool_share, pool_mute = v.top_mute, v.foot_mute, v.pool_share, \
        v.pool_mute
    mutes, both = v.mutes, v.both
    explained = _tops_explained_by_walls(labels[:, layout.top], top_label, best, layout)
    top_alone = v.top_may & ~explained
    top_explained = v.top_may & explained
    neither = top_mute & foot_mute
    standing = both | top_alone | v.foot_alone | v.pool_alone
    seen = np.where(neither, pool_share,
                    np.where(top_mute, foot_share, np.where(foot_mute, top_share,
                                                            np.minimum(top_share, foot_share))))
    conf_pole = np.where(standing, seen,
                         np.where(neither, np.where(pool_mute, 0.0,  # nothing can tell
                                                    1.0 - pool_share),
                                  1.0 - np.maximum(np.where(top_mute, 0, top_share),
                                                   np.where(foot_mute, 0, foot_share))))
    if bodies is not None or shadows is not None or feet is not None or rims is not None:
        # No disc can tell one side's Pole from the bare mat (coloured like it), nor has the
        # other side's Pole been seen: the body's shape, the footprint's change, or the
        # Pole's own shadow says whether that side's stands. Not where walls stand in the
        # space: they are structure too, and cast shadows of their own.
        silent = [tm & fm for tm, fm in mutes]
        only = silent[0] ^ silent[1]
        walls_here = (_CONFIG_STATES[best] > 0).any(axis=1)
        body = np.zeros(64, bool) if bodies is None else bodies >= 1.0
        cast = np.zeros(64, bool)
        looked = np.zeros(64, bool)  # where a Pole's own shadow would be in view

        def silent_sides(score: np.ndarray) -> np.ndarray:
            # per side (south, north): the side its discs cannot tell
            return np.where(silent[0], score[:, 0], score[:, 1]) if score.ndim == 2 else score

        def casts(score: np.ndarray) -> np.ndarray:
            return (nan_to(score, 0.0) >= cfg.shadow_seen) & (nan_to(score, np.inf) <= deepest)

        if shadows is not None:
            seen = silent_sides(shadows(standing | walls_here))
            looked = ~np.isnan(seen)
            cast = casts(seen)
        # Inside its own Port a Pole casts its shadow past the walls' shorter ones: read on
        # the points no wall of the space may shade, it is that Pole's, as elsewhere.
        sheltered_cast = np.zeros(64, bool)
        if sheltered is not None and walls_here.any():
            sheltered_cast = walls_here & casts(silent_sides(
                sheltered(standing | walls_here, _CONFIG_STATES[best] > 0)))
        rim_either = np.zeros(64) if rims is None else _rims_over_bare(
            rims(_CONFIG_STATES[best] > 0) if callable(rims) else rims, standing | walls_here)
        # A top coloured like the mat under it is lit as the mat was, while past its rim
        # its flank and its shadow are darker: inside, the change is above the change
        # outside. A neighbour's shadow lying across the space darkens its middle as much
        # or more: a rim the other way is no such top (held out: brown Poles' two-lamp
        # shadows over bare Telepads on light wood read as beige Poles, sure).
        rim = np.maximum(rim_either, 0.0)
        # A footprint changes under a neighbour's shadow too, or its own walls': not where
        # one may fall (which does not keep it from the space's Ports). Poles a body, a
        # shadow or a rim shows shade their neighbours' feet as much as those the discs show.
        maybe = only & ~standing & ~walls_here & (body | cast | (rim >= 1.0))
        # ... and so may a Pole coloured like the mat inside walls, where nothing shows
        # whether it stands (below: not sure bare; held out: ivory Poles in their Ports in
        # the sun, their long shadows over the next spaces' footprints read as ivory Poles)
        hidden = (silent[0] | silent[1]) & ~standing & walls_here
        footprint, shade_may = ((np.zeros(64), np.zeros(64, bool)) if feet is None else
                                feet(standing | maybe | hidden, _CONFIG_STATES[best] > 0))
        # A neighbour's Pole casts a dark band as wide as a Pole's top across the space (low
        # sun): its edges pass for a rim. Where such a shadow may fall, a rim needs the
        # footprint's change with it.
        rim_seen = (rim >= 1.0) & (~shade_may | (footprint >= 1.0))
        # A body or a rim alone, where the Pole's own shadow would show and does not, and
        # its footprint hardly changed, is no Pole: crossing lamps' shadows and the print's
        # edges draw either, while a Pole seen at a slant changes its footprint somewhat.
        # (Seen from straight above its top hides the footprint in the same colour, and its
        # shadow may be out of the test's view: there a rim alone still reads one.)
        # ... and so is a body alone, no rim with it, where a neighbour's shadow may fall
        # and no Pole's own shadow is known to look for: that shadow's edge draws one as
        # well (beige Poles read in brown Poles' shadows on light wood under two lamps).
        # ... and a body alone, no rim, where a neighbour's shadow may fall and the Pole's
        # own shadow would show and does not, over a footprint short of a Pole's change:
        # the passing shadow darkens part of the footprint too (held out: a navy Pole read
        # sure on a Telepad printed navy, where the next Pole's low-sun shadow ended).
        lone = (((((body | rim_seen) & looked & ~cast)
                  | (body & ~rim_seen & ~looked & shade_may))
                 & (footprint < cfg.shape_foot_least))
                | (body & ~rim_seen & looked & ~cast & shade_may & (footprint < 1.0))
                if feet is not None else np.zeros(64, bool))
        beside = _wall_across(_CONFIG_STATES[best]).any(axis=1)
        lone = lone | (beside & body & ~cast & ~rim_seen & (footprint < 1.0))
        built = only & ~standing & ~walls_here & (body | cast | rim_seen) & ~lone
        # Where a shadow may fall, a footprint changed far past any shadow at calibration,
        # with half a body over it, is still a Pole: a shadow cannot give both.
        body_part = (np.zeros(64) if bodies is None else nan_to(bodies, 0.0)
                     ) / cfg.body_with_foot
        # ... but not where the Pole's own shadow would show and does not: a neighbour's
        # long shadow is a band a Pole's top wide, its edges half a body, and darkens the
        # footprint far (held out: a navy Pole's shadow under two lamps read as a silver
        # Pole, sure). And a footprint alone, little changed, where that shadow is missing
        # is a glossy print's reflections beside pieces (the same draw's e8).
        # ... and where its own shadow shows beside it: a neighbour's shadow passing over
        # the footprint does not also cast one from this space's centre.
        # (Not inside the space's own walls: they stand in its shadow's way, breaking it up
        # and darkening it beyond; held out: ivory Poles in their own Ports on a white
        # laminate under a soft box, footprints 3.7 to 5.7 times a Pole's change and bodies
        # 0.7 to 1.7, read bare.)
        unshadowed = looked & ~cast & ~walls_here

        def feet_stand(shade_may: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            past = (shade_may & (footprint >= cfg.foot_past_shadow) & (body_part >= 1.0)
                    & ~unshadowed)
            return past, ((footprint >= 1.0) & (~shade_may | past | cast)
                          & ~(unshadowed & ~body & ~rim_seen
                              & (footprint < cfg.foot_past_shadow)))

        past_shade, foot = feet_stand(shade_may)
        if feet is not None:
            # A Pole its footprint alone shows casts a shadow too: a neighbour's footprint
            # that changed alone where that shadow may fall, and whose own may not fall back
            # on it, changed by that shadow (held out: a cream Pole in its own Port on white
            # laminate, its long blue shadow over the next space read as a cream Pole, sure).
            shaded_now, footprint = _shaded_by_feet(
                only & ~standing & ~maybe & foot,
                lambda pole: feet(standing | maybe | hidden | pole, _CONFIG_STATES[best] > 0),
                shade_may, footprint)
            shade_may = shade_may | shaded_now
            past_shade, foot = feet_stand(shade_may)
        # A top in the colour of walls of its side in its sight, over a footprint changed as
        # under a Pole where no shadow may fall on it: the Pole inside its own Port (held
        # out: cream Poles in cream Ports on light wood, seen steeply, missed).
        # A footprint in a side's colour over a footprint changed as under a Pole, with a
        # body over it: that side's Pole, whose top mirrors the room's light rather than
        # showing its colour (held out: a silver Pole's top blue with a window's light,
        # its foot silver, under a warm LED strip).
        mirrored = (~standing & ~walls_here & ~foot_mute & (foot_share >= cfg.pole_share)
                    & body & foot)
        standing = standing | mirrored
        conf_pole = np.where(mirrored, np.minimum(foot_share, clip(
            nan_to(bodies if bodies is not None else np.zeros(64), 0.0) / 2, 0.0, 1.0)),
            conf_pole)
        walled = top_explained & ~standing & foot
        standing = standing | walled
        conf_pole = np.where(walled, np.minimum(top_share, clip(footprint / 2, 0.0, 1.0)),
                             conf_pole)
        # A top read alone over a footprint that cannot tell (coloured like the mat there)
        # has nothing under it to deny it: only a whole top, or a Pole's shape, stands. A
        # part of one is as likely the mat beside a Port lit otherwise than when it was bare
        # (a glossy print's glare its walls now block).
        backed = body | cast | rim_seen | foot
        # Inside walls, their shade and sheen fill a top as a side's colour would (grey
        # shade on a light mat as silver, whichever side's walls cast it), and their
        # upright edges pass for a body: only the footprint's change backs a top read
        # alone there.
        partial = (top_alone & ~both & foot_mute
                   & (((top_share < cfg.top_alone_whole) & ~backed) | (walls_here & ~foot)))
        standing = standing & ~partial
        conf_pole = np.where(partial, 1.0 - top_share, conf_pole)
        # Inside walls their edges pass for a body and their shade for a rim, but neither
        # comes with the footprint changed as under a Pole where no shadow may fall on it:
        # all three together are a Pole (cream Poles inside cream Ports on a laminate).
        boxed = (only & ~standing & walls_here & body & (rim >= 1.0) & ~shade_may
                 & (footprint >= cfg.shape_foot_least))
        # ... and so does a Pole coloured like the mat whose own shadow shows past its
        # walls' (held out: ivory Poles in their own Ports on white paper in the sun, read
        # unsure, their long shadows plain beyond the walls' short ones)
        sheltered_pole = only & ~standing & sheltered_cast
        shape = built | boxed | sheltered_pole | (only & ~standing & foot)
        standing = standing | shape
        top_label = np.where(shape, np.where(silent[0], 1, 2), top_label)
        # Neither side's discs can tell its Pole from the bare mat (both sides coloured like
        # it: silver and navy on a light checker), yet a Pole's shape shows: one stands,
        # whose the discs cannot say (EITHER_SIDE; read_board asks the set), and the space
        # is not sure bare.
        either = (silent[0] & silent[1] & ~standing & ~walls_here
                  & (body | cast | rim_seen | foot) & ~(lone & ~foot))
        top_label = np.where(either, EITHER_SIDE, top_label)
        none = np.zeros(64)
        # (np.max of the five, as a chain of np.maximum: the same values, without the stack)
        sure = functools.reduce(np.maximum, (
            clip(nan_to(bodies if bodies is not None else none, 0.0) / 2, 0.0, 1.0),
            np.where(cast | sheltered_cast, 0.75, 0.0),
            clip(np.where(shade_may, 0.0, footprint) / 2, 0.0, 1.0),
            np.where(past_shade, clip(np.minimum(
                footprint / (2 * cfg.foot_past_shadow), body_part / 2), 0.0, 1.0), 0.0),
            clip(rim / 2, 0.0, 1.0)))
        conf_pole = np.where(shape | either, sure, conf_pole)
        # ... yet a lone shape leaves the space unsure: it may be a Pole whose base the
        # footprint's samples barely tell from the mat.
        doubtful = (silent[0] | silent[1]) & ~standing & ~walls_here & lone & ~either
        conf_pole = np.where(doubtful, np.minimum(conf_pole, 1.0 - sure), conf_pole)
        # A rim, and at least rim_share of the discs' samples in a side's colour: a Pole
        # lit much like the pad printed in its colour under it, which its discs half tell.
        # Not a rim where a shadow may fall without the footprint's change, nor a lone one
        # (above): a neighbour's shadow across the space darkens its top disc into the dark
        # side's colour and draws a rim (held out: brown Poles' shadows under two lamps on
        # a light checker).
        # ... where one disc cannot tell (its samples as like the bare mat as the side's),
        # the two discs' samples together that can (a red Pole seen straight down on a
        # Telepad printed red: its top mute, its footprint half red; simulated seed 2028)
        halves = np.where(top_mute | foot_mute, np.where(pool_mute, 0.0, pool_share),
                          (top_share + foot_share) / 2)
        half = (~only & ~standing & ~walls_here & rim_seen & ~lone
                & (halves >= cfg.rim_share))
        standing = standing | half
        conf_pole = np.where(half, np.minimum(clip(rim / 2, 0.0, 1.0), halves), conf_pole)
        # Where one side's Pole cannot be told from the bare mat by its discs and the
        # space's own walls keep its shape from speaking, nothing can say none stands
        # there (a cream Pole in a Port's corner on white laminate, read bare for sure).
        conf_pole = np.where(only & ~standing & walls_here, 0.0, conf_pole)
        # Nor where no shape shows one and its own shadow could not be looked for (a
        # neighbour's piece within its reach): the other side's discs saying none is no
        # word on this side's, so the space is as unsure of bare as the discs lean to its
        # colour (held out: a cream Pole seen straight down on a cream square beside
        # another Pole, its top a little yellower than the paper, read bare for sure).
        if shadows is not None:
            mute_lean = np.where(silent[0], v.leans[:, 0], v.leans[:, 1])
            unlooked = only & ~standing & ~walls_here & ~looked
            conf_pole = np.where(unlooked, np.minimum(conf_pole, 1.0 - mute_lean), conf_pole)
        # A footprint changed, or a rim, where a shadow may fall: a Pole, or a shadow. Not
        # sure of bare (held out: cream Poles seen straight down on a white laminate under a
        # soft box, their rims 1.5 and 1.9 and footprints just short, read bare for sure).
        # (A rim either way: a Pole's top lit unlike the mat's print under it, or a shadow.)
        doubt = only & ~standing & ~shape & shade_may
        conf_pole = np.where(doubt, np.minimum(
            conf_pole, 1.0 - clip(np.maximum(footprint, np.abs(rim_either)) / 2, 0, 1)),
            conf_pole)
        if shapes is not None:
            for code in (0, 1):
                shapes[:, code] = np.where(only & silent[code] & ~standing & ~walls_here,
                                           sure, 0.0)
    elif shapes is not None:
        shapes[:] = 0.0
    return standing, top_label, conf_pole


def read_board(labels: np.ndarray, loglik: np.ndarray, camouflage: np.ndarray,
               layout: SampleLayout,
               diagonals: Callable[[list[int], np.ndarray], dict[int, tuple[bool, float]]],
               side_like: np.ndarray | None = None, shaded: np.ndarray | None = None,
               walls: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None = None,
               bodies: np.ndarray | None = None,
               shadows: Callable[[np.ndarray], np.ndarray] | None = None,
               feet: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
               | None = None,
               blends: Callable[[np.ndarray], np.ndarray] | None = None,
               rims: np.ndarray | Callable[[np.ndarray], np.ndarray] | None = None,
               set_size: tuple[int, int] | None = None,
               shadow_most: float | None = None,
               sheltered: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
               ) -> list[SpaceReading]:
    """Decide every space from its samples: labels (64, S), log-likelihoods (64, S, 3) and
    camouflage (64, S, 2) (:func:`sample_evidence`);
    ``diagonals`` reads the Teleports' diagonals on the squares given
    (:func:`teleport_diagonals`); ``side_like`` (64, S, 2): where the bare mat looks like a
    side's colour (:func:`bare_side_like`); ``shaded`` (64, S): samples darker than the bare
    mat was there (:func:`shaded_samples`); ``walls``: given the Poles read standing (64,)
    bool, each edge's evidence (64, 4, 3) for [no wall, south's, north's] from its samples'
    colours, and the side (64, 4) each edge's wall is read as from them, that evidence
    with what the walls' shapes add (:mod:`vision.shapes`: walls coloured like the mat);
    ``bodies`` (64,): how strongly each space shows a Pole's body
    (:func:`vision.shapes.pole_body`) against what this table's bare spaces show (1: a
    body), and ``shadows``: given the spaces where pieces are read (64,) bool, how much of
    a Pole's own shadow each space casts (64,) (:func:`vision.shapes.pole_shadow_score`,
    1: as the start Poles did; NaN: not in view, or pieces read within its reach), or
    (64, 2) for a Pole of each side (south, north), as that side's start Poles did, and
    ``feet``: given the same and the walls read standing (64, 4) bool, how much each
    footprint changed against what this table's bare spaces show (64,)
    (:func:`vision.shapes.foot_change`; 1: a Pole) and where a piece's shadow may fall on
    it (64,) bool (then a change makes the space unsure, not a Pole),
    all for Poles coloured like the mat; ``blends``: given the spaces (64,) bool asked
    for, their wall samples (n, W, 2) (``W``: ``layout.wall``'s) as a side's wall blurred
    into the bare mat (:func:`blend_loglik`), which tells a wall's blurred edge across a
    grid line from another side's wall; ``rims`` (64,): how strongly each space shows the
    rim of a Pole's top (:func:`vision.shapes.pole_rim`; NaN: not in clear view), for Poles
    coloured like the mat too, or that given the walls read standing (64, 4) bool (the
    rim's lines whose view of the mat their shadows may cross left out); ``set_size``: the
    set's (Poles, Ports) of a side, all on the mat all game long (:func:`_fit_the_set`,
    :func:`_fit_the_poles`; None: as read, as for a start photo checked for pieces too many);
    ``shadow_most``: the deepest a Pole's own shadow may score (None: the configured one);
    ``sheltered``: as ``shadows``, given also the walls read standing (64, 4) bool, on the
    shadow points no wall of the space's own may shade."""
    cfg = CLASSIFY
    # Ports: per space, the arrangement whose walls best explain every wall sample. Then
    # once more, trusting less the samples whose view passes a wall read standing next door
    # on better evidence than their own edge's: that wall may be what they saw.
    weight = layout.weight[:, layout.wall]
    scores, edge_ll = _port_scores(loglik[:, layout.wall], weight)
    best = np.argmax(scores, axis=1)
    strength = _wall_strength(edge_ll, best)  # (64, 4)
    theirs = _gather_neighbours(strength, -np.inf)  # (64, 36)
    mine = np.repeat(strength, WALL_SAMPLES, axis=1)  # (64, 4 * WALL_SAMPLES)
    near = np.where(theirs[:, None, :] > mine[:, :, None], layout.wall_near, _FAR).min(axis=2)
    # ... and a Pole read standing may be what they saw
    votes = _pole_votes(labels, loglik, camouflage, layout, side_like, shaded)
    first_shapes = np.zeros((64, 2))
    first = _read_poles(labels, loglik, camouflage, layout, best, side_like, shaded, bodies,
                        shadows, feet, rims, votes, shadow_most, first_shapes, sheltered)
    poles = np.where(_NEIGHBOURS >= 0, first[0][np.maximum(_NEIGHBOURS, 0)], False)
    near = np.minimum(near, np.where(poles[:, None, :], layout.pole_near, _FAR).min(axis=2))
    scores, edge_ll = _port_scores(loglik[:, layout.wall],
                                   weight * clip(near / layout.clear, cfg.min_weight, 1.0))
    colour_ll = edge_ll
    if walls is not None:
        edge_ll = walls(first[0], edge_ll, _CONFIG_STATES[np.argmax(scores, axis=1)])
        scores = _arrangement_scores(edge_ll)
    unshared = scores
    scores = _one_wall_per_line(edge_ll, np.argmax(scores, axis=1), scores,
                                loglik[:, layout.wall], blends)
    order = np.argsort(-scores, axis=1, kind="stable")  # ties: the commoner arrangement
    rows = np.arange(64)
    lead = scores[rows, order[:, 0]] - scores[rows, order[:, 1]]
    conf_ports = clip(lead / cfg.port_margin, 0, 1)

    shaped = first_shapes  # the shapes of the Poles' last reading

    def poles_for(arrangement: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        nonlocal shaped
        if np.array_equal(arrangement, best):
            shaped, read = first_shapes, first
        else:
            shaped = np.zeros((64, 2))
            read = _read_poles(labels, loglik, camouflage, layout, arrangement, side_like,
                               shaded, bodies, shadows, feet, rims, votes, shadow_most,
                               shaped, sheltered)
        return _whose_poles(*read, None if set_size is None else set_size[0])

    standing, top_label, conf_pole = poles_for(order[:, 0])
    if set_size is not None:
        off = _pieces_off(standing, top_label, order[:, 0], set_size)
        if off in ("port", "both"):
            held = (None if colour_ll is edge_ll
                    else _held_across(edge_ll, colour_ll, order[:, 0]))
            fitted, most = _fit_the_set(scores, order[:, 0], set_size[1], unshared, held,
                                        _back_to_back(edge_ll, order[:, 0]))
            conf_ports = np.minimum(conf_ports, most)
            was = order[:, 0].copy()
            order[:, 0] = fitted
            # Walls added to a space read without a Pole cannot make one stand (they only
            # explain tops, and keep shapes from speaking): the Poles are read again only
            # where a Port went, or one came to a Pole's space (a Pole read costs ~1 ms).
            gained = _CONFIG_PORTS[fitted].sum(axis=1) > _CONFIG_PORTS[was].sum(axis=1)
            if ((fitted != was) & ~(gained & ~standing)).any():
                standing, top_label, conf_pole = poles_for(fitted)
            # the Ports first: a wall read away may show the Pole it hid, and the Poles'
            # fit then sees the board as it now stands
            if off == "both":
                off = _pieces_off(standing, top_label, fitted, set_size)
        if off == "pole":
            standing, top_label, conf_pole = _fit_the_poles(
                standing, top_label, conf_pole, votes.leans, set_size[0], shaped)
    tele = diagonals([sq for sq in range(64) if _CONFIGS[order[sq, 0]][1]], standing)
    readings = []
    # as Python numbers: indexing NumPy arrays one element at a time costs more than this
    arrangement, conf_ports_of = order[:, 0].tolist(), conf_ports.tolist()
    pole_conf, pole_side, stands = conf_pole.tolist(), top_label.tolist(), standing.tolist()
    for sq in range(64):
        ports, teleport = _CONFIGS[arrangement[sq]]
        conf = conf_ports_of[sq]
        if teleport:
            side = SIDES[ports[0][1] - 1]
            sw_ne, sure = tele[sq]
            pair = ("sw", "ne") if sw_ne else ("se", "nw")
            named = tuple((c, side) for c in sorted(pair, key=CORNERS.index))
            conf = min(conf, sure)
        else:
            named = tuple(sorted(((c, SIDES[s - 1]) for c, s in ports),
                                 key=lambda cs: CORNERS.index(cs[0])))
        pole = SIDES[pole_side[sq] - 1] if stands[sq] else None
        readings.append(SpaceReading(pole, named, min(pole_conf[sq], conf)))
    return readings


def position_json(readings: list[SpaceReading], to_move: str = "south") -> dict[str, Any]:
    """The rules core's JSON form of a board reading."""
    poles = {}
    ports = []
    for sq, r in enumerate(readings):
        name = f"{FILES[sq & 7]}{(sq >> 3) + 1}"
        if r.pole:
            poles[name] = r.pole
        for corner, side in r.ports:
            ports.append({"square": name, "side": side, "corner": corner})
    return {"game": "teleporters", "to_move": to_move, "poles": poles, "ports": ports}
