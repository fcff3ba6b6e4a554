"""BoardView: the 8x8 mat drawn from the position, with the referee's highlights.

Drawn in layers on the widget's canvas: the mat (Telepads with their spots, Portpad stripes
from the position's variant, Quadrant centres, grid, coordinates), the space highlights (the
moves of the turn, the last turn, restore, unsure; illegal spaces flashing red), the pieces
(Ports as L-shaped walls in their corner, Teleports as closed boxes, Poles as discs), and a red
frame over illegal spaces so a Teleport standing there cannot hide it.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.kvload import load_kv
from companion.app.model import Screen
from companion.rules.teleporters import Corner, Position, Side, parse_square, square_name

Point = tuple[float, float]


def _l_shape(corner: Corner, inset: float, thick: float) -> list[Point]:
    """The outline of a Port's two walls in ``corner``, in the space's unit coordinates
    (u east, v north): drawn for ``sw`` and mirrored for the other corners."""
    e, t = inset, inset + thick
    pts = [(e, e), (1 - e, e), (1 - e, t), (t, t), (t, 1 - e), (e, 1 - e)]
    east = corner in (Corner.SE, Corner.NE)
    north = corner in (Corner.NW, Corner.NE)
    return [(1 - u if east else u, 1 - v if north else v) for u, v in pts]


def _l_rects(corner: Corner, inset: float, thick: float) -> list[tuple[Point, Point]]:
    """The same L as two rectangles (opposite corners, unit coordinates) for filling."""
    e, t = inset, inset + thick
    rects = [((e, e), (1 - e, t)), ((e, e), (t, 1 - e))]
    east = corner in (Corner.SE, Corner.NE)
    north = corner in (Corner.NW, Corner.NE)

    def m(p: Point) -> Point:
        return (1 - p[0] if east else p[0], 1 - p[1] if north else p[1])

    return [(m(a), m(b)) for a, b in rects]


class BoardView(Widget):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    flipped = BooleanProperty(False)  # north's side at the bottom, for a player sitting north
    margin = NumericProperty(22)  # the band for the coordinates, left and below (board.kv)
    border = NumericProperty(6)  # the mat's printed border round the grid (board.kv)
    flash_on = BooleanProperty(True)  # the illegal spaces' flash phase

    def __init__(self, **kwargs: object) -> None:
        self._flash_fill = Color(*theme.ILLEGAL)
        self._flash_edge = Color(*theme.ILLEGAL)
        self._flash_event: object | None = None
        self._labels: dict[tuple[str, int], Texture] = {}
        super().__init__(**kwargs)
        self._redraw_trigger = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_trigger, size=self._redraw_trigger,
                  screen=self._redraw_trigger, flipped=self._redraw_trigger)

    # --- geometry (also for tests: where a square is on the window) ------------------------

    @property
    def cell(self) -> float:
        return max(0.0, min(self.width, self.height) - self.margin - 2 * self.border) / 8

    @property
    def origin(self) -> Point:
        """The grid's south-west corner (as drawn) in widget coordinates."""
        extent = self.margin + 2 * self.border + 8 * self.cell
        return (self.x + (self.width - extent) / 2 + self.margin + self.border,
                self.y + (self.height - extent) / 2 + self.margin + self.border)

    def point(self, name: str, u: float = 0.5, v: float = 0.5) -> Point:
        """Window coordinates of the point (u east, v north) inside square ``name``."""
        sq = parse_square(name)
        f, r = sq & 7, sq >> 3
        if self.flipped:
            f, r, u, v = 7 - f, 7 - r, 1 - u, 1 - v
        x0, y0 = self.origin
        return self.to_window(x0 + (f + u) * self.cell, y0 + (r + v) * self.cell)

    def _local(self, name: str) -> Callable[[float, float], Point]:
        sq = parse_square(name)
        f, r = sq & 7, sq >> 3
        x0, y0 = self.origin
        c = self.cell
        if self.flipped:
            return lambda u, v: (x0 + (8 - f - u) * c, y0 + (8 - r - v) * c)
        return lambda u, v: (x0 + (f + u) * c, y0 + (r + v) * c)

    def _rect(self, name: str, a: Point = (0, 0), b: Point = (1, 1)) -> Rectangle:
        xy = self._local(name)
        (xa, ya), (xb, yb) = xy(*a), xy(*b)
        return Rectangle(pos=(min(xa, xb), min(ya, yb)), size=(abs(xb - xa), abs(yb - ya)))

    # --- drawing ---------------------------------------------------------------------------

    def on_screen(self, _widget: BoardView, screen: Screen | None) -> None:
        flashing = bool(screen and screen.highlights.illegal)
        if flashing and self._flash_event is None:
            self.flash_on = True
            self._flash_event = Clock.schedule_interval(self._flash, theme.FLASH_PERIOD)
        elif not flashing and self._flash_event is not None:
            Clock.unschedule(self._flash_event)
            self._flash_event = None

    def _flash(self, _dt: float) -> None:
        self.flash_on = not self.flash_on

    def on_flash_on(self, _widget: BoardView, on: bool) -> None:
        alpha = theme.ILLEGAL_ALPHA[0 if on else 1]
        self._flash_fill.a = alpha
        self._flash_edge.a = alpha

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        if self.cell <= 0:
            return
        position = self.screen.position if self.screen else Position.start()
        with self.canvas:
            self._draw_mat(position)
        self.canvas.add(self._draw_highlights())
        with self.canvas:
            self._draw_pieces(position)
        self.canvas.add(self._draw_illegal_frames())

    def _draw_mat(self, position: Position) -> None:
        c, (x0, y0) = self.cell, self.origin
        Color(*theme.MAT_BORDER)
        pad = self.border
        Rectangle(pos=(x0 - pad, y0 - pad), size=(8 * c + 2 * pad, 8 * c + 2 * pad))
        Color(*theme.MAT)
        Rectangle(pos=(x0, y0), size=(8 * c, 8 * c))
        variant = position.variant
        telepads = {sq: side for side in Side for sq in variant.home(side)}
        for sq in range(64):
            name = square_name(sq)
            side = telepads.get(sq)
            if side is not None:  # a Telepad: a square of its colour with a round spot
                Color(*theme.PAD[side][:3], theme.PAD_TINT_ALPHA)
                self._rect(name, (0.06, 0.06), (0.94, 0.94))
                Color(*theme.PAD[side])
                cx, cy = self._local(name)(0.5, 0.5)
                Ellipse(pos=(cx - 0.17 * c, cy - 0.17 * c), size=(0.34 * c, 0.34 * c))
                continue
            pad_here = variant.portpad_at(sq)
            if pad_here is not None:  # a Portpad: the stripe where its Port starts
                Color(*theme.PAD[pad_here.side][:3], theme.STRIPE_ALPHA)
                for a, b in _l_rects(pad_here.corner, 0.0, theme.STRIPE):
                    self._rect(name, a, b)
            Color(*theme.CENTRE)
            self._rect(name, (0.37, 0.37), (0.63, 0.63))
        Color(*theme.GRID_LINE)
        for i in range(9):
            Line(points=[x0 + i * c, y0, x0 + i * c, y0 + 8 * c], width=1)
            Line(points=[x0, y0 + i * c, x0 + 8 * c, y0 + i * c], width=1)
        self._draw_coordinates()

    def _label(self, text: str, size: int) -> Texture:
        key = (text, size)
        if key not in self._labels:
            label = CoreLabel(text=text, font_size=size, bold=True)
            label.refresh()
            self._labels[key] = label.texture
        return self._labels[key]

    def _draw_coordinates(self) -> None:
        c, (x0, y0) = self.cell, self.origin
        size = int(max(sp(11), min(self.margin * 0.75, c * 0.3)))
        band = self.border + self.margin / 2  # from the grid to the middle of the band
        Color(*theme.TEXT_DIM)
        for i in range(8):
            j = 7 - i if self.flipped else i
            tex = self._label(square_name(j)[0], size)
            Rectangle(texture=tex, size=tex.size,
                      pos=(x0 + (i + 0.5) * c - tex.width / 2, y0 - band - tex.height / 2))
            tex = self._label(str(j + 1), size)
            Rectangle(texture=tex, size=tex.size,
                      pos=(x0 - band - tex.width / 2, y0 + (i + 0.5) * c - tex.height / 2))

    def _draw_highlights(self) -> InstructionGroup:
        group = InstructionGroup()
        if self.screen is None:
            return group
        h = self.screen.highlights
        for names, colour in ((h.last_turn, theme.LAST_TURN), (h.move_from, theme.MOVE_FROM),
                              (h.move_to, theme.MOVE_TO), (h.win, theme.WIN)):
            group.add(Color(*colour))
            for name in names:
                group.add(self._rect(name))
        if h.illegal:
            group.add(self._flash_fill)
            self.on_flash_on(self, self.flash_on)
            for name in h.illegal:
                group.add(self._rect(name))
        for names, colour in ((h.restore, theme.RESTORE), (h.unsure, theme.UNSURE)):
            group.add(Color(*colour))
            for name in names:  # a band inside the square, so the red stays visible around it
                group.add(self._rect(name, (0.1, 0.1), (0.9, 0.9)))
        return group

    def _draw_illegal_frames(self) -> InstructionGroup:
        group = InstructionGroup()
        if self.screen is None or not self.screen.highlights.illegal:
            return group
        group.add(self._flash_edge)
        width = max(2.0, self.cell * 0.05)
        for name in self.screen.highlights.illegal:
            x, y = self._local(name)(0, 0) if not self.flipped else self._local(name)(1, 1)
            group.add(Line(rectangle=(x + width, y + width, self.cell - 2 * width,
                                      self.cell - 2 * width), width=width))
        return group

    def _draw_pieces(self, position: Position) -> None:
        c = self.cell
        for sq in range(64):
            name = square_name(sq)
            ports = position.ports[sq]
            teleport = position.teleport_at(sq)
            if teleport is not None:  # a closed box: tint its inside so it reads as one piece
                Color(*theme.PIECE[teleport][:3], theme.TELEPORT_FILL_ALPHA)
                self._rect(name, (0.04, 0.04), (0.96, 0.96))
            for corner, side in ports:
                Color(*theme.PIECE[side])
                for a, b in _l_rects(corner, 0.04, theme.WALL):
                    self._rect(name, a, b)
                Color(*theme.PIECE_EDGE)
                xy = self._local(name)
                pts = [coord for u, v in _l_shape(corner, 0.04, theme.WALL) for coord in xy(u, v)]
                Line(points=pts, close=True, width=1.1)
            pole = position.poles[sq]
            if pole is not None:
                cx, cy = self._local(name)(0.5, 0.5)
                r = theme.POLE_DIAMETER * c / 2
                Color(*theme.PIECE[pole])
                Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
                Color(*theme.PIECE_EDGE)
                Line(circle=(cx, cy, r), width=1.4)
                Color(1, 1, 1, 0.35)  # a highlight on the Pole's top: it stands up
                Ellipse(pos=(cx - r * 0.45, cy + r * 0.05), size=(r * 0.6, r * 0.4))


load_kv(__file__)

__all__ = ["BoardView"]
