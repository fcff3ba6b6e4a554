"""Calibration from the start position, and the versioned profile it writes.

The user sets up the start position and shows it to the camera once. Calibration finds the
mat, decides which way round it lies (the two rows of Poles are the Home rows; ``south`` is the
one nearest the bottom of the image unless told otherwise), learns both sides' colours from
their Poles and Ports and what every sample point looks like on the empty mat, then reads the
image back and insists it is the start position.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.files import read_json_file, write_text_atomically
from calibration.intrinsics import CameraIntrinsics, undistorter
from companion.rules.common import quoted
from vision.classify import (
    CORNER_EDGES,
    EDGES,
    HIDDEN_INK,
    LEARN_LEAST,
    OTHER_READINGS,
    SIDES,
    WALL_SAMPLES,
    ColourModel,
    PieceGeometry,
    SampleLayout,
    bare_mat_distance,
    bare_side_like,
    camera_noise,
    hidden_pad_ink,
    image_samples,
    ink_distance,
    light_allowances,
    read_colour,
    sample_layout,
    samples_per_space,
    shadow_tint,
    shifted_wall_samples,
    wall_camouflage,
    wall_candidate_count,
)
from vision.config import CLASSIFY
from vision.detect import Detection, Detector
from vision.errors import GridNotFitted, VisionError
from vision.gate import Palette, StabilityGate, Surround
from vision.geometry import CameraModel, camera_model
from vision.mat import FILES, MatModel, home_telepads, parse_square, portpads, printed_ink
from vision.matfind import MatFix, find_mat, grid_contrast, project, refine
from vision.raycast import Rays, Solids, clearance, port_boxes
from vision.shapes import (
    PoleShadow,
    foot_change,
    footprint_shading,
    lamp_or_shared,
    learn_lamp_shadow,
    learn_pole_shadow,
    lightness_at,
    line_layout,
    log_change,
    own_shadow,
    pole_axes,
    pole_body,
    pole_rims,
    pole_shadow_score,
    sample_maps,
    shaded_footprints,
    shadow_in_view,
    shadow_offsets,
    shadow_point_words,
    shadow_points,
    shadow_points_clear,
)

PROFILE_KIND = "tabletop-companion/teleporters-profile"
PROFILE_VERSION = 2  # 2: wall samples chosen by line of sight; printed inks
SOUTH_AT = ("bottom", "top", "left", "right")
# The start position: Poles on the Home Telepads, Ports on their Portpads (the rules core's
# board, through vision.mat)
START_POLES = home_telepads()
START_PORTS = portpads()
# (Poles, Ports) of a side in the set: all of them stand at the start, and none enter later
SET_SIZE = (max(len(p) for p in START_POLES.values()),
            max(sum(side == s for side, _ in START_PORTS.values()) for s in START_POLES))


def _sq(name: str) -> int:
    file, rank = parse_square(name)
    return file + 8 * rank


@dataclass(frozen=True)
class Profile:
    image_size: tuple[int, int]  # (width, height)
    homography: np.ndarray  # (3, 3) mat -> image
    colours: dict[str, ColourModel]
    empty: np.ndarray  # (64, S, 3) Lab, NaN where the start position hides the mat
    south_at: str = "bottom"
    K: np.ndarray | None = None  # from a lens calibration; None: estimated per frame
    geometry: PieceGeometry = field(default_factory=PieceGeometry)
    palette: Palette | None = None
    inks: dict[str, ColourModel] | None = None  # the sides' colours printed on the mat
    # sides whose ink may be printed where the start pieces hid their pads (no empty photo)
    hidden_inks: tuple[str, ...] = ()
    created: str = ""
    intrinsics: CameraIntrinsics | None = None  # a lens calibration: frames are undistorted
    # 1: grid lines darker than the spaces; -1: lighter; 0: a checkerboard (no lines)
    grid_polarity: int = 1
    # how the grid lines stood out in the start photo where the fix puts them (grey levels,
    # vision.matfind.grid_contrast): play frames that show them as well keep the fix; None
    # (an older profile): the first frame refits it
    grid_score: float | None = None
    noise: float = 1.0  # the camera's noise against the empty look (classify.camera_noise)
    # the brightening and shade a bare sample is allowed here (classify.light_allowances),
    # from the empty and start photos; None: the defaults
    bright: float | None = None
    shade: float | None = None
    # (K, 2), K 1 or 2: how a shadow here shifts chromaticity per unit of log lightness
    # (classify.shadow_tint), from the same photos; None: shadows only darken
    tint: np.ndarray | None = None
    # (64, 4, C) bool: wall candidates whose view meets print of a side's colour in the empty
    # photo (classify.wall_camouflage); the wall samples were chosen round them
    camouflage: np.ndarray | None = None
    # start spaces calibration read unsure, not as the start (see _check_start): the
    # referee will ask to look again there
    start_unsure: tuple[str, ...] = ()
    # spaces the start position leaves bare that calibration read a piece on, one at least
    # surely (with an empty-mat photo, see _check_start): a shadow or print taken for one
    start_extra: tuple[str, ...] = ()
    # (64, 4, J, K) lightness of the empty mat across every edge (vision.shapes), from the
    # empty-mat photo; None without one
    empty_lines: np.ndarray | None = None
    # (64, Z, 3) lightness of the empty mat on and beside every Pole's axis (vision.shapes)
    empty_axes: np.ndarray | None = None
    # vision.shapes.pole_body above which a space shows a Pole's body on this table
    body_threshold: float | None = None
    # vision.shapes.foot_change above which a space's footprint shows a Pole on this table,
    # where no Pole's or wall's shadow may fall on it; and where one may (None: the same)
    foot_threshold: float | None = None
    foot_shade_threshold: float | None = None
    # a Pole's own shadow on this table, as every start Pole shared it, and (64, N) the
    # empty mat's lightness where each space's Pole would cast it (vision.shapes.PoleShadow);
    # None: no clear shadow
    pole_shadow: PoleShadow | None = None
    empty_shadows: np.ndarray | None = None
    # ... or under a lamp near the mat, where each space's Pole casts it
    # (vision.shapes.learn_lamp_shadow; empty_shadows then read at its points)
    lamp_shadow: PoleShadow | None = None
    # how much of that shadow each side's (south, north) start Poles cast, where under 1
    shadow_scale: tuple[float, float] = (1.0, 1.0)
    # the deepest a Pole's own shadow may be, by that measure (classify._read_poles): where
    # the start Poles' own shadows are deep against the learned one, above shadow_most
    shadow_most: float = CLASSIFY.shadow_most
    # (64, N, 2) the empty mat's lightness either side of each space's Pole rim
    # (vision.shapes.PoleRims); None without an empty-mat photo
    empty_rims: np.ndarray | None = None
    # (64, 4 * WALL_SAMPLES, OTHER_READINGS, 3) the empty mat's look at the wall samples'
    # other readings (vision.classify.SampleLayout.shifted); None without an empty-mat photo
    empty_walls_shifted: np.ndarray | None = None
    # the border and table round the grid (vision.gate.Surround): an arm crosses it; None:
    # too little of it in view
    surround: Surround | None = None

    def detector(self) -> Detector:
        fix = MatFix(self.homography, self.grid_score or 0.0, 49, 0.0, self.grid_polarity)
        return Detector(self.colours, fix, self.image_size[0], self.image_size[1], self.K,
                        self.empty, self.geometry, self.palette, self.inks,
                        hidden_inks=self.hidden_inks,
                        undistort=None if self.intrinsics is None else undistorter(
                            self.intrinsics), noise=self.noise, bright=self.bright,
                        shade=self.shade, tint=self.tint,
                        camouflage=self.camouflage, set_size=SET_SIZE,
                        empty_lines=self.empty_lines, empty_axes=self.empty_axes,
                        body_threshold=self.body_threshold, pole_shadow=self.pole_shadow,
                        lamp_shadow=self.lamp_shadow, empty_shadows=self.empty_shadows,
                        shadow_scale=self.shadow_scale, shadow_most=self.shadow_most,
                        foot_threshold=self.foot_threshold,
                        foot_shade_threshold=self.foot_shade_threshold,
                        empty_rims=self.empty_rims, surround=self.surround,
                        empty_walls_shifted=self.empty_walls_shifted)

    def gate(self) -> StabilityGate:
        return StabilityGate()

    def to_json(self) -> dict[str, Any]:
        empty = np.where(np.isnan(self.empty), -9.0, np.round(self.empty, 4))
        return {
            "kind": PROFILE_KIND,
            "version": PROFILE_VERSION,
            "created": self.created,
            "image_size": list(self.image_size),
            "south_at": self.south_at,
            "homography": np.round(self.homography, 9).tolist(),
            "camera": {"K": None if self.K is None else self.K.tolist()},
            "colours": {side: m.to_json() for side, m in self.colours.items()},
            "pieces": {"pole_diameter": self.geometry.pole_diameter,
                       "pole_height": self.geometry.pole_height,
                       "wall_thickness": self.geometry.wall_thickness,
                       "wall_height": self.geometry.wall_height},
            "empty_mat": empty.tolist(),  # -9: not seen (a piece stood there)
            "palette": None if self.palette is None else self.palette.to_json(),
            "inks": {side: m.to_json() for side, m in (self.inks or {}).items()},
            "hidden_inks": list(self.hidden_inks),
            "intrinsics": None if self.intrinsics is None else self.intrinsics.to_json(),
            "grid_polarity": self.grid_polarity,
            "grid_score": self.grid_score,
            "noise": self.noise,
            "brightening": self.bright,
            "shading": self.shade,
            "shadow_tint": None if self.tint is None else np.round(self.tint, 4).tolist(),
            "wall_camouflage": _bits_json(self.camouflage),
            "start_unsure": list(self.start_unsure),
            "start_extra": list(self.start_extra),
            "empty_lines": _looks_json(self.empty_lines),
            "empty_axes": _looks_json(self.empty_axes),
            "body_threshold": self.body_threshold,
            "foot_threshold": self.foot_threshold,
            "foot_shade_threshold": self.foot_shade_threshold,
            "pole_shadow": None if self.pole_shadow is None else self.pole_shadow.to_json(),
            "lamp_shadow": None if self.lamp_shadow is None else self.lamp_shadow.to_json(),
            "empty_shadows": _looks_json(self.empty_shadows),
            "shadow_scale": list(self.shadow_scale),
            "shadow_most": self.shadow_most,
            "empty_rims": _looks_json(self.empty_rims),
            "empty_walls_shifted": _looks_json(self.empty_walls_shifted),
            "surround": None if self.surround is None else self.surround.to_json(),
        }

    def save(self, path: str | Path) -> None:
        write_text_atomically(path, json.dumps(self.to_json()))

    @classmethod
    def from_json(cls, doc: Any) -> Profile:
        if not isinstance(doc, dict) or doc.get("kind") != PROFILE_KIND:
            raise CalibrationError("not a tabletop-companion Teleporters profile")
        version = doc.get("version")
        if not isinstance(version, int) or version > PROFILE_VERSION:
            raise CalibrationError(f"profile version {version!r} is newer than this program "
                                   f"reads ({PROFILE_VERSION}): update tabletop-companion")
        if version < PROFILE_VERSION:
            # Version 1 sampled walls elsewhere: its empty-mat look belongs to other points.
            raise CalibrationError(f"profile version {version} was made by an older "
                                   "tabletop-companion: calibrate again from the start position")
        where = _not_finite(doc)
        if where:
            raise CalibrationError(f"profile is damaged: {where}")
        size = doc.get("image_size")
        if not (isinstance(size, list) and len(size) == 2
                and all(isinstance(n, int) and MIN_FRAME_PX <= n <= MAX_FRAME_PX for n in size)):
            raise CalibrationError(f"profile is damaged: image_size {quoted(size)} is not a "
                                   f"frame size ({MIN_FRAME_PX} to {MAX_FRAME_PX} pixels a side)")
        lens = doc.get("intrinsics")  # optional: absent from profiles without one
        intrinsics = None if lens is None else CameraIntrinsics.from_json(lens)
        try:
            empty = np.array(doc["empty_mat"], np.float32)
            if empty.shape != (64, samples_per_space(), 3):
                raise ValueError(f"empty_mat is {list(empty.shape)}, not "
                                 f"[64, {samples_per_space()}, 3]")
            empty[empty <= -9.0] = np.nan
            _check_colours(empty)
            K = doc["camera"]["K"]
            homography = np.array(doc["homography"], float).reshape(3, 3)
            # A null reads as NaN, which the finite-number check above cannot see.
            if not np.isfinite(homography).all():
                raise ValueError("the homography holds a number that is not finite "
                                 f"(null?): {homography.tolist()}")
            if abs(np.linalg.det(homography)) < 1e-12:
                raise ValueError("the homography is singular: it maps the mat to nothing")
            if K is not None:
                k = np.array(K, float).reshape(3, 3)
                if not np.isfinite(k).all():
                    raise ValueError("the camera matrix K holds a number that is not finite "
                                     f"(null?): {k.tolist()}")
                if not (k[0, 0] > 0 and k[1, 1] > 0 and abs(np.linalg.det(k)) > 1e-9):
                    raise ValueError("the camera matrix K has no positive focal lengths")
            pieces = doc.get("pieces", {})
            return cls(
                image_size=(int(doc["image_size"][0]), int(doc["image_size"][1])),
                homography=homography,
                colours={s: ColourModel.from_json(doc["colours"][s]) for s in ("south", "north")},
                empty=empty,
                south_at=str(doc.get("south_at", "bottom")),
                K=None if K is None else np.array(K, float).reshape(3, 3),
                geometry=PieceGeometry(**pieces),
                palette=None if doc.get("palette") is None else Palette.from_json(
                    doc["palette"]),
                inks={s: ColourModel.from_json(m) for s, m in doc.get("inks", {}).items()},
                hidden_inks=_sides(doc.get("hidden_inks", [])),
                created=str(doc.get("created", "")),
                intrinsics=intrinsics,
                grid_polarity={-1: -1, 0: 0}.get(doc.get("grid_polarity", 1), 1),
                grid_score=_positive("grid_score", doc.get("grid_score"), 255.0),
                noise=_noise(doc.get("noise", 1.0)),
                bright=_positive("brightening", doc.get("brightening"), 1.0),
                shade=_positive("shading", doc.get("shading"), 1.0),
                tint=_tint(doc.get("shadow_tint")),
                camouflage=_bits_from_json(doc.get("wall_camouflage")),
                start_unsure=tuple(str(n) for n in doc.get("start_unsure", [])),
                start_extra=tuple(str(n) for n in doc.get("start_extra", [])),
                empty_lines=_looks_from_json(doc.get("empty_lines"), "empty_lines", (
                    64, 4, CLASSIFY.line_along, CLASSIFY.line_across)),
                empty_axes=_looks_from_json(doc.get("empty_axes"), "empty_axes", (
                    64, len(CLASSIFY.body_heights), 3)),
                body_threshold=_positive("body_threshold", doc.get("body_threshold")),
                foot_threshold=_positive("foot_threshold", doc.get("foot_threshold")),
                foot_shade_threshold=_positive("foot_shade_threshold",
                                               doc.get("foot_shade_threshold")),
                **_shadow_from_json(doc.get("pole_shadow"), doc.get("lamp_shadow"),
                                    doc.get("empty_shadows")),
                shadow_scale=_shadow_scale(doc.get("shadow_scale", [1.0, 1.0])),
                shadow_most=_shadow_most(doc.get("shadow_most", CLASSIFY.shadow_most)),
                empty_rims=_looks_from_json(doc.get("empty_rims"), "empty_rims", (
                    64, CLASSIFY.rim_directions, 2)),
                empty_walls_shifted=_looks_from_json(
                    doc.get("empty_walls_shifted"), "empty_walls_shifted",
                    (64, 4 * WALL_SAMPLES, OTHER_READINGS, 3), colours=True),
                surround=None if doc.get("surround") is None else Surround.from_json(
                    doc["surround"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"profile is damaged: {exc!r}") from None

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        return cls.from_json(read_json_file(path, "profile"))


MIN_FRAME_PX, MAX_FRAME_PX = 16, 16384  # a profile's frame size, each side

# What vision.classify.colour_features can give for 8-bit pixels: lightness within
# [4, 259] / 255 and log colour ratios within +-log(259 / 4) (a little slack for rounding).
_LIGHTNESS = (4.0 / 255.0 - 1e-3, 259.0 / 255.0 + 1e-3)
_RATIO = math.log(259.0 / 4.0) + 1e-3


def _check_colours(empty: np.ndarray, name: str = "empty_mat") -> None:
    """Refuse an empty-mat look (64, S, 3) holding a colour no camera pixel gives (NaN:
    unseen, allowed): a lightness of -1 would reach a logarithm and fail mid-frame."""
    light, ratios = empty[..., 0], empty[..., 1:]
    bad = np.zeros(empty.shape, bool)
    bad[..., 0] = (light < _LIGHTNESS[0]) | (light > _LIGHTNESS[1])
    bad[..., 1:] = np.abs(ratios) > _RATIO
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name}{list(where)} is {float(empty[where]):.3g}, not a colour "
                         "a camera gives (lightness 0.016 to 1.02, colour ratios within "
                         f"+-{_RATIO:.2f})")


def _not_finite(doc: Any, path: str = "") -> str:
    """What is wrong where a number in a JSON document is NaN or infinite (Python's reader
    takes both) or too large for the float32 arrays a profile is read into (NumPy would
    warn and make it infinite); "" where nothing is."""
    where = _first_bad(doc)
    if where is None:
        return ""
    keys, value = where
    for key in reversed(keys):  # the path is spelt only for the number found (a profile
        path = f"{path}[{key!r}]" if path else repr(key)  # holds a million numbers)
    if isinstance(value, float) and not math.isfinite(value):
        return f"{path or 'the document'} is not a finite number"
    return f"{path or 'the document'} is {float(value):.3g}, beyond what a profile holds"


def _first_bad(doc: Any) -> tuple[list[Any], Any] | None:
    """The first number (depth first, in document order) that is not finite or beyond
    float32, as (its keys innermost first, it); None where there is none."""
    if isinstance(doc, float):
        return None if abs(doc) <= _LARGEST else ([], doc)  # NaN compares False: bad
    if isinstance(doc, int) and not isinstance(doc, bool):
        return None if abs(doc) <= _LARGEST else ([], doc)
    if isinstance(doc, dict):
        items: Any = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return None
    for key, value in items:
        if isinstance(value, (dict, list, float, int)):
            found = _first_bad(value)
            if found is not None:
                found[0].append(key)
                return found
    return None


_LARGEST = float(np.finfo(np.float32).max)


def unsure_note(profile: Profile) -> str:
    """The lines telling the user which start spaces calibration could not read as the
    start position has them: read unsure, or a piece read where the start has none; "" when
    it read them all."""
    lines = []
    if profile.start_unsure:
        lines.append(f"note: {', '.join(profile.start_unsure)} could not be read for sure in "
                     "the start photo (a piece lit just like a pad printed in its colour?); the "
                     "referee will ask to look again there. More light from one side, or a "
                     "steeper camera, helps.")
    if profile.start_extra:
        lines.append(f"note: a piece was read on {', '.join(profile.start_extra)} in the start "
                     "photo, where the start position has none. If nothing stands there, a "
                     "shadow or the print there looks like a piece to the camera, and that "
                     "space may be misread in play: light the mat more evenly, or raise the "
                     "camera, and calibrate again.")
    return "\n".join(lines)


def _bits_json(bits: np.ndarray | None) -> dict[str, Any] | None:
    if bits is None:
        return None
    return {"shape": list(bits.shape), "hex": np.packbits(bits.reshape(-1)).tobytes().hex()}


def _bits_from_json(doc: Any) -> np.ndarray | None:
    """The wall camouflage mask back from :func:`_bits_json`; it must fit this program's wall
    candidates (the empty look was read where they led)."""
    if doc is None:
        return None
    shape = tuple(int(n) for n in doc["shape"])
    want = (64, 4, wall_candidate_count())
    if shape != want:
        raise ValueError(f"wall_camouflage shape {list(shape)} is not {list(want)}")
    raw = np.frombuffer(bytes.fromhex(doc["hex"]), np.uint8)
    n = int(np.prod(shape))
    if len(raw) != (n + 7) // 8:
        raise ValueError(f"wall_camouflage holds {len(raw)} bytes, not {(n + 7) // 8}")
    return np.unpackbits(raw)[:n].astype(bool).reshape(shape)


def _looks_json(looks: np.ndarray | None) -> list[Any] | None:
    return None if looks is None else np.where(np.isnan(looks), -9.0,
                                               np.round(looks, 4)).tolist()


def _looks_from_json(doc: Any, name: str, shape: tuple[int, ...], colours: bool = False
                     ) -> np.ndarray | None:
    """The empty mat's lightness at the shapes' points (:mod:`vision.shapes`) back from
    :func:`_looks_json` (``colours``: colour features, :func:`_check_colours`); a profile
    whose points were laid out otherwise (another version's settings) reads pieces by
    colour alone."""
    if doc is None:
        return None
    looks = np.array(doc, np.float32)
    if looks.shape != shape:
        return None
    looks[looks <= -9.0] = np.nan
    if colours:
        _check_colours(looks, name)
        return looks
    bad = ~np.isnan(looks) & ~((looks >= 0.0) & (looks <= 2.0))
    if bad.any():
        raise ValueError(f"{name} value {float(looks[bad][0])!r} is not a lightness")
    return looks


def _start_occupied(ports: bool = True) -> np.ndarray:
    """(64,) bool: the spaces Poles (and ``ports``: Ports) stand on in the start position."""
    out = np.zeros(64, bool)
    out[[_sq(n) for names in START_POLES.values() for n in names]] = True
    if ports:
        out[[_sq(n) for n in START_PORTS]] = True
    return out


def _shape_threshold(start_scores: np.ndarray, least: float,
                     among: np.ndarray | None = None) -> float:
    """What a Pole's body (:func:`vision.shapes.pole_body`) or footprint
    (:func:`vision.shapes.foot_change`) must show on this table, from the start photo's
    (64,) scores: a margin over the most that a space left bare shows there (the start
    Poles' shadows fall on some of them), of those ``among`` (64,) bool where given (all
    bare spaces where none of them is), and never less than ``least``."""
    bare = ~_start_occupied()
    if among is not None and (bare & among).any():
        bare &= among
    return max(least, CLASSIFY.body_margin * float(np.max(start_scores[bare])))


def _start_walls() -> np.ndarray:
    """(64, 4) bool: the edges (EDGES order) walls stand on in the start position."""
    out = np.zeros((64, 4), bool)
    for name, (_, corner) in START_PORTS.items():
        for edge in CORNER_EDGES[corner]:
            out[_sq(name), EDGES.index(edge)] = True
    return out


def _learn_shadow(image: np.ndarray, empty: np.ndarray, cam: CameraModel, start: Solids
                  ) -> tuple[PoleShadow | None, PoleShadow | None, np.ndarray | None]:
    """A Pole's own shadow on this table, as every start Pole shares it, that under a lamp
    near the mat where it says more (:func:`vision.shapes.lamp_or_shared`; else None), and
    the tint of shadows here (:func:`vision.classify.shadow_tint`), from the start and empty
    photos: the change round every start Pole (south's first, as ``start`` holds them),
    where the mat is in sight past the start position."""
    offsets = shadow_offsets()
    centres = start.cylinders[:, :2]
    pts = (centres[:, None] + offsets[None]).reshape(-1, 2)
    on_mat = ((pts >= 0) & (pts <= 8)).all(axis=1)
    top = float(start.cylinders[:, 3].max()) + 0.05
    seen = on_mat & (_clear(cam, np.column_stack([pts, np.zeros(len(pts))]), start, top)
                     >= CALIBRATION_CLEAR)
    uv = cam.image_points(pts)
    now, bare = read_colour(image, uv), read_colour(empty, uv)
    change = log_change(now[:, 0], bare[:, 0])
    shadow = learn_pole_shadow(np.where(seen, change, np.nan).reshape(len(centres), -1),
                               offsets)
    # Under a lamp near the mat each start Pole's shadow falls its own way: what they all
    # share as seen may be little or nothing, while read along each one's way from the
    # point under the lamp it is plain (a soft box over one corner).
    # (as far past the grid as a shadow is read: the border or the table, flat as the mat)
    step, past = CLASSIFY.lamp_grid_step, CLASSIFY.shadow_beyond_grid
    g = np.arange(-past, 8.0 + past + 1e-9, step)
    mat = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)  # row by row in y
    mat_seen = _clear(cam, np.column_stack([mat, np.zeros(len(mat))]), start, top
                      ) >= CALIBRATION_CLEAR
    mat_uv = cam.image_points(mat)
    mat_change = log_change(read_colour(image, mat_uv)[:, 0], read_colour(empty, mat_uv)[:, 0])
    lamp = learn_lamp_shadow(np.where(mat_seen, mat_change, np.nan).reshape(len(g), len(g)),
                             np.full(2, -past), step, centres, offsets)
    by_side = (2, -1, 3)
    tint = shadow_tint(np.where(seen[:, None], now, np.nan).reshape(by_side),
                       np.where(seen[:, None], bare, np.nan).reshape(by_side))
    return shadow, lamp if lamp_or_shared(shadow, lamp) is lamp else None, tint


def _shadow_scale(value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != len(SIDES):
        raise ValueError(f"shadow_scale {value!r} is not one value per side")
    low = CLASSIFY.shadow_scale_least
    scale = (float(value[0]), float(value[1]))
    if not all(np.isfinite(v) and low <= v <= 1.0 for v in scale):
        raise ValueError(f"shadow_scale {value!r} is not between {low:g} and 1")
    return scale


def _shadow_most(value: Any) -> float:
    """A profile's ``shadow_most``: a number at least the configured one."""
    if (not isinstance(value, (int, float)) or isinstance(value, bool)
            or not CLASSIFY.shadow_most <= value <= CLASSIFY.shadow_most_ceiling):
        raise ValueError(f"shadow_most {value!r} is not between {CLASSIFY.shadow_most:g} "
                         f"and {CLASSIFY.shadow_most_ceiling:g}")
    return float(value)


def _start_shadow_scale(image: np.ndarray, cam: CameraModel, geometry: PieceGeometry,
                        shadow: PoleShadow, empty_shadows: np.ndarray
                        ) -> tuple[tuple[float, float], float]:
    """:func:`_shadow_measures` of the start Poles' own shadows (``shadow``, learned as the
    least any start Pole shows) in the start photo ``image``."""
    h, w = image.shape[:2]
    now = lightness_at(image, sample_maps(shadow_points(shadow), cam))
    clear = shadow_points_clear(shadow_point_words(shadow, cam, geometry), _start_occupied())
    return _shadow_measures(pole_shadow_score(now, empty_shadows, shadow, shadow_in_view(
        shadow, cam, geometry, (w, h)) & clear))


def _shadow_measures(score: np.ndarray) -> tuple[tuple[float, float], float]:
    """From how much of a Pole's own shadow (the least any start Pole shows) each start
    Pole casts (``score`` (64,), NaN where out of view): how much each side's start Poles
    cast, on median, under 1 where a side's Poles cast less than the others' (a light Pole
    lights its own shadow from inside: beige Poles on light wood under a low sun cast 0.84
    to 0.91 of it, brown ones 1.1 to 1.3); 1 where a side casts it fully, or less than
    ``shadow_scale_least`` (its shadows then say too little to scale by). And the deepest
    shadow a Pole may cast by that measure: ``shadow_most_of_start`` times the deepest any
    start Pole casts, where that is above ``shadow_most`` (a soft box nearer one side: the
    faintest start Pole's shadow is learned, and the Poles nearer the box cast three times
    and more of it)."""
    out = []
    deepest = 0.0
    for side in SIDES:
        cast = score[[_sq(n) for n in START_POLES[side]]]
        cast = cast[np.isfinite(cast)]
        own = float(np.median(cast)) if cast.size else 1.0
        out.append(own if CLASSIFY.shadow_scale_least <= own < 1.0 else 1.0)
        if cast.size:
            deepest = max(deepest, float(cast.max()) / out[-1])
    most = float(np.clip(CLASSIFY.shadow_most_of_start * deepest, CLASSIFY.shadow_most,
                         CLASSIFY.shadow_most_ceiling))
    return (out[0], out[1]), most


def _shadow_from_json(shadow: Any, lamp: Any, looks: Any) -> dict[str, Any]:
    pole_shadow = None if shadow is None else PoleShadow.from_json(shadow)
    lamp_shadow = None if lamp is None else PoleShadow.from_json(lamp)
    if lamp_shadow is not None and lamp_shadow.lamp is None:
        raise ValueError("lamp_shadow has no lamp")
    if pole_shadow is not None and pole_shadow.lamp is not None:
        raise ValueError("pole_shadow is a lamp's")
    own = own_shadow(pole_shadow, lamp_shadow)
    if own is None:
        return {}
    empty = _looks_from_json(looks, "empty_shadows", (64, 3, len(own.change)))
    return {} if empty is None else {"pole_shadow": pole_shadow, "lamp_shadow": lamp_shadow,
                                     "empty_shadows": empty}


def _positive(name: str, value: Any, most: float = 1e4) -> float | None:
    """A profile's optional number: None, or above 0 and at most ``most``."""
    if value is None:
        return None
    number = float(value)
    if not (np.isfinite(number) and 0.0 < number <= most):
        raise ValueError(f"{name} {value!r} is not above 0 and at most {most:g}")
    return number


def _sides(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or any(v not in SIDES for v in value):
        raise ValueError(f"hidden_inks {value!r} is not a list of sides")
    return tuple(v for v in SIDES if v in value)


def _noise(value: Any) -> float:
    noise = float(value)
    if not (np.isfinite(noise) and 1.0 <= noise <= 100.0):
        raise ValueError(f"noise {value!r} is not between 1 and 100")
    return noise


def _orientation(image: np.ndarray, fix: MatFix, south_at: str,
                 empty: np.ndarray | None = None) -> MatFix:
    """Label the mat's corners: the Home rows hold Poles, south's is nearest ``south_at``.
    A Pole's top differs from the bare mat under it (the empty photo's, or else the middle
    ranks' typical look)."""
    h, w = image.shape[:2]
    scores = []
    for k in range(4):
        f = fix.rotated(k)
        cam = camera_model(f.homography, w, h)
        layout = sample_layout(cam, walls=False)
        uv = image_samples(layout, cam)
        top = read_colour(image, uv)[:, layout.top].mean(axis=1)  # (64, 3)
        if empty is not None:
            floor = read_colour(empty, uv)[:, layout.top].mean(axis=1)
        else:
            floor = np.median(top[[_sq(f"{c}{r}") for c in FILES for r in "45"]], axis=0)
        homes = [_sq(n) for side in START_POLES.values() for n in side]
        d = np.linalg.norm((top - floor)[homes], axis=1)
        scores.append(float(np.median(d)))
    pair = 0 if scores[0] + scores[2] >= scores[1] + scores[3] else 1
    choices = [fix.rotated(pair), fix.rotated(pair + 2)]

    def rank_point(f: MatFix, rank: float) -> np.ndarray:
        return project(f.homography, np.array([[4.0, rank]]))[0]

    def southness(f: MatFix) -> float:
        s, n = rank_point(f, 0.5), rank_point(f, 7.5)
        return {"bottom": s[1] - n[1], "top": n[1] - s[1], "left": n[0] - s[0],
                "right": s[0] - n[0]}[south_at]

    return max(choices, key=southness)


def calibrate(image: np.ndarray, south_at: str = "bottom", K: np.ndarray | None = None,
              intrinsics: CameraIntrinsics | None = None,
              empty: np.ndarray | None = None) -> Profile:
    """A profile from an image of the start position ((H, W, 3) uint8 BGR). ``empty``: a
    photo of the bare mat from the same camera in the same light; every sample point's empty
    look then comes from it, whatever the mat's print. Without it, the empty look is learned
    where the start position leaves the mat in view."""
    if south_at not in SOUTH_AT:
        raise CalibrationError(f"--south-at must be one of {', '.join(SOUTH_AT)}, "
                               f"got {south_at!r}")
    if empty is not None and empty.shape != image.shape:
        raise CalibrationError(f"the empty-mat photo is {empty.shape[1]}x{empty.shape[0]} but "
                               f"the start photo {image.shape[1]}x{image.shape[0]}: take both "
                               "with the same camera, without moving it")
    raw = image
    if intrinsics is not None:  # a lens calibration: everything below sees the undistorted frame
        undistort = undistorter(intrinsics)
        image, K = undistort(image), intrinsics.rectified_matrix
        empty = None if empty is None else undistort(empty)
    found = _fix_alone(image) if empty is None else _fix_with_empty(image, empty)
    fix = _orientation(image, found, south_at, empty)
    h, w = image.shape[:2]
    cam = camera_model(fix.homography, w, h, K)
    layout = sample_layout(cam)
    uv = image_samples(layout, cam)
    lab = read_colour(image, uv)  # (64, S, 3) colour features
    samples: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    tops: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    bare_look = None if empty is None else read_colour(empty, uv)
    for side, names in START_POLES.items():
        for n in names:  # a Pole's lit top and its shaded body
            samples[side].append(lab[_sq(n), layout.top])
            samples[side].append(lab[_sq(n), layout.foot])
            if bare_look is not None:  # where the empty photo shows the top changed
                top = lab[_sq(n), layout.top]
                tops[side].append(top[bare_mat_distance(
                    top, bare_look[_sq(n), layout.top]) >= CLASSIFY.piece_changes])
    walls_seen: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    own_parts: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    wall_index = {e: i for i, e in enumerate(EDGES)}
    for name, (side, corner) in START_PORTS.items():
        walls = lab[_sq(name), layout.wall].reshape(4, WALL_SAMPLES, 3)
        trusted = layout.weight[_sq(name), layout.wall].reshape(4, WALL_SAMPLES) >= 0.5
        changed = np.zeros_like(trusted)
        if bare_look is not None:  # a wall sample unlike the bare mat there saw the wall
            changed = bare_mat_distance(walls, bare_look[_sq(name), layout.wall].reshape(
                4, WALL_SAMPLES, 3)) >= CLASSIFY.piece_changes
        for edge in CORNER_EDGES[corner]:
            i = wall_index[edge]
            walls_seen[side].append(walls[i][trusted[i]])
            own_parts[side].append(walls[i][trusted[i] & changed[i]])
    learned = {side: np.concatenate(s + walls_seen[side]) for side, s in samples.items()}
    # The walls also in parts of their own: a thin wall's top, blurred into what lies round
    # it, is paler than a Pole's and must not be dropped as the Poles' outlier. Only the
    # wall samples the empty photo shows changed: the others may be half mat. The Poles'
    # lit tops too: a glossy top under a lamp is much lighter and paler than the bodies and
    # walls that outnumber it (yellow Poles' tops near white).
    def learn(more: dict[str, list[np.ndarray]]) -> dict[str, ColourModel]:
        return {side: ColourModel.learn(np.concatenate(samples[side] + walls_seen[side]),
                                        np.concatenate(own_parts[side]),
                                        *([np.concatenate(tops[side])] if tops[side] else []),
                                        *more[side])
                for side in samples}

    colours = learn({"south": [], "north": []})
    _check_sides_apart(colours, learned, empty is not None)
    geometry = PieceGeometry()
    start = _start_solids(geometry)
    noise = 1.0
    bright = shade = tint = None
    camouflage = None
    shapes = empty_lines = empty_axes = body_threshold = pole_shadow = empty_shadows = None
    lamp_shadow = None
    foot_threshold = foot_shade_threshold = empty_rims = empty_walls_shifted = None
    shadow_scale = (1.0, 1.0)
    shadow_most = CLASSIFY.shadow_most
    hidden_inks: tuple[str, ...] = ()
    if empty is not None:
        # Wall samples where the bare mat differs from the pieces, where the view allows.
        camouflage = wall_camouflage(cam, empty, colours, geometry)
        if camouflage.any():
            layout = sample_layout(cam, geometry, camouflaged=camouflage)
            uv = image_samples(layout, cam)
            lab = read_colour(image, uv)
            bare_look = read_colour(empty, uv)
        assert bare_look is not None  # read above, from the empty photo
        empty_look = bare_look  # the bare mat at every sample point
        bare = _sees_mat(cam, layout, start)
        noise = camera_noise(lab[bare], empty_look[bare])
        bright, shade = light_allowances(lab[bare], empty_look[bare])
        palette = Palette.learn(image, fix.homography, noise, shade).union(
            Palette.learn(empty, fix.homography, noise, shade)).union(
            Palette.of_pieces(colours))
        inks = None
        shapes = (line_layout(cam, geometry), pole_axes(cam, geometry),
                  pole_rims(cam, geometry))
        empty_lines = lightness_at(empty, sample_maps(shapes[0].points, cam))
        axes_at = sample_maps(shapes[1].points, cam, shapes[1].heights)
        empty_axes = lightness_at(empty, axes_at)
        pole_shadow, lamp_shadow, tint = _learn_shadow(image, empty, cam, start)
        body_threshold = _shape_threshold(pole_body(lightness_at(image, axes_at), empty_axes,
                                                    noise), CLASSIFY.body_structure)
        # A footprint is read apart where a shadow may fall on it (classify._read_poles'
        # shade_may), so its threshold is learned apart there too: a low sun's long start
        # shadows over bare footprints are no measure of the footprints no shadow reaches
        # (held out: ivory Poles on white paper in the sun, their footprints' change 20
        # times the noise, read bare against the 54 that their shadows gave the next row).
        feet = foot_change(lab, empty_look, layout, noise, _start_occupied(ports=False))
        shaded = shaded_footprints(footprint_shading(pole_shadow, geometry),
                                   _start_occupied(ports=False), _start_walls())
        foot_shade_threshold = _shape_threshold(feet, CLASSIFY.foot_structure)
        foot_threshold = _shape_threshold(feet, CLASSIFY.foot_structure, ~shaded)
        empty_rims = lightness_at(empty, sample_maps(shapes[2].points, cam, shapes[2].heights))
        empty_walls_shifted = read_colour(empty, shifted_wall_samples(layout, cam))
        own = own_shadow(pole_shadow, lamp_shadow)
        if own is not None:
            empty_shadows = lightness_at(empty, sample_maps(shadow_points(own), cam))
            shadow_scale, shadow_most = _start_shadow_scale(image, cam, geometry, own,
                                                            empty_shadows)
    else:
        # The empty look is kept only where the line of sight met bare mat at calibration.
        empty_look = lab.copy()
        empty_look[~_sees_mat(cam, layout, start)] = np.nan
        palette = Palette.learn(image, fix.homography).union(Palette.of_pieces(colours))
        _check_pieces_apart_from_the_mat(empty_look, colours)
        inks = _learn_inks(image, cam, start, colours)
        hidden_inks = _inks_apart_from_pieces(lab, empty_look, layout.ink, colours, inks)
        unlearned = _unlearned_pads(image, cam, start, inks)
        if unlearned:
            raise CalibrationError(
                "the start position hides what the mat looks like under its pieces, and the "
                f"visible parts of {', '.join(unlearned)} are printed in a way that cannot "
                "be guessed: shoot the empty mat from the same camera too and calibrate with "
                "--empty EMPTY.jpg (or --with-empty with --camera)")
    grid_score = grid_contrast(image, fix.homography, fix.polarity)
    profile = Profile((w, h), fix.homography, colours, empty_look, south_at, K, geometry,
                      palette=palette, inks=inks, hidden_inks=hidden_inks,
                      created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      intrinsics=intrinsics, grid_polarity=fix.polarity,
                      grid_score=grid_score if grid_score > 0 else None,
                      noise=noise,
                      bright=bright, shade=shade, tint=tint,
                      camouflage=camouflage, empty_lines=empty_lines,
                      empty_axes=empty_axes, body_threshold=body_threshold,
                      foot_threshold=foot_threshold,
                      foot_shade_threshold=foot_shade_threshold,
                      pole_shadow=pole_shadow, lamp_shadow=lamp_shadow,
                      empty_shadows=empty_shadows,
                      shadow_scale=shadow_scale, shadow_most=shadow_most,
                      empty_rims=empty_rims, empty_walls_shifted=empty_walls_shifted,
                      surround=Surround.learn(image if empty is None else empty, cam, geometry))

    def read_start(profile: Profile) -> Detection:
        detector = profile.detector()
        detector.prime(fix.corners, layout, cam.K, shapes)
        detector.set_size = None  # a start read with pieces too many names them (_check_start)
        detector.shade_anywhere = True  # the start Poles' faint shadows are not a hand
        return detector.detect(raw, track=False)

    start_read = read_start(profile)
    try:
        unsure, extra = _check_start(start_read, empty is not None)
    except CalibrationError:
        # Start Ports read as the other side's in their own corners, their walls unlike
        # that side's colour: the side's own colour in a light its start pieces' other
        # faces did not show (silver walls in their own shade, read navy). With the empty
        # photo the start is known piece by piece, so those walls are learned as their
        # side's too, once, and the start read again.
        more = None if empty is None else _unlike_walls(
            _ports_read_as_the_other_side(start_read), lab, bare_look, layout, colours)
        if not more:
            raise
        profile = replace(profile, colours=learn(more))
        unsure, extra = _check_start(read_start(profile), empty is not None)
    return replace(profile, start_unsure=unsure, start_extra=extra)


def _ports_read_as_the_other_side(found: Detection) -> list[str]:
    """The start Ports' spaces that ``found`` (the start photo read back) reads with the
    other side's Port in the start Port's corner, and nothing else otherwise there."""
    if found.position is None:
        return []
    got = {(p["square"], p["side"], p["corner"]) for p in found.position["ports"]}
    other = {"south": "north", "north": "south"}
    out = []
    for name, (side, corner) in START_PORTS.items():
        here = {g for g in got if g[0] == name}
        if here == {(name, other[side], corner)}:
            out.append(name)
    return out


def _unlike_walls(spaces: list[str], lab: np.ndarray, bare_look: np.ndarray | None,
                  layout: SampleLayout, colours: dict[str, ColourModel]
                  ) -> dict[str, list[np.ndarray]] | None:
    """For start Ports read as the other side's (``spaces``), their walls' samples that
    saw the wall (changed from the bare look), by the side that stands there, if each
    Port's samples are, on median, more than ``CLASSIFY.start_relearn_unlike`` from the
    other side's colour: that side's only by elimination, not by likeness (a Port of the
    other side set up there by mistake would be like it, and is refused). None where any
    is not so, or none was read so."""
    if not spaces or bare_look is None:
        return None
    other = {"south": "north", "north": "south"}
    wall_index = {e: i for i, e in enumerate(EDGES)}
    more: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    for name in spaces:
        side, corner = START_PORTS[name]
        walls = lab[_sq(name), layout.wall].reshape(4, WALL_SAMPLES, 3)
        bare = bare_look[_sq(name), layout.wall].reshape(4, WALL_SAMPLES, 3)
        trusted = layout.weight[_sq(name), layout.wall].reshape(4, WALL_SAMPLES) >= 0.5
        changed = bare_mat_distance(walls, bare) >= CLASSIFY.piece_changes
        seen = np.concatenate([walls[wall_index[e]][trusted[wall_index[e]]
                                                    & changed[wall_index[e]]]
                               for e in CORNER_EDGES[corner]])
        if len(seen) < 2 or float(np.median(colours[other[side]].distance(seen))) \
                <= CLASSIFY.start_relearn_unlike:
            return None
        more[side].append(seen)
    # each side's as one set: a Port's few samples alone are too few for a part
    learned = {side: [np.concatenate(sets)] if sets else [] for side, sets in more.items()}
    if any(len(x) < LEARN_LEAST for sets in learned.values() for x in sets):
        return None  # too few to learn from
    return learned


def _fix_alone(image: np.ndarray) -> MatFix:
    """The mat in the start photo alone. Where a mat's outline is found but not its grid,
    the start pieces or the print may hide the lines (a patchwork's seams among patterned
    patches): the empty mat shows them, so the message says to add it."""
    try:
        return find_mat(image)
    except GridNotFitted as exc:
        raise CalibrationError(
            f"{exc}: the pieces or the mat's print may hide its lines; shoot the empty mat "
            "from the same camera too and calibrate with --empty EMPTY.jpg (or --with-empty "
            "with --camera)") from None


def _fix_with_empty(image: np.ndarray, empty: np.ndarray) -> MatFix:
    """The mat in the start photo, which the empty-mat photo (same camera) must show in the
    same place. Where pieces hide too many of the start photo's lines, or its own fit is a
    space off, the empty photo's fix (no piece hides a line there) is fitted on it."""
    try:
        bare = find_mat(empty)
    except VisionError as exc:
        raise CalibrationError(f"the empty-mat photo: {exc}") from None

    def moved(fix: MatFix, there: MatFix | None = None) -> float:
        return min(float(np.abs((there or bare).rotated(k).corners - fix.corners).max())
                   for k in range(4))

    try:
        own: MatFix | None = find_mat(image)
    except VisionError:
        own = None
    # The empty photo shows what kind of grid the mat has: a lined mat's start photo, its
    # lines broken by pieces, can fit better as a checkerboard (both edges of each line),
    # and 3 px off (simulated, our print at 35 degrees).
    if own is not None and own.polarity == bare.polarity and moved(own) <= CLASSIFY.replan_px:
        return own
    fix = refine(image, bare.homography, polarity=bare.polarity)
    if fix is not None and moved(fix) <= CLASSIFY.replan_px:
        return fix
    # ... and the empty photo's grid may fit only as the other kind: an engraved mat's
    # lines as a checkerboard's edges, a pixel or three off (held out: wood at 29 degrees).
    # Where the start photo's own fit, refitted on the empty photo in its kind, stays put,
    # both photos show that grid.
    if own is not None and own.polarity != bare.polarity:
        again = refine(empty, own.homography, polarity=own.polarity)
        if again is not None and moved(own, again) <= CLASSIFY.replan_px:
            return own
    if own is None:
        raise CalibrationError("the start photo: no mat found where the empty-mat photo shows "
                               "it (is the whole mat in view?)")
    raise CalibrationError(f"the mat is {moved(own):.0f} px away from where it is in the start "
                           "photo: take the empty-mat photo and the start photo without "
                           "moving the camera or the mat")


def _unlearned_pads(image: np.ndarray, cam: CameraModel, start: Solids,
                    inks: dict[str, ColourModel]) -> list[str]:
    """The Telepads and Portpads (the spaces the start position covers) whose bare look
    cannot be learned from the start photo ((H, W, 3) uint8 BGR): too many of the points
    left in view, on a grid over each space, look neither like the plain spaces at the same
    place in theirs (a Quadrant pattern repeats space by space) nor like a side's ink where a
    pad is printed. A grid, not the sample points: which points a layout samples must not
    decide whether a mat can be calibrated."""
    mat = MatModel()
    pads = {n for side in mat.home_telepads.values() for n in side} | set(mat.portpads)
    pad_sq = sorted(_sq(n) for n in pads)
    plain_sq = [q for q in range(64) if q not in pad_sq]
    grid = np.linspace(*CLASSIFY.pad_grid)
    u, v = np.meshgrid(grid, grid)
    rel = np.column_stack([u.ravel(), v.ravel()])  # (G, 2) within a space
    origin = np.column_stack([np.arange(64) & 7, np.arange(64) >> 3]).astype(float)
    xy = (origin[:, None] + rel).reshape(-1, 2)  # (64 * G, 2)
    top = float(start.cylinders[:, 3].max()) + 0.05
    seen = (_clear(cam, np.column_stack([xy, np.zeros(len(xy))]), start, top)
            >= CALIBRATION_CLEAR).reshape(64, -1)
    look = read_colour(image, cam.image_points(xy)[None])[0].reshape(64, len(rel), 3)
    look = np.where(seen[..., None], look, np.nan)
    with warnings.catch_warnings():  # a grid point no plain space shows stays unknown
        warnings.simplefilter("ignore", RuntimeWarning)
        plain = np.nanmedian(look[plain_sq], axis=0)  # (G, 3)
        typical = np.nanmedian(look[plain_sq].reshape(-1, 3), axis=0)  # the plain mat's
    ink = printed_ink(mat, xy, CLASSIFY.ink_grow).reshape(64, -1)
    out = []
    for q in pad_sq:
        here = seen[q] & ~np.isnan(plain[:, 0])
        if here.sum() < 4:
            continue
        x = look[q, here]
        ok = bare_mat_distance(x, plain[here]) < CLASSIFY.changed_sigma
        for code, side in enumerate(SIDES, start=1):
            if side in inks:
                printed = ink[q, here] == code
                ok |= printed & (ink_distance(x, inks[side], typical)
                                 < CLASSIFY.explain_sigma)
        if 1.0 - ok.mean() > CLASSIFY.unlearned_share:
            out.append(f"{'abcdefgh'[q & 7]}{(q >> 3) + 1}")
    return out


def _check_sides_apart(colours: dict[str, ColourModel], learned: dict[str, np.ndarray],
                       with_empty: bool = True) -> None:
    """Refuse pieces whose colours the classifier cannot tell apart: too many of one side's
    own calibration samples are nearer the other side's colour. Without an empty-mat photo
    the refusal names one: with it, only the samples that photo shows changed are learned
    as the pieces' own, and a light side's samples half mat no longer blur it into the
    other (silver and navy on a white laminate)."""
    wrong = []
    for side, other in (("south", "north"), ("north", "south")):
        x = learned[side]
        wrong.append(float(np.mean(colours[other].distance(x) < colours[side].distance(x))))
    if max(wrong) > CLASSIFY.max_side_confusion:
        raise CalibrationError(
            "the two sides' colours are too alike to tell apart "
            f"({100 * max(wrong):.0f}% of one side's samples look like the other side's); "
            "use clearly different pieces" + ("" if with_empty else (
                ", or, if they do differ, add a photo of the empty mat from the same camera "
                "(--empty): the mat round them may be what blurs one into the other")))


def _tint(value: Any) -> np.ndarray | None:
    if value is None:
        return None
    try:
        tint = np.array(value, np.float32)
    except (TypeError, ValueError):
        tint = np.full(1, np.nan, np.float32)
    if tint.shape == (2,):  # one tint, as profiles before the second was learned
        tint = tint[None]
    if tint.ndim != 2 or tint.shape[1] != 2 or not 1 <= len(tint) <= 2 or not (
            np.isfinite(tint).all() and (np.abs(tint) <= CLASSIFY.tint_max).all()):
        raise ValueError(f"shadow_tint {value!r} is not one or two pairs of numbers "
                         f"within {CLASSIFY.tint_max} of 0")
    return tint


def _start_solids(g: PieceGeometry) -> Solids:
    """The start position's pieces as solids (:mod:`vision.raycast`)."""
    poles = []
    for names in START_POLES.values():
        for n in names:
            f, r = parse_square(n)
            poles.append((f + 0.5, r + 0.5, g.pole_diameter / 2, g.pole_height))
    boxes = []
    for n, (_, corner) in START_PORTS.items():
        f, r = parse_square(n)
        boxes += port_boxes(f, r, corner, g.wall_thickness, g.wall_height)
    return Solids.of(poles, boxes)


def _clear(cam: CameraModel, points: np.ndarray, solids: Solids, top: float) -> np.ndarray:
    """(N,) clearance of the lines of sight through mat points (N, 3) from ``solids``."""
    return clearance(Rays(cam.centre, points, top), solids)


def _sees_mat(cam: CameraModel, layout: SampleLayout, start: Solids) -> np.ndarray:
    """(64, S) bool: the sample's line of sight reaches the mat past the start position."""
    pts = np.concatenate([layout.points.reshape(-1, 2), layout.heights.reshape(-1, 1)], axis=1)
    top = float(start.cylinders[:, 3].max()) + 0.05
    ok = _clear(cam, pts, start, top) >= CALIBRATION_CLEAR
    return ok.reshape(layout.heights.shape)


CALIBRATION_CLEAR = 0.05  # spaces between a line of sight and a start piece: blur reaches this far


def _learn_inks(image: np.ndarray, cam: CameraModel, start: Solids,
                colours: dict[str, ColourModel]) -> dict[str, ColourModel]:
    """The sides' colours as printed on the mat (Home Telepads and Portpad stripes, which
    pieces stand on later), learned where the start position leaves them in view. An ink
    too like its side's pieces to tell apart is left out rather than swallow real pieces."""
    mat = MatModel()
    grid = np.linspace(0.14, 0.86, 13)
    u, v = np.meshgrid(grid, grid)
    ring = np.column_stack([u.ravel(), v.ravel()])
    ring = ring[np.linalg.norm(ring - 0.5, axis=1) > mat.centre_size * 0.9 + 0.06]
    along = np.linspace(0.2, 0.8, 9)
    inset = mat.stripe_width - 0.05
    points: dict[str, list[np.ndarray]] = {"south": [], "north": []}
    for side, pads in mat.home_telepads.items():
        for name in pads:
            f, r = parse_square(name)
            points[side].append(ring + np.array([f, r]))
    for name, (side, corner) in mat.portpads.items():
        f, r = parse_square(name)
        sx, sy = {"sw": (0, 0), "se": (1, 0), "nw": (0, 1), "ne": (1, 1)}[corner]
        ey = abs(sy - inset)
        ex = abs(sx - inset)
        points[side].append(np.column_stack([along + f, np.full(9, ey + r)]))
        points[side].append(np.column_stack([np.full(9, ex + f), along + r]))
    top = float(start.cylinders[:, 3].max()) + 0.05
    inks = {}
    for side, chunks in points.items():
        xy = np.concatenate(chunks)
        seen = _clear(cam, np.column_stack([xy, np.zeros(len(xy))]), start, top) \
            >= CALIBRATION_CLEAR
        if seen.sum() < 12:
            continue
        feat = read_colour(image, cam.image_points(xy[seen]))
        ink = ColourModel.learn(feat)
        if float(ink.distance(colours[side].mean)) > CLASSIFY.ink_apart:
            inks[side] = ink
    return inks


def _check_pieces_apart_from_the_mat(empty_look: np.ndarray,
                                     colours: dict[str, ColourModel]) -> None:
    """Without an empty-mat photo, pieces are read by their colour alone: refuse a side
    whose colour the bare mat itself shows over more than ``CLASSIFY.mat_like_side_most``
    of what is in view (``empty_look`` (64, S, 3), NaN where hidden). Cream pieces on
    cream paper were read 92% right from the start photo alone, 17 Poles missed (the
    shapes that tell them need the empty mat's look)."""
    known = ~np.isnan(empty_look[..., 0])
    if not known.any():
        return
    share = bare_side_like(empty_look, colours)[known].mean(axis=0)
    for side, like in zip(SIDES, share, strict=True):
        if like > CLASSIFY.mat_like_side_most:
            raise CalibrationError(
                f"{side}'s pieces look like the mat itself ({100 * like:.0f}% of the mat in "
                "view has their colour), so only their shapes tell them, which are read "
                "against a photo of the empty mat: shoot it from the same camera too and "
                "calibrate with --empty EMPTY.jpg (or --with-empty with --camera)")


def _inks_apart_from_pieces(lab: np.ndarray, empty_look: np.ndarray, ink_at: np.ndarray,
                            colours: dict[str, ColourModel],
                            inks: dict[str, ColourModel]) -> tuple[str, ...]:
    """The sides whose printed ink may be guessed where their start pieces hide their pads
    (:func:`vision.classify.hidden_pad_ink`): those whose pieces, at exactly those samples of
    the start photo (``lab`` (64, S, 3); ``empty_look`` NaN there; ``ink_at`` the layout's
    ink), lie ``CLASSIFY.hidden_ink_apart`` or more from the ink (median). A piece the ink
    would pass for must not be explained away as print."""
    maybe = hidden_pad_ink(ink_at, empty_look) - HIDDEN_INK
    out = []
    for code, side in enumerate(SIDES, start=1):
        x = lab[maybe == code]
        if side in inks and len(x) and float(np.median(inks[side].distance(x))) \
                >= CLASSIFY.hidden_ink_apart:
            out.append(side)
    return tuple(out)


def _check_start(found: Detection, with_empty: bool
                 ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Insist that ``found`` (the start photo read back) is the start position. With an
    empty-mat photo, a few spaces read otherwise are let through and returned, to be named:
    (spaces read unsure, every other space read sure), or (none, spaces the start leaves
    bare read with a piece, one at least surely: a shadow or print taken for one). The
    colours are learned from the start pieces' own spaces and the bare look from the empty
    photo, so neither is learned from those; a start piece not read where it stands (a
    set-up that is not the start) is always refused."""
    seen = found.position
    if seen is None:
        raise CalibrationError("something covers the mat in the start photo (a hand?): "
                               "take it again with nothing over the mat")
    want_poles = {n: side for side, names in START_POLES.items() for n in names}
    want_ports = {(n, side, corner) for n, (side, corner) in START_PORTS.items()}
    got_ports = {(p["square"], p["side"], p["corner"]) for p in seen["ports"]}
    wrong = sorted(set(want_poles.items()) ^ set(seen["poles"].items()))
    wrong_ports = sorted(want_ports ^ got_ports)
    where = sorted({w[0] for w in wrong} | {p[0] for p in wrong_ports})
    unsure = all(found.confidence[_sq(n)] < CLASSIFY.unsure_below for n in where)
    if with_empty and unsure and len(where) <= CLASSIFY.start_unsure_max:
        return tuple(where), ()
    if with_empty and where and len(where) <= CLASSIFY.start_unsure_max and not any(
            n in want_poles or n in START_PORTS for n in where):
        return (), tuple(where)
    if with_empty and unsure and where:
        raise CalibrationError(
            f"the start position could only be read unsure on {len(where)} spaces "
            f"({', '.join(where)}; at most {CLASSIFY.start_unsure_max} are let through): "
            "light the mat more evenly, bring the camera nearer straight down, or use pieces "
            "that differ more from the mat, then calibrate again")
    if where:
        hint = ("; if the position is right, the pieces look otherwise than they are there: "
                "light the mat more evenly (no direct sun or lamp glare on the pieces) and "
                "calibrate again") if with_empty else (
            "; if the position is right, the mat's print is what misleads: add a photo of the "
            "empty mat from the same camera (--empty)")
        got_poles = dict(seen["poles"])
        differ = ", ".join(
            f"{n} (the start has {_space_words(n, want_poles, want_ports)} there, read: "
            f"{_space_words(n, got_poles, got_ports)})" for n in where)
        raise CalibrationError("the image does not show the start position (set up the Poles "
                               "on the central Telepads and the Ports on their Portpads); "
                               f"spaces that differ: {differ}{hint}")
    return (), ()


def _space_words(name: str, poles: dict[str, str], ports: set[tuple[str, str, str]]) -> str:
    """What a position (Poles by space, Ports as (space, side, corner)) has on space
    ``name``, in words: "north's Pole and south's Port (nw)", or "nothing"."""
    parts = [f"{poles[name]}'s Pole"] if name in poles else []
    parts += [f"{side}'s Port ({corner})" for sq, side, corner in sorted(ports) if sq == name]
    return " and ".join(parts) or "nothing"


def with_intrinsics(profile: Profile, intrinsics: CameraIntrinsics) -> Profile:
    """``profile`` (a mat calibration) with this lens calibration added or replaced. The mat
    homography is carried into the undistorted frame through the 81 grid crossings; the
    tracker follows the mat from there, but calibrating the mat again from an undistorted
    start image (``calibrate --intrinsics``) is more exact."""
    if tuple(profile.image_size) != intrinsics.size:
        raise CalibrationError(f"the profile is for {profile.image_size[0]}x"
                               f"{profile.image_size[1]} frames but the lens calibration for "
                               f"{intrinsics.width}x{intrinsics.height}")
    grid = np.array([[x, y] for y in range(9) for x in range(9)], np.float64)
    seen = project(profile.homography, grid)
    if profile.intrinsics is not None:  # the profile's frames were undistorted already
        seen = profile.intrinsics.distort_points(seen)
    H, _ = cv2.findHomography(grid, intrinsics.undistort_points(seen), 0)
    if H is None:
        raise CalibrationError("the profile's mat homography cannot be carried over")
    # (the grid's contrast was measured in the other frame: the first undistorted one refits)
    return replace(profile, homography=H, K=intrinsics.rectified_matrix, intrinsics=intrinsics,
                   grid_score=None)
