"""Lines of sight over the mat: what a camera ray meets among the pieces that may stand there.

Sampling a piece is only trustworthy where the ray through the sample reaches that piece
whatever else stands round it, and reaches bare mat when the piece is absent. This module
answers that with signed distances: every piece that *may* stand near a space is a solid
(a Pole a vertical cylinder, each edge's wall a box spanning the whole edge), and a ray's
clearance from a solid is the least signed distance of points along it (negative: it passes
through).

Coordinates are mat units (one space = 1): x east, y north, z up, the grid [0, 8] x [0, 8].
Arrays are float64.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

EDGES = ("s", "n", "w", "e")
CORNERS = ("sw", "se", "nw", "ne")
CORNER_EDGES = {"sw": ("s", "w"), "se": ("s", "e"), "nw": ("n", "w"), "ne": ("n", "e")}


@dataclass(frozen=True, slots=True)
class Solids:
    """Vertical cylinders ``(P, 4)``: centre x, y, radius, height; boxes ``(B, 2, 3)``: the
    low and high corners."""

    cylinders: np.ndarray
    boxes: np.ndarray

    @classmethod
    def of(cls, cylinders: list[tuple[float, float, float, float]],
           boxes: list[tuple[np.ndarray, np.ndarray]]) -> Solids:
        cyl = np.array(cylinders, float).reshape(-1, 4)
        box = np.array([np.stack([lo, hi]) for lo, hi in boxes], float).reshape(-1, 2, 3)
        return cls(cyl, box)


def edge_box(file: int, rank: int, edge: str, thickness: float, height: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """The box a wall along ``edge`` of space (file, rank) can fill: the whole edge, inside
    the space."""
    x0, y0, t = float(file), float(rank), thickness
    lo, hi = {"s": ((x0, y0), (x0 + 1, y0 + t)), "n": ((x0, y0 + 1 - t), (x0 + 1, y0 + 1)),
              "w": ((x0, y0), (x0 + t, y0 + 1)), "e": ((x0 + 1 - t, y0), (x0 + 1, y0 + 1))}[edge]
    return np.array([*lo, 0.0]), np.array([*hi, height])


def port_boxes(file: int, rank: int, corner: str, thickness: float, height: float
               ) -> list[tuple[np.ndarray, np.ndarray]]:
    """A Port's two walls (as whole-edge boxes: the seam gap is too small to matter here)."""
    return [edge_box(file, rank, e, thickness, height) for e in CORNER_EDGES[corner]]


