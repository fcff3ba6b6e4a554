"""The Teleporters mat: squares, sides, corners, edges, and the layout of Telepads and Portpads.

Squares are ints 0..63, ``file + 8 * rank`` with a1 = 0 at the south-west and h8 = 63 (the
python-chess convention). ``south`` plays up the board from rank 1, ``north`` down from rank 8.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.common import Side
from companion.rules.errors import PositionError, VariantError

Square = int
SQUARES: tuple[Square, ...] = tuple(range(64))
FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"


def square(file: int, rank: int) -> Square:
    return file + 8 * rank


def square_file(sq: Square) -> int:
    return sq & 7


def square_rank(sq: Square) -> int:
    return sq >> 3


def square_name(sq: Square) -> str:
    return FILE_NAMES[sq & 7] + RANK_NAMES[sq >> 3]


def parse_square(name: object) -> Square:
    """``"a1"`` -> 0. Raises :class:`PositionError` naming the value for anything else."""
    if (
        not isinstance(name, str)
        or len(name) != 2
        or name[0] not in FILE_NAMES
        or name[1] not in RANK_NAMES
    ):
        raise PositionError(f"unknown square {name!r}: squares are a1..h8")
    return FILE_NAMES.index(name[0]) + 8 * RANK_NAMES.index(name[1])


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(s) for s in SQUARES)


class Edge(enum.Enum):
    """The four edges of a space, and the four directions a piece steps or glides in."""

    NORTH = (0, 1)
    SOUTH = (0, -1)
    EAST = (1, 0)
    WEST = (-1, 0)

    @property
    def opposite(self) -> Edge:
        return _OPPOSITE_EDGE[self]


_OPPOSITE_EDGE = {
    Edge.NORTH: Edge.SOUTH,
    Edge.SOUTH: Edge.NORTH,
    Edge.EAST: Edge.WEST,
    Edge.WEST: Edge.EAST,
}
EDGES: tuple[Edge, ...] = (Edge.NORTH, Edge.SOUTH, Edge.EAST, Edge.WEST)


class Corner(enum.Enum):
    """Where a Port stands in a space: its two walls lie on this corner's two edges."""

    SW = "sw"
    SE = "se"
    NW = "nw"
    NE = "ne"

    @property
    def walls(self) -> frozenset[Edge]:
        return _WALLS[self]

    @property
    def opposite(self) -> Corner:
        return _OPPOSITE_CORNER[self]

    @classmethod
    def parse(cls, value: object) -> Corner:
        try:
            return cls(value)
        except ValueError:
            raise PositionError(
                f"unknown corner {value!r}: corners are 'ne', 'nw', 'se' and 'sw'"
            ) from None


_WALLS = {
    Corner.SW: frozenset({Edge.SOUTH, Edge.WEST}),
    Corner.SE: frozenset({Edge.SOUTH, Edge.EAST}),
    Corner.NW: frozenset({Edge.NORTH, Edge.WEST}),
    Corner.NE: frozenset({Edge.NORTH, Edge.EAST}),
}
_OPPOSITE_CORNER = {
    Corner.SW: Corner.NE,
    Corner.NE: Corner.SW,
    Corner.SE: Corner.NW,
    Corner.NW: Corner.SE,
}
CORNERS: tuple[Corner, ...] = (Corner.SW, Corner.SE, Corner.NW, Corner.NE)


def walls_overlap(a: Corner, b: Corner) -> bool:
    """Two Ports in one space clash unless they stand in opposite corners."""
    return bool(a.walls & b.walls)


class Diagonal(enum.Enum):
    """A Teleport's orientation: which pair of opposite corners its two Ports stand in."""

    SWNE = "swne"
    NWSE = "nwse"

    @property
    def corners(self) -> tuple[Corner, Corner]:
        return (Corner.SW, Corner.NE) if self is Diagonal.SWNE else (Corner.NW, Corner.SE)

    @property
    def other(self) -> Diagonal:
        return Diagonal.NWSE if self is Diagonal.SWNE else Diagonal.SWNE

    @classmethod
    def of(cls, corner: Corner) -> Diagonal:
        return cls.SWNE if corner in (Corner.SW, Corner.NE) else cls.NWSE


def _neighbour(sq: Square, edge: Edge) -> Square | None:
    f, r = square_file(sq) + edge.value[0], square_rank(sq) + edge.value[1]
    return square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


