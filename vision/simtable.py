"""The simulated table: a position rendered on a mat as an overhead camera would see it.

The test bed for vision, its benchmarks and the demo. A pinhole camera looks at the mat from
a configurable pose; Poles are cylinders and Port walls are boxes with real height, so a tall
Pole seen obliquely covers part of the next space and its top is displaced from its base.
Shadows, a lighting gradient and colour cast, sensor noise, blur, JPEG artefacts and a hand
reaching over the mat are added. The mat is drawn in its print (``Scene.mat``: our own by
default); ``vary_look`` gives a scene a random print, piece gloss and table from its seed.
Everything random comes from the scene's seed, and every frame carries its ground truth.

World coordinates are mat units (one space = 1): x east along the files, y north along the
ranks, z up; the grid spans [0, 8] x [0, 8] at z = 0. Images are ``(H, W, 3) uint8`` BGR.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError
from vision.mat import (
    CORNER_SIGNS,
    MatColours,
    MatModel,
    MatPrint,
    PortpadMark,
    QuadrantMark,
    TelepadMark,
    draw_mat,
    load_position,
    parse_square,
    random_print,
)

BGR = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera is. ``tilt_deg``: angle of the optical axis from straight down.
    ``azimuth_deg``: side of the mat the camera leans from (0 = south, 90 = east).
    ``distance``: from the aim point, in spaces; None fits the mat to ``fill`` of the frame."""

    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    distance: float | None = None
    fill: float = 0.85
    fov_deg: float = 62.0  # horizontal field of view, a typical webcam
    width: int = 1280
    height: int = 720
    aim: tuple[float, float] = (4.0, 4.0)


@dataclass(frozen=True, slots=True)
class Lighting:
    brightness: float = 1.0  # 0.5 dim .. 1.2 bright
    gradient: float = 0.2  # fall-off across the frame, 0 = even
    gradient_angle_deg: float = 30.0
    temperature: float = 0.0  # -1 cool (blue) .. +1 warm (orange)
    light_azimuth_deg: float = 135.0  # where the main light comes from, for shadows
    light_elevation_deg: float = 60.0
    shadow: float = 0.3  # how dark a shadow is, 0..1
    # how much bluer a shadow is than the lit mat, 0..1: the light a piece blocks is warmer
    # than the light still reaching its shadow (a lamp, and a window's daylight)
    shadow_tint: float = 0.0


@dataclass(frozen=True, slots=True)
class Sensor:
    noise: float = 3.0  # Gaussian sigma, in grey levels
    blur: float = 0.6  # Gaussian sigma, in pixels
    jpeg_quality: int | None = 85  # None: no compression


@dataclass(frozen=True, slots=True)
class PieceStyle:
    """Nominal proportions in spaces (configurable) and the two sides' colours (BGR)."""

    pole_diameter: float = 0.35
    pole_height: float = 0.9
    wall_thickness: float = 0.06
    wall_height: float = 0.3
    seam_gap: float = 0.035  # the joint at a Port's open ends: where a Teleport's halves meet
    gloss: float = 0.0  # strength of the specular highlight on Pole sides and wall tops, 0..1
    colours: dict[str, BGR] = field(default_factory=lambda: {"south": (40, 40, 200),
                                                              "north": (190, 110, 30)})


@dataclass(frozen=True, slots=True)
class Hand:
    """An arm reaching in from the frame edge to a point over the mat, in mat units."""

    reach: tuple[float, float] = (4.0, 4.0)  # where the fingertips are, over the mat
    from_deg: float = 270.0  # direction the arm comes from (270 = from the south)
    height: float = 2.0  # of the hand above the mat
    skin: BGR = (120, 160, 210)


