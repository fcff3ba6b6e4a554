"""The Teleporters mat as data, and drawing it: for printing, and as the simulated table's texture.

A print style (``MatPrint`` with ``MatModel``'s colours, line width and border) says how a
printing looks; the default is our own mat, and ``random_print`` draws others as players' mats
differ: light or dark ground, Quadrant patterns, Telepad and Portpad marks, borders and inks.

Coordinates: mat units, one unit = one space's side. The playing grid spans x in [0, 8] (files
a..h, west to east) and y in [0, 8] (ranks 1..8, south to north); the printed border lies
outside it. Images drawn here are ``(H, W, 3) uint8`` BGR (OpenCV order), row 0 at the top =
the north edge, so pixel ``(u, v)`` of a drawing at ``s`` pixels per unit with border ``b``
units maps to mat point ``x = u / s - b``, ``y = 8 + b - v / s``.
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.rules.errors import PositionError
from companion.rules.teleporters.board import DEFAULT_VARIANT, FILE_NAMES, Side, Variant
from companion.rules.teleporters.board import parse_square as parse_board_square
from companion.rules.teleporters.board import square_name as board_square_name
from vision.errors import VisionError

BGR = tuple[int, int, int]
FILES = FILE_NAMES  # square names and the pads' layout come from the rules core's board


def square_name(file: int, rank: int) -> str:
    return board_square_name(file + 8 * rank)


def parse_square(name: str) -> tuple[int, int]:
    """``"c3"`` -> (file, rank) = (2, 2)."""
    try:
        sq = parse_board_square(name)
    except PositionError as exc:
        raise VisionError(str(exc)) from None
    return sq & 7, sq >> 3


def home_telepads(variant: Variant = DEFAULT_VARIANT) -> dict[str, tuple[str, ...]]:
    """Each side's Home Telepads by name, as ``variant`` lays them out."""
    return {side.value: tuple(board_square_name(q) for q in variant.home(side))
            for side in Side}


def portpads(variant: Variant = DEFAULT_VARIANT) -> dict[str, tuple[str, str]]:
    """Each Portpad by name: (side, start corner), as ``variant`` lays them out."""
    return {board_square_name(p.square): (p.side.value, p.corner.value)
            for p in variant.portpads}


CORNER_SIGNS = {"sw": (-1, -1), "se": (1, -1), "nw": (-1, 1), "ne": (1, 1)}


class QuadrantMark(enum.Enum):
    """What is printed inside each space of ranks 2-7 (Quadrants and Portpads)."""

    NONE = "plain"
    SQUARE = "square"  # a centre square in four trapezoids (our own print)
    DOTS = "dots"  # four dots per space
    DIAGONALS = "diagonals"  # thin lines corner to corner


class TelepadMark(enum.Enum):
    """How a Home Telepad (c1-f1, c8-f8) is marked in its side's ink."""

    HOLED_SQUARE = "holed"  # a square with a round hole (our own print)
    RING = "ring"
    DISC = "disc"
    OUTLINE = "outline"  # a square outline
    BLOCK = "block"  # a filled square


class PortpadMark(enum.Enum):
    """How a Portpad's start corner is marked in its side's ink."""

    STRIPES = "stripes"  # along the corner's two edges (our own print)
    TRIANGLE = "triangle"  # a filled triangle in the corner
    DOT = "dot"  # a dot in the corner
    NONE = "unmarked"


@dataclass(frozen=True, slots=True)
class MatPrint:
    """The print's patterns. With MatModel's colours, line width and border it is the whole
    look of a printing; the default is our own mat (`companion mat`)."""

    quadrant: QuadrantMark = QuadrantMark.SQUARE
    telepad: TelepadMark = TelepadMark.HOLED_SQUARE
    portpad: PortpadMark = PortpadMark.STRIPES


