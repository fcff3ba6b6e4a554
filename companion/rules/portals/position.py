"""A Portals position: the Princes and Guards, the Portal squares, the Portable Portal.

The rule book's set-up picture (its page two) is missing from our copy, so the start
position and the four permanent Portal squares are *data*: :data:`DEFAULT_SETUP` below, and
every position JSON may carry its own ``portals`` list. See docs/rules/portals.md.

JSON form::

    {"game": "portals", "to_move": "south",
     "princes": {"south": "f1", "north": "f11"},
     "guards": {"south": ["a1", ...], "north": ["a11", ...]},
     "portals": ["c4", "i4", "c8", "i8"],     # optional, default DEFAULT_PORTALS
     "portable_portal": "f6",                  # optional, default the centre f6
     "variant": {"portable_portal": false}}    # only when not the default rules

A captured Prince is ``null`` (or left out). In the variant without the Portable Portal the
``portable_portal`` field must be left out or ``null``.

Text form (like FEN): ranks 11 to 1 separated by ``/``; a number 1-11 is a run of empty
squares (``11`` is one run of eleven); ``K``/``G`` a south Prince/Guard, ``k``/``g`` north (the
letters of the move notation, where ``P`` is the Portable Portal). Then the side to move, then
only when not the default: ``portals=`` the permanent Portal squares (``-`` for none) and
``pp=`` the Portable Portal's square (``pp=-``: the variant without it)::

    gggggkggggg/1g1g1g1g1g1/11/11/11/11/11/11/11/1G1G1G1G1G1/GGGGGKGGGGG south
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.common import position_object, quoted
from companion.rules.errors import PositionError, VariantError
from companion.rules.portals.board import (
    CENTER,
    DEFAULT_VARIANT,
    FILE_NAMES,
    GUARDS_PER_SIDE,
    NO_PORTABLE_PORTAL,
    SIZE,
    Kind,
    Side,
    Square,
    Variant,
    parse_square,
    square,
    square_name,
)

Piece = tuple[Side, Kind]

DEFAULT_PORTALS: tuple[str, ...] = ("c4", "i4", "c8", "i8")
DEFAULT_SETUP: dict[str, Any] = {
    "princes": {"south": "f1", "north": "f11"},
    "guards": {
        "south": ["a1", "b1", "c1", "d1", "e1", "g1", "h1", "i1", "j1", "k1",
                  "b2", "d2", "f2", "h2", "j2"],
        "north": ["a11", "b11", "c11", "d11", "e11", "g11", "h11", "i11", "j11", "k11",
                  "b10", "d10", "f10", "h10", "j10"],
    },
}


@dataclass(frozen=True, slots=True)
class Position:
    """Board contents, the side to move and the variant.

    ``pieces[sq]`` is ``(side, kind)`` or None (a 121-tuple); ``portals`` the permanent Portal
    squares in square order; ``portable`` the Portable Portal's square (None exactly when the
    variant plays without it).
    """

    pieces: tuple[Piece | None, ...]
    portals: tuple[Square, ...]
    portable: Square | None = CENTER
    to_move: Side = Side.SOUTH
    variant: Variant = field(default=DEFAULT_VARIANT)

    def __post_init__(self) -> None:
        if len(self.pieces) != SIZE * SIZE:
            raise PositionError(f"a position needs {SIZE * SIZE} squares, got {len(self.pieces)}")
        if len(set(self.portals)) != len(self.portals) or list(self.portals) != sorted(
                self.portals):
            raise PositionError(f"Portal squares {self.portals!r} must be distinct, in order")
        if any(p not in range(SIZE * SIZE) for p in self.portals):
            raise PositionError(f"Portal squares {self.portals!r} must be on the board")
        if self.variant.portable_portal and self.portable is None:
            raise PositionError("this variant plays with the Portable Portal: give its square")
        if not self.variant.portable_portal and self.portable is not None:
            raise PositionError(
                f"Portable Portal on {square_name(self.portable)} in the variant without it")
        if self.portable is not None and self.portable not in range(SIZE * SIZE):
            raise PositionError(f"Portable Portal square {self.portable!r} is off the board")
        for side in Side:
            n_princes = self.pieces.count((side, Kind.PRINCE))
            guards = self.pieces.count((side, Kind.GUARD))
            if n_princes > 1:
                princes = [sq for sq, p in enumerate(self.pieces) if p == (side, Kind.PRINCE)]
                raise PositionError(f"{side.value} has {n_princes} Princes on "
                                    f"{', '.join(map(square_name, princes))}: there is one")
            if guards > GUARDS_PER_SIDE:
                raise PositionError(f"{side.value} has {guards} Guards: there are "
                                    f"{GUARDS_PER_SIDE}")

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant = DEFAULT_VARIANT,
              portals: Iterable[str] = DEFAULT_PORTALS) -> Position:
        """The default set-up (see docs/rules/portals.md: the rule book's picture is lost)."""
        doc = dict(DEFAULT_SETUP, portals=list(portals), variant=variant.to_json() or None)
        if not variant.portable_portal:
            doc["portable_portal"] = None
        return cls.from_json(doc)

    @classmethod
    def from_pieces(cls, pieces: Mapping[Square, Piece], portals: Iterable[Square],
                    portable: Square | None = CENTER, to_move: Side = Side.SOUTH,
                    variant: Variant = DEFAULT_VARIANT) -> Position:
        board: list[Piece | None] = [None] * (SIZE * SIZE)
        for sq, piece in pieces.items():
            board[sq] = piece
        return cls(tuple(board), tuple(sorted(set(portals))), portable, to_move, variant)

    def replace(self, **changes: Any) -> Position:
        return dataclasses.replace(self, **changes)

    # -- queries -------------------------------------------------------------------------------

    def active_portals(self) -> frozenset[Square]:
        """Squares that act as Portals now: the permanent ones not covered by the (flipped)
        Portable Portal, plus the Portable Portal when it is not on a permanent one."""
        out = set(self.portals)
        if self.portable is not None:
            if self.portable in out:
                out.discard(self.portable)
            else:
                out.add(self.portable)
        return frozenset(out)

    def prince(self, side: Side) -> Square | None:
        for sq, p in enumerate(self.pieces):
            if p == (side, Kind.PRINCE):
                return sq
        return None

    def guards(self, side: Side) -> tuple[Square, ...]:
        return tuple(sq for sq, p in enumerate(self.pieces) if p == (side, Kind.GUARD))

    def squares_of(self, side: Side) -> tuple[Square, ...]:
        return tuple(sq for sq, p in enumerate(self.pieces) if p is not None and p[0] is side)

    def board_key(self) -> tuple[Any, ...]:
        """What a camera sees: pieces, Portals, Portable Portal (not whose turn it is)."""
        return (self.pieces, self.portals, self.portable)

    def same_board(self, other: Position) -> bool:
        return self.board_key() == other.board_key()

    def winner(self) -> Side | None:
        """The side whose opponent has lost its Prince or all its Guards, if any. Should both
        qualify (not reachable in play), the side that moved last wins."""
        for side in (self.to_move.opponent, self.to_move):
            opp = side.opponent
            if (opp, Kind.PRINCE) not in self.pieces or (opp, Kind.GUARD) not in self.pieces:
                return side
        return None

    # -- JSON ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "game": "portals",
            "to_move": self.to_move.value,
            "princes": {s.value: (None if (p := self.prince(s)) is None else square_name(p))
                        for s in Side},
            "guards": {s.value: [square_name(g) for g in self.guards(s)] for s in Side},
            "portals": [square_name(p) for p in self.portals],
            "portable_portal": None if self.portable is None else square_name(self.portable),
        }
        if not self.variant.is_default:
            doc["variant"] = self.variant.to_json()
        return doc

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: object) -> Position:
        doc = position_object(doc, "portals", ("princes", "guards", "portals",
                                               "portable_portal", "variant"))
        try:
            variant = Variant.from_json(doc.get("variant"))
        except VariantError as exc:
            raise PositionError(str(exc)) from None
        to_move = Side.parse(doc.get("to_move", "south"))
        pieces: dict[Square, Piece] = {}

        def put(name: object, piece: Piece) -> None:
            sq = parse_square(name)
            if sq in pieces:
                raise PositionError(f"two pieces on {square_name(sq)}")
            pieces[sq] = piece

        princes = doc.get("princes", {})
        if not isinstance(princes, dict):
            raise PositionError(f"'princes' must map sides to squares, got {princes!r}")
        for side_name, name in princes.items():
            if name is not None:
                put(name, (Side.parse(side_name), Kind.PRINCE))
        guards = doc.get("guards", {})
        if not isinstance(guards, dict):
            raise PositionError(f"'guards' must map sides to square lists, got {guards!r}")
        for side_name, names in guards.items():
            side = Side.parse(side_name)
            if not isinstance(names, list):
                raise PositionError(f"{side.value} Guards must be a list, got {names!r}")
            for name in names:
                put(name, (side, Kind.GUARD))
        raw_portals = doc.get("portals", list(DEFAULT_PORTALS))
        if not isinstance(raw_portals, list):
            raise PositionError(f"'portals' must be a list of squares, got {raw_portals!r}")
        portals = [parse_square(p) for p in raw_portals]
        if len(set(portals)) != len(portals):
            raise PositionError(f"a Portal square is listed twice in {raw_portals!r}")
        default_pp = square_name(CENTER) if variant.portable_portal else None
        raw_pp = doc.get("portable_portal", default_pp)
        portable = None if raw_pp is None else parse_square(raw_pp)
        return cls.from_pieces(pieces, portals, portable, to_move, variant)

    # -- text ----------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The one-line text form (module docstring); ``from_text(p.to_text()) == p``."""
        ranks = []
        for rank in range(SIZE - 1, -1, -1):
            out: list[str] = []
            run = 0
            for file in range(SIZE):
                piece = self.pieces[square(file, rank)]
                if piece is None:
                    run += 1
                    continue
                if run:
                    out.append(str(run))
                    run = 0
                out.append(_piece_letter(piece))
            if run:
                out.append(str(run))
            ranks.append("".join(out))
        parts = ["/".join(ranks), self.to_move.value]
        if self.portals != _DEFAULT_PORTAL_SQUARES:
            parts.append("portals=" + (",".join(map(square_name, self.portals)) or "-"))
        if self.portable is None:
            parts.append("pp=-")
        elif self.portable != CENTER:
            parts.append(f"pp={square_name(self.portable)}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse :meth:`to_text`'s form. Raises :class:`PositionError` naming the bad part;
        everything :meth:`from_json` refuses is refused here too (it is built the same way)."""
        fields = text.split()
        if len(fields) < 2:
            raise PositionError(f"position text {quoted(text)} needs the board and the side "
                                "to move")
        board, to_move_name, *extra = fields
        ranks = board.split("/")
        if len(ranks) != SIZE:
            raise PositionError(f"position text {board!r} needs {SIZE} ranks, has {len(ranks)}")
        pieces: dict[Square, Piece] = {}
        for i, rank_text in enumerate(ranks):
            rank = SIZE - 1 - i
            file = 0
            for m in _TOKEN.finditer(rank_text):
                if m.group("run"):
                    run = m.group("run")
                    if run.startswith("0"):
                        raise PositionError(f"bad run of empty squares {run!r} in rank "
                                            f"{rank + 1} of {board!r}")
                    file += int(run)
                elif m.group("piece"):
                    if file < SIZE:
                        pieces[square(file, rank)] = _LETTER_PIECES[m.group("piece")]
                    file += 1
                else:
                    raise PositionError(f"unknown piece {m.group('bad')!r} in rank {rank + 1} "
                                        f"of {board!r}: pieces are K, G (south), k, g (north)")
            if file != SIZE:
                raise PositionError(f"rank {rank + 1} of {board!r} has {file} squares, "
                                    f"not {SIZE}")
        doc: dict[str, Any] = {"to_move": to_move_name}
        for item in extra:
            key, sep, value = item.partition("=")
            if not sep or key not in ("portals", "pp"):
                raise PositionError(f"unknown field {item!r} after the side to move: "
                                    "fields are portals=... and pp=...")
            if key in doc or (key == "pp" and "portable_portal" in doc):
                raise PositionError(f"field {key!r} is given twice in {quoted(text)}")
            if key == "portals":
                doc["portals"] = [] if value == "-" else value.split(",")
            elif value == "-":
                doc["portable_portal"] = None
                doc["variant"] = NO_PORTABLE_PORTAL.to_json()
            else:
                doc["portable_portal"] = value
        # The side, Portals, Portable Portal and variant go through from_json's checks; the
        # pieces through __post_init__ (a second Prince, a 16th Guard).
        rest = cls.from_json(doc)
        return cls.from_pieces(pieces, rest.portals, rest.portable, rest.to_move, rest.variant)

    # -- picture -------------------------------------------------------------------------------

    def diagram(self) -> str:
        """Rank 11 on top; K/G south, k/g north, ``o`` a Portal, ``*`` the Portable Portal,
        ``x`` a flipped (inactive) permanent Portal; a piece on a Portal is bracketed."""
        active = self.active_portals()
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                sq = square(file, rank)
                p = self.pieces[sq]
                mark = "*" if sq == self.portable else ("o" if sq in active else "")
                if sq == self.portable and sq in self.portals:
                    mark = "x"
                letter = "" if p is None else (p[1].letter if p[0] is Side.SOUTH
                                               else p[1].letter.lower())
                cell = letter + mark if letter and mark else (letter or mark or ".")
                cells.append(f"{cell:^3}")
            lines.append(f"{rank + 1:>2} " + "".join(cells))
        lines.append("   " + "".join(f"{f:^3}" for f in FILE_NAMES))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.diagram()


_DEFAULT_PORTAL_SQUARES: tuple[Square, ...] = tuple(sorted(map(parse_square, DEFAULT_PORTALS)))
_LETTER_PIECES: dict[str, Piece] = {
    "K": (Side.SOUTH, Kind.PRINCE), "G": (Side.SOUTH, Kind.GUARD),
    "k": (Side.NORTH, Kind.PRINCE), "g": (Side.NORTH, Kind.GUARD),
}
_TOKEN = re.compile(r"(?P<run>[0-9]+)|(?P<piece>[KGkg])|(?P<bad>.)")


def _piece_letter(piece: Piece) -> str:
    letter = piece[1].letter
    return letter if piece[0] is Side.SOUTH else letter.lower()