@dataclass(frozen=True, slots=True)
class Scene:
    pose: CameraPose = field(default_factory=CameraPose)
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    style: PieceStyle = field(default_factory=PieceStyle)
    mat: MatModel = field(default_factory=MatModel)
    table: str = "wood"  # "wood" | "cloth" | "check" (a gingham tablecloth)
    table_colour: BGR = (70, 110, 150)
    seed: int = 0
    # which tablecloth or grain: None draws it from ``seed``. A scene's frames are the scene
    # with another seed (for their noise), and a table does not change between frames, so
    # ``with_(seed=...)`` pins it to the scene's own.
    table_seed: int | None = None

    def with_(self, **changes: Any) -> Scene:
        if "seed" in changes and "table_seed" not in changes and self.table_seed is None:
            changes["table_seed"] = self.seed
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class SimFrame:
    """A rendered frame and its ground truth."""

    image: np.ndarray  # (H, W, 3) uint8 BGR
    position: dict[str, Any]  # the rules core's JSON form
    corners: np.ndarray  # (4, 2) float64 image points of the grid corners a1sw, h1se, h8ne, a8nw
    homography: np.ndarray  # (3, 3) mat plane (x, y, 1) -> image (u, v, w)
    camera_matrix: np.ndarray  # (3, 3)
    occluded: bool  # a hand is over the mat


TABLE_COLOURS: tuple[BGR, ...] = ((70, 110, 150), (40, 70, 110), (120, 150, 175), (60, 60, 60),
                                  (150, 120, 90), (60, 100, 60))
GLOSS = (0.0, 0.5)  # piece gloss drawn for a varied scene
P_MATT = 0.3  # chance that a varied scene's pieces are matt
LOOK_STREAM = 7  # keeps a scene's look apart from the noise render() draws from the same seed
PIECES_STREAM = 8  # the pieces' colours: drawn apart, so the other draws stay as they were
# Piece sets players own, (south, north) in BGR: hues apart, lightness apart only (black
# against white or ivory, dark and light wood), and colours a light mat's paper or a dark
# cloth shares.
CREAM = (226, 230, 232)
# Cream paper printed with nothing but its grid (and Telepad rings in the sides' colours):
# white pieces on it are told from it by their shapes alone.
CREAM_PAPER = MatModel(
    print=MatPrint(quadrant=QuadrantMark.NONE, telepad=TelepadMark.RING,
                   portpad=PortpadMark.NONE),
    colours=MatColours(base=CREAM, line=(60, 60, 60), centre=CREAM, trapezoid=CREAM,
                       border=CREAM, side={"south": (90, 90, 200), "north": (200, 120, 60)}),
    border=0.0, line_width=0.03)
PIECE_SETS: dict[str, tuple[BGR, BGR]] = {
    "red/blue": ((40, 40, 200), (190, 110, 30)),
    "white/black": ((232, 232, 232), (34, 34, 36)),
    "ivory/black": ((200, 232, 242), (30, 30, 30)),
    "green/orange": ((60, 150, 40), (30, 120, 235)),
    "yellow/purple": ((40, 205, 235), (140, 50, 120)),
    "teal/pink": ((150, 140, 20), (170, 110, 235)),
    "red/white": ((40, 40, 200), (235, 235, 235)),
    "maple/walnut": ((140, 190, 225), (40, 65, 105)),
}
P_OUR_PIECES = 0.25  # chance that a varied scene keeps the pieces it had


def vary_look(scene: Scene, pieces: bool = False) -> Scene:
    """``scene`` with a random mat print, piece gloss and table, all drawn from its seed;
    with ``pieces``, the pieces' colours too (mostly one of :data:`PIECE_SETS`). Without,
    a seed's scene is the one it always was (recorded tests are pinned to it)."""
    pick = np.random.default_rng([scene.seed, PIECES_STREAM])
    colours = scene.style.colours
    if pieces and pick.random() >= P_OUR_PIECES:
        south, north = list(PIECE_SETS.values())[int(pick.integers(len(PIECE_SETS)))]
        colours = {"south": south, "north": north}
    rng = np.random.default_rng([scene.seed, LOOK_STREAM])
    mat = random_print(rng, colours, scene.mat)
    gloss = 0.0 if rng.random() < P_MATT else float(rng.uniform(*GLOSS))
    table = str(TABLES[int(rng.integers(len(TABLES)))])
    colour = TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]
    return replace(scene, mat=mat, style=replace(scene.style, gloss=gloss, colours=colours),
                   table=table, table_colour=colour)