@dataclass(frozen=True, slots=True)
class MatColours:
    """The printed colours (BGR). Printings differ: calibration learns the real ones."""

    base: BGR = (188, 206, 214)  # the mat's ground
    line: BGR = (70, 70, 70)  # grid lines between spaces
    centre: BGR = (150, 160, 168)  # small centre squares of Quadrants and Portpads
    trapezoid: BGR = (176, 194, 203)  # the four trapezoids round a centre square
    border: BGR = (60, 68, 74)
    side: dict[str, BGR] = field(default_factory=lambda: {"south": (60, 70, 170),
                                                           "north": (150, 100, 40)})
    checker: BGR | None = None  # every other space filled so (a1 among them); None: plain


@dataclass(frozen=True, slots=True)
class MatModel:
    """Where the Telepads and Portpads are, their stripes, and the mat's proportions."""

    home_telepads: dict[str, tuple[str, ...]] = field(default_factory=home_telepads)
    portpads: dict[str, tuple[str, str]] = field(default_factory=portpads)
    border: float = 0.35  # printed border round the grid, in spaces
    centre_size: float = 0.26  # side of a Quadrant's centre square / Telepad spot diameter
    line_width: float = 0.025
    stripe_width: float = 0.16  # a Portpad stripe: the footprint of a Port's walls
    colours: MatColours = field(default_factory=MatColours)
    print: MatPrint = field(default_factory=MatPrint)

    @property
    def extent(self) -> float:
        """Side of the whole printed mat, border included, in spaces."""
        return 8 + 2 * self.border

    @property
    def ground(self) -> str:
        """"light" or "dark": the ground against its grid lines."""
        return "light" if _luma(self.colours.base) >= _luma(self.colours.line) else "dark"

    @property
    def style_name(self) -> str:
        """A short name of the print for reports, e.g. "dark-dots-ring-triangle"."""
        p = self.print
        return f"{self.ground}-{p.quadrant.value}-{p.telepad.value}-{p.portpad.value}"

    def telepad_side(self, name: str) -> str | None:
        for side, pads in self.home_telepads.items():
            if name in pads:
                return side
        return None

    def to_json(self) -> dict[str, Any]:
        return {"home_telepads": {k: list(v) for k, v in self.home_telepads.items()},
                "portpads": {k: list(v) for k, v in self.portpads.items()},
                "border": self.border}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> MatModel:
        try:
            return cls(
                home_telepads={k: tuple(v) for k, v in doc["home_telepads"].items()},
                portpads={k: (v[0], v[1]) for k, v in doc["portpads"].items()},
                border=float(doc.get("border", 0.35)),
            )
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise VisionError(f"bad mat model: {exc!r}") from None


def printed_ink(model: MatModel, xy: np.ndarray, grow: float = 0.0) -> np.ndarray:
    """(N,) int8: which side's colour is printed at mat points ``xy`` (N, 2): 0 none,
    1 south, 2 north (Home Telepads and Portpad stripes), within ``grow`` spaces of it."""
    out = np.zeros(len(xy), np.int8)
    f = np.floor(xy[:, 0]).astype(int)
    r = np.floor(xy[:, 1]).astype(int)
    u, v = xy[:, 0] - f, xy[:, 1] - r
    codes = {"south": 1, "north": 2}
    for name, side in ((n, s) for s, pads in model.home_telepads.items() for n in pads):
        pf, pr = parse_square(name)
        here = (f == pf) & (r == pr)
        lo, hi = 0.08 - grow, 0.92 + grow
        ring = np.hypot(u - 0.5, v - 0.5) >= model.centre_size * 0.9 - grow
        out[here & (u >= lo) & (u <= hi) & (v >= lo) & (v <= hi) & ring] = codes[side]
    w = model.stripe_width + grow
    for name, (side, corner) in model.portpads.items():
        pf, pr = parse_square(name)
        here = (f == pf) & (r == pr)
        sx, sy = CORNER_SIGNS[corner]
        on_x = u <= w if sx < 0 else u >= 1 - w
        on_y = v <= w if sy < 0 else v >= 1 - w
        out[here & (on_x | on_y)] = codes[side]
    return out


