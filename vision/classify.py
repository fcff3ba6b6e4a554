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

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.config import CLASSIFY
from vision.geometry import CameraModel

SIDES = ("south", "north")
EDGES = ("s", "n", "w", "e")
CORNERS = ("sw", "se", "nw", "ne")
CORNER_EDGES = {"sw": ("s", "w"), "se": ("s", "e"), "nw": ("n", "w"), "ne": ("n", "e")}
FILES = "abcdefgh"


@dataclass(frozen=True, slots=True)
class PieceGeometry:
    """Nominal proportions in spaces (issue 3; configurable)."""

    pole_diameter: float = 0.35
    pole_height: float = 0.9
    wall_thickness: float = 0.06
    wall_height: float = 0.3


@dataclass(frozen=True, slots=True)
class SampleLayout:
    """Where each space is sampled: mat points (64, S, 2) at heights (64, S), and which
    samples are which kind (slices into S)."""

    points: np.ndarray
    heights: np.ndarray  # (64, S): each sample's height above the mat
    top: slice
    foot: slice
    wall: slice  # 8 samples: EDGES x (near start, near end)
    corner: slice  # 4 samples: CORNERS


def _disc(n: int, radius: float) -> np.ndarray:
    ang = np.linspace(0, 2 * np.pi, n - 1, endpoint=False)
    return np.vstack([[0.0, 0.0], np.column_stack([np.cos(ang), np.sin(ang)]) * radius])


def _ray_clearance(camera: CameraModel, p: np.ndarray, z: float,
                   pillars: list[tuple[np.ndarray, float, float]],
                   slabs: list[tuple[np.ndarray, np.ndarray, float]]) -> float:
    """How far the line of sight through (p, z), from the camera down to the mat, keeps from
    a Pole that may stand (vertical pillars: centre, radius, height) and from walls that may
    stand (boxes: lo, hi corners in x, y; height), in spaces (negative: it goes through)."""
    c = camera.centre
    ground = c[:2] + (p - c[:2]) * c[2] / (c[2] - z)
    s = np.linspace(0.0, 1.0, 32)[:, None]
    xy = c[:2] + s * (ground - c[:2])
    zz = c[2] * (1 - s[:, 0])
    near = np.linalg.norm(xy - p, axis=1) > 0.02  # not the sample point itself
    best = np.inf
    for centre, radius, height in pillars:
        m = near & (zz <= height)
        if m.any():
            best = min(best, float(np.min(np.linalg.norm(xy[m] - centre, axis=1))) - radius)
    for lo, hi, height in slabs:
        m = near & (zz <= height)
        if m.any():
            q = xy[m]
            dx = np.maximum(np.maximum(lo[0] - q[:, 0], q[:, 0] - hi[0]), 0)
            dy = np.maximum(np.maximum(lo[1] - q[:, 1], q[:, 1] - hi[1]), 0)
            inside = (dx == 0) & (dy == 0)
            d = np.where(inside, -0.01, np.hypot(dx, dy))
            best = min(best, float(d.min()))
    return best


def _edge_wall_box(x0: float, y0: float, edge: str, t: float) -> tuple[np.ndarray, np.ndarray]:
    if edge == "s":
        return np.array([x0, y0]), np.array([x0 + 1, y0 + t])
    if edge == "n":
        return np.array([x0, y0 + 1 - t]), np.array([x0 + 1, y0 + 1])
    if edge == "w":
        return np.array([x0, y0]), np.array([x0 + t, y0 + 1])
    return np.array([x0 + 1 - t, y0]), np.array([x0 + 1, y0 + 1])


def _edge_point(x0: float, y0: float, edge: str, along: float, inset: float
                ) -> tuple[float, float]:
    if edge == "s":
        return x0 + along, y0 + inset
    if edge == "n":
        return x0 + along, y0 + 1 - inset
    if edge == "w":
        return x0 + inset, y0 + along
    return x0 + 1 - inset, y0 + along