def _box_sdf(points: np.ndarray, box: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Signed distance of points (..., B, 3) from their boxes given as (centre, half size),
    each (..., B, 3) -> (..., B)."""
    q = np.abs(points - box[0]) - box[1]
    out = np.maximum(q, 0.0)
    outside = np.sqrt((out * out).sum(axis=-1))
    return outside + np.minimum(q.max(axis=-1), 0.0)


def _box_form(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (..., 2, 3) as low and high corners -> (centre, half size)."""
    return (boxes[..., 0, :] + boxes[..., 1, :]) / 2, (boxes[..., 1, :] - boxes[..., 0, :]) / 2


def _cylinder_sdf(points: np.ndarray, cylinders: np.ndarray) -> np.ndarray:
    """Signed distance of points (..., P, 3) from their vertical cylinders (..., P, 4) ->
    (..., P)."""
    d = points[..., :2] - cylinders[..., :2]
    dxy = np.sqrt((d * d).sum(axis=-1)) - cylinders[..., 2]
    h = cylinders[..., 3]
    dz = np.abs(points[..., 2] - h / 2) - h / 2
    inside = np.minimum(np.maximum(dxy, dz), 0.0)
    ox, oz = np.maximum(dxy, 0.0), np.maximum(dz, 0.0)
    return inside + np.sqrt(ox * ox + oz * oz)


@dataclass(frozen=True, slots=True)
class Rays:
    """Lines of sight from the camera ``centre`` (3,) through ``targets`` (N, 3), taken from
    height ``top`` (nothing stands higher) down to the mat."""

    centre: np.ndarray
    targets: np.ndarray
    top: float

    def at(self, s: np.ndarray) -> np.ndarray:
        """Points at parameters ``s`` (N, ...) in [0, 1] (0: at ``top``, 1: on the mat) ->
        (N, ..., 3)."""
        c, t = self.centre, self.targets
        dz = c[2] - t[:, 2]
        s_top = (c[2] - self.top) / dz
        s_floor = c[2] / dz
        k = s_top.reshape(-1, *([1] * (s.ndim - 1))) + s * (s_floor - s_top).reshape(
            -1, *([1] * (s.ndim - 1)))
        d = (t - c).reshape(len(t), *([1] * (s.ndim - 1)), 3)
        return c + k[..., None] * d


_GOLDEN = (np.sqrt(5.0) - 1) / 2


def _least(rays: Rays, sdf: Any, solids: Any, k: int, iterations: int) -> np.ndarray:
    """Least signed distance along each ray from each of its ``k`` solids (N, K): distance
    to a convex solid is convex along a line, so a golden-section search finds it."""
    n = len(rays.targets)
    lo, hi = np.zeros((n, k)), np.ones((n, k))
    a = hi - _GOLDEN * (hi - lo)
    b = lo + _GOLDEN * (hi - lo)
    fa, fb = sdf(rays.at(a), solids), sdf(rays.at(b), solids)
    for _ in range(iterations):
        left = fa < fb
        hi = np.where(left, b, hi)
        lo = np.where(left, lo, a)
        new_a = hi - _GOLDEN * (hi - lo)
        new_b = lo + _GOLDEN * (hi - lo)
        # One of the two points carries over: evaluate only the new one of each pair.
        a2 = np.where(left, new_a, b)
        b2 = np.where(left, a, new_b)
        fresh = sdf(rays.at(np.where(left, a2, b2)), solids)
        fa, fb = np.where(left, fresh, fb), np.where(left, fa, fresh)
        a, b = a2, b2
    ends = np.minimum(sdf(rays.at(np.zeros((n, k))), solids),
                      sdf(rays.at(np.ones((n, k))), solids))
    return np.minimum(np.minimum(fa, fb), ends)


REACH = 0.1  # spaces: solids further than this from every ray's bounding box are skipped


def clearance(rays: Rays, solids: Solids, iterations: int = 14) -> np.ndarray:
    """Least signed distance of each ray from any of ``solids`` -> (N,) (+inf with no
    solids near; distances beyond :data:`REACH` are not exact)."""
    out = np.full(len(rays.targets), np.inf)
    ends = np.concatenate([rays.at(np.zeros((len(rays.targets), 1))),
                           rays.at(np.ones((len(rays.targets), 1)))], axis=1)[..., :2]
    lo = ends.reshape(-1, 2).min(axis=0) - REACH
    hi = ends.reshape(-1, 2).max(axis=0) + REACH
    cyl = solids.cylinders
    # Only solids near the rays are measured: most of a neighbourhood is far from them.
    cyl = cyl[np.all((cyl[:, :2] + cyl[:, 2:3] >= lo) & (cyl[:, :2] - cyl[:, 2:3] <= hi),
                     axis=1)]
    box = solids.boxes
    box = box[np.all((box[:, 1, :2] >= lo) & (box[:, 0, :2] <= hi), axis=1)]
    if len(cyl):
        out = np.minimum(out, _least(rays, _cylinder_sdf, cyl, len(cyl),
                                     iterations).min(axis=1))
    if len(box):
        out = np.minimum(out, _least(rays, _box_sdf, _box_form(box), len(box),
                                     iterations).min(axis=1))
    return out


def _nearest_first(lo: np.ndarray, hi: np.ndarray, solid_lo: np.ndarray, solid_hi: np.ndarray
                   ) -> np.ndarray:
    """Per ray, the indices of its solids ordered near ones first, cut to as many as the ray
    with the most near solids has: rays' xy boxes (N, 2) against solids' (N, K, 2)."""
    near = np.all((solid_hi >= lo[:, None] - REACH) & (solid_lo <= hi[:, None] + REACH), axis=-1)
    keep = max(1, int(near.sum(axis=1).max()))
    return np.argsort(~near, axis=1, kind="stable")[:, :keep]


def clearance_each(rays: Rays, cylinders: np.ndarray, boxes: np.ndarray,
                   iterations: int = 12) -> np.ndarray:
    """Like :func:`clearance`, each ray with solids of its own: cylinders (N, P, 4), boxes
    (N, B, 2, 3) (a solid far off the mat stands for none) -> (N,)."""
    n = len(rays.targets)
    ends = np.stack([rays.at(np.zeros(n)), rays.at(np.ones(n))], axis=1)[..., :2]
    lo, hi = ends.min(axis=1), ends.max(axis=1)
    r = cylinders[..., 2:3]
    pick = _nearest_first(lo, hi, cylinders[..., :2] - r, cylinders[..., :2] + r)
    cyl = np.take_along_axis(cylinders, pick[..., None], axis=1)
    pick = _nearest_first(lo, hi, boxes[..., 0, :2], boxes[..., 1, :2])
    box = np.take_along_axis(boxes, pick[..., None, None], axis=1)
    out = _least(rays, _cylinder_sdf, cyl, cyl.shape[1], iterations).min(axis=1)
    return np.minimum(out, _least(rays, _box_sdf, _box_form(box), box.shape[1],
                                  iterations).min(axis=1))


def depth_inside(rays: Rays, box: np.ndarray, iterations: int = 14) -> np.ndarray:
    """How deep each ray goes into one box (2, 3), or each into its own (N, 2, 3): the
    largest inside distance along it (negative: it misses by that much) -> (N,)."""
    return -_least(rays, _box_sdf, _box_form(box[..., None, :, :]), 1, iterations)[:, 0]


_DIRECTIONS = np.stack([np.cos(np.linspace(0, np.pi, 12, endpoint=False)),
                        np.sin(np.linspace(0, np.pi, 12, endpoint=False))], axis=1)


def silhouette_margin(rays: Rays, boxes: np.ndarray) -> np.ndarray:
    """How far each ray could move sideways and still meet its own box (N, 2, 3): the inner
    distance from the ray to the edge of the box's outline as seen along the ray (negative:
    it misses). A wall seen obliquely shows its face as well as its top, so its outline is
    wider than the wall is thick, and rays through the middle of it are the safe ones."""
    d = rays.targets - rays.centre
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    # Two directions across each ray.
    helper = np.where(np.abs(d[:, 2:3]) < 0.9, [[0.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]])
    u = np.cross(d, helper)
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    v = np.cross(d, u)
    lo, hi = boxes[:, 0], boxes[:, 1]
    corners = np.stack([np.stack([np.where(k & 1, hi[:, 0], lo[:, 0]),
                                  np.where(k & 2, hi[:, 1], lo[:, 1]),
                                  np.where(k & 4, hi[:, 2], lo[:, 2])], axis=1)
                        for k in range(8)], axis=1)  # (N, 8, 3)
    rel = corners - rays.targets[:, None, :]
    flat = np.stack([(rel * u[:, None]).sum(axis=2), (rel * v[:, None]).sum(axis=2)], axis=2)
    # The outline is convex: the ray's inner distance to it is its least support distance
    # over both senses of each direction.
    support = flat @ _DIRECTIONS.T  # (N, 8, K)
    return np.minimum(support.max(axis=1), -support.min(axis=1)).min(axis=1)