_SHIFT = 4
_ONE = 1 << _SHIFT
PAPER_MM = {"A4": (210, 297), "A3": (297, 420), "A2": (420, 594)}


# Proportions of the other prints' marks, in spaces (our own print's are MatModel fields).
TELEPAD_INSET = 0.08  # a Telepad's square reaches this near its space's edges
RING_OUTER, RING_INNER = 0.38, 0.28  # radii of a Telepad ring
DISC_RADIUS = 0.34
OUTLINE_WIDTH = 0.09  # a Telepad's square outline
QUADRANT_INSET = 0.06  # the trapezoids round a centre square stop short of the grid lines
DOT_OFFSET, DOT_RADIUS = 0.25, 0.055  # four dots per space: distance in from the edges, size
DIAGONAL_WIDTH = 0.02
PAD_TRIANGLE_LEG = 0.42  # a Portpad's corner triangle
PAD_DOT_OFFSET, PAD_DOT_RADIUS = 0.2, 0.11  # a Portpad's corner dot: centre in from the edges


_Px = Callable[[float, float], tuple[int, int]]  # mat point -> shifted drawing pixel


def draw_mat(model: MatModel | None = None, px_per_space: int = 64) -> np.ndarray:
    """The printed mat, north at the top. Returns ``(S, S, 3) uint8`` BGR, ``S`` = extent * px.

    Drawn at 4x and shrunk (area averaging) so edges are anti-aliased like print.
    """
    model = model or MatModel()
    if px_per_space < 8:
        raise VisionError(f"px_per_space must be at least 8, got {px_per_space}")
    ss = 4 if px_per_space <= 200 else 1
    s = px_per_space * ss
    c = model.colours
    out_size = round(model.extent * px_per_space)
    size = out_size * ss  # an exact multiple, so shrinking maps areas exactly
    img = np.empty((size, size, 3), np.uint8)
    img[:] = c.border
    b = model.border

    # Pixel k covers [k, k+1): a mat point's pixel coordinate is (x + b) * s, and OpenCV draws
    # at pixel centres, hence the half pixel; SHIFT keeps a sixteenth of a pixel.
    def px(x: float, y: float) -> tuple[int, int]:
        return (round(((x + b) * s - 0.5) * _ONE), round(((8 + b - y) * s - 0.5) * _ONE))

    def radius(r: float) -> int:
        return round(r * s * _ONE)

    cv2.rectangle(img, px(0, 8), px(8, 0), c.base, -1, shift=_SHIFT)
    if c.checker is not None:  # a checkerboard (a chess board, say), lines or none
        for file in range(8):
            for rank in range(file % 2, 8, 2):
                cv2.rectangle(img, px(file, rank + 1), px(file + 1, rank), c.checker, -1,
                              shift=_SHIFT)
    for file in range(8):
        for rank in range(8):
            name = square_name(file, rank)
            x0, y0 = float(file), float(rank)
            telepad = model.telepad_side(name)
            if telepad is not None:
                _draw_telepad(img, model, x0, y0, c.side[telepad], px, radius)
                continue
            if rank in (0, 7):
                continue  # plain back-row corner spaces
            _draw_quadrant(img, model, x0, y0, px, radius, s)
            pad = model.portpads.get(name)
            if pad is not None:
                _draw_portpad(img, model, x0, y0, pad[1], c.side[pad[0]], px, radius)
    # Grid lines as filled bands, so their centre is exact whatever their width.
    hw = model.line_width / 2
    for i in range(9 if hw > 0 else 0):
        cv2.rectangle(img, px(i - hw, 8 + hw), px(i + hw, -hw), c.line, -1, shift=_SHIFT)
        cv2.rectangle(img, px(-hw, i + hw), px(8 + hw, i - hw), c.line, -1, shift=_SHIFT)
    if ss > 1:
        img = np.asarray(cv2.resize(img, (out_size, out_size), interpolation=cv2.INTER_AREA),
                         np.uint8)
    return img