_STEP = {"s": (0, -1), "n": (0, 1), "w": (-1, 0), "e": (1, 0)}


def sample_layout(camera: CameraModel, geometry: PieceGeometry | None = None,
                  walls: bool = True) -> SampleLayout:
    """Where to sample each space, chosen with the camera: each edge's two wall samples go
    where the line of sight stays clearest of the space's own Pole, its other walls and the
    next space's Pole, so that neither hides nor stands in for a wall. ``walls=False`` skips
    that search (mid-edge samples), for when only the Poles matter."""
    g = geometry or PieceGeometry()
    cfg = CLASSIFY
    disc = _disc(cfg.disc_samples, cfg.disc_radius)
    nt, nf = len(disc), len(disc)
    per_space = nt + nf + 8 + 4
    pts = np.zeros((64, per_space, 2))
    zs = np.zeros((64, per_space))
    zs[:, :nt] = g.pole_height - cfg.top_below
    zs[:, nt:nt + nf] = cfg.foot_height
    z_corner = g.wall_height - cfg.wall_below
    zs[:, nt + nf + 8:] = z_corner
    t_wall = g.wall_thickness
    r = g.pole_diameter / 2
    candidates = np.linspace(cfg.wall_along_min, 1 - cfg.wall_along_min, cfg.wall_candidates)
    for sq in range(64):
        x0, y0 = float(sq & 7), float(sq >> 3)
        centre = np.array([x0 + 0.5, y0 + 0.5])
        towards = camera.centre[:2] - centre
        norm = np.linalg.norm(towards)
        towards = towards / norm if norm > 1e-6 else np.zeros(2)
        pts[sq, :nt] = centre + towards * cfg.top_shift + disc
        pts[sq, nt:nt + nf] = centre - towards * cfg.foot_shift + disc
        k = nt + nf
        for edge in EDGES:
            dx, dy = _STEP[edge]
            z, inset = g.wall_height - cfg.wall_below, t_wall / 2
            pillars = [(centre, r, g.pole_height),
                       (centre + np.array([dx, dy], float), r, g.pole_height)]
            slabs = [(*_edge_wall_box(x0, y0, other, t_wall), g.wall_height)
                     for other in EDGES if other != edge]
            scores = []
            for t in candidates if walls else ():
                p = np.array(_edge_point(x0, y0, edge, t, inset))
                scores.append(_ray_clearance(camera, p, z, pillars, slabs))
            if not walls:
                scores = [-abs(t - 0.5) for t in candidates]
            order = np.argsort(scores)[::-1]
            first = candidates[order[0]]
            second = next((candidates[i] for i in order[1:]
                           if abs(candidates[i] - first) >= cfg.wall_min_apart), first)
            for t in sorted((first, second)):
                pts[sq, k] = _edge_point(x0, y0, edge, t, inset)
                zs[sq, k] = z
                k += 1
        for corner in CORNERS:
            cx = t_wall / 2 if corner[1] == "w" else 1 - t_wall / 2
            cy = t_wall / 2 if corner[0] == "s" else 1 - t_wall / 2
            pts[sq, k] = (x0 + cx, y0 + cy)
            k += 1
    return SampleLayout(pts, zs, slice(0, nt), slice(nt, nt + nf),
                        slice(nt + nf, nt + nf + 8), slice(nt + nf + 8, per_space))


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
    bgr = cv2.remap(image, maps, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return colour_features(bgr.reshape(-1, 3)).reshape(*shape, 3)


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) uint8 BGR -> (N, 3) float32 features (see :func:`read_colour`)."""
    f = bgr.astype(np.float32) + 4.0  # keeps the logs finite on black
    b, g, r = f[:, 0], f[:, 1], f[:, 2]
    lightness = (0.114 * b + 0.587 * g + 0.299 * r) / 255.0
    return np.column_stack([lightness, np.log(r / g), np.log(b / g)]).astype(np.float32)


@dataclass(frozen=True, slots=True)
class ColourModel:
    """A side's colour as a Gaussian over the colour features, learned from the side's lit
    tops, shaded bodies and walls: its covariance decides how much lightness counts."""

    mean: np.ndarray  # (3,)
    inv_cov: np.ndarray  # (3, 3)

    @classmethod
    def learn(cls, samples: np.ndarray) -> ColourModel:
        x = samples.reshape(-1, 3).astype(np.float64)
        med = np.median(x, axis=0)
        spread = np.abs(x - med)
        mad = np.median(spread, axis=0) * 1.4826 + 1e-6
        keep = x[(spread / mad).max(axis=1) <= CLASSIFY.learn_outlier_mads]  # edges, glints
        if len(keep) < 8:
            keep = x
        mean = keep.mean(axis=0)
        cov = np.cov(keep.T) + np.diag(CLASSIFY.colour_floor) ** 2
        return cls(mean.astype(np.float32), np.linalg.inv(cov).astype(np.float32))

    def distance(self, x: np.ndarray) -> np.ndarray:
        """Mahalanobis distance of (..., 3) features from this colour."""
        d = x - self.mean
        return np.sqrt(np.maximum(np.einsum("...i,ij,...j->...", d, self.inv_cov, d), 0))

    def to_json(self) -> dict[str, Any]:
        return {"mean": [float(v) for v in self.mean],
                "inv_cov": [[float(v) for v in row] for row in self.inv_cov]}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ColourModel:
        return cls(np.array(doc["mean"], np.float32).reshape(3),
                   np.array(doc["inv_cov"], np.float32).reshape(3, 3))


def label_samples(feat: np.ndarray, colours: dict[str, ColourModel],
                  empty: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per sample: 0 = neither side, 1 = south, 2 = north; and a margin in [0, 1].

    A sample is a side's when it lies within ``CLASSIFY.colour_sigma`` of it, nearer to it
    than to the other side, and (where the empty mat was seen there) nearer to it than to
    the empty look, measured in the side's own metric.
    """
    ds = colours["south"].distance(feat)
    dn = colours["north"].distance(feat)
    best = np.minimum(ds, dn)
    label = np.where(ds <= dn, 1, 2)
    label = np.where(best <= CLASSIFY.colour_sigma, label, 0)
    margin = np.clip(np.abs(CLASSIFY.colour_sigma - best) / CLASSIFY.colour_sigma, 0, 1)
    if empty is not None:
        known = ~np.isnan(empty[..., 0])
        ref = np.where(known[..., None], empty, 0.0)
        de_s = colours["south"].distance(feat - ref + colours["south"].mean)
        de_n = colours["north"].distance(feat - ref + colours["north"].mean)
        de = np.where(label == 1, de_s, de_n)
        d_side = np.where(label == 1, ds, dn)
        label = np.where(known & (label > 0) & (de < d_side), 0, label)
    return label, margin