def piece_set_name(colours: dict[str, BGR]) -> str:
    """The :data:`PIECE_SETS` name of a scene's piece colours ("other" for none of them)."""
    pair = (tuple(colours["south"]), tuple(colours["north"]))
    return next((n for n, p in PIECE_SETS.items() if p == pair), "other")


# ----------------------------------------------------------------------------------------------
# Camera


@dataclass(frozen=True, slots=True)
class Camera:
    K: np.ndarray  # (3, 3)
    R: np.ndarray  # (3, 3) world -> camera rotation
    C: np.ndarray  # (3,) camera centre, world
    width: int
    height: int

    def project(self, pts: np.ndarray) -> np.ndarray:
        """``(N, 3)`` world points -> ``(N, 2)`` pixel coordinates (u right, v down)."""
        pc = (pts - self.C) @ self.R.T
        z = np.maximum(pc[:, 2:3], 1e-6)
        uv = pc[:, :2] / z
        return uv * np.array([self.K[0, 0], self.K[1, 1]]) + np.array([self.K[0, 2],
                                                                        self.K[1, 2]])

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (pts - self.C) @ self.R[2]

    def plane_homography(self) -> np.ndarray:
        """Mat plane z = 0, (x, y, 1) -> image (u, v, w)."""
        t = -self.R @ self.C
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])


def _camera_at(pose: CameraPose, distance: float) -> Camera:
    tilt, az, roll = (math.radians(a) for a in (pose.tilt_deg, pose.azimuth_deg, pose.roll_deg))
    d = np.array([math.sin(az), -math.cos(az), 0.0])  # from the aim point towards the camera
    target = np.array([pose.aim[0], pose.aim[1], 0.0])
    C = target + distance * np.array([math.sin(tilt) * d[0], math.sin(tilt) * d[1],
                                      math.cos(tilt)])
    forward = target - C
    forward /= np.linalg.norm(forward)
    up_hint = np.array([-d[0], -d[1], 0.0])
    right = np.cross(forward, up_hint)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    cr, sr = math.cos(roll), math.sin(roll)
    right, down = cr * right + sr * down, -sr * right + cr * down
    R = np.vstack([right, down, forward])
    f = (pose.width / 2) / math.tan(math.radians(pose.fov_deg) / 2)
    K = np.array([[f, 0, pose.width / 2], [0, f, pose.height / 2], [0, 0, 1.0]])
    return Camera(K, R, C, pose.width, pose.height)


def make_camera(pose: CameraPose, mat: MatModel) -> Camera:
    if not 0 <= pose.tilt_deg < 80:
        raise VisionError(f"camera tilt must be in [0, 80) degrees, got {pose.tilt_deg}")
    if pose.distance is not None:
        return _camera_at(pose, pose.distance)
    return _camera_at(pose, _fitted_distance(pose, mat.border))


@functools.lru_cache(maxsize=64)
def _fitted_distance(pose: CameraPose, b: float) -> float:
    """The distance at which the mat (``b``: its border) fills ``pose``'s frame; kept, as
    every frame of a clip asks it again of the same pose (40 cameras per answer). Only the
    number is kept: each render still gets a camera of its own."""
    outline = np.array([[-b, -b, 0], [8 + b, -b, 0], [8 + b, 8 + b, 0], [-b, 8 + b, 0]],
                       float)
    lo, hi = 2.0, 200.0
    for _ in range(40):  # the nearest distance at which the whole mat fits in ``fill``
        mid = (lo + hi) / 2
        cam = _camera_at(pose, mid)
        uv = cam.project(outline)
        mx, my = pose.width * (1 - pose.fill) / 2, pose.height * (1 - pose.fill) / 2
        inside = (uv[:, 0].min() >= mx and uv[:, 0].max() <= pose.width - mx
                  and uv[:, 1].min() >= my and uv[:, 1].max() <= pose.height - my)
        lo, hi = (lo, mid) if inside else (mid, hi)
    return hi