def _draw_telepad(img: np.ndarray, model: MatModel, x0: float, y0: float, ink: BGR, px: _Px,
                  radius: Callable[[float], int]) -> None:
    mark = model.print.telepad
    cx, cy = x0 + 0.5, y0 + 0.5
    lo, hi = TELEPAD_INSET, 1 - TELEPAD_INSET
    if mark in (TelepadMark.HOLED_SQUARE, TelepadMark.BLOCK, TelepadMark.OUTLINE):
        cv2.rectangle(img, px(x0 + lo, y0 + hi), px(x0 + hi, y0 + lo), ink, -1, shift=_SHIFT)
    if mark is TelepadMark.HOLED_SQUARE:
        cv2.circle(img, px(cx, cy), radius(model.centre_size * 0.9), model.colours.base, -1,
                   cv2.LINE_AA, shift=_SHIFT)
    elif mark is TelepadMark.OUTLINE:
        lo, hi = lo + OUTLINE_WIDTH, hi - OUTLINE_WIDTH
        cv2.rectangle(img, px(x0 + lo, y0 + hi), px(x0 + hi, y0 + lo), model.colours.base, -1,
                      shift=_SHIFT)
    elif mark in (TelepadMark.RING, TelepadMark.DISC):
        outer = RING_OUTER if mark is TelepadMark.RING else DISC_RADIUS
        cv2.circle(img, px(cx, cy), radius(outer), ink, -1, cv2.LINE_AA, shift=_SHIFT)
        if mark is TelepadMark.RING:
            cv2.circle(img, px(cx, cy), radius(RING_INNER), model.colours.base, -1, cv2.LINE_AA,
                       shift=_SHIFT)


def _draw_quadrant(img: np.ndarray, model: MatModel, x0: float, y0: float, px: _Px,
                   radius: Callable[[float], int], s: int) -> None:
    mark, c = model.print.quadrant, model.colours
    cx, cy = x0 + 0.5, y0 + 0.5
    if mark is QuadrantMark.SQUARE:
        h = model.centre_size / 2
        k, span = QUADRANT_INSET, 1 - 2 * QUADRANT_INSET
        # Four trapezoids round the centre square.
        for pts in (((0, 0), (1, 0), (0.5 + h, 0.5 - h), (0.5 - h, 0.5 - h)),
                    ((1, 0), (1, 1), (0.5 + h, 0.5 + h), (0.5 + h, 0.5 - h)),
                    ((1, 1), (0, 1), (0.5 - h, 0.5 + h), (0.5 + h, 0.5 + h)),
                    ((0, 1), (0, 0), (0.5 - h, 0.5 - h), (0.5 - h, 0.5 + h))):
            inset = [(x0 + k + (u * span), y0 + k + (v * span)) for u, v in pts]
            cv2.fillPoly(img, [np.array([px(*p) for p in inset], np.int32)], c.trapezoid,
                         shift=_SHIFT)
        cv2.rectangle(img, px(cx - h, cy + h), px(cx + h, cy - h), c.centre, -1, shift=_SHIFT)
    elif mark is QuadrantMark.DOTS:
        for dx in (DOT_OFFSET, 1 - DOT_OFFSET):
            for dy in (DOT_OFFSET, 1 - DOT_OFFSET):
                cv2.circle(img, px(x0 + dx, y0 + dy), radius(DOT_RADIUS), c.centre, -1,
                           cv2.LINE_AA, shift=_SHIFT)
    elif mark is QuadrantMark.DIAGONALS:
        thick = max(1, round(DIAGONAL_WIDTH * s))
        for a, z in (((x0, y0), (x0 + 1, y0 + 1)), ((x0, y0 + 1), (x0 + 1, y0))):
            cv2.line(img, px(*a), px(*z), c.centre, thick, cv2.LINE_AA, shift=_SHIFT)


