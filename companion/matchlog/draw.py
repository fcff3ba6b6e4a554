"""Pictures of a match (OpenCV and numpy only): a position on the 8x8 mat, and time per turn.

Images are ``(H, W, 3) uint8`` BGR, as OpenCV writes them. Poles are circles and Ports corner
wedges (with their two walls) in the side colours; Home Telepads and Portpad stripes are drawn
pale in their side's colour, north at the top.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import cv2
import numpy as np

from companion.matchlog.errors import MatchLogError
from companion.matchlog.model import Match
from companion.rules.teleporters import Corner, Position, Side, square, square_name

BGR = tuple[int, int, int]
SIDE_BGR: dict[Side, BGR] = {Side.SOUTH: (48, 56, 196), Side.NORTH: (176, 104, 28)}
MAT: BGR = (200, 216, 224)
LINE: BGR = (80, 80, 80)
INK: BGR = (40, 40, 40)
WHITE: BGR = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX

# Where each corner of a space lies on screen, as (dx, dy) in cells from the top-left corner.
_CORNER_XY = {Corner.SW: (0, 1), Corner.SE: (1, 1), Corner.NW: (0, 0), Corner.NE: (1, 0)}


def _tint(colour: BGR, amount: float) -> BGR:
    """``colour`` mixed with white: amount 1 is the colour, 0 white."""
    r = tuple(round(c * amount + 255 * (1 - amount)) for c in colour)
    return (r[0], r[1], r[2])


def _darker(colour: BGR, k: float = 0.6) -> BGR:
    r = tuple(int(c * k) for c in colour)
    return (r[0], r[1], r[2])


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float = 0.5,
          colour: BGR = INK, centre: bool = False) -> None:
    if centre:
        (w, h), _ = cv2.getTextSize(text, FONT, scale, 1)
        org = (org[0] - w // 2, org[1] + h // 2)
    cv2.putText(img, text, org, FONT, scale, colour, 1, cv2.LINE_AA)


def draw_position(position: Position, cell: int = 72, caption: str = "") -> np.ndarray:
    """The mat with every piece of ``position``; ``caption`` above it."""
    if cell < 16:
        raise MatchLogError(f"cell size {cell} px is too small to draw (16 or more)")
    margin = max(24, cell // 3)
    top = margin + (int(cell * 0.5) if caption else 0)
    width, height = 2 * margin + 8 * cell, top + margin + 8 * cell
    img = np.full((height, width, 3), WHITE, np.uint8)
    variant = position.variant

    def origin(sq: int) -> tuple[int, int]:
        f, r = sq % 8, sq // 8
        return margin + f * cell, top + (7 - r) * cell

    cv2.rectangle(img, (margin, top), (margin + 8 * cell, top + 8 * cell), MAT, -1)
    for side in Side:  # Home Telepads: a pale square with a round spot
        for sq in variant.home(side):
            x, y = origin(sq)
            cv2.rectangle(img, (x, y), (x + cell, y + cell), _tint(SIDE_BGR[side], 0.25), -1)
            cv2.circle(img, (x + cell // 2, y + cell // 2), int(cell * 0.13),
                       _tint(SIDE_BGR[side], 0.55), -1, cv2.LINE_AA)
    stripe = max(2, int(cell * 0.07))
    for pad in variant.portpads:  # Portpad stripes along the start corner's two edges
        x, y = origin(pad.square)
        dx, dy = _CORNER_XY[pad.corner]
        colour = _tint(SIDE_BGR[pad.side], 0.35)
        ex, ey = x + dx * cell, y + dy * cell
        cv2.rectangle(img, (x, ey - stripe if dy else ey), (x + cell, ey + stripe if not dy
                      else ey), colour, -1)
        cv2.rectangle(img, (ex - stripe if dx else ex, y), (ex + stripe if not dx else ex,
                      y + cell), colour, -1)
    for i in range(9):  # the grid
        cv2.line(img, (margin + i * cell, top), (margin + i * cell, top + 8 * cell), LINE, 1)
        cv2.line(img, (margin, top + i * cell), (margin + 8 * cell, top + i * cell), LINE, 1)
    wedge, wall = cell * 0.42, max(3, int(cell * 0.08))
    for sq in range(64):  # Ports: a wedge in their corner and their two walls
        x, y = origin(sq)
        for corner, side in position.ports[sq]:
            dx, dy = _CORNER_XY[corner]
            cx, cy = x + dx * cell, y + dy * cell
            sx, sy = (1 if dx == 0 else -1), (1 if dy == 0 else -1)  # towards the centre
            tri = np.array([[cx, cy], [cx + sx * wedge, cy], [cx, cy + sy * wedge]], np.int32)
            cv2.fillConvexPoly(img, tri, SIDE_BGR[side], cv2.LINE_AA)
            dark = _darker(SIDE_BGR[side])
            cv2.line(img, (cx, cy), (cx + sx * cell, cy), dark, wall)
            cv2.line(img, (cx, cy), (cx, cy + sy * cell), dark, wall)
    radius = int(cell * 0.27)
    for sq, pole in enumerate(position.poles):  # Poles on top
        if pole is None:
            continue
        x, y = origin(sq)
        centre = (x + cell // 2, y + cell // 2)
        cv2.circle(img, centre, radius, SIDE_BGR[pole], -1, cv2.LINE_AA)
        cv2.circle(img, centre, radius, _darker(SIDE_BGR[pole], 0.45), 2, cv2.LINE_AA)
        cv2.circle(img, (centre[0] - radius // 3, centre[1] - radius // 3), max(2, radius // 4),
                   _tint(SIDE_BGR[pole], 0.3), -1, cv2.LINE_AA)
    scale = cell / 150
    for f in range(8):
        name = square_name(square(f, 0))[0]
        _text(img, name, (margin + f * cell + cell // 2, top + 8 * cell + margin // 2),
              scale, centre=True)
    for r in range(8):
        _text(img, str(r + 1), (margin // 2, top + (7 - r) * cell + cell // 2), scale,
              centre=True)
    if caption:
        _text(img, caption, (margin, top - int(cell * 0.2)), cell / 130)
    return img


def _nice_step(span: float, ticks: int = 6) -> float:
    """1, 2 or 5 times a power of ten, giving about ``ticks`` steps over ``span``."""
    raw = max(span / ticks, 1e-9)
    power = 10 ** np.floor(np.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return float(m * power)
    return float(10 * power)


def _seconds_label(value: float) -> str:
    if value >= 120:
        return f"{int(value // 60)}:{int(value % 60):02d}"
    return f"{value:g}s"


def draw_timeline(match: Match, width: int = 960, height: int = 420,
                  caption: str = "") -> np.ndarray:
    """Time taken by each turn, a bar per turn in the colour of the side that played it."""
    if width < 320 or height < 200:
        raise MatchLogError(f"a timeline needs at least 320x200 px, got {width}x{height}")
    img = np.full((height, width, 3), WHITE, np.uint8)
    left, right, top, bottom = 64, width - 20, 56, height - 48
    turns = match.turns
    _text(img, caption or "time per turn", (left, 24), 0.6)
    longest = max((t.seconds for t in turns), default=0.0)
    step = _nice_step(max(longest, 1.0))
    ymax = step * max(1, int(np.ceil(max(longest, 1.0) / step)))

    def y_of(seconds: float) -> int:
        return round(bottom - (bottom - top) * seconds / ymax)

    k = 0
    while k * step <= ymax + 1e-9:  # horizontal grid and the seconds axis
        y = y_of(k * step)
        cv2.line(img, (left, y), (right, y), (225, 225, 225), 1)
        _text(img, _seconds_label(round(k * step, 6)), (8, y + 4), 0.4)
        k += 1
    cv2.line(img, (left, top), (left, bottom), LINE, 1)
    cv2.line(img, (left, bottom), (right, bottom), LINE, 1)
    if not turns:
        _text(img, "no turns yet", ((left + right) // 2, (top + bottom) // 2), 0.6,
              centre=True)
        return img
    slot = (right - left) / len(turns)
    every = max(1, int(np.ceil(len(turns) / 16)))
    for n, t in enumerate(turns, 1):
        x0 = left + (n - 1) * slot
        pad = slot * 0.15 if slot >= 4 else 0
        x1, x2 = round(x0 + pad), round(x0 + slot - pad) - 1
        cv2.rectangle(img, (x1, y_of(t.seconds)), (max(x1, x2), bottom), SIDE_BGR[t.side], -1)
        if n % every == 0 or n == 1:
            _text(img, str(n), (int(x0 + slot / 2), bottom + 14), 0.4, centre=True)
    _text(img, "turn", ((left + right) // 2, height - 12), 0.45, centre=True)
    entries = []
    for side in Side:  # legend with each side's median, right-aligned
        times = [t.seconds for t in turns if t.side is side]
        if times:
            name = (match.players.get(side.value) or side.value)[:16]
            label = f"{name}: median {statistics.median(times):.1f}s"
            entries.append((side, label, cv2.getTextSize(label, FONT, 0.45, 1)[0][0]))
    x = right - sum(w + 40 for _, _, w in entries) + 20
    for side, label, w in entries:
        cv2.rectangle(img, (x, 34), (x + 14, 46), SIDE_BGR[side], -1)
        _text(img, label, (x + 20, 45), 0.45)
        x += w + 40
    return img


def write_image(path: str | Path, image: np.ndarray) -> None:
    """Write ``image`` (PNG for ``.png``); a clear error when it cannot be written."""
    path = Path(path)
    try:
        ok = cv2.imwrite(str(path), image)
    except cv2.error as exc:
        raise MatchLogError(f"cannot write {path}: {str(exc).strip().splitlines()[-1]}") \
            from None
    if not ok:
        raise MatchLogError(f"cannot write {path} (is the folder there and writable?)")