# ----------------------------------------------------------------------------------------------
# Ground texture: table and mat


TEX_PX = 48  # texture pixels per space
TEX_MARGIN = 14  # spaces of table round the mat in the texture
CHECK_CELL = (0.5, 1.6)  # a gingham check's side, in spaces
CHECK_SKEW_DEG = 20.0  # the cloth's weave against the mat's edges, at most
CHECK_DEPTH = 0.18  # how much darker a band is than the cloth
TABLES = ("wood", "cloth", "check")


def _texture_layout(mat: MatModel) -> tuple[int, int]:
    """(texture size, offset of the mat drawing in it), both in texture pixels."""
    mat_px = round(mat.extent * TEX_PX)
    off = TEX_MARGIN * TEX_PX
    return mat_px + 2 * off, off


_TEXTURES: dict[str, np.ndarray] = {}


def _ground_texture(table: str, table_colour: BGR, mat: MatModel, seed: int) -> np.ndarray:
    """The table with the mat on it, as seen from straight above (cached: scenes reuse it)."""
    key = json.dumps([table, table_colour, repr(mat), seed])  # repr: the print is in it
    if key not in _TEXTURES:
        if len(_TEXTURES) > 8:
            _TEXTURES.clear()
        _TEXTURES[key] = _draw_ground(table, table_colour, mat, seed)
    return _TEXTURES[key]