def _draw_portpad(img: np.ndarray, model: MatModel, x0: float, y0: float, corner: str,
                  ink: BGR, px: _Px, radius: Callable[[float], int]) -> None:
    mark = model.print.portpad
    sx, sy = CORNER_SIGNS[corner]
    kx, ky = (x0 if sx < 0 else x0 + 1), (y0 if sy < 0 else y0 + 1)  # the corner itself
    if mark is PortpadMark.STRIPES:
        w = model.stripe_width
        ex = x0 if sx < 0 else x0 + 1 - w  # the vertical stripe on the east/west edge
        ey = y0 if sy < 0 else y0 + 1 - w  # the horizontal one on the south/north edge
        cv2.rectangle(img, px(ex, y0 + 1), px(ex + w, y0), ink, -1, shift=_SHIFT)
        cv2.rectangle(img, px(x0, ey + w), px(x0 + 1, ey), ink, -1, shift=_SHIFT)
    elif mark is PortpadMark.TRIANGLE:
        leg = PAD_TRIANGLE_LEG
        tri = [px(kx, ky), px(kx - sx * leg, ky), px(kx, ky - sy * leg)]
        cv2.fillPoly(img, [np.array(tri, np.int32)], ink, cv2.LINE_AA, shift=_SHIFT)
    elif mark is PortpadMark.DOT:
        d = PAD_DOT_OFFSET
        cv2.circle(img, px(kx - sx * d, ky - sy * d), radius(PAD_DOT_RADIUS), ink, -1,
                   cv2.LINE_AA, shift=_SHIFT)


def write_mat(path: str | Path, paper: str = "A3", dpi: int = 300,
              model: MatModel | None = None) -> tuple[int, int]:
    """Draw the mat to fit ``paper`` at ``dpi`` and write it (PNG). Returns the pixel size."""
    if paper not in PAPER_MM:
        raise VisionError(f"unknown paper {paper!r}: one of {', '.join(PAPER_MM)}")
    if not 72 <= dpi <= 1200:
        raise VisionError(f"dpi must be between 72 and 1200, got {dpi}")
    model = model or MatModel()
    short_mm = PAPER_MM[paper][0] - 20  # 10 mm unprintable margin each side
    px_per_space = int(short_mm / 25.4 * dpi / model.extent)
    img = draw_mat(model, px_per_space)
    path = Path(path)
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".tif", ".tiff"):
        raise VisionError(f"{path}: write the mat as .png, .jpg or .tif")
    try:
        ok = cv2.imwrite(str(path), img)
    except cv2.error as exc:
        raise VisionError(f"cannot write {path}: {exc}") from None
    if not ok:
        raise VisionError(f"cannot write {path}")
    return img.shape[1], img.shape[0]


# Random prints: the colours real mats come in (BGR).
LIGHT_GROUNDS: tuple[BGR, ...] = ((236, 240, 242), (196, 226, 238), (205, 208, 210),
                                  (188, 206, 214), (200, 225, 205), (235, 220, 200))
DARK_GROUNDS: tuple[BGR, ...] = ((40, 85, 30), (70, 35, 20), (35, 25, 95), (28, 28, 30),
                                 (55, 55, 58), (70, 70, 20))
INKS: tuple[BGR, ...] = ((40, 40, 200), (170, 90, 30), (60, 140, 40), (30, 120, 230),
                         (40, 200, 235), (140, 50, 120), (140, 140, 20), (140, 70, 215),
                         (30, 30, 30), (235, 235, 235))
