"""The Portal board: a hexagon of radius R in axial coordinates, colours, elements, variant.

Cells are ``(q, r)`` pairs written ``"q,r"``; CENTRUM is ``0,0``. The board is drawn
pointy-top with q growing to the east and r to the south-east (screen y downwards), so the
six directions below are listed clockwise as seen from above, starting east. Inside a
:class:`Position` cells are numbered (:class:`Geometry`); moves and messages use ``(q, r)``.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Any

from companion.rules.common import quoted
from companion.rules.errors import PositionError, RulesError, VariantError

Cell = tuple[int, int]

# Clockwise from east: E, SE, SW, W, NW, NE.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
CENTRUM: Cell = (0, 0)
MAX_ROLL = 8  # a K8 die
MIN_RADIUS, MAX_RADIUS = 2, 8

# START corners (indices into DIRECTIONS) per number of players, spread as evenly as possible.
START_CORNERS: dict[int, tuple[int, ...]] = {
    2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)}


def distance(a: Cell, b: Cell = CENTRUM) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Cell, b: Cell) -> bool:
    return distance(a, b) == 1


def cell_name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: object, radius: int | None = None) -> Cell:
    """``"2,-1"`` (spaces allowed) -> ``(2, -1)``; with ``radius``, off-board cells are refused.
    Raises :class:`PositionError` naming the text."""
    if isinstance(text, (list, tuple)) and len(text) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in text):
        cell: Cell = (text[0], text[1])
    else:
        parts = text.replace(" ", "").split(",") if isinstance(text, str) else []
        try:
            if len(parts) != 2:
                raise ValueError
            cell = (int(parts[0]), int(parts[1]))
        except ValueError:
            raise PositionError(f"unknown cell {quoted(text)}: cells are written q,r such as "
                                "'0,0' or '2,-1'") from None
    if radius is not None and distance(cell) > radius:
        raise PositionError(f"cell {cell_name(cell)} is off the board: it is "
                            f"{distance(cell)} steps from CENTRUM, the radius is {radius}")
    return cell


class Colour(enum.Enum):
    """A player's colour, or the black demons (variant ``demons``)."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    WHITE = "white"
    ORANGE = "orange"
    DEMON = "demon"

    @classmethod
    def parse(cls, value: object) -> Colour:
        if value == "black":
            return cls.DEMON  # the book's demons are black pawns
        try:
            return cls(value)
        except ValueError:
            raise PositionError(f"unknown colour {value!r}: colours are "
                                f"{', '.join(c.value for c in PALETTE)} and 'demon'") from None


PALETTE: tuple[Colour, ...] = tuple(c for c in Colour if c is not Colour.DEMON)


class Kind(enum.Enum):
    """What stands on a cell. CENTRUM and START are platforms too."""

    CENTRUM = "centrum"
    START = "start"
    PLATFORM = "platform"
    PORTAL = "portal"

    @property
    def is_platform(self) -> bool:
        return self is not Kind.PORTAL


@dataclass(frozen=True, slots=True)
class Geometry:
    """The cells of a radius-R board, numbered in (q, r) order, with their neighbours."""

    radius: int
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    neighbours: tuple[tuple[int, ...], ...]
    centre: int
    corners: tuple[int, ...]  # clockwise from east: the cells R * DIRECTIONS[i]

    def __hash__(self) -> int:
        return hash(self.radius)

    def name(self, i: int) -> str:
        return cell_name(self.cells[i])


@functools.cache
def geometry(radius: int) -> Geometry:
    cells = tuple(sorted((q, r) for q in range(-radius, radius + 1)
                         for r in range(-radius, radius + 1) if distance((q, r)) <= radius))
    index = {c: i for i, c in enumerate(cells)}
    neighbours = tuple(tuple(index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
                             if (q + dq, r + dr) in index) for q, r in cells)
    corners = tuple(index[(radius * dq, radius * dr)] for dq, dr in DIRECTIONS)
    return Geometry(radius, cells, index, neighbours, index[CENTRUM], corners)


@dataclass(frozen=True, slots=True)
class Variant:
    """Rules flags; see docs/rules/portal-hex.md. JSON lists only non-default flags."""

    radius: int = 4
    players: int = 2
    pawns: int = 6
    demons: bool = False
    per_platform: int = 1  # 0: no limit
    dice: bool = False

    def __post_init__(self) -> None:
        for name, lo, hi in (("radius", MIN_RADIUS, MAX_RADIUS), ("players", 2, 6),
                             ("pawns", 1, 99), ("per_platform", 0, 99)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise VariantError(f"{name} must be a whole number {lo}..{hi}, got {value!r}")
        for name in ("demons", "dice"):
            if not isinstance(getattr(self, name), bool):
                raise VariantError(f"{name} must be true or false, got {getattr(self, name)!r}")

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The players in turn order (clockwise), the first colours of the palette."""
        return PALETTE[:self.players]

    @property
    def geometry(self) -> Geometry:
        return geometry(self.radius)

    def start_cell(self, colour: Colour) -> Cell:
        """The colour's START: a corner of the hexagon, R steps from CENTRUM."""
        i = self.colours.index(colour)
        dq, dr = DIRECTIONS[START_CORNERS[self.players][i]]
        return (self.radius * dq, self.radius * dr)

    def next_player(self, colour: Colour) -> Colour:
        cols = self.colours
        return cols[(cols.index(colour) + 1) % len(cols)]

    def limit_allows(self, count: int) -> bool:
        """Whether a platform holding ``count`` pawns of one owner takes one more."""
        return self.per_platform == 0 or count < self.per_platform

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FLAGS
                if getattr(self, name) != getattr(DEFAULT_VARIANT, name)}

    @classmethod
    def from_json(cls, doc: object) -> Variant:
        if doc is None:
            return DEFAULT_VARIANT
        if not isinstance(doc, dict):
            raise VariantError(f"a variant must be a JSON object, got {doc!r}")
        unknown = set(doc) - set(_FLAGS)
        if unknown:
            raise VariantError(f"unknown variant flag(s) {sorted(unknown)!r}: flags are "
                               f"{', '.join(_FLAGS)}")
        return cls(**doc)


_FLAGS = ("radius", "players", "pawns", "demons", "per_platform", "dice")
DEFAULT_VARIANT = Variant()


def check_roll(variant: Variant, roll: int | None) -> None:
    """A K8 roll is only given in the ``dice`` variant, and shows 1 to 8."""
    if roll is None:
        return
    if not variant.dice:
        raise RulesError(f"die roll {roll!r} given, but this game is played without the K8 "
                         "die (variant flag 'dice' is off)")
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= MAX_ROLL:
        raise RulesError(f"die roll {roll!r}: the K8 die shows 1 to {MAX_ROLL}")
