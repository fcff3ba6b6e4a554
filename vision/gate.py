"""Occlusion and stability: never report a position while a hand is over the mat, and only
once the board has been still for a while.

Occlusion: calibration records which chromaticities the mat region shows (the printed mat,
both sides' pieces, in light and shade), as a histogram. A hand or an arm is a large blob
of colours outside that palette over the mat. Stability: the mat, warped top-down and shrunk,
must change less than a threshold between frames for ``still_s`` seconds without occlusion
before its position is reported, and a position is reported once, when it changes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.classify import (
    ColourModel,
    PieceGeometry,
    bare_mat_distance,
    colour_channels,
    read_colour,
    undo_drift,
    undo_drift_channels,
)
from vision.config import GATE
from vision.geometry import CameraModel
from vision.raycast import EDGES, Rays, Solids, clearance, edge_box

BINS = GATE.palette_bins


def _top_down(image: np.ndarray, homography: np.ndarray, size: int) -> np.ndarray:
    """The grid (plus a small margin) warped top-down to ``size`` x ``size`` px (BGR)."""
    m = GATE.margin
    scale = size / (8 + 2 * m)
    S = np.array([[scale, 0, m * scale], [0, -scale, (8 + m) * scale], [0, 0, 1]], float)
    return cv2.warpPerspective(image, S @ np.linalg.inv(homography), (size, size),
                               flags=cv2.INTER_AREA)


def motion_view(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The grid top-down, small, grey and smoothed: ``(motion_px, motion_px)`` float32, for
    telling whether anything moved between two frames."""
    return cv2.GaussianBlur(cv2.cvtColor(_top_down(image, homography, GATE.motion_px),
                                         cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)


def changed(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two :func:`motion_view` images differ by more than noise and sub-pixel refits
    (which change every pixel a little; a moved piece or a hand changes a few a lot)."""
    return float(np.mean(np.abs(a - b) > GATE.motion_grey)) > GATE.motion_fraction


LEVELS = GATE.palette_levels


def _bins(bgr: np.ndarray, drift: tuple[float, np.ndarray] | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of an (H, W, 3) uint8 image: its colour bin (lightness level, then the two
    chromaticities), and whether it is too dark for its chromaticity to mean anything; with
    the camera's ``drift`` since calibration taken out (:func:`vision.classify.camera_drift`)."""
    # one channel at a time (colour_channels): the same numbers, a third of the time
    light, rg, bg = colour_channels(bgr.reshape(-1, 3))
    if drift is not None:
        light, rg, bg = undo_drift_channels(light, rg, bg, drift)
    span = GATE.chroma_span
    q0, q1 = (np.clip(((c + span) / (2 * span) * BINS).astype(np.int32), 0, BINS - 1)
              for c in (rg, bg))
    level = np.clip((light * LEVELS).astype(np.int32), 0, LEVELS - 1)
    dark = light < GATE.dark_lightness
    shape = bgr.shape[:2]
    return ((level * BINS + q0) * BINS + q1).reshape(shape), dark.reshape(shape)


@dataclass(frozen=True)
class Palette:
    """Which colours the mat region shows when nothing foreign is over it (the printed mat,
    both sides' pieces, their shading), by lightness level and chromaticity: a hand over the
    dark printed border has nearly the border's chromaticity, but not its lightness."""

    known: np.ndarray  # (LEVELS * BINS * BINS,) bool

    @classmethod
    def learn(cls, image: np.ndarray, homography: np.ndarray, noise: float = 1.0,
              shade: float | None = None) -> Palette:
        """The palette of ``image`` ((H, W, 3) uint8 BGR) within the mat. Each known colour
        is widened by ``palette_grow`` bins of chromaticity, times the camera's ``noise``
        (:func:`vision.classify.camera_noise`) rounded up: a noisy camera scatters a
        colour's pixels further. ``shade``: the table's shade allowance in log lightness
        (:func:`vision.classify.light_allowances`), where calibration measured it: each
        known colour is known darker too, as deep as ``palette_shade_sigmas`` of it."""
        chroma_grow = GATE.palette_grow * int(np.ceil(noise - 1e-9))
        top = _top_down(image, homography, GATE.palette_px)
        b, dark = _bins(top)
        counts = np.bincount(b[~dark].ravel(), minlength=LEVELS * BINS * BINS)
        known = (counts >= GATE.palette_min_count).reshape(LEVELS, BINS, BINS)
        if shade is not None:
            # A piece's shadow falls in play where none fell in the photos (a Port's inner
            # corner on print of another colour under two lamps): the print's own colour,
            # only darker.
            deepest = float(np.exp(-GATE.palette_shade_sigmas * shade))
            shadowed = known.copy()
            for level in range(1, LEVELS):
                for lower in range(int(level * deepest), level):
                    shadowed[lower] |= known[level]
            known = shadowed
        grown = known.copy()
        for axis, reach in ((0, GATE.palette_grow_levels), (1, chroma_grow),
                            (2, chroma_grow)):
            for shift in range(1, reach + 1):
                # Shade and noise move a colour a little; np.roll must not wrap round.
                lo = np.zeros_like(known)
                hi = np.zeros_like(known)
                src = [slice(None)] * 3
                dst = [slice(None)] * 3
                src[axis], dst[axis] = slice(shift, None), slice(None, -shift)
                lo[tuple(dst)] = known[tuple(src)]
                hi[tuple(src)] = known[tuple(dst)]
                grown |= lo | hi
        return cls(grown.ravel())

    @classmethod
    def of_pieces(cls, colours: dict[str, ColourModel]) -> Palette:
        """The colours either side's pieces may show (``colours``: each side's
        :class:`vision.classify.ColourModel`): every bin whose middle lies within
        ``palette_piece_sigma`` of one. The photos show each piece from one side and in one
        light; in play a wall turns another face to the camera, in a shade of its own
        colour the photos never held (a glossy scarlet Port's face in its own shadow, a
        darker and deeper red), which is no hand."""
        span = GATE.chroma_span
        level, q0, q1 = np.meshgrid(np.arange(LEVELS), np.arange(BINS), np.arange(BINS),
                                    indexing="ij")
        middles = np.stack([(level + 0.5) / LEVELS, (q0 + 0.5) / BINS * 2 * span - span,
                            (q1 + 0.5) / BINS * 2 * span - span], axis=-1).reshape(-1, 3)
        middles = middles.astype(np.float32)
        known = np.zeros(len(middles), bool)
        for model in colours.values():
            known |= model.distance(middles) < GATE.palette_piece_sigma
        return cls(known)

    def union(self, other: Palette) -> Palette:
        """The colours known to either palette."""
        return Palette(self.known | other.known)

    def foreign_fraction(self, image: np.ndarray, homography: np.ndarray,
                         drift: tuple[float, np.ndarray] | None = None) -> float:
        """Share of the mat covered by the largest blob of foreign colour, seen with the
        camera's exposure and white balance at calibration (``drift``: how they moved)."""
        foreign = self.foreign_mask(image, homography, drift).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(foreign, connectivity=8)
        if n <= 1:
            return 0.0
        return float(stats[1:, cv2.CC_STAT_AREA].max()) / foreign.size

    def foreign_mask(self, image: np.ndarray, homography: np.ndarray,
                     drift: tuple[float, np.ndarray] | None = None) -> np.ndarray:
        """(check_px, check_px) bool: where the mat (top-down, ``GATE.margin`` spaces round
        the grid, row 0 the north edge) shows colours foreign to the palette, thin strips
        dropped: the pixels :meth:`foreign_fraction` finds its largest blob among (for the
        overlay, :mod:`vision.overlay`)."""
        top = _top_down(image, homography, GATE.check_px)
        b, dark = _bins(top, drift)
        foreign = (~self.known[b] & ~dark).astype(np.uint8)
        open_px = GATE.foreign_open_px
        return cv2.morphologyEx(foreign, cv2.MORPH_OPEN,
                                np.ones((open_px, open_px), np.uint8)).astype(bool)

    def to_json(self) -> dict[str, Any]:
        return {"bins": BINS, "levels": LEVELS,
                "known": np.packbits(self.known).tobytes().hex()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Palette:
        if int(doc["bins"]) != BINS or int(doc.get("levels", 1)) != LEVELS:
            raise ValueError(f"palette has {doc.get('levels', 1)} x {doc['bins']} x "
                             f"{doc['bins']} bins, expected {LEVELS} x {BINS} x {BINS}")
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(doc["known"]), np.uint8))
        return cls(bits[: LEVELS * BINS * BINS].astype(bool))


def _surround_candidates() -> tuple[np.ndarray, np.ndarray]:
    """Mat points (A, O, 2) round the grid, ``surround_step`` apart along it (side by side:
    south, east, north, west, each corner to corner) and at each of ``surround_offsets``
    out from it; and each place's side (A,) (0..3 in that order)."""
    along = np.arange(GATE.surround_step / 2, 8.0, GATE.surround_step)
    out = np.array(GATE.surround_offsets)
    sides = []
    for side, (origin, step, outward) in enumerate((
            ((0.0, 0.0), (1, 0), (0, -1)), ((8.0, 0.0), (0, 1), (1, 0)),
            ((8.0, 8.0), (-1, 0), (0, 1)), ((0.0, 8.0), (0, -1), (-1, 0)))):
        base = np.array(origin) + along[:, None] * np.array(step, float)
        sides.append((base[:, None] + out[None, :, None] * np.array(outward, float), side))
    points = np.concatenate([p for p, _ in sides])
    side_of = np.concatenate([np.full(len(along), s) for _, s in sides])
    return points, side_of


def _every_piece(geometry: PieceGeometry) -> Solids:
    """Every Pole and wall that may stand anywhere on the mat."""
    g = geometry
    cyl = [(f + 0.5, r + 0.5, g.pole_diameter / 2, g.pole_height)
           for r in range(8) for f in range(8)]
    boxes = [edge_box(f, r, e, g.wall_thickness, g.wall_height)
             for r in range(8) for f in range(8) for e in EDGES
             if f in (0, 7) or r in (0, 7)]  # inner walls stand lower than any Pole there
    return Solids.of(cyl, boxes)


@dataclass(frozen=True)
class Surround:
    """The band of border and table round the grid, where no piece ever stands: an arm
    reaching over the mat crosses it, whatever its colour (a hand the colour of light wood
    pieces is in the mat's palette; its arm still changes the table it passes over).

    ``points`` (A, R, 2) float: mat points (spaces; the grid is [0, 8] x [0, 8]), A places
    round the grid, side by side, R rows outward; ``look`` (A, R, 3) float32: the empty
    look there (:func:`vision.classify.read_colour` features); ``side`` (A,) int: which side
    of the grid each place is on. A place none of whose rows could be used is NaN."""

    points: np.ndarray
    look: np.ndarray
    side: np.ndarray
    # the places in use and their image points, for the last camera asked about (a still
    # camera's are the same every frame): (homography and intrinsics' bytes, used, uv)
    _seen: list[tuple[bytes, np.ndarray, np.ndarray]] = field(
        default_factory=list, init=False, repr=False, compare=False)

    @classmethod
    def learn(cls, empty: np.ndarray, camera: CameraModel,
              geometry: PieceGeometry | None = None) -> Surround | None:
        """The band as the empty-mat photo ``empty`` ((H, W, 3) uint8 BGR) shows it from this
        camera: at each place, the first ``surround_rows`` offsets in view, whose line of
        sight no piece on the mat can cross, and whose look is flat (a point on the mat's
        own edge, or a table's grain, changes with every sub-pixel refit). None where too
        little of it is usable (a mat filling the frame)."""
        g = geometry or PieceGeometry()
        cand, side = _surround_candidates()
        n_a, n_o = cand.shape[:2]
        flat_pts = cand.reshape(-1, 2)
        rays = Rays(camera.centre, np.column_stack([flat_pts, np.zeros(len(flat_pts))]),
                    g.pole_height + 0.05)
        clear = clearance(rays, _every_piece(g)) > GATE.surround_clear
        uv = camera.image_points(flat_pts)
        h, w = empty.shape[:2]
        px = GATE.surround_flat_px
        inside = ((uv[:, 0] >= px + 1) & (uv[:, 0] < w - px - 2)
                  & (uv[:, 1] >= px + 1) & (uv[:, 1] < h - px - 2))
        look = read_colour(empty, uv)
        shifts = np.array([(px, 0.0), (-px, 0.0), (0.0, px), (0.0, -px)])
        around = np.stack([read_colour(empty, uv + d) for d in shifts])
        flat = (bare_mat_distance(around, look[None]) <= GATE.surround_flat).all(axis=0)
        usable = (clear & inside & flat).reshape(n_a, n_o)
        rows = GATE.surround_rows
        points = np.full((n_a, rows, 2), np.nan)
        looks = np.full((n_a, rows, 3), np.nan, np.float32)
        cand_look = look.reshape(n_a, n_o, 3)
        for a in range(n_a):
            first = np.flatnonzero(usable[a])[:rows]
            if len(first) == rows:
                points[a], looks[a] = cand[a, first], cand_look[a, first]
        if np.isnan(points[:, 0, 0]).mean() > 0.5:
            return None
        return cls(points, looks, side)

    def crossed(self, image: np.ndarray, camera: CameraModel,
                drift: tuple[float, np.ndarray] | None = None, noise: float = 1.0,
                bright: float | None = None, shade: float | None = None,
                tint: np.ndarray | None = None) -> bool:
        """Whether something crosses the band (``image`` (H, W, 3) uint8 BGR, the camera
        where it was at calibration): ``surround_least_run`` spaces of places in a row on
        one side, every row of each changed from the empty look by more than light does
        (:func:`vision.classify.bare_mat_distance`, with the camera's ``drift`` since
        calibration taken out)."""
        key = camera.homography.tobytes() + camera.K.tobytes()
        if not self._seen or self._seen[0][0] != key:
            used = ~np.isnan(self.points[:, 0, 0])
            pts = np.nan_to_num(self.points[used]).reshape(-1, 2)
            self._seen[:] = [(key, used, camera.image_points(pts))]
        _, used, uv = self._seen[0]
        feat = read_colour(image, uv)
        if drift is not None:
            feat = undo_drift(feat, drift)
        far = bare_mat_distance(feat.reshape(-1, self.points.shape[1], 3), self.look[used],
                                noise, bright, shade, tint) > GATE.surround_sigma
        changed = np.zeros(len(self.points), bool)
        changed[used] = far.all(axis=1)
        touched = np.zeros(len(self.points), bool)
        touched[used] = far.any(axis=1)
        return arm_across(changed, self.side, touched)

    def to_json(self) -> dict[str, Any]:
        return {"points": np.round(np.nan_to_num(self.points, nan=-99.0), 4).tolist(),
                "look": np.round(np.nan_to_num(self.look, nan=-9.0), 4).tolist(),
                "side": self.side.astype(int).tolist()}

    @classmethod
    def from_json(cls, doc: Any) -> Surround:
        points = np.array(doc["points"], float)
        look = np.array(doc["look"], np.float32)
        side = np.array(doc["side"], int)
        if (points.ndim != 3 or points.shape[2] != 2 or look.shape != (*points.shape[:2], 3)
                or side.shape != points.shape[:1] or not np.isin(side, range(4)).all()):
            raise ValueError(f"surround of {list(points.shape)} points, {list(look.shape)} "
                             f"looks and {list(side.shape)} sides")
        points[points <= -99.0] = np.nan
        look[look <= -9.0] = np.nan
        known = ~np.isnan(look[..., 0])
        if (np.isnan(points[..., 0]) != ~known).any() or (np.abs(points[known]) > 20).any():
            raise ValueError("surround points off the mat's surroundings")
        # lightness in [0, ~1] (colour_features), log chromaticities within a byte's range
        light, chroma = look[known][:, 0], look[known][:, 1:]
        if (light < 0).any() or (light > 1.1).any() or (np.abs(chroma) > 6).any():
            raise ValueError("surround looks out of range")
        return cls(points, look, side)


def arm_across(changed: np.ndarray, side: np.ndarray, touched: np.ndarray | None = None
               ) -> bool:
    """Whether the band's places changed (``changed`` (P,) bool, in order round the grid,
    ``side`` (P,) int 0-3 each) show something across it: ``surround_least_run`` spaces'
    worth of them within ``surround_within`` spaces on one side. An arm is solid across
    the band; a hand reaching in with its palm beyond it crosses as fingers, a comb of
    strips with gaps between; a speck of glare or noise changes a place or two.
    ``touched`` (P,) bool: places changed in some of their rows only. Fingertips that end
    inside the band, or that only some rows' lines of sight pass, touch it so: a comb of
    ``surround_comb_runs`` strips or more, ``surround_comb_least`` spaces' worth of places,
    within ``surround_within`` spaces is fingers too (a shadow's edge or a glint is one
    strip, or two)."""
    least = max(1, round(GATE.surround_least_run / GATE.surround_step))
    within = max(least, round(GATE.surround_within / GATE.surround_step))
    comb = max(1, round(GATE.surround_comb_least / GATE.surround_step))
    for s in range(4):
        c = changed[side == s].astype(np.int32)
        window = np.ones(min(within, len(c)), np.int32)
        if c.sum() >= least and np.convolve(c, window, "valid").max() >= least:
            return True
        if touched is None:
            continue
        t = touched[side == s].astype(np.int32)
        if t.sum() < comb:
            continue
        starts = np.diff(t, prepend=0) == 1  # where each strip begins
        enough = np.convolve(t, window, "valid") >= comb
        # a strip counts in a window where it begins inside it
        strips = np.convolve(starts.astype(np.int32), window, "valid")
        if (enough & (strips >= GATE.surround_comb_runs)).any():
            return True
    return False


class GateState(enum.Enum):
    OCCLUDED = "occluded"
    MOVING = "moving"
    STILL = "still"


@dataclass(frozen=True, slots=True)
class GateEvent:
    """What the gate says about one frame; ``position`` only on a newly stable board."""

    t: float
    state: GateState
    position: dict[str, Any] | None = None


@dataclass
class StabilityGate:
    """Feed it every frame's time, image and detection; it says when a position is final.

    A position is reported once the mat has been still and unoccluded for ``still_s``
    seconds, and ``agree`` still frames in a row have read it (one misread frame is not a
    move), and only when it differs from the last one reported. An occluded frame (a hand
    over the mat) never yields a position and restarts the wait.
    """

    still_s: float = GATE.still_s
    agree: int = GATE.agree_frames
    _last_top: np.ndarray | None = field(default=None, init=False)
    _readings: list[dict[str, Any] | None] = field(default_factory=list, init=False)
    _still_since: float | None = field(default=None, init=False)
    _reported: dict[str, Any] | None = field(default=None, init=False)

    def lost(self, t: float) -> GateEvent:
        """A frame in which the mat could not be found: like a hand, it restarts the wait."""
        self._still_since, self._last_top, self._readings = None, None, []
        return GateEvent(t, GateState.OCCLUDED)

    def update(self, t: float, image: np.ndarray, homography: np.ndarray,
               position: dict[str, Any] | None, occluded: bool,
               top: np.ndarray | None = None) -> GateEvent:
        """``top``: :func:`motion_view` of this frame, when the caller has it already."""
        if occluded:
            self._still_since, self._last_top, self._readings = None, None, []
            return GateEvent(t, GateState.OCCLUDED)
        if top is None:
            top = motion_view(image, homography)
        moved = self._last_top is None or changed(top, self._last_top)
        self._last_top = top
        self._readings = [*self._readings[-(self.agree - 1):], position] if self.agree > 1 \
            else [position]
        if moved or self._still_since is None:
            self._still_since = t
            return GateEvent(t, GateState.MOVING)
        if t - self._still_since + 1e-9 < self.still_s or position is None:
            return GateEvent(t, GateState.MOVING)
        if len(self._readings) < self.agree or any(r != position for r in self._readings):
            return GateEvent(t, GateState.MOVING)  # a reading of its own: look once more
        if position == self._reported:
            return GateEvent(t, GateState.STILL)
        self._reported = position
        return GateEvent(t, GateState.STILL, position)
