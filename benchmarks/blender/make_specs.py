#!/usr/bin/env python3
"""Write the scene specifications of the Blender path-traced Teleporters test set.

For each scene this writes a folder with the truth (``start.json``, ``pos_01.json`` ..
``pos_06.json``, ``hand_01.json``), the scene description (``scene.json``, keys as in the
shared vision development set where they apply), the printed mat (``mat_print.png``, plus
``mat_bump.png`` for engraved prints) and the job list for the renderer (``render.json``:
every piece's exact place on the mat). ``render_scene.py`` (run inside Blender) turns a folder
into photographs. Everything here is deterministic for a given ``--seed``.

Independent of the project's own drawing: the mat prints, pieces, lights and tables are made
here from the rule book; only the rules core is imported, to draw legal positions.

    python3 benchmarks/blender/make_specs.py                 # 4 scenes in /tmp/blenderset
    python3 benchmarks/blender/make_specs.py --scenes 6 --out /tmp/bset --seed 7

Mat coordinates (metres, and the same in ``render.json``): origin at the mat's centre, x east
(files a..h), y north (ranks 1..8), z up. South's Home row is rank 1.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.rules.teleporters import Position  # noqa: E402
from companion.rules.teleporters.random_play import random_midgame  # noqa: E402

FILES = "abcdefgh"
WIDTH, HEIGHT = 1280, 720
SENSOR_MM = 36.0            # Blender's default sensor width (horizontal fit at 16:9)
TEXTURE_PX = 2048           # the mat print, whole mat (border included)

# Piece proportions, in spaces
POLE_DIAMETER = 0.35
POLE_HEIGHT = 0.9
PORT_THICK = 0.06
PORT_HEIGHT = 0.3
PORT_INSET = 0.012          # the V's outer corner sits this far inside the space's corner
POLE_JITTER = 0.025         # sigma, spaces, per axis (clipped at 0.06)
PORT_JITTER = 0.008         # sigma, spaces
PORT_ROT_JITTER = 0.7       # sigma, degrees (clipped at 1.5)

CORNER_SIGN = {"sw": (-1, -1), "se": (1, -1), "ne": (1, 1), "nw": (-1, 1)}
CORNER_ROT = {"sw": 0.0, "se": 90.0, "ne": 180.0, "nw": 270.0}

# Piece colour pairs (none of them a devset pair) and the materials that suit them
PAIRS = [
    ("purple", "#5b2a86", "lime", "#9ccf3c", ["glossy", "matte"]),
    ("brown", "#6a4127", "beige", "#d8c6a2", ["wood"]),
    ("navy", "#1d2850", "silver", "#b9bdc4", ["glossy", "satin"]),
    ("maroon", "#6b1525", "cream", "#eee4cc", ["matte", "glossy"]),
    ("black", "#161616", "scarlet", "#dd3b1f", ["glossy", "matte"]),
    ("forest", "#1f5a34", "gold", "#d6a41c", ["matte", "wood"]),
]
# Pairs and prints drawn only when asked for (--pairs new, --styles ...): the default draws
# stay as they were for every seed already rendered
NEW_PAIRS = [
    ("ivory", "#ece6d2", "charcoal", "#2e3033", ["matte", "glossy"]),
    ("pink", "#e07aa0", "olive", "#5f6428", ["matte", "glossy"]),
    ("sky", "#6fb3e0", "crimson", "#9e1b32", ["glossy", "satin"]),
    ("grey", "#808389", "orange", "#e8741c", ["matte", "satin"]),
]
STYLES = ["checker", "wood", "laminate"]
NEW_STYLES = ["neoprene", "tiled", "chalk", "quilt"]
LIGHTS = ["sun", "area", "two_lamps", "warm_led"]
TABLES = ["wood", "cloth", "marble", "tablecloth"]
SLEEVES = ["#2b3a55", "#7a1f2b", "#3d3d3d", "#c9b27c", "#4f6b3a", "#d8d8d0"]
SKINS = ["#e9bc9c", "#c68a5e", "#8d5a36", "#f0c8a0", "#5e3b24", "#d7a17b"]


# ----------------------------------------------------------------------------- helpers
def hex_rgb(h: str) -> np.ndarray:
    h = h.lstrip("#")
    return np.array([int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4)])


def rgb_hex(c: Any) -> str:
    r, g, b = (max(0, min(255, round(float(v) * 255))) for v in c)
    return f"#{r:02x}{g:02x}{b:02x}"


def write_png(path: Path, img: np.ndarray) -> None:
    """8-bit PNG (grey or RGB) with the standard library only; row 0 is the image's top."""
    a = np.clip(np.round(img * 255.0), 0, 255).astype(np.uint8)
    h, w = a.shape[:2]
    kind = 0 if a.ndim == 2 else 2
    raw = b"".join(b"\x00" + a[i].tobytes() for i in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, kind, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    path.write_bytes(png)


def value_noise(x: np.ndarray, y: np.ndarray, rng: np.random.Generator,
                octaves: int = 4) -> np.ndarray:
    """Smooth fractal value noise in [-1, 1] (roughly) at the points (x, y)."""
    total = np.zeros_like(x)
    amp, norm = 1.0, 0.0
    for o in range(octaves):
        f = 2.0 ** o
        gx, gy = x * f, y * f
        x0, y0 = np.floor(gx), np.floor(gy)
        ox, oy = int(x0.min()), int(y0.min())
        nx, ny = int(x0.max()) - ox + 2, int(y0.max()) - oy + 2
        lat = rng.uniform(-1, 1, size=(ny, nx))
        ix, iy = (x0 - ox).astype(np.intp), (y0 - oy).astype(np.intp)
        tx, ty = gx - x0, gy - y0
        tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
        a = lat[iy, ix] * (1 - tx) + lat[iy, ix + 1] * tx
        b = lat[iy + 1, ix] * (1 - tx) + lat[iy + 1, ix + 1] * tx
        total += amp * (a * (1 - ty) + b * ty)
        norm += amp
        amp *= 0.5
    return total / norm


# ----------------------------------------------------------------------------- the print
class Canvas:
    """The mat's print in space units: origin at the mat's centre, x east, y north.
    Row 0 of the image is the mat's north edge, column 0 its west edge."""

    def __init__(self, half: float, res: int, bg: Any) -> None:
        self.half, self.res = half, res
        self.px = 2 * half / res
        c = (np.arange(res) + 0.5) * self.px - half
        self.X, self.Y = np.meshgrid(c, -c)
        self.img = np.empty((res, res, 3))
        self.img[:] = bg

    def window(self, x0: float, x1: float, y0: float, y1: float
               ) -> tuple[slice, slice]:
        j0 = max(0, int((x0 + self.half) / self.px) - 2)
        j1 = min(self.res, int((x1 + self.half) / self.px) + 3)
        i0 = max(0, int((self.half - y1) / self.px) - 2)
        i1 = min(self.res, int((self.half - y0) / self.px) + 3)
        return slice(i0, i1), slice(j0, j1)

    def coverage(self, d: np.ndarray) -> np.ndarray:
        return np.clip(0.5 - d / self.px, 0.0, 1.0)

    def paint(self, sdf: Any, color: Any, alpha: float = 1.0,
              bbox: tuple[float, float, float, float] | None = None,
              target: np.ndarray | None = None) -> None:
        """Paint where the signed distance function sdf(X, Y) < 0 (antialiased)."""
        tgt = self.img if target is None else target
        if bbox is None:
            rs, cs = slice(None), slice(None)
        else:
            rs, cs = self.window(*bbox)
        cov = self.coverage(sdf(self.X[rs, cs], self.Y[rs, cs])) * alpha
        sub = tgt[rs, cs]
        col = np.asarray(color, dtype=float)
        if tgt.ndim == 3:
            sub += (col - sub) * cov[..., None]
        else:
            sub += (float(col) - sub) * cov


def sd_box(cx: float, cy: float, hw: float, hh: float, r: float = 0.0) -> Any:
    def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        qx = np.abs(x - cx) - (hw - r)
        qy = np.abs(y - cy) - (hh - r)
        out = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
        return out + np.minimum(np.maximum(qx, qy), 0) - r
    return f


def sd_circle(cx: float, cy: float, rad: float) -> Any:
    return lambda x, y: np.hypot(x - cx, y - cy) - rad


def sd_ring(cx: float, cy: float, rad: float, w: float) -> Any:
    return lambda x, y: np.abs(np.hypot(x - cx, y - cy) - rad) - w / 2


def sd_segment(ax: float, ay: float, bx: float, by: float, w: float) -> Any:
    def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        px, py, dx, dy = x - ax, y - ay, bx - ax, by - ay
        t = np.clip((px * dx + py * dy) / (dx * dx + dy * dy), 0, 1)
        return np.hypot(px - t * dx, py - t * dy) - w / 2
    return f


def sd_diamond(cx: float, cy: float, rad: float, w: float) -> Any:
    """Outline of a square turned 45 degrees, corners rad from the centre."""
    return lambda x, y: np.abs((np.abs(x - cx) + np.abs(y - cy) - rad) / math.sqrt(2)) - w / 2


def sd_corner_triangle(cx: float, cy: float, corner: str, inset: float, size: float) -> Any:
    """A right triangle in ``corner`` of the space centred at (cx, cy): its right angle
    ``inset`` from the centre along both axes, its legs ``size`` long into the space."""
    sx, sy = CORNER_SIGN[corner]
    ox, oy = cx + sx * inset, cy + sy * inset

    def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, v = (x - ox) * -sx, (y - oy) * -sy  # into the space from the corner
        return np.maximum(np.maximum(-u, -v), (u + v - size) / math.sqrt(2))
    return f


def square_centre(sq: str) -> tuple[float, float]:
    return FILES.index(sq[0]) - 3.5, int(sq[1]) - 4.5


def pads() -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Telepads (square -> side) and Portpads (square, side, start corner), from the start."""
    start = Position.start().to_json()
    tele = dict(start["poles"])
    port = [(p["square"], p["side"], p["corner"]) for p in start["ports"]]
    return tele, port


GLYPHS = {
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
}


def draw_text(cv: Canvas, text: str, cx: float, cy: float, width: float, color: Any,
              alpha: float) -> None:
    unit = width / (6 * len(text) - 1)
    x0 = cx - width / 2
    top = cy + 3.5 * unit
    layer = np.zeros(cv.img.shape[:2])
    for k, ch in enumerate(text):
        for r, row in enumerate(GLYPHS[ch]):
            for c, bit in enumerate(row):
                if bit == "1":
                    bx = x0 + (6 * k + c + 0.5) * unit
                    by = top - (r + 0.5) * unit
                    cv.paint(sd_box(bx, by, 0.5 * unit + 0.004, 0.5 * unit + 0.004),
                             1.0, 1.0, (bx - unit, bx + unit, by - unit, by + unit), layer)
    cv.img += (np.asarray(color) - cv.img) * (layer * alpha)[..., None]


def grid_sdf(w: float) -> Any:
    """Distance to the 9x9 grid lines of the playing area, less half the line width."""
    def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        inside = (np.abs(x) <= 4 + w / 2) & (np.abs(y) <= 4 + w / 2)
        d = np.minimum(np.abs(x - np.round(x)), np.abs(y - np.round(y)))
        return np.where(inside, d - w / 2, 1.0)
    return f


def corner_mark(cv: Canvas, cx: float, cy: float, sx: int, sy: int, arm: float, w: float,
                inset: float, color: Any) -> None:
    """An L mark in the (sx, sy) corner of the space centred at (cx, cy)."""
    ox, oy = cx + sx * (0.5 - inset), cy + sy * (0.5 - inset)
    bb = (cx - 0.6, cx + 0.6, cy - 0.6, cy + 0.6)
    cv.paint(sd_segment(ox, oy, ox - sx * arm, oy, w), color, 1.0, bb)
    cv.paint(sd_segment(ox, oy, ox, oy - sy * arm, w), color, 1.0, bb)


def print_checker(p: dict[str, Any], sides: dict[str, str], res: int,
                  rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(a) checkerboard: light/dark spaces, each 4x4 Quadrant in its own tint; pads marked
    by small corner marks in the sides' colours."""
    half = 4 + p["border"]
    cv = Canvas(half, res, hex_rgb(p["border_color"]))
    X, Y = cv.X, cv.Y
    inside = (np.abs(X) < 4) & (np.abs(Y) < 4)
    fx, fy = np.floor(X + 4), np.floor(Y + 4)
    dark = ((fx + fy) % 2) == 0                      # a1 is dark, as on a chess board
    quad = (fx >= 4).astype(int) + 2 * (fy >= 4).astype(int)   # 0 SW, 1 SE, 2 NW, 3 NE
    for q in range(4):
        light_c, dark_c = hex_rgb(p["tints"][q][0]), hex_rgb(p["tints"][q][1])
        m = inside & (quad == q)
        cv.img[m & ~dark] = light_c
        cv.img[m & dark] = dark_c
    # a thin line round the playing area, and a fine paper grain
    cv.paint(lambda x, y: np.abs(np.maximum(np.abs(x), np.abs(y)) - 4.0) - 0.025,
             hex_rgb(p["edge_line"]))
    tele, port = pads()
    for sq, side in tele.items():
        cx, cy = square_centre(sq)
        for sx in (-1, 1):
            for sy in (-1, 1):
                corner_mark(cv, cx, cy, sx, sy, 0.2, 0.05, 0.09, hex_rgb(sides[side]))
        cv.paint(sd_ring(cx, cy, 0.12, 0.04), hex_rgb(sides[side]), 1.0,
                 (cx - 0.3, cx + 0.3, cy - 0.3, cy + 0.3))
    for sq, side, corner in port:
        cx, cy = square_centre(sq)
        sx, sy = CORNER_SIGN[corner]
        corner_mark(cv, cx, cy, sx, sy, 0.38, 0.06, 0.1, hex_rgb(sides[side]))
    grain = value_noise(X * 30, Y * 30, rng, 3)
    cv.img *= (1.0 + 0.025 * grain)[..., None]
    return np.clip(cv.img, 0, 1), None


def print_wood(p: dict[str, Any], res: int, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray | None]:
    """(b) a wooden board, burnt/engraved dark grid lines, Telepads as engraved circles,
    Portpads as engraved squares with a tick in the start corner."""
    half = 4 + p["border"]
    cv = Canvas(half, res, (0, 0, 0))
    X, Y = cv.X, cv.Y
    ang = math.radians(p["grain_deg"])
    u = X * math.cos(ang) + Y * math.sin(ang)        # along the grain
    v = -X * math.sin(ang) + Y * math.cos(ang)       # across it
    warp = 1.6 * value_noise(u * 0.25, v * 0.6, rng, 4)
    rings = v * p["ring_freq"] + warp + 0.15 * value_noise(u * 2, v * 2, rng, 2)
    t = rings - np.floor(rings)
    band = np.clip(np.abs(t - 0.5) * 2, 0, 1) ** 3   # dark latewood bands
    fibre = value_noise(u * 0.8, v * 60, rng, 3)
    light_c, dark_c = hex_rgb(p["wood_light"]), hex_rgb(p["wood_dark"])
    mix = np.clip(0.55 * band + 0.18 * fibre + 0.1, 0, 1)
    cv.img = light_c + (dark_c - light_c) * mix[..., None]
    bump = np.ones(cv.img.shape[:2])
    burnt, char = hex_rgb(p["burn"]), hex_rgb(p["char"])
    w = p["line_w"]

    def engrave(sdf: Any, bbox: tuple[float, float, float, float] | None = None) -> None:
        # a scorched halo, then the dark groove; the bump map gets the groove
        halo = lambda x, y: sdf(x, y) - 0.025  # noqa: E731
        cv.paint(halo, char, 0.45, bbox)
        cv.paint(sdf, burnt, 0.92, bbox)
        cv.paint(sdf, 0.0, 1.0, bbox, bump)

    engrave(grid_sdf(w))
    # the Quadrant dividers and the playing area's edge are cut deeper and wider
    engrave(lambda x, y: np.where(np.abs(y) <= 4, np.abs(x) - w, 1.0))
    engrave(lambda x, y: np.where(np.abs(x) <= 4, np.abs(y) - w, 1.0))
    engrave(lambda x, y: np.abs(np.maximum(np.abs(x), np.abs(y)) - 4.0) - w)
    tele, port = pads()
    for sq in tele:
        cx, cy = square_centre(sq)
        engrave(sd_ring(cx, cy, 0.3, w * 0.9), (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5))
    for sq, _side, corner in port:
        cx, cy = square_centre(sq)
        sx, sy = CORNER_SIGN[corner]
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        box = sd_box(cx, cy, 0.3, 0.3)
        engrave(lambda x, y, b=box: np.abs(b(x, y)) - w * 0.45, bb)
        engrave(sd_segment(cx + sx * 0.3, cy + sy * 0.3, cx + sx * 0.44, cy + sy * 0.44,
                           w * 0.9), bb)
    # small engraved dots at the centres of the other spaces
    specials = set(tele) | {sq for sq, _, _ in port}
    for f in FILES:
        for r in range(1, 9):
            if f"{f}{r}" not in specials:
                cx, cy = square_centre(f"{f}{r}")
                engrave(sd_circle(cx, cy, 0.035), (cx - 0.1, cx + 0.1, cy - 0.1, cy + 0.1))
    # a slight darkening towards the rounded-over edges of the board
    edge = np.clip((half - np.maximum(np.abs(X), np.abs(Y))) / 0.25, 0, 1)
    cv.img *= (0.8 + 0.2 * edge)[..., None]
    return np.clip(cv.img, 0, 1), np.clip(bump, 0, 1)


def print_laminate(p: dict[str, Any], sides: dict[str, str], res: int,
                   rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(c) a glossy laminated print: pale ground, thin grid with each space divided into a
    centre square and four trapezoids, bold coloured Quadrant borders, Telepads as diamonds,
    Portpads as colour stripes along the start corner, a logo and the name in one Quadrant."""
    half = 4 + p["border"]
    cv = Canvas(half, res, hex_rgb(p["border_color"]))
    X, Y = cv.X, cv.Y
    inside = (np.abs(X) < 4) & (np.abs(Y) < 4)
    cv.img[inside] = hex_rgb(p["ground"])
    ink = hex_rgb(p["ink"])
    # trapezoids: the diagonals from the centre square's corners to the space's corners
    lx = X + 4 - np.floor(X + 4) - 0.5
    ly = Y + 4 - np.floor(Y + 4) - 0.5
    c = 0.14
    diag = np.abs(np.abs(lx) - np.abs(ly)) / math.sqrt(2)
    diag = np.where((np.abs(lx) > c) & inside, diag - 0.006, 1.0)
    cv.paint(lambda x, y: diag, ink, 0.35)
    csq = np.abs(np.maximum(np.abs(lx), np.abs(ly)) - c) - 0.008
    cv.paint(lambda x, y: np.where(inside, csq, 1.0), ink, 0.5)
    # the logo and the name, faint, in one Quadrant
    qx, qy = p["logo_quadrant"]
    lcx, lcy = 2.0 * qx, 2.0 * qy
    logo_c = hex_rgb(p["quad_colors"][(qx > 0) + 2 * (qy > 0)])
    cv.paint(sd_ring(lcx, lcy + 0.35, 0.9, 0.12), logo_c, 0.3,
             (lcx - 1.2, lcx + 1.2, lcy - 0.9, lcy + 1.5))
    for s in (-1, 1):
        cv.paint(sd_segment(lcx, lcy - 0.1, lcx + s * 0.5, lcy + 0.8, 0.14), logo_c, 0.3,
                 (lcx - 1.0, lcx + 1.0, lcy - 0.5, lcy + 1.2))
    draw_text(cv, "TELEPORTERS", lcx, lcy - 1.25, 3.3, logo_c, 0.4)
    tele, port = pads()
    for sq, side in tele.items():
        cx, cy = square_centre(sq)
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        cv.paint(sd_box(cx, cy, 0.44, 0.44), hex_rgb(p["ground"]), 1.0, bb)
        cv.paint(sd_diamond(cx, cy, 0.4, 0.07), hex_rgb(sides[side]), 1.0, bb)
        cv.paint(sd_circle(cx, cy, 0.1), hex_rgb(sides[side]), 0.85, bb)
    for sq, side, corner in port:
        cx, cy = square_centre(sq)
        sx, sy = CORNER_SIGN[corner]
        col = hex_rgb(sides[side])
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        # stripes: a band along each of the two edges at the start corner
        for k in range(3):
            off = 0.06 + 0.06 * k
            ex, ey = cx + sx * (0.5 - off), cy + sy * (0.5 - off)
            cv.paint(sd_segment(ex, ey, ex - sx * 0.82, ey, 0.03), col, 0.9, bb)
            cv.paint(sd_segment(ex, ey, ex, ey - sy * 0.82, 0.03), col, 0.9, bb)
    # grid
    cv.paint(grid_sdf(0.022), ink, 0.9)
    # bold coloured Quadrant borders
    bw = p["quad_border_w"]
    for q, col in enumerate(p["quad_colors"]):
        qcx, qcy = (-2.0 if q % 2 == 0 else 2.0), (-2.0 if q < 2 else 2.0)
        frame = lambda x, y, a=qcx, b=qcy: (  # noqa: E731
            np.abs(np.maximum(np.abs(x - a), np.abs(y - b)) - (2.0 - 0.02 - bw / 2)) - bw / 2)
        cv.paint(frame, hex_rgb(col), 1.0, (qcx - 2.1, qcx + 2.1, qcy - 2.1, qcy + 2.1))
    shade = value_noise(X * 0.5, Y * 0.5, rng, 2)
    cv.img *= (1.0 + 0.02 * shade)[..., None]
    return np.clip(cv.img, 0, 1), None


def print_neoprene(p: dict[str, Any], sides: dict[str, str], res: int,
                   rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(d) a dark rubber-backed cloth playmat: soft artwork over a dark ground, thin light
    grid lines, Quadrants as faint tints split by a coloured cross, Telepads as filled
    rings in the side's colour, Portpads as chevrons pointing into the start corner, a
    stitched edge and the cloth's weave."""
    half = 4 + p["border"]
    ground, art = hex_rgb(p["ground"]), hex_rgb(p["art"])
    cv = Canvas(half, res, ground)
    X, Y = cv.X, cv.Y
    cloud = np.clip(0.5 + 0.8 * value_noise(X * 0.22, Y * 0.22, rng, 4), 0, 1)
    cv.img = ground + (art - ground) * (cloud * p["art_strength"])[..., None]
    inside = (np.abs(X) < 4) & (np.abs(Y) < 4)
    quad = (X >= 0).astype(int) + 2 * (Y >= 0).astype(int)
    for q, col in enumerate(p["quad_tints"]):
        m = inside & (quad == q)
        cv.img[m] += (hex_rgb(col) - cv.img[m]) * p["quad_alpha"]
    line = hex_rgb(p["line"])
    cv.paint(grid_sdf(p["line_w"]), line, 0.85)
    cross = hex_rgb(p["cross"])
    cv.paint(lambda x, y: np.where(np.abs(y) <= 4, np.abs(x) - 0.035, 1.0), cross, 0.9)
    cv.paint(lambda x, y: np.where(np.abs(x) <= 4, np.abs(y) - 0.035, 1.0), cross, 0.9)
    tele, port = pads()
    for sq, side in tele.items():
        cx, cy = square_centre(sq)
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        cv.paint(sd_circle(cx, cy, 0.3), hex_rgb(sides[side]), 0.35, bb)
        cv.paint(sd_ring(cx, cy, 0.3, 0.04), line, 0.8, bb)
    for sq, side, corner in port:
        cx, cy = square_centre(sq)
        sx, sy = CORNER_SIGN[corner]
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        col = hex_rgb(sides[side])
        for k in range(2):
            ox, oy = cx + sx * (0.3 - 0.16 * k), cy + sy * (0.3 - 0.16 * k)
            cv.paint(sd_segment(ox, oy, ox - sx * 0.35, oy, 0.07), col, 0.9, bb)
            cv.paint(sd_segment(ox, oy, ox, oy - sy * 0.35, 0.07), col, 0.9, bb)
    # the stitched edge: a dashed light thread just inside the mat's rim
    rim = np.abs(np.maximum(np.abs(X), np.abs(Y)) - (half - 0.08)) - 0.012
    along = np.where(np.abs(X) > np.abs(Y), Y, X)
    dash = np.sin(along * 2 * math.pi / 0.12) > 0
    cv.paint(lambda x, y: np.where(dash, rim, 1.0), line, 0.7)
    weave = np.sin(X * 2 * math.pi * 38) * np.sin(Y * 2 * math.pi * 38)
    cv.img *= (1.0 + 0.04 * weave + 0.03 * value_noise(X * 9, Y * 9, rng, 2))[..., None]
    return np.clip(cv.img, 0, 1), None


def print_tiled(p: dict[str, Any], sides: dict[str, str], res: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(e) printed at home on four sheets taped together: white paper, the printer's
    unprinted margins, thin dark lines, Quadrants named by a pale wash, Telepads as circles
    and Portpads as corner triangles in the sides' colours (inkjet-washed); each sheet a
    shade of its own and printed a little off from the next, the seams' overlap a faint
    dark line that runs across spaces (not along the grid)."""
    half = 4 + p["border"]
    paper = hex_rgb(p["paper"])
    cv = Canvas(half, res, paper)
    X, Y = cv.X, cv.Y
    sx0, sy0 = p["seam"]
    sheet = (sx0 <= X).astype(int) + 2 * (sy0 <= Y).astype(int)
    ink = hex_rgb(p["ink"])

    def washed(h: str) -> np.ndarray:
        c = hex_rgb(h)
        return c + (paper - c) * p["wash"]

    layers = []
    for k in range(4):
        dx, dy = p["shifts"][k]
        sub = Canvas(half, res, paper)
        sub.X, sub.Y = X - dx, Y - dy
        inside = (np.abs(sub.X) < 4) & (np.abs(sub.Y) < 4)
        quad = (sub.X >= 0).astype(int) + 2 * (sub.Y >= 0).astype(int)
        for q, col in enumerate(p["quad_wash"]):
            m = inside & (quad == q)
            sub.img[m] = hex_rgb(col)
        sub.paint(grid_sdf(p["line_w"]), ink, 0.95)
        sub.paint(lambda x, y: np.abs(np.maximum(np.abs(x), np.abs(y)) - 4.0) - 0.03, ink)
        tele, port = pads()
        for sq, side in tele.items():
            cx, cy = square_centre(sq)
            bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
            sub.paint(sd_ring(cx, cy, 0.28, 0.05), washed(sides[side]), 1.0, bb)
        for sq, side, corner in port:
            cx, cy = square_centre(sq)
            bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
            sub.paint(sd_corner_triangle(cx, cy, corner, 0.42, 0.3), washed(sides[side]), 1.0,
                      bb)
        # the printer's margins stay bare paper
        margin = p["margin"]
        edge = (np.abs(X - np.where(sx0 <= X, half, -half)) < margin) | (
            np.abs(Y - np.where(sy0 <= Y, half, -half)) < margin)
        sub.img[edge] = paper
        layers.append(sub.img * p["sheet_tone"][k])
    for k in range(4):
        cv.img[sheet == k] = layers[k][sheet == k]
    # where one sheet overlaps the next: a thin shadow line
    cv.paint(lambda x, y: np.abs(x - sx0) - 0.012, 0.0, 0.35)
    cv.paint(lambda x, y: np.abs(y - sy0) - 0.012, 0.0, 0.35)
    cv.img *= (1.0 + 0.015 * value_noise(X * 12, Y * 12, rng, 2))[..., None]
    return np.clip(cv.img, 0, 1), None


def pastel(h: str, chalkiness: float) -> np.ndarray:
    """A side's colour as chalk or felt gives it: mixed toward white."""
    c = hex_rgb(h)
    return c + (1.0 - c) * chalkiness


def print_chalk(p: dict[str, Any], sides: dict[str, str], res: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(f) drawn in chalk on a slate board: a dark ground clouded with wiped dust, grid
    lines drawn by hand (a little wavy, of uneven width, broken where the chalk skipped),
    the Quadrants' cross drawn twice, Telepads as hatched circles and Portpads as hatched
    corner triangles in the sides' colours as pastel chalk."""
    half = 4 + p["border"]
    ground = hex_rgb(p["ground"])
    cv = Canvas(half, res, ground)
    X, Y = cv.X, cv.Y
    dust = np.clip(0.5 + 0.9 * value_noise(X * 0.5, Y * 0.5, rng, 4), 0, 1)
    cv.img = ground + (hex_rgb(p["chalk"]) - ground) * (dust * p["dust"])[..., None]
    # a hand's line: offsets that wander along it, and chalk that skips
    wob = p["wobble"]
    wx = X + wob * value_noise(Y * 0.8 + 11.0, X * 0.8, rng, 2)
    wy = Y + wob * value_noise(X * 0.8 + 23.0, Y * 0.8, rng, 2)
    skip = np.clip(0.75 + 0.6 * value_noise(X * 6, Y * 6, rng, 3), 0.25, 1.0)
    width = p["line_w"] * (1.0 + 0.3 * value_noise(X * 2 + 5.0, Y * 2, rng, 2))
    inside = (np.abs(wx) <= 4 + width) & (np.abs(wy) <= 4 + width)
    d = np.minimum(np.abs(wx - np.round(wx)), np.abs(wy - np.round(wy)))
    chalk = hex_rgb(p["chalk"])
    layer = np.where(inside, cv.coverage(d - width / 2), 0.0) * skip
    cross = np.where(np.abs(wy) <= 4, np.abs(np.abs(wx) - 0.06) - width / 3, 1.0)
    cross = np.minimum(cross, np.where(np.abs(wx) <= 4, np.abs(np.abs(wy) - 0.06) - width / 3,
                                       1.0))
    layer = np.maximum(layer, cv.coverage(cross) * skip * 0.8)
    cv.img += (chalk - cv.img) * (layer * p["line_alpha"])[..., None]
    hatch = (np.sin((X + Y) * 2 * math.pi / p["hatch"]) > 0.2) * skip
    tele, port = pads()
    for sq, side in tele.items():
        cx, cy = square_centre(sq)
        col = pastel(sides[side], p["pastel"])
        rs, cs = cv.window(cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        sub = cv.img[rs, cs]
        r = np.hypot(X[rs, cs] - cx, Y[rs, cs] - cy)
        a = np.maximum(cv.coverage(r - 0.3) * hatch[rs, cs] * 0.75,
                       cv.coverage(np.abs(r - 0.3) - 0.03) * skip[rs, cs])
        sub += (col - sub) * a[..., None]
    for sq, side, corner in port:
        cx, cy = square_centre(sq)
        col = pastel(sides[side], p["pastel"])
        rs, cs = cv.window(cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        sub = cv.img[rs, cs]
        tri = sd_corner_triangle(cx, cy, corner, 0.42, 0.35)(X[rs, cs], Y[rs, cs])
        a = np.maximum(cv.coverage(tri) * hatch[rs, cs] * 0.8,
                       cv.coverage(np.abs(tri) - 0.025) * skip[rs, cs])
        sub += (col - sub) * a[..., None]
    cv.img *= (1.0 + 0.05 * value_noise(X * 25, Y * 25, rng, 2))[..., None]
    return np.clip(cv.img, 0, 1), None


QUILT_PATTERNS = ["plain", "stripes", "dots", "gingham", "flowers"]


def print_quilt(p: dict[str, Any], sides: dict[str, str], res: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(g) a patchwork quilt: every space a patch of its own printed cotton (plain,
    striped, dotted, gingham or small flowers) in its Quadrant's colours, seams sunk
    between patches with a running stitch, a binding round the edge, Telepads as felt
    discs and Portpads as felt triangles appliqued in the sides' colours with a blanket
    stitch."""
    half = 4 + p["border"]
    cv = Canvas(half, res, hex_rgb(p["binding"]))
    X, Y = cv.X, cv.Y
    prng = random.Random(int(rng.integers(1 << 30)))
    for f in range(8):
        for r in range(8):
            q = (f >= 4) + 2 * (r >= 4)
            a, b = (hex_rgb(c) for c in prng.sample(p["palettes"][q], 2))
            kind = prng.choice(QUILT_PATTERNS)
            x0, y0 = f - 4.0, r - 4.0
            rs, cs = cv.window(x0, x0 + 1, y0, y0 + 1)
            x, y = X[rs, cs] - x0, Y[rs, cs] - y0
            m = (x >= 0) & (x < 1) & (y >= 0) & (y < 1)
            period = prng.uniform(0.12, 0.25)
            ang = prng.choice([0.0, math.pi / 4, math.pi / 2])
            u = x * math.cos(ang) + y * math.sin(ang)
            if kind == "plain":
                fig = np.zeros_like(x)
            elif kind == "stripes":
                fig = (np.sin(u * 2 * math.pi / period) > 0.3).astype(float)
            elif kind == "dots":
                gx, gy = x / period, y / period
                fig = cv.coverage((np.hypot(gx - np.round(gx), gy - np.round(gy)) - 0.22)
                                  * period)
            elif kind == "gingham":
                fig = 0.5 * ((np.sin(x * 2 * math.pi / period) > 0).astype(float)
                             + (np.sin(y * 2 * math.pi / period) > 0))
            else:
                fig = (value_noise(x * 9 + 3 * f, y * 9 + 3 * r, rng, 2) > 0.25).astype(float)
            patch = a + (b - a) * fig[..., None]
            cv.img[rs, cs][m] = patch[m]
    seam = hex_rgb(p["seam"])
    cv.paint(grid_sdf(0.03), seam, 0.55)
    thread = hex_rgb(p["thread"])
    along = np.where(np.abs(X - np.round(X)) < np.abs(Y - np.round(Y)), Y, X)
    stitch = np.sin(along * 2 * math.pi / 0.1) > 0.2
    d = np.minimum(np.abs(X - np.round(X)), np.abs(Y - np.round(Y)))
    inside = (np.abs(X) <= 4.02) & (np.abs(Y) <= 4.02)
    cv.paint(lambda x, y: np.where(stitch & inside, np.abs(d - 0.05) - 0.008, 1.0), thread,
             0.8)
    tele, port = pads()
    for sq, side in tele.items():
        cx, cy = square_centre(sq)
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        cv.paint(sd_circle(cx, cy, p["disc"]), hex_rgb(sides[side]), 1.0, bb)
        cv.paint(sd_ring(cx, cy, p["disc"] - 0.03, 0.01), thread, 0.8, bb)
    for sq, side, corner in port:
        cx, cy = square_centre(sq)
        bb = (cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5)
        cv.paint(sd_corner_triangle(cx, cy, corner, 0.4, 0.32), hex_rgb(sides[side]), 1.0, bb)
    weave = np.sin(X * 2 * math.pi * 45) * np.sin(Y * 2 * math.pi * 45)
    cv.img *= (1.0 + 0.035 * weave + 0.03 * value_noise(X * 7, Y * 7, rng, 2))[..., None]
    return np.clip(cv.img, 0, 1), None


def make_print(mat: dict[str, Any], sides: dict[str, str], seed: int
               ) -> tuple[np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    if mat["style"] == "checker":
        return print_checker(mat, sides, TEXTURE_PX, rng)
    if mat["style"] == "wood":
        return print_wood(mat, TEXTURE_PX, rng)
    if mat["style"] == "neoprene":
        return print_neoprene(mat, sides, TEXTURE_PX, rng)
    if mat["style"] == "tiled":
        return print_tiled(mat, sides, TEXTURE_PX, rng)
    if mat["style"] == "chalk":
        return print_chalk(mat, sides, TEXTURE_PX, rng)
    if mat["style"] == "quilt":
        return print_quilt(mat, sides, TEXTURE_PX, rng)
    return print_laminate(mat, sides, TEXTURE_PX, rng)


# ----------------------------------------------------------------------------- camera
def rot_matrix(tilt: float, yaw: float) -> np.ndarray:
    """Blender's camera rotation, Euler XYZ (tilt, 0, yaw): image-up points at yaw on the
    mat (0 = north, 90 = west: counter-clockwise seen from above)."""
    ct, st, cy, sy = math.cos(tilt), math.sin(tilt), math.cos(yaw), math.sin(yaw)
    rx = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ rx


def camera_position(height: float, tilt: float, yaw: float, target: np.ndarray
                    ) -> np.ndarray:
    up = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
    return target - up * height * math.tan(tilt) + np.array([0, 0, height])


def project(pts: np.ndarray, cam: np.ndarray, rot: np.ndarray, focal_mm: float
            ) -> np.ndarray:
    pc = (pts - cam) @ rot                           # rows: R^T (P - C)
    f = focal_mm / SENSOR_MM * WIDTH
    u = WIDTH / 2 + f * pc[:, 0] / -pc[:, 2]
    v = HEIGHT / 2 - f * pc[:, 1] / -pc[:, 2]
    return np.stack([u, v], axis=1)


def frame_height(pts: np.ndarray, tilt: float, yaw: float, focal: float, fill: float,
                 target: np.ndarray) -> float:
    """Camera height at which the points' furthest extent from the image centre is `fill`
    of the half-frame (in the limiting direction)."""
    rot = rot_matrix(tilt, yaw)

    def extent(h: float) -> float:
        uv = project(pts, camera_position(h, tilt, yaw, target), rot, focal)
        return float(max(np.max(np.abs(uv[:, 0] - WIDTH / 2)) / (WIDTH / 2),
                         np.max(np.abs(uv[:, 1] - HEIGHT / 2)) / (HEIGHT / 2)))

    lo, hi = 0.15, 4.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if extent(mid) > fill:
            lo = mid
        else:
            hi = mid
    return hi


def south_edge(yaw_deg: float) -> str:
    """The image edge nearest south's Home row (as the devset's scorer derives it)."""
    yaw = math.radians(yaw_deg)
    up, right = -math.cos(yaw), -math.sin(yaw)
    if abs(up) >= abs(right):
        return "top" if up > 0 else "bottom"
    return "right" if right > 0 else "left"


# ----------------------------------------------------------------------------- pieces
def place_pieces(pos: dict[str, Any], s: float, rng: random.Random) -> list[dict[str, Any]]:
    """Every piece of a position, placed with a hand's small errors (mat metres)."""
    out: list[dict[str, Any]] = []

    def clipped(sigma: float, lim: float) -> float:
        return max(-lim, min(lim, rng.gauss(0.0, sigma)))

    for sq, side in sorted(pos["poles"].items()):
        cx, cy = square_centre(sq)
        out.append({"kind": "pole", "square": sq, "side": side,
                    "x": round((cx + clipped(POLE_JITTER, 0.06)) * s, 5),
                    "y": round((cy + clipped(POLE_JITTER, 0.06)) * s, 5),
                    "rot_deg": round(rng.uniform(0, 360), 1)})
    for p in pos["ports"]:
        cx, cy = square_centre(p["square"])
        sx, sy = CORNER_SIGN[p["corner"]]
        out.append({"kind": "port", "square": p["square"], "side": p["side"],
                    "corner": p["corner"],
                    "x": round((cx + sx * (0.5 - PORT_INSET) + clipped(PORT_JITTER, 0.02)) * s, 5),
                    "y": round((cy + sy * (0.5 - PORT_INSET) + clipped(PORT_JITTER, 0.02)) * s, 5),
                    "rot_deg": round(CORNER_ROT[p["corner"]] + clipped(PORT_ROT_JITTER, 1.5), 2)})
    return out


# ----------------------------------------------------------------------------- scenes
def light_spec(kind: str, rng: random.Random) -> dict[str, Any]:
    """Lights in mat metres; azimuth 0 = north, 90 = east (clockwise seen from above)."""
    if kind == "sun":
        key = {"type": "sun", "strength": round(rng.uniform(2.2, 3.4), 2),
               "azimuth_deg": round(rng.uniform(0, 360)),
               "elevation_deg": round(rng.uniform(35, 65)),
               "angle_deg": round(rng.uniform(1.0, 5.0), 1),
               "temperature_k": round(rng.uniform(5000, 6200), -1)}
        return {"key": key, "ambient": {"strength": round(rng.uniform(0.3, 0.5), 2),
                                        "temperature_k": 7500}}
    if kind == "area":
        d = rng.uniform(1.0, 1.6)
        e = rng.uniform(2.5, 4.0)
        key = {"type": "area", "power_w": round(e * math.pi * d * d, 1),
               "azimuth_deg": round(rng.uniform(0, 360)),
               "elevation_deg": round(rng.uniform(50, 80)),
               "distance_m": round(d, 2), "size_m": round(rng.uniform(0.3, 0.9), 2),
               "temperature_k": round(rng.uniform(3200, 6500), -1)}
        return {"key": key, "ambient": {"strength": round(rng.uniform(0.12, 0.3), 2),
                                        "temperature_k": 6500}}
    if kind == "two_lamps":
        lamps = []
        base = rng.uniform(0, 360)
        for k, temp in enumerate((rng.uniform(2600, 3000), rng.uniform(3800, 4500))):
            az = math.radians(base + 150 * k + rng.uniform(-25, 25))
            dist = rng.uniform(0.45, 0.7)
            hgt = rng.uniform(0.45, 0.75)
            r3 = math.sqrt(dist * dist + hgt * hgt)
            e = rng.uniform(1.6, 2.6) if k == 0 else rng.uniform(0.9, 1.5)
            lamps.append({"power_w": round(e * 4 * math.pi * r3 * r3, 1),
                          "position_m": [round(dist * math.sin(az), 3),
                                         round(dist * math.cos(az), 3), round(hgt, 3)],
                          "radius_m": round(rng.uniform(0.03, 0.07), 3),
                          "temperature_k": round(temp, -1)})
        return {"key": {"type": "two_lamps", "lamps": lamps},
                "ambient": {"strength": round(rng.uniform(0.06, 0.14), 2),
                            "temperature_k": 6000}}
    # a warm coloured LED strip or panel above one side, a little cool window light
    az = rng.uniform(0, 360)
    dist, hgt = rng.uniform(0.25, 0.5), rng.uniform(0.6, 0.9)
    r3 = math.sqrt(dist * dist + hgt * hgt)
    e = rng.uniform(2.5, 3.5)
    color = rng.choice(["#ffc890", "#ffd0a0", "#ffbf8a", "#ffd8a8"])
    key = {"type": "warm_led", "power_w": round(e * math.pi * r3 * r3, 1),
           "position_m": [round(dist * math.sin(math.radians(az)), 3),
                          round(dist * math.cos(math.radians(az)), 3), round(hgt, 3)],
           "size_m": [round(rng.uniform(0.5, 0.9), 2), round(rng.uniform(0.03, 0.08), 3)],
           "rotation_deg": round(rng.uniform(0, 180)), "color": color,
           "temperature_k": round(rng.uniform(2500, 3000), -1)}
    return {"key": key, "ambient": {"strength": round(rng.uniform(0.1, 0.18), 2),
                                    "temperature_k": 8000}}


def table_spec(kind: str, rng: random.Random) -> dict[str, Any]:
    if kind == "wood":
        c = rng.choice([("#7a4a2a", "#4a2a16"), ("#b98a5a", "#8a5a32"), ("#5a3a28", "#2e1c12")])
        return {"kind": "wood", "color": c[0], "color2": c[1],
                "grain_deg": round(rng.uniform(-90, 90)),
                "plank_m": round(rng.uniform(0.12, 0.2), 3)}
    if kind == "cloth":
        c = rng.choice([("#2f4a3a", "#1d3026"), ("#6b6f78", "#4a4d54"), ("#3b3350", "#241f33")])
        return {"kind": "cloth", "color": c[0], "color2": c[1]}
    if kind == "marble":
        c = rng.choice([("#e8e6e1", "#8c8a88"), ("#d9d4cc", "#5e5750"), ("#2a2a2c", "#d0d0d0")])
        return {"kind": "marble", "color": c[0], "color2": c[1],
                "vein_scale": round(rng.uniform(2.0, 4.0), 2)}
    c = rng.choice([("#f2efe8", "#b8262e"), ("#f4f1ea", "#2a5aa8"), ("#efe9dc", "#3c7a3a")])
    return {"kind": "tablecloth", "pattern": "gingham", "color": c[0], "color2": c[1],
            "check_m": round(rng.uniform(0.02, 0.04), 3), "angle_deg": round(rng.uniform(-20, 20))}


def mat_spec(style: str, sides: dict[str, str], rng: random.Random) -> dict[str, Any]:
    if style == "checker":
        tint_sets = [
            [("#e7ecf3", "#8fa3bf"), ("#eef1e4", "#9aac7f"),
             ("#f3ebe1", "#c09a78"), ("#f1e6ec", "#b48ea4")],
            [("#efe9dd", "#a38f6e"), ("#e4eef0", "#7fa2aa"),
             ("#ece4f0", "#9b89ad"), ("#e9f0e3", "#8aa47a")],
        ]
        return {"style": "checker", "border": round(rng.uniform(0.3, 0.5), 3),
                "border_color": rng.choice(["#23282e", "#2b2320", "#1f2b3a"]),
                "edge_line": "#e8e4da", "tints": rng.choice(tint_sets),
                "thickness_m": 0.003, "finish": "matte vinyl"}
    if style == "wood":
        light, dark = rng.choice([("#d8b384", "#a87a4c"), ("#e2c496", "#b88d5e"),
                                  ("#c99a66", "#8d6239")])
        return {"style": "wood", "border": round(rng.uniform(0.35, 0.6), 3),
                "wood_light": light, "wood_dark": dark, "grain_deg": rng.choice([0, 90]),
                "ring_freq": round(rng.uniform(1.2, 2.2), 2), "burn": "#2a1608",
                "char": "#5a3518", "line_w": 0.045, "thickness_m": 0.012,
                "finish": "oiled wood, engraved"}
    if style == "neoprene":
        ground, art = rng.choice([("#23262d", "#3b4a6b"), ("#1c2433", "#4a3560"),
                                  ("#2b1f2e", "#5a3a2a"), ("#1f2a24", "#2f5a5a")])
        tints = rng.choice([["#c0392b", "#2980b9", "#f1c40f", "#27ae60"],
                            ["#8e44ad", "#16a085", "#d35400", "#2c3e50"]])
        return {"style": "neoprene", "border": round(rng.uniform(0.4, 0.7), 3),
                "ground": ground, "art": art, "art_strength": round(rng.uniform(0.3, 0.6), 2),
                "line": rng.choice(["#d9dde3", "#e8e0c8", "#c9d6df"]),
                "line_w": round(rng.uniform(0.02, 0.035), 3),
                "quad_tints": rng.sample(tints, 4), "quad_alpha": round(rng.uniform(0.1, 0.2), 2),
                "cross": rng.choice(["#e8e0c8", "#f0b429", "#7fdbda"]),
                "thickness_m": 0.003, "finish": "neoprene cloth"}
    if style == "tiled":
        washes = rng.choice([["#f3f3f3", "#e6e6e6", "#e6e6e6", "#f3f3f3"],
                             ["#fdf2e6", "#e8f1fb", "#eaf6ea", "#fbeaf0"],
                             ["#ffffff", "#ffffff", "#ffffff", "#ffffff"]])
        return {"style": "tiled", "border": round(rng.uniform(0.25, 0.45), 3),
                "paper": rng.choice(["#f7f6f2", "#f4f5f7", "#faf7ef"]),
                "ink": rng.choice(["#202124", "#3a3a3a", "#1f2a44"]),
                "line_w": round(rng.uniform(0.012, 0.022), 3), "quad_wash": washes,
                "wash": round(rng.uniform(0.15, 0.35), 2),
                "seam": [round(rng.uniform(-0.6, 0.6), 2), round(rng.uniform(-0.6, 0.6), 2)],
                "shifts": [[round(rng.gauss(0, 0.012), 3), round(rng.gauss(0, 0.012), 3)]
                           for _ in range(4)],
                "sheet_tone": [round(rng.uniform(0.97, 1.02), 3) for _ in range(4)],
                "margin": round(rng.uniform(0.05, 0.1), 3),
                "thickness_m": 0.0004, "finish": "matte paper, taped sheets"}
    if style == "chalk":
        return {"style": "chalk", "border": round(rng.uniform(0.3, 0.55), 3),
                "ground": rng.choice(["#2f3b36", "#2a2d31", "#1f2f2a", "#333a40"]),
                "chalk": rng.choice(["#ecebe4", "#f2eed8", "#e4ecef"]),
                "dust": round(rng.uniform(0.05, 0.18), 2),
                "wobble": round(rng.uniform(0.01, 0.03), 3),
                "line_w": round(rng.uniform(0.025, 0.045), 3),
                "line_alpha": round(rng.uniform(0.7, 0.9), 2),
                "hatch": round(rng.uniform(0.06, 0.1), 3),
                "pastel": round(rng.uniform(0.15, 0.4), 2),
                "thickness_m": 0.004, "finish": "slate, chalk"}
    if style == "quilt":
        families = [["#f4d9c6", "#e8a87c", "#c38d6b", "#fff4e0"],
                    ["#d6e6f2", "#8fb8d8", "#5d87b0", "#f2f7fb"],
                    ["#e3f0d6", "#a9c98a", "#6f9a58", "#fbfdf6"],
                    ["#f2dbe8", "#d79bbd", "#a8688e", "#fdf3f8"],
                    ["#f5efc8", "#e2cf6f", "#b59d3a", "#fffbe6"]]
        return {"style": "quilt", "border": round(rng.uniform(0.3, 0.5), 3),
                "binding": rng.choice(["#3b3f63", "#6b2f2f", "#2f5b4a", "#c9b79c"]),
                "palettes": rng.sample(families, 4),
                "seam": rng.choice(["#5a4f45", "#6f6a64"]),
                "thread": rng.choice(["#fbfaf5", "#3a3a3a", "#d9c27a"]),
                "disc": round(rng.uniform(0.28, 0.36), 3),
                "thickness_m": 0.008, "finish": "cotton patchwork, felt applique"}
    quad = rng.sample(["#e0312f", "#1e88e5", "#f5b800", "#2e9d4e", "#8e44ad", "#ff6f00",
                       "#00a3a3"], 4)
    return {"style": "laminate", "border": round(rng.uniform(0.25, 0.4), 3),
            "border_color": rng.choice(["#f7f7f4", "#eaeef2", "#fbf6ea"]),
            "ground": rng.choice(["#fbfaf6", "#f4f6f8", "#fdf8ec"]),
            "ink": "#3a3d42", "quad_colors": quad,
            "quad_border_w": round(rng.uniform(0.07, 0.1), 3),
            "logo_quadrant": rng.choice([[1, 1], [-1, 1], [1, -1], [-1, -1]]),
            "thickness_m": 0.002, "finish": "glossy laminate"}


def make_scene(idx: int, seed: int, out: Path, plan: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(seed)
    style, light_kind, table_kind = plan["style"], plan["light"], plan["table"]
    sname, scol, nname, ncol, mats = plan["pair"]
    if rng.random() < 0.5:
        sname, scol, nname, ncol = nname, ncol, sname, scol
    sides = {"south": scol, "north": ncol}
    piece_mat = rng.choice(mats)
    space = round(rng.uniform(0.042, 0.05), 4)
    mat = mat_spec(style, sides, rng)
    mat["rotation_deg"] = round(rng.uniform(-3, 3), 1)
    mat["offset_m"] = [round(rng.uniform(-0.012, 0.012), 3), round(rng.uniform(-0.012, 0.012), 3)]
    tilt = plan["tilt"]
    yaw = round(plan["yaw_base"] + rng.uniform(-22, 22)) % 360
    focal = rng.choice([22, 24, 26, 28, 30])
    fill = rng.uniform(0.72, 0.88)
    thick = mat["thickness_m"]
    target = np.array([0.0, 0.0, thick])
    half = (4 + mat["border"]) * space
    ang = math.radians(mat["rotation_deg"])
    rot2 = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    pts = []
    for cx, cy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        for r, z in ((half, thick), (4 * space, thick + POLE_HEIGHT * space)):
            xy = rot2 @ np.array([cx * r, cy * r]) + np.array(mat["offset_m"])
            pts.append([xy[0], xy[1], z])
    height = frame_height(np.array(pts), math.radians(tilt), math.radians(yaw), focal, fill,
                          target)
    cam_pos = camera_position(height, math.radians(tilt), math.radians(yaw), target)
    name = (f"b{idx + 1}-{style}-tilt{tilt:02d}-{light_kind.replace('_', '')}-"
            f"{table_kind}-{sname}{nname}")
    hand = {"from": rng.choice(["north", "south", "east", "west"]),
            "reach": round(rng.uniform(0.35, 0.6), 2),
            "lateral": round(rng.uniform(-0.2, 0.2), 2),
            "height_m": round(rng.uniform(0.08, 0.15), 3),
            "angle_deg": round(rng.uniform(-15, 15)),
            "skin": rng.choice(SKINS), "hand": rng.choice(["right", "left"]),
            "sleeve": rng.choice(SLEEVES)}
    scene = {
        "name": name, "seed": seed, "style": style,
        "camera": {"height_m": round(height, 4), "tilt_deg": tilt, "yaw_deg": yaw,
                   "focal_mm": focal, "sensor_mm": SENSOR_MM,
                   "position_m": [round(float(v), 4) for v in cam_pos],
                   "look_at_m": [0.0, 0.0, thick], "fill": round(fill, 3),
                   "exposure": round(rng.uniform(-0.15, 0.15), 2),
                   "awb": round(rng.uniform(0.55, 0.75), 2)},
        "light": light_spec(light_kind, rng),
        "table": table_spec(table_kind, rng),
        "sides": sides, "side_names": {"south": sname, "north": nname},
        "pieces": {"material": piece_mat, "pole": {"diameter": POLE_DIAMETER,
                                                    "height": POLE_HEIGHT},
                   "port": {"thickness": PORT_THICK, "height": PORT_HEIGHT,
                            "inset": PORT_INSET}},
        "hand": hand,
        "mat": mat,
        "space_m": space,
        "south_at": south_edge(yaw),
    }
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    img, bump = make_print(mat, sides, seed)
    write_png(folder / "mat_print.png", img)
    if bump is not None:
        write_png(folder / "mat_bump.png", bump)

    def dump(fname: str, doc: Any) -> None:
        (folder / fname).write_text(json.dumps(doc, indent=1) + "\n")

    start = Position.start().to_json()
    dump("start.json", start)
    prng = random.Random(seed * 7919 + 1)
    turns = sorted(prng.sample(range(2, 21), 6))
    jobs: list[dict[str, Any]] = [
        {"name": "empty", "out": "empty.jpg", "truth": None, "hand": False, "pieces": []},
        {"name": "start", "out": "start.jpg", "truth": "start.json", "hand": False,
         "pieces": place_pieces(start, space, prng)},
    ]
    for k, t in enumerate(turns, 1):
        pos = random_midgame(prng, t).to_json()
        dump(f"pos_{k:02d}.json", pos)
        jobs.append({"name": f"pos_{k:02d}", "out": f"pos_{k:02d}.jpg",
                     "truth": f"pos_{k:02d}.json", "turns": t, "hand": False,
                     "pieces": place_pieces(pos, space, prng)})
    ht = prng.randint(4, 16)
    hpos = random_midgame(prng, ht).to_json()
    dump("hand_01.json", {"status": "occluded", "board_under_hand": hpos})
    jobs.append({"name": "hand_01", "out": "hand_01.jpg", "truth": "hand_01.json",
                 "turns": ht, "hand": True, "pieces": place_pieces(hpos, space, prng)})
    dump("scene.json", scene)
    dump("render.json", {"width": WIDTH, "height": HEIGHT, "samples": 32, "jpeg_quality": 90,
                         "mat_print": "mat_print.png",
                         "mat_bump": "mat_bump.png" if bump is not None else None,
                         "jobs": jobs})
    return scene


def plan_scenes(n: int, seed: int, styles: list[str] | None = None,
                pairs: list[tuple[str, str, str, str, list[str]]] | None = None
                ) -> list[dict[str, Any]]:
    """Spread the styles, lights, tables, colour pairs, tilts and views over the scenes."""
    rng = random.Random(seed)
    styles = (styles or STYLES)[:]
    lights, tables, pairs = LIGHTS[:], TABLES[:], (pairs or PAIRS)[:]
    rng.shuffle(styles)
    rng.shuffle(lights)
    rng.shuffle(tables)
    rng.shuffle(pairs)
    yaws = [0, 90, 180, 270]
    rng.shuffle(yaws)
    plans = []
    for i in range(n):
        lo = 35.0 * i / n
        tilt = round(rng.uniform(lo, lo + 35.0 / n))
        plans.append({"style": styles[i % len(styles)], "light": lights[i % 4],
                      "table": tables[i % 4], "pair": pairs[i % len(pairs)], "tilt": tilt,
                      "yaw_base": yaws[i % 4]})
    tilts = [p["tilt"] for p in plans]
    rng.shuffle(tilts)
    for p, t in zip(plans, tilts, strict=True):
        p["tilt"] = t
    return plans


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=4, help="number of scenes (default 4)")
    ap.add_argument("--seed", type=int, default=2031, help="master seed (default 2031)")
    ap.add_argument("--out", type=Path, default=Path("/tmp/blenderset"),
                    help="output folder (default /tmp/blenderset)")
    ap.add_argument("--styles", default=",".join(STYLES),
                    help=f"mat prints to spread over the scenes, of {STYLES + NEW_STYLES} "
                         f"(default {','.join(STYLES)})")
    ap.add_argument("--pairs", choices=["old", "new"], default="old",
                    help="the piece colour pairs: the first six (old, default) or four others")
    args = ap.parse_args()
    styles = args.styles.split(",")
    unknown = [st for st in styles if st not in STYLES + NEW_STYLES]
    if unknown or not styles:
        ap.error(f"unknown mat style {unknown[0] if unknown else args.styles!r}")
    args.out.mkdir(parents=True, exist_ok=True)
    pairs = NEW_PAIRS if args.pairs == "new" else PAIRS
    for i, plan in enumerate(plan_scenes(args.scenes, args.seed, styles, pairs)):
        sc = make_scene(i, args.seed * 100 + i + 1, args.out, plan)
        print(f"{sc['name']}: tilt {sc['camera']['tilt_deg']}, yaw {sc['camera']['yaw_deg']:.0f},"
              f" height {sc['camera']['height_m']:.3f} m, south at {sc['south_at']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