def unexplained_spaces(feat: np.ndarray, colours: dict[str, ColourModel],
                       empty: np.ndarray | None, layout: SampleLayout) -> np.ndarray:
    """(64,) bool: spaces whose Pole samples are mostly neither side's colour nor what the
    empty mat looked like there. Nothing on a real board does that; a hand or arm does."""
    if empty is None:
        return np.zeros(64, bool)
    cfg = CLASSIFY
    sel = np.r_[layout.top, layout.foot]
    f = feat[:, sel]
    ref = empty[:, sel]
    known = ~np.isnan(ref[..., 0])
    # Tighter than labelling: a Pole's top and body are what the colours were learned from.
    side = np.minimum(colours["south"].distance(f), colours["north"].distance(f)) \
        <= cfg.explain_sigma
    weights = np.array(cfg.empty_weights, np.float32)
    de = np.linalg.norm((f - np.where(known[..., None], ref, 0.0)) * weights, axis=-1)
    odd = known & ~side & (de >= cfg.empty_distance)
    return odd.sum(axis=1) >= cfg.unexplained_share * len(f[0])


@dataclass(frozen=True, slots=True)
class SpaceReading:
    pole: str | None
    ports: tuple[tuple[str, str], ...]  # (corner, side)
    confidence: float


def _vote(labels: np.ndarray) -> tuple[int, float]:
    """Majority label of a group of samples and its share."""
    counts = np.bincount(labels, minlength=3)
    best = int(np.argmax(counts))
    return best, float(counts[best]) / max(1, len(labels))


