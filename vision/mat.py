"""The Teleporters mat as data, and drawing it: for printing, and as the simulated table's texture.

Coordinates: mat units, one unit = one space's side. The playing grid spans x in [0, 8] (files
a..h, west to east) and y in [0, 8] (ranks 1..8, south to north); the printed border lies
outside it. Images drawn here are ``(H, W, 3) uint8`` BGR (OpenCV order), row 0 at the top =
the north edge, so pixel ``(u, v)`` of a drawing at ``s`` pixels per unit with border ``b``
units maps to mat point ``x = u / s - b``, ``y = 8 + b - v / s``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

BGR = tuple[int, int, int]
FILES = "abcdefgh"


def square_name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank + 1}"


def parse_square(name: str) -> tuple[int, int]:
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise VisionError(f"unknown square {name!r}: squares are a1..h8")
    return FILES.index(name[0]), int(name[1]) - 1


CORNER_SIGNS = {"sw": (-1, -1), "se": (1, -1), "nw": (-1, 1), "ne": (1, 1)}


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


@dataclass(frozen=True, slots=True)
class MatModel:
    """Where the Telepads and Portpads are, their stripes, and the mat's proportions."""

    home_telepads: dict[str, tuple[str, ...]] = field(default_factory=lambda: {
        "south": ("c1", "d1", "e1", "f1"), "north": ("c8", "d8", "e8", "f8")})
    portpads: dict[str, tuple[str, str]] = field(default_factory=lambda: {
        "b2": ("south", "sw"), "c3": ("south", "sw"), "f3": ("south", "se"),
        "g2": ("south", "se"), "b7": ("north", "nw"), "c6": ("north", "nw"),
        "f6": ("north", "ne"), "g7": ("north", "ne")})
    border: float = 0.35  # printed border round the grid, in spaces
    centre_size: float = 0.26  # side of a Quadrant's centre square / Telepad spot diameter
    line_width: float = 0.025
    stripe_width: float = 0.16  # a Portpad stripe: the footprint of a Port's walls
    colours: MatColours = field(default_factory=MatColours)

    @property
    def extent(self) -> float:
        """Side of the whole printed mat, border included, in spaces."""
        return 8 + 2 * self.border

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

    cv2.rectangle(img, px(0, 8), px(8, 0), c.base, -1, shift=_SHIFT)
    for file in range(8):
        for rank in range(8):
            name = square_name(file, rank)
            x0, y0 = float(file), float(rank)
            cx, cy = x0 + 0.5, y0 + 0.5
            telepad = model.telepad_side(name)
            if telepad is not None:
                cv2.rectangle(img, px(x0 + 0.08, y0 + 0.92), px(x0 + 0.92, y0 + 0.08),
                              c.side[telepad], -1, shift=_SHIFT)
                cv2.circle(img, px(cx, cy), round(model.centre_size * 0.9 * s * _ONE), c.base,
                           -1, cv2.LINE_AA, shift=_SHIFT)
                continue
            if rank in (0, 7):
                continue  # plain back-row corner spaces
            h = model.centre_size / 2
            # Four trapezoids round the centre square.
            for pts in (((0, 0), (1, 0), (0.5 + h, 0.5 - h), (0.5 - h, 0.5 - h)),
                        ((1, 0), (1, 1), (0.5 + h, 0.5 + h), (0.5 + h, 0.5 - h)),
                        ((1, 1), (0, 1), (0.5 - h, 0.5 + h), (0.5 + h, 0.5 + h)),
                        ((0, 1), (0, 0), (0.5 - h, 0.5 - h), (0.5 - h, 0.5 + h))):
                inset = [(x0 + 0.06 + (u * 0.88), y0 + 0.06 + (v * 0.88)) for u, v in pts]
                cv2.fillPoly(img, [np.array([px(*p) for p in inset], np.int32)], c.trapezoid,
                             shift=_SHIFT)
            cv2.rectangle(img, px(cx - h, cy + h), px(cx + h, cy - h), c.centre, -1,
                          shift=_SHIFT)
            pad = model.portpads.get(name)
            if pad is not None:
                side, corner = pad
                sx, sy = CORNER_SIGNS[corner]
                w = model.stripe_width
                ex = x0 if sx < 0 else x0 + 1 - w  # the vertical stripe on the east/west edge
                ey = y0 if sy < 0 else y0 + 1 - w  # the horizontal one on the south/north edge
                cv2.rectangle(img, px(ex, y0 + 1), px(ex + w, y0), c.side[side], -1,
                              shift=_SHIFT)
                cv2.rectangle(img, px(x0, ey + w), px(x0 + 1, ey), c.side[side], -1,
                              shift=_SHIFT)
    # Grid lines as filled bands, so their centre is exact whatever their width.
    hw = model.line_width / 2
    for i in range(9):
        cv2.rectangle(img, px(i - hw, 8 + hw), px(i + hw, -hw), c.line, -1, shift=_SHIFT)
        cv2.rectangle(img, px(-hw, i + hw), px(8 + hw, i - hw), c.line, -1, shift=_SHIFT)
    if ss > 1:
        img = cv2.resize(img, (out_size, out_size), interpolation=cv2.INTER_AREA)
    return img


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


def load_position(doc: dict[str, Any] | str) -> dict[str, Any]:
    """A position in the rules core's JSON form, checked just enough to draw it."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise VisionError(f"position is not valid JSON: {exc}") from None
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