LINE_WIDTHS = (0.012, 0.05)  # spaces: 1 mm lines on a 45 mm space are 0.022
BORDER_WIDTHS = (0.0, 0.8)  # spaces
INK_CONTRAST = 90.0  # least BGR distance of an ink from the ground and from the other ink
P_DARK = 0.5  # chance of a dark ground
P_PIECE_INK = 0.5  # chance that the pads are printed in the pieces' own colours
P_GROUND_BORDER = 0.25  # chance that the border is printed in the ground's colour: no border
P_ZERO_BORDER = 0.1  # chance that the print runs to the outer grid lines

Rng = random.Random | np.random.Generator


def _uniform(rng: Rng, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _pick(rng: Rng, options: tuple[Any, ...] | list[Any]) -> Any:
    i = rng.randrange(len(options)) if isinstance(rng, random.Random) else int(
        rng.integers(len(options)))
    return options[i]


def _luma(c: BGR) -> float:
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    """``a`` moved ``t`` of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def _far(a: BGR, b: BGR) -> bool:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float))) >= INK_CONTRAST


def random_print(rng: Rng, piece_colours: dict[str, BGR] | None = None,
                 model: MatModel | None = None) -> MatModel:
    """``model`` (default: our own mat's layout) printed in a random style: ground, line width,
    Quadrant pattern, Telepad and Portpad marks, border and inks. With ``piece_colours`` the
    pads are sometimes printed in the pieces' own colours. Deterministic for ``rng``'s state.
    """
    model = model or MatModel()
    dark = rng.random() < P_DARK
    base = _pick(rng, DARK_GROUNDS if dark else LIGHT_GROUNDS)
    grey = round(_uniform(rng, 180, 240) if dark else _uniform(rng, 30, 100))
    tint = _pick(rng, (base, (grey, grey, grey)))  # lines grey or a shade of the ground
    line = _mix((grey, grey, grey), tint, 0.25)
    if rng.random() < P_GROUND_BORDER:
        border_colour = base
    else:
        border_colour = _pick(rng, (line, _mix(base, (0, 0, 0), 0.5), *DARK_GROUNDS))
    border = 0.0 if rng.random() < P_ZERO_BORDER else _uniform(rng, *BORDER_WIDTHS)
    print_ = MatPrint(quadrant=_pick(rng, list(QuadrantMark)),
                      telepad=_pick(rng, list(TelepadMark)),
                      portpad=_pick(rng, list(PortpadMark)))
    inks: dict[str, BGR] = {}
    own = piece_colours is not None and rng.random() < P_PIECE_INK
    for side in ("south", "north"):
        if own and piece_colours is not None and _far(piece_colours[side], base):
            inks[side] = tuple(int(v) for v in piece_colours[side])  # type: ignore[assignment]
            continue
        choices = [k for k in INKS if _far(k, base) and all(_far(k, o) for o in inks.values())]
        inks[side] = _pick(rng, choices)
    colours = MatColours(base=base, line=line, centre=_mix(base, line, _uniform(rng, 0.3, 0.6)),
                         trapezoid=_mix(base, line, _uniform(rng, 0.05, 0.15)),
                         border=border_colour, side=inks)
    return replace(model, border=border, line_width=_uniform(rng, *LINE_WIDTHS),
                   colours=colours, print=print_)


def load_position(doc: dict[str, Any] | str) -> dict[str, Any]:
    """A position in the rules core's JSON form, checked just enough to draw it."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise VisionError(f"position is not valid JSON: {exc}") from None
        except RecursionError:
            raise VisionError("position is nested far deeper than a position is") from None
    if not isinstance(doc, dict):
        raise VisionError(f"a position must be a JSON object, got {type(doc).__name__}")
    for name, side in doc.get("poles", {}).items():
        parse_square(name)
        if side not in ("south", "north"):
            raise VisionError(f"unknown side {side!r} for the Pole on {name}")
    for port in doc.get("ports", []):
        parse_square(port.get("square", "?"))
        if port.get("corner") not in CORNER_SIGNS or port.get("side") not in ("south", "north"):
            raise VisionError(f"bad Port {port!r}")
    return doc