NEIGHBOURS: tuple[dict[Edge, Square | None], ...] = tuple(
    {e: _neighbour(s, e) for e in EDGES} for s in SQUARES
)
TELEPAD_ROWS = frozenset({0, 7})


def in_telepad_row(sq: Square) -> bool:
    return square_rank(sq) in TELEPAD_ROWS


def wrap_square(sq: Square, edge: Edge) -> Square | None:
    """Where a Pole re-enters when it steps off the a- or h-file through ``edge``."""
    f = square_file(sq)
    if edge is Edge.WEST and f == 0:
        return sq + 7
    if edge is Edge.EAST and f == 7:
        return sq - 7
    return None


# ----------------------------------------------------------------------------------------------
# Layout and variant flags


@dataclass(frozen=True, slots=True)
class Portpad:
    square: Square
    side: Side
    corner: Corner  # the striped start corner


DEFAULT_HOME_TELEPADS: Mapping[Side, tuple[Square, ...]] = {
    Side.SOUTH: tuple(parse_square(n) for n in ("c1", "d1", "e1", "f1")),
    Side.NORTH: tuple(parse_square(n) for n in ("c8", "d8", "e8", "f8")),
}
DEFAULT_PORTPADS: tuple[Portpad, ...] = tuple(
    Portpad(parse_square(n), side, corner)
    for n, side, corner in (
        ("b2", Side.SOUTH, Corner.SW),
        ("c3", Side.SOUTH, Corner.SW),
        ("f3", Side.SOUTH, Corner.SE),
        ("g2", Side.SOUTH, Corner.SE),
        ("b7", Side.NORTH, Corner.NW),
        ("c6", Side.NORTH, Corner.NW),
        ("f6", Side.NORTH, Corner.NE),
        ("g7", Side.NORTH, Corner.NE),
    )
)


class SendMarker(enum.Enum):
    """Which marker a Teleport's sending of its own Pole costs (the book says both)."""

    POLE = "pole"  # a Pole teleport from its Teleport: "Teleporting" under Pole movements
    PORT = "port"  # a Teleport move: "all but the Pole Vault cost one Port Marker"
    EITHER = "either"


class WrapRows(enum.Enum):
    """On which ranks a Pole may wrap around from the a-file to the h-file and back."""

    ALL = "all"  # "on any spaces of the board" (walking) read together with wrap-around
    QUADRANTS = "quadrants"  # "a Pole on an edge quadrant": ranks 2-7 only


class Carry(enum.Enum):
    """Whether a gliding Teleport must take the same-side Pole standing inside it."""

    OPTIONAL = "optional"  # "a Teleport can give ... a free ride"
    ALWAYS = "always"  # sliding the box pushes the Pole along


