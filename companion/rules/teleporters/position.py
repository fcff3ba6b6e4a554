"""A Teleporters position: which Pole stands on which space, which Ports in which corners.

A position is anything a camera could see on a real mat. Illegal-but-possible layouts (a Port
in a Telepad row, a missing Pole, two colours of Port in one space) are valid positions, judged
illegal by :func:`explain`; only what cannot stand on a mat (two Poles in one space, Port walls
on top of each other, unknown squares) raises :class:`PositionError`.

JSON form::

    {"game": "teleporters", "to_move": "south",
     "poles": {"c1": "south", ...},
     "ports": [{"square": "b2", "side": "south", "corner": "sw"}, ...],
     "variant": {...}}            # only when not the default rules

Text form (like FEN): ranks 8 to 1 separated by ``/``; a digit is a run of empty spaces;
``P``/``p`` is a south/north Pole alone; a space with Ports is bracketed: an optional Pole
letter, then each Port as its corner, upper case for south, lower case for north. Then the side
to move, then variant flags (``key=value``) when not the default::

    2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/8/2[SW]2[SE]2/1[SW]4[SE]1/2PPPP2 south
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.common import position_object, quoted
from companion.rules.errors import PositionError, VariantError
from companion.rules.teleporters.board import (
    CORNERS,
    DEFAULT_VARIANT,
    SQUARE_NAMES,
    Corner,
    Diagonal,
    Portpad,
    Side,
    Square,
    Variant,
    parse_square,
    square,
    square_name,
    walls_overlap,
)

PortsInSpace = tuple[tuple[Corner, Side], ...]  # sorted by corner order, at most two
_CORNER_ORDER = {c: i for i, c in enumerate(CORNERS)}
_EMPTY: PortsInSpace = ()


def _sorted_ports(ports: list[tuple[Corner, Side]]) -> PortsInSpace:
    return tuple(sorted(ports, key=lambda cs: _CORNER_ORDER[cs[0]]))


@dataclass(frozen=True, slots=True)
class Placement:
    """One Port: where it stands and whose it is."""

    square: Square
    corner: Corner
    side: Side

    def __str__(self) -> str:
        return f"{self.side.value} Port {square_name(self.square)}{self.corner.value}"


@dataclass(frozen=True, slots=True)
class Position:
    """Board contents plus the side to move and the rules variant in force.

    ``poles[sq]`` is the side of the Pole on ``sq`` or None; ``ports[sq]`` the Ports there as
    ``(corner, side)`` pairs in corner order. Both are 64-tuples indexed by square.
    """

    poles: tuple[Side | None, ...]
    ports: tuple[PortsInSpace, ...]
    to_move: Side = Side.SOUTH
    variant: Variant = field(default=DEFAULT_VARIANT, compare=True)

    def __post_init__(self) -> None:
        if len(self.poles) != 64 or len(self.ports) != 64:
            raise PositionError("a position needs 64 spaces")
        for sq, here in enumerate(self.ports):
            if len(here) > 2:
                raise PositionError(
                    f"{len(here)} Ports in {square_name(sq)}: at most two fit in a space"
                )
            if len(here) == 2 and walls_overlap(here[0][0], here[1][0]):
                raise PositionError(
                    f"Ports in {square_name(sq)} at {here[0][0].value} and {here[1][0].value}"
                    " would stand on each other's walls"
                )

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def empty(cls, to_move: Side = Side.SOUTH, variant: Variant = DEFAULT_VARIANT) -> Position:
        return cls((None,) * 64, (_EMPTY,) * 64, to_move, variant)

    @classmethod
    def start(cls, variant: Variant = DEFAULT_VARIANT, to_move: Side = Side.SOUTH) -> Position:
        """Setting up: Poles on the Home Telepads, Ports on the stripes of their Portpads."""
        poles: list[Side | None] = [None] * 64
        ports: list[PortsInSpace] = [_EMPTY] * 64
        for side in Side:
            for sq in variant.home(side):
                poles[sq] = side
        for pad in variant.portpads:
            ports[pad.square] = ((pad.corner, pad.side),)
        return cls(tuple(poles), tuple(ports), to_move, variant)

    @classmethod
    def from_pieces(
        cls,
        poles: Mapping[Square, Side],
        ports: list[Placement] | tuple[Placement, ...],
        to_move: Side = Side.SOUTH,
        variant: Variant = DEFAULT_VARIANT,
    ) -> Position:
        pole_list: list[Side | None] = [None] * 64
        for sq, side in poles.items():
            pole_list[sq] = side
        by_square: dict[Square, list[tuple[Corner, Side]]] = {}
        for p in ports:
            here = by_square.setdefault(p.square, [])
            if any(c is p.corner for c, _ in here):
                raise PositionError(f"two Ports in the {p.corner.value} corner of "
                                    f"{square_name(p.square)}")
            here.append((p.corner, p.side))
        port_list = [_EMPTY] * 64
        for sq, here in by_square.items():
            port_list[sq] = _sorted_ports(here)
        return cls(tuple(pole_list), tuple(port_list), to_move, variant)

    def replace(self, **changes: Any) -> Position:
        return dataclasses.replace(self, **changes)

    # -- queries ---------------------------------------------------------------------------------

    def board_key(self) -> tuple[tuple[Side | None, ...], tuple[PortsInSpace, ...]]:
        """What a camera sees: the pieces, without the side to move or the variant."""
        return (self.poles, self.ports)

    def same_board(self, other: Position) -> bool:
        return self.poles == other.poles and self.ports == other.ports

    def pole_squares(self, side: Side) -> frozenset[Square]:
        return frozenset(sq for sq, s in enumerate(self.poles) if s is side)

    def placements(self, side: Side | None = None) -> frozenset[Placement]:
        return frozenset(
            Placement(sq, c, s)
            for sq, here in enumerate(self.ports)
            for c, s in here
            if side is None or s is side
        )

    def teleport_at(self, sq: Square) -> Side | None:
        """The side whose two Ports box ``sq`` in (opposite corners, same colour), if any."""
        here = self.ports[sq]
        if len(here) == 2 and here[0][1] is here[1][1]:
            return here[0][1]
        return None

    def teleports(self, side: Side) -> Iterator[tuple[Square, Diagonal]]:
        for sq, here in enumerate(self.ports):
            if len(here) == 2 and here[0][1] is side and here[1][1] is side:
                yield sq, Diagonal.of(here[0][0])

    def winner(self) -> Side | None:
        """The side with all four of its Poles on its Goal Telepads."""
        for side in Side:
            goal = self.variant.goal(side)
            if all(self.poles[sq] is side for sq in goal):
                return side
        return None

    def free_home_telepads(self, side: Side) -> tuple[Square, ...]:
        return tuple(sq for sq in self.variant.home(side) if self.poles[sq] is None)

    def free_portpads(self, side: Side) -> tuple[Portpad, ...]:
        """Home Portpads a returned Port may go to: no Port stands anywhere on them."""
        return tuple(p for p in self.variant.portpads_of(side) if not self.ports[p.square])

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "game": "teleporters",
            "to_move": self.to_move.value,
            "poles": {SQUARE_NAMES[sq]: s.value for sq, s in enumerate(self.poles) if s},
            "ports": [
                {"square": SQUARE_NAMES[sq], "side": s.value, "corner": c.value}
                for sq, here in enumerate(self.ports)
                for c, s in here
            ],
        }
        if not self.variant.is_default:
            doc["variant"] = self.variant.to_json()
        return doc

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: object) -> Position:
        doc = position_object(doc, "teleporters", ("poles", "ports", "variant"))
        try:
            variant = Variant.from_json(doc.get("variant"))
        except VariantError as exc:
            raise PositionError(str(exc)) from None
        to_move = Side.parse(doc.get("to_move", "south"))
        raw_poles = doc.get("poles", {})
        if not isinstance(raw_poles, dict):
            raise PositionError(f"'poles' must map squares to sides, got {raw_poles!r}")
        poles = {parse_square(k): Side.parse(v) for k, v in raw_poles.items()}
        raw_ports = doc.get("ports", [])
        if not isinstance(raw_ports, list):
            raise PositionError(f"'ports' must be a list, got {raw_ports!r}")
        ports = []
        for item in raw_ports:
            if not isinstance(item, dict) or set(item) != {"square", "side", "corner"}:
                raise PositionError(
                    f"each Port needs exactly square, side and corner, got {item!r}"
                )
            ports.append(Placement(parse_square(item["square"]), Corner.parse(item["corner"]),
                                   Side.parse(item["side"])))
        return cls.from_pieces(poles, ports, to_move, variant)

    # -- text ------------------------------------------------------------------------------------

    def to_text(self) -> str:
        ranks = []
        for rank in range(7, -1, -1):
            out, run = [], 0
            for file in range(8):
                token = self._square_token(square(file, rank))
                if not token:
                    run += 1
                    continue
                if run:
                    out.append(str(run))
                    run = 0
                out.append(token)
            if run:
                out.append(str(run))
            ranks.append("".join(out))
        parts = ["/".join(ranks), self.to_move.value]
        flags = self.variant.to_json()
        for key in ("send_marker", "wrap_rows", "carry"):
            if key in flags:
                parts.append(f"{key}={flags[key]}")
        if "portpads" in flags:
            pads = ",".join(
                square_name(p.square) + _port_letters(p.corner, p.side)
                for p in self.variant.portpads
            )
            parts.append(f"portpads={pads}")
        if "home_telepads" in flags:
            homes = ",".join(
                f"{s.value}:" + "".join(square_name(q) for q in self.variant.home(s))
                for s in Side
            )
            parts.append(f"home_telepads={homes}")
        return " ".join(parts)

    def _square_token(self, sq: Square) -> str:
        pole, here = self.poles[sq], self.ports[sq]
        letter = "" if pole is None else ("P" if pole is Side.SOUTH else "p")
        if not here:
            return letter
        return "[" + letter + "".join(_port_letters(c, s) for c, s in here) + "]"

    @classmethod
    def from_text(cls, text: str) -> Position:
        fields = text.split()
        if len(fields) < 2:
            raise PositionError(f"position text {quoted(text)} needs the board and the side "
                                "to move")
        board, to_move_name, *flag_fields = fields
        ranks = board.split("/")
        if len(ranks) != 8:
            raise PositionError(f"position text {board!r} needs 8 ranks, has {len(ranks)}")
        poles: dict[Square, Side] = {}
        ports: list[Placement] = []
        for i, rank_text in enumerate(ranks):
            rank = 7 - i
            file = 0
            for m in _TOKEN.finditer(rank_text):
                if m.group("bad"):
                    raise PositionError(f"unexpected {m.group('bad')!r} in rank {rank + 1} "
                                        f"of {board!r}")
                if m.group("run"):
                    file += int(m.group("run"))
                    continue
                if file >= 8:
                    raise PositionError(f"rank {rank + 1} of {board!r} has more than 8 spaces")
                sq = square(file, rank)
                pole_letter = m.group("pole") or m.group("bpole")
                if pole_letter:
                    poles[sq] = Side.SOUTH if pole_letter == "P" else Side.NORTH
                for pm in _PORT.finditer(m.group("bports") or ""):
                    if pm.group("pbad"):
                        raise PositionError(f"unknown Port {pm.group('pbad')!r} in "
                                            f"{square_name(sq)}")
                    ptext = pm.group("port")
                    side = Side.SOUTH if ptext.isupper() else Side.NORTH
                    ports.append(Placement(sq, Corner.parse(ptext.lower()), side))
                file += 1
            if file != 8:
                raise PositionError(f"rank {rank + 1} of {board!r} has {file} spaces, not 8")
        doc: dict[str, Any] = {}
        for flag in flag_fields:
            key, sep, value = flag.partition("=")
            if not sep:
                raise PositionError(f"unexpected {flag!r} after the side to move")
            if key == "portpads":
                doc[key] = {}
                for item in value.split(","):
                    if len(item) != 4:
                        raise PositionError(f"Portpad {item!r} should look like b2SW")
                    side = Side.SOUTH if item[2:].isupper() else Side.NORTH
                    doc[key][item[:2]] = {"side": side.value, "corner": item[2:].lower()}
            elif key == "home_telepads":
                doc[key] = {}
                for item in value.split(","):
                    name, _, squares = item.partition(":")
                    doc[key][name] = [squares[j:j + 2] for j in range(0, len(squares), 2)]
            else:
                doc[key] = value
        try:
            variant = Variant.from_json(doc or None)
        except VariantError as exc:
            raise PositionError(str(exc)) from None
        return cls.from_pieces(poles, ports, Side.parse(to_move_name), variant)

    def __str__(self) -> str:
        return self.to_text()

    def diagram(self) -> str:
        """A plain-text picture, rank 8 on top, for terminals and error reports."""
        lines = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                sq = square(file, rank)
                token = self._square_token(sq).strip("[]")
                if not token:
                    token = "::" if sq in self.variant.home(Side.SOUTH) + self.variant.home(
                        Side.NORTH) else "."
                cells.append(f"{token:^6}")
            lines.append(f"{rank + 1} " + "".join(cells))
        lines.append("  " + "".join(f"{f:^6}" for f in "abcdefgh"))
        return "\n".join(lines)


def _port_letters(corner: Corner, side: Side) -> str:
    return corner.value.upper() if side is Side.SOUTH else corner.value


_TOKEN = re.compile(r"(?P<run>[1-8])|(?P<pole>[Pp])|\[(?P<bpole>[Pp])?(?P<bports>[A-Za-z]*)\]"
                    r"|(?P<bad>.)")
_PORT = re.compile(r"(?P<port>SW|SE|NW|NE|sw|se|nw|ne)|(?P<pbad>..?)")