def _draw_ground(table: str, table_colour: BGR, mat: MatModel, seed: int) -> np.ndarray:
    size, off = _texture_layout(mat)
    rng = np.random.default_rng(seed)
    base = np.array(table_colour, np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    if table == "wood":
        grain = np.sin(yy / size * 90 + 3 * np.sin(xx / size * 7 + rng.uniform(0, 6)))
        tex = base * (0.85 + 0.12 * grain[..., None])
    elif table == "cloth":
        coarse = rng.normal(0, 1, (size // 4, size // 4)).astype(np.float32)
        noise = cv2.resize(coarse, (size, size), interpolation=cv2.INTER_LINEAR)
        tex = base * (0.92 + 0.05 * noise[..., None])
    elif table == "check":
        # Gingham: bands one way and the other, darker where they cross; a little askew.
        cell = rng.uniform(*CHECK_CELL) * TEX_PX
        a = math.radians(rng.uniform(-CHECK_SKEW_DEG, CHECK_SKEW_DEG))
        u = (xx * math.cos(a) + yy * math.sin(a)) // cell % 2
        v = (-xx * math.sin(a) + yy * math.cos(a)) // cell % 2
        tex = base * (1.0 - CHECK_DEPTH * (u + v))[..., None]
    else:
        raise VisionError(f"unknown table {table!r}: 'wood', 'cloth' or 'check'")
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    mat_img = draw_mat(mat, TEX_PX)
    tex[off:off + mat_img.shape[0], off:off + mat_img.shape[1]] = mat_img
    return tex


def _texture_to_world(mat: MatModel) -> np.ndarray:
    """Texture pixel centre (u, v, 1) -> mat point (x, y, 1): pixel k covers [k, k+1)."""
    _, off = _texture_layout(mat)
    s, b = 1.0 / TEX_PX, mat.border
    return np.array([[s, 0, (0.5 - off) * s - b], [0, -s, 8 + b - (0.5 - off) * s],
                     [0, 0, 1]], float)


# ----------------------------------------------------------------------------------------------
# Pieces as polygons


@dataclass(frozen=True, slots=True)
class _Poly:
    depth: float
    points: np.ndarray  # (N, 2) float image points
    colour: tuple[float, float, float]


SHININESS_SIDE = 40.0  # Blinn-Phong exponents: how narrow a glossy piece's highlight is
SHININESS_TOP = 30.0  # a flat top mirrors a small lamp over a narrow range of views


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-9)


def _shade(colour: BGR, normal: np.ndarray, light: np.ndarray, ambient: float = 0.55,
           gloss: float = 0.0, to_eye: np.ndarray | None = None) -> tuple[float, float, float]:
    k = ambient + (1 - ambient) * max(0.0, float(normal @ light))
    spec = 0.0
    if gloss > 0 and to_eye is not None:
        # The lamp's reflection, white, where the normal halves the way to light and eye. A
        # side's takes the lamp as a tall area light (horizontal directions only): a point
        # light high above would put it out of sight, yet real glossy Poles show a stripe.
        side = abs(normal[2]) < 0.5
        mask = np.array([1.0, 1.0, 0.0 if side else 1.0])
        half = _unit(_unit(light * mask) + _unit(to_eye * mask))
        cos = max(0.0, float(normal @ half))
        spec = 255 * gloss * cos ** (SHININESS_SIDE if side else SHININESS_TOP)
    return tuple(min(255.0, c * k + spec) for c in colour)  # type: ignore[return-value]


def _box_faces(lo: np.ndarray, hi: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    v = np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                  [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]])
    faces = [((4, 5, 6, 7), (0, 0, 1)), ((0, 1, 5, 4), (0, -1, 0)), ((1, 2, 6, 5), (1, 0, 0)),
             ((2, 3, 7, 6), (0, 1, 0)), ((3, 0, 4, 7), (-1, 0, 0))]
    return [(v[list(idx)], np.array(n, float)) for idx, n in faces]


def _wall_boxes(x0: float, y0: float, corner: str, style: PieceStyle
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two walls of a Port in ``corner`` of the space at (x0, y0), as (lo, hi) boxes."""
    sx, sy = CORNER_SIGNS[corner]
    t, h, g = style.wall_thickness, style.wall_height, style.seam_gap
    # The wall along the north or south edge runs from the corner to the far end, less g.
    ey = y0 if sy < 0 else y0 + 1 - t
    xa, xb = (x0, x0 + 1 - g) if sx < 0 else (x0 + g, x0 + 1)
    ex = x0 if sx < 0 else x0 + 1 - t
    ya, yb = (y0, y0 + 1 - g) if sy < 0 else (y0 + g, y0 + 1)
    return [(np.array([xa, ey, 0.0]), np.array([xb, ey + t, h])),
            (np.array([ex, ya, 0.0]), np.array([ex + t, yb, h]))]


def _pole_polys(cam: Camera, cx: float, cy: float, colour: BGR, style: PieceStyle,
                light: np.ndarray, n: int = 28) -> list[_Poly]:
    r, h = style.pole_diameter / 2, style.pole_height
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    ring = np.column_stack([cx + r * np.cos(ang), cy + r * np.sin(ang), np.zeros(n)])
    top = ring + np.array([0, 0, h])
    polys = []
    view = cam.C
    for i in range(n):
        j = (i + 1) % n
        mid = (ring[i] + ring[j]) / 2
        normal = np.array([mid[0] - cx, mid[1] - cy, 0.0]) / r
        if normal @ (view - mid) <= 0:
            continue
        quad = np.array([ring[i], ring[j], top[j], top[i]])
        polys.append(_Poly(float(cam.depth(quad).mean()), cam.project(quad),
                           _shade(colour, normal, light, gloss=style.gloss, to_eye=view - mid)))
    # The top disc last of this piece: it is nearer the camera than the sides it caps.
    top_colour = tuple(min(255.0, c * 1.12 + 12) for c in colour)
    polys.append(_Poly(float(cam.depth(top).mean()) - h, cam.project(top),
                       top_colour))  # type: ignore[arg-type]
    return polys


def _box_polys(cam: Camera, lo: np.ndarray, hi: np.ndarray, colour: BGR,
               light: np.ndarray, gloss: float = 0.0) -> list[_Poly]:
    out = []
    for pts, normal in _box_faces(lo, hi):
        centre = pts.mean(axis=0)
        if normal @ (cam.C - centre) <= 0:
            continue
        top = normal[2] > 0  # a wall's top catches the lamp's reflection
        out.append(_Poly(float(cam.depth(pts).mean()), cam.project(pts),
                         _shade(colour, normal, light, 0.6, gloss if top else 0.0,
                                cam.C - centre)))
    return out


def _piece_solids(position: dict[str, Any], style: PieceStyle
                  ) -> list[tuple[str, Any, BGR]]:
    """('pole', (cx, cy)) and ('box', (lo, hi)) solids with their colours."""
    solids: list[tuple[str, Any, BGR]] = []
    for name, side in position.get("poles", {}).items():
        f, r = parse_square(name)
        solids.append(("pole", (f + 0.5, r + 0.5), style.colours[side]))
    corners: dict[str, dict[str, str]] = {}
    for port in position.get("ports", []):
        f, r = parse_square(port["square"])
        corners.setdefault(port["square"], {})[port["corner"]] = port["side"]
        for lo, hi in _wall_boxes(float(f), float(r), port["corner"], style):
            solids.append(("box", (lo, hi), style.colours[port["side"]]))
    for name, here in corners.items():
        f, r = parse_square(name)
        for pair, seams in (((("sw", "ne")), ("se", "nw")), (("se", "nw"), ("sw", "ne"))):
            if all(c in here for c in pair):
                # Two halves meet: the narrow slot between their wall ends lies in their
                # shadow, a dark crevice seen from above.
                colour = style.colours[here[pair[0]]]
                dark = (int(colour[0] * SEAM_SHADE), int(colour[1] * SEAM_SHADE),
                        int(colour[2] * SEAM_SHADE))
                for c in seams:
                    solids.append(("box", _seam_box(float(f), float(r), c, style), dark))
    return solids


SEAM_SHADE = 0.35  # a seam's slot: this share of the walls' colour (shadowed, deep and narrow)


def _seam_box(x0: float, y0: float, corner: str, style: PieceStyle
              ) -> tuple[np.ndarray, np.ndarray]:
    """The slot at ``corner`` between two Port halves' wall ends, as a (lo, hi) box a little
    below the wall tops."""
    sx, sy = CORNER_SIGNS[corner]
    t, g = style.wall_thickness, style.seam_gap
    x = (x0, x0 + max(t, g)) if sx < 0 else (x0 + 1 - max(t, g), x0 + 1)
    y = (y0, y0 + max(t, g)) if sy < 0 else (y0 + 1 - max(t, g), y0 + 1)
    return (np.array([x[0], y[0], 0.0]), np.array([x[1], y[1], style.wall_height * 0.97]))


def _solid_points(kind: str, geom: Any, style: PieceStyle) -> np.ndarray:
    if kind == "pole":
        cx, cy = geom
        r, h = style.pole_diameter / 2, style.pole_height
        ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        ring = np.column_stack([cx + r * np.cos(ang), cy + r * np.sin(ang), np.zeros(16)])
        return np.vstack([ring, ring + np.array([0.0, 0.0, h])])
    lo, hi = geom
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                     for z in (lo[2], hi[2])])


def _hand_solids(hand: Hand) -> list[tuple[np.ndarray, float]]:
    """The arm as a chain of spheres: (centre, radius)."""
    a = math.radians(hand.from_deg)
    direction = np.array([math.cos(a), math.sin(a)])
    tip = np.array(hand.reach, float)
    out = []
    for k in range(0, 40):
        s = k * 0.35
        xy = tip + direction * (s + 0.4)
        z = hand.height + s * 0.15
        radius = 0.55 if k < 3 else 0.42
        out.append((np.array([xy[0], xy[1], z]), radius))
    for dx in (-0.3, -0.1, 0.1, 0.3):  # fingers
        perp = np.array([-direction[1], direction[0]])
        for s in (0.0, 0.25):
            xy = tip + perp * dx + direction * s
            out.append((np.array([xy[0], xy[1], hand.height - 0.05]), 0.13))
    return out


# ----------------------------------------------------------------------------------------------
# Rendering


def render(position: dict[str, Any] | str, scene: Scene | None = None,
           hand: Hand | None = None) -> SimFrame:
    """Render ``position`` (the rules core's JSON form) as ``scene``'s camera sees it."""
    scene = scene or Scene()
    position = load_position(position)
    pose, light_cfg, style = scene.pose, scene.lighting, scene.style
    rng = np.random.default_rng(scene.seed)
    cam = make_camera(pose, scene.mat)
    W, H = pose.width, pose.height
    H_plane = cam.plane_homography()
    table_seed = scene.seed if scene.table_seed is None else scene.table_seed
    tex = _ground_texture(scene.table, scene.table_colour, scene.mat, table_seed % 4)
    img = cv2.warpPerspective(tex, H_plane @ _texture_to_world(scene.mat), (W, H),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    la, le = math.radians(light_cfg.light_azimuth_deg), math.radians(
        light_cfg.light_elevation_deg)
    to_light = np.array([math.cos(le) * math.sin(la), math.cos(le) * math.cos(la),
                         math.sin(le)])
    shadow, polys = _pieces(cam, position, style, to_light)
    if hand is not None:
        shadow = shadow.copy()
        for centre, radius in _hand_solids(hand):
            ang = np.linspace(0, 2 * np.pi, 10, endpoint=False)
            _cast_shadow(shadow, cam, to_light, np.column_stack([
                centre[0] + radius * np.cos(ang), centre[1] + radius * np.sin(ang),
                np.full(10, centre[2])]))
    if light_cfg.shadow > 0:
        blurred = cv2.GaussianBlur(shadow, (0, 0), 3)
        # Only where some shadow fell: elsewhere the factor below is exactly 1 and the
        # pixels come out as they went in, so the rest of the frame is left alone.
        x, y, w, h = cv2.boundingRect(blurred)
        if w and h:
            shadow_f = blurred[y:y + h, x:x + w].astype(np.float32) / 255
            # per channel (B, G, R): a bluish shadow keeps more of its blue than of its red
            t = light_cfg.shadow_tint
            depth = np.clip(light_cfg.shadow * np.array([1 - t / 2, 1.0, 1 + t / 2],
                                                        np.float32), 0.0, 1.0)
            part = depth * shadow_f[..., None]
            np.subtract(1, part, out=part)
            np.multiply(img[y:y + h, x:x + w], part, out=part)
            img[y:y + h, x:x + w] = np.clip(part, 0, 255, out=part).astype(np.uint8)

    for points, colour in polys:
        cv2.fillPoly(img, [points], colour, lineType=cv2.LINE_AA, shift=4)

    occluded = False
    if hand is not None:
        mat_poly = cam.project(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
        hand_mask = np.zeros((H, W), np.uint8)
        spheres = _hand_solids(hand)
        tone = 0.9 + 0.2 * rng.random()
        order = sorted(range(len(spheres)), key=lambda i: -cam.depth(spheres[i][0][None])[0])
        for i in order:
            centre, radius = spheres[i]
            uv = cam.project(centre[None])[0]
            depth = cam.depth(centre[None])[0]
            rad_px = radius * cam.K[0, 0] / max(depth, 1e-3)
            shade = tone * (1.0 - 0.25 * min(1.0, i / 40))  # the forearm a little darker
            skin = tuple(min(255.0, float(c) * shade) for c in hand.skin)
            cv2.circle(img, (int(uv[0]), int(uv[1])), int(rad_px), skin, -1, cv2.LINE_AA)
            cv2.circle(hand_mask, (int(uv[0]), int(uv[1])), int(rad_px), 255, -1)
        mat_mask = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(mat_mask, mat_poly.astype(np.int32), 255)
        occluded = bool(np.count_nonzero(hand_mask & mat_mask))

    img = _lighting(img, light_cfg)
    img = _sensor(img, scene.sensor, rng)
    corners = cam.project(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    return SimFrame(img, position, corners, H_plane, cam.K, occluded)


def _cast_shadow(shadow: np.ndarray, cam: Camera, to_light: np.ndarray, pts: np.ndarray
                 ) -> None:
    """``pts`` pushed along the light onto z = 0, filled into ``shadow``."""
    ground = pts - pts[:, 2:3] / to_light[2] * to_light
    uv = cam.project(ground).astype(np.float32)
    cv2.fillConvexPoly(shadow, cv2.convexHull(uv).astype(np.int32), 255)


_PIECES: dict[str, tuple[np.ndarray, list[tuple[np.ndarray, tuple[float, ...]]]]] = {}


def _pieces(cam: Camera, position: dict[str, Any], style: PieceStyle, to_light: np.ndarray
            ) -> tuple[np.ndarray, list[tuple[np.ndarray, tuple[float, ...]]]]:
    """The pieces' shadows on the ground (a read-only (H, W) uint8 mask) and their faces,
    far to near, as fillPoly takes them (points in 1/16 pixels, colour). Kept for the last
    few boards: a clip's frames show the same board from the same camera again and again
    (a hand reaching in changes only the hand), and the faces are most of a render."""
    key = json.dumps([cam.K.tolist(), cam.R.tolist(), cam.C.tolist(), cam.width, cam.height,
                      position, repr(style), to_light.tolist()])
    if key in _PIECES:
        return _PIECES[key]
    solids = _piece_solids(position, style)
    # Shadows on the ground: each solid's vertices pushed along the light onto z = 0.
    shadow = np.zeros((cam.height, cam.width), np.uint8)
    for k, g, _ in solids:
        _cast_shadow(shadow, cam, to_light, _solid_points(k, g, style))
    polys: list[_Poly] = []
    for kind, geom, colour in solids:
        if kind == "pole":
            polys.extend(_pole_polys(cam, geom[0], geom[1], colour, style, to_light))
        else:
            polys.extend(_box_polys(cam, geom[0], geom[1], colour, to_light, style.gloss))
    polys.sort(key=lambda p: -p.depth)
    faces = [(np.round(p.points * 16).astype(np.int32), tuple(float(c) for c in p.colour))
             for p in polys]
    shadow.setflags(write=False)
    for points, _ in faces:
        points.setflags(write=False)
    if len(_PIECES) >= 8:
        _PIECES.clear()
    _PIECES[key] = (shadow, faces)
    return shadow, faces


@functools.lru_cache(maxsize=8)
def _gradient_axis(H: int, W: int, angle_deg: float) -> np.ndarray:
    """(H, W) float32: where each pixel lies along the light's fall-off (kept: every frame of
    a clip has the same size and angle, and building it is a good part of a render)."""
    a = math.radians(angle_deg)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    t = ((xx / W - 0.5) * math.cos(a) + (yy / H - 0.5) * math.sin(a))
    t.setflags(write=False)
    return t


def _lighting(img: np.ndarray, cfg: Lighting) -> np.ndarray:
    H, W = img.shape[:2]
    # brightness * (1 - gradient * t), step by step in one buffer
    gain = np.multiply(cfg.gradient, _gradient_axis(H, W, cfg.gradient_angle_deg))
    np.subtract(1, gain, out=gain)
    gain *= cfg.brightness
    cast = np.array([1 - 0.12 * cfg.temperature, 1.0, 1 + 0.12 * cfg.temperature], np.float32)
    # in place on one float32 frame: the same arithmetic as clip(img * gain * cast)
    out = np.multiply(img, gain[..., None])
    out *= cast
    return np.clip(out, 0, 255, out=out).astype(np.uint8)


def _sensor(img: np.ndarray, cfg: Sensor, rng: np.random.Generator) -> np.ndarray:
    if cfg.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), cfg.blur)
    if cfg.noise > 0:
        noisy = img.astype(np.float32) + rng.normal(0, cfg.noise, img.shape).astype(np.float32)
        img = np.clip(noisy, 0, 255).astype(np.uint8)
    if cfg.jpeg_quality is not None:
        img = jpeg_round_trip(img, cfg.jpeg_quality)
    return img


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` ((H, W, 3) uint8 BGR) as a camera sending JPEG at ``quality`` delivers it
    (unchanged if OpenCV cannot code it)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else np.asarray(decoded, np.uint8)