def read_space(labels: np.ndarray, layout: SampleLayout) -> SpaceReading:
    """Decide one space from its sample labels (S,)."""
    cfg = CLASSIFY
    top_label, top_share = _vote(labels[layout.top])
    foot_label, foot_share = _vote(labels[layout.foot])
    pole: str | None = None
    conf_pole = 1.0
    if top_label and top_share >= cfg.pole_share:
        foot_agrees = foot_label == top_label and foot_share >= cfg.foot_share
        if foot_agrees:
            pole = SIDES[top_label - 1]
            conf_pole = min(top_share, foot_share)
        else:
            conf_pole = 1.0 - top_share  # a top with no footprint: a neighbour's body?
    else:
        conf_pole = 1.0 - (top_share if top_label else 0.0) * 0.5
    walls = labels[layout.wall].reshape(4, 2)
    edge_side: dict[str, int] = {}
    conf_walls = 1.0
    for i, edge in enumerate(EDGES):
        a, b = int(walls[i, 0]), int(walls[i, 1])
        if a == b:
            edge_side[edge] = a
        else:
            edge_side[edge] = a if a else b  # one end hidden: trust the one seen
            conf_walls = min(conf_walls, 0.6)
    ports = _ports_from_edges(edge_side, labels[layout.corner])
    if ports is None:
        return SpaceReading(pole, (), 0.2)
    return SpaceReading(pole, ports, min(conf_pole, conf_walls))


def _ports_from_edges(edge_side: dict[str, int], corners: np.ndarray
                      ) -> tuple[tuple[str, str], ...] | None:
    walled = {e for e, s in edge_side.items() if s}
    if not walled:
        return ()
    sides = {edge_side[e] for e in walled}
    if len(walled) == 4 and len(sides) == 1:
        side = SIDES[sides.pop() - 1]
        solid = {c for c, v in zip(CORNERS, corners, strict=True) if v}
        # Solid corners are where a Port's own walls meet; the seams are gaps.
        swne = len(solid & {"sw", "ne"}) - len(solid & {"se", "nw"})
        pair = ("sw", "ne") if swne >= 0 else ("nw", "se")
        return tuple(sorted(((c, side) for c in pair), key=lambda cs: CORNERS.index(cs[0])))
    if len(walled) == 2:
        for corner, (e1, e2) in CORNER_EDGES.items():
            if walled == {e1, e2} and edge_side[e1] == edge_side[e2]:
                return ((corner, SIDES[edge_side[e1] - 1]),)
    if len(walled) == 4:
        # Two colours of Port in one space (a repel not done): opposite corners by colour.
        for c1, c2 in (("sw", "ne"), ("nw", "se")):
            s1 = edge_side[CORNER_EDGES[c1][0]]
            if s1 == edge_side[CORNER_EDGES[c1][1]]:
                s2 = edge_side[CORNER_EDGES[c2][0]]
                if s2 == edge_side[CORNER_EDGES[c2][1]] and s1 != s2:
                    return tuple(sorted(((c1, SIDES[s1 - 1]), (c2, SIDES[s2 - 1])),
                                        key=lambda cs: CORNERS.index(cs[0])))
    return None


def read_board(labels: np.ndarray, layout: SampleLayout) -> list[SpaceReading]:
    return [read_space(labels[sq], layout) for sq in range(64)]


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