@dataclass(frozen=True, slots=True)
class Variant:
    """The house rules in force: the mat layout (as data) and the disputed readings."""

    home_telepads: Mapping[Side, tuple[Square, ...]] = field(
        default_factory=lambda: dict(DEFAULT_HOME_TELEPADS)
    )
    portpads: tuple[Portpad, ...] = DEFAULT_PORTPADS
    send_marker: SendMarker = SendMarker.POLE
    wrap_rows: WrapRows = WrapRows.ALL
    carry: Carry = Carry.OPTIONAL

    def __post_init__(self) -> None:
        for side in Side:
            pads = self.home_telepads.get(side, ())
            if len(pads) != 4 or len(set(pads)) != 4:
                raise VariantError(f"{side.value} needs four distinct Home Telepads, got {pads!r}")
            if any(not in_telepad_row(s) for s in pads):
                raise VariantError(f"{side.value}'s Home Telepads must lie in row 1 or 8")
        seen: set[Square] = set()
        for pad in self.portpads:
            if in_telepad_row(pad.square):
                raise VariantError(f"Portpad {square_name(pad.square)} lies in a Telepad row")
            if pad.square in seen:
                raise VariantError(f"Portpad {square_name(pad.square)} is listed twice")
            seen.add(pad.square)
        for side in Side:
            if sum(1 for p in self.portpads if p.side is side) != 4:
                raise VariantError(f"{side.value} needs four Portpads")
        if set(self.home_telepads[Side.SOUTH]) & set(self.home_telepads[Side.NORTH]):
            raise VariantError("the two sides' Home Telepads overlap")

    def __hash__(self) -> int:
        return hash((self.portpads, self.send_marker, self.wrap_rows, self.carry,
                     tuple(self.home_telepads[s] for s in Side)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return (self.portpads == other.portpads and self.send_marker is other.send_marker
                and self.wrap_rows is other.wrap_rows and self.carry is other.carry
                and all(self.home_telepads[s] == other.home_telepads[s] for s in Side))

    def home(self, side: Side) -> tuple[Square, ...]:
        return self.home_telepads[side]

    def goal(self, side: Side) -> tuple[Square, ...]:
        return self.home_telepads[side.opponent]

    def portpads_of(self, side: Side) -> tuple[Portpad, ...]:
        return tuple(p for p in self.portpads if p.side is side)

    def portpad_at(self, sq: Square) -> Portpad | None:
        for p in self.portpads:
            if p.square == sq:
                return p
        return None

    def may_wrap(self, sq: Square) -> bool:
        return self.wrap_rows is WrapRows.ALL or not in_telepad_row(sq)

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_VARIANT

    # -- JSON: only what differs from the default is written ------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.send_marker is not SendMarker.POLE:
            out["send_marker"] = self.send_marker.value
        if self.wrap_rows is not WrapRows.ALL:
            out["wrap_rows"] = self.wrap_rows.value
        if self.carry is not Carry.OPTIONAL:
            out["carry"] = self.carry.value
        if self.portpads != DEFAULT_PORTPADS:
            out["portpads"] = {
                square_name(p.square): {"side": p.side.value, "corner": p.corner.value}
                for p in self.portpads
            }
        if any(self.home_telepads[s] != DEFAULT_HOME_TELEPADS[s] for s in Side):
            out["home_telepads"] = {
                s.value: [square_name(q) for q in self.home_telepads[s]] for s in Side
            }
        return out

    @classmethod
    def from_json(cls, doc: object) -> Variant:
        if doc is None:
            return DEFAULT_VARIANT
        if not isinstance(doc, dict):
            raise VariantError(f"variant must be a JSON object, got {doc!r}")
        unknown = set(doc) - {"send_marker", "wrap_rows", "carry", "portpads", "home_telepads"}
        if unknown:
            raise VariantError(f"unknown variant flag(s) {sorted(unknown)!r}")
        kwargs: dict[str, Any] = {}
        for key, enum_type in (("send_marker", SendMarker), ("wrap_rows", WrapRows),
                               ("carry", Carry)):
            if key in doc:
                try:
                    kwargs[key] = enum_type(doc[key])
                except ValueError:
                    allowed = ", ".join(m.value for m in enum_type)
                    raise VariantError(
                        f"variant {key}={doc[key]!r} is not one of: {allowed}"
                    ) from None
        try:
            if "portpads" in doc:
                pads = doc["portpads"]
                if not isinstance(pads, dict):
                    raise VariantError(f"variant portpads must be an object, got {pads!r}")
                kwargs["portpads"] = tuple(
                    Portpad(parse_square(name), Side.parse(spec.get("side")),
                            Corner.parse(spec.get("corner")))
                    for name, spec in pads.items()
                    if isinstance(spec, dict) or _bad_pad(name, spec)
                )
            if "home_telepads" in doc:
                hp = doc["home_telepads"]
                if not isinstance(hp, dict) or set(hp) != {"south", "north"}:
                    raise VariantError(f"variant home_telepads needs south and north, got {hp!r}")
                kwargs["home_telepads"] = {
                    Side.parse(k): tuple(parse_square(n) for n in v) for k, v in hp.items()
                }
        except PositionError as exc:
            raise VariantError(f"variant: {exc}") from None
        return cls(**kwargs)

    @classmethod
    def from_flags(cls, flags: Iterable[str], base: Variant | None = None) -> Variant:
        """``["send_marker=either", "wrap_rows=quadrants"]`` on top of ``base``."""
        doc = (base or DEFAULT_VARIANT).to_json()
        for flag in flags:
            key, sep, value = flag.partition("=")
            if not sep:
                raise VariantError(f"variant flag {flag!r} must look like key=value")
            doc[key.strip().replace("-", "_")] = value.strip()
        return cls.from_json(doc)


def _bad_pad(name: str, spec: object) -> bool:
    raise VariantError(f"Portpad {name!r} needs {{'side': ..., 'corner': ...}}, got {spec!r}")


DEFAULT_VARIANT = Variant()
