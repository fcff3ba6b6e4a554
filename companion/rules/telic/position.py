"""A Telic position: the pieces on the eighteen spaces, both stashes, whose turn it is.

Pyramid sizes are 1 (smallest) to 6 (largest); each side owns two of each size. A piece is a
Single or a Stack of strictly decreasing sizes, bottom first. Pyramids neither on the board
nor in a stash are in the Center Zone (derived, never stored).

JSON form::

    {"game": "telic", "to_move": "blue", "first_turn": true,
     "board": {"b3": {"side": "blue", "sizes": [5, 2]}, ...},
     "stash": {"blue": [1, 1, 2, 2, ...], "red": [...]}}

``first_turn`` is true while the side to move has not yet taken its first turn (blue's first
turn, then red's); on that turn it must roll.

Text form, one line of space-separated fields: the board, ``-`` when empty, else each occupied
space as ``space:piece`` joined by commas (a piece is ``B`` blue or ``R`` red, then its sizes
bottom to top); the side to move; the word ``first`` when ``first_turn`` is true; and when
not empty ``cz=`` the pyramids in the Center Zone (``B``/``R`` and their sizes, per side,
joined by a comma). Every pyramid on neither the board nor in the Center Zone is in its
owner's stash. The start, and a position later in the game::

    - blue first
    b3:B52,k5:R4 blue cz=B1166,R3
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.common import position_object, quoted
from companion.rules.errors import PositionError
from companion.rules.telic.board import (
    LAYOUT,
    SPACE_NAMES,
    SPACES,
    Side,
    Space,
    parse_space,
    space_name,
)

SIZES = (1, 2, 3, 4, 5, 6)
PER_SIZE = 2
PYRAMIDS = len(SIZES) * PER_SIZE  # twelve a side
MAX_STACK = 6
_SIDE_INDEX = {Side.BLUE: 0, Side.RED: 1}


@dataclass(frozen=True, slots=True)
class Piece:
    """A Single (one size) or a Stack (sizes bottom to top).

    Any order a hand can build is a valid piece (a camera may see it); whether it obeys the
    rules of stacking is :attr:`ordered`, judged by :func:`explain`. A piece has one colour:
    a mixed-colour stack cannot be represented.
    """

    side: Side
    sizes: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.sizes) <= PYRAMIDS:
            raise PositionError(f"a piece holds 1 to {PYRAMIDS} pyramids, got {len(self.sizes)}")
        for s in self.sizes:
            if s not in SIZES:
                raise PositionError(f"pyramid size {s!r} is not 1..6")

    @property
    def ordered(self) -> bool:
        """Rules of stacking: each pyramid smaller than the one below (so at most six)."""
        return all(a > b for a, b in zip(self.sizes, self.sizes[1:], strict=False))

    @property
    def height(self) -> int:
        return len(self.sizes)

    @property
    def is_stack(self) -> bool:
        return len(self.sizes) > 1

    @property
    def top(self) -> int:
        return self.sizes[-1]

    @property
    def bottom(self) -> int:
        return self.sizes[0]

    @property
    def power(self) -> tuple[int, int]:
        """Any Stack beats any Single; Stacks by pyramid count; Singles by size."""
        return (self.height, 0) if self.is_stack else (1, self.sizes[0])

    def describe(self) -> str:
        names = {2: "Double", 3: "Triple", 4: "Quad", 5: "Quint", 6: "Hex"}
        kind = names.get(self.height, "Single")
        return f"{self.side.value} {kind} {'/'.join(map(str, self.sizes))}"

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side.value, "sizes": list(self.sizes)}

    @classmethod
    def from_json(cls, doc: object) -> Piece:
        if not isinstance(doc, dict) or set(doc) != {"side", "sizes"}:
            raise PositionError(f"a piece must be {{'side': ..., 'sizes': [...]}}, got {doc!r}")
        sizes = doc["sizes"]
        if not isinstance(sizes, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise PositionError(f"piece sizes must be a list of integers, got {sizes!r}")
        return cls(Side.parse(doc["side"]), tuple(sizes))


Stash = tuple[int, ...]  # pyramids per size, index 0 = size 1
FULL_STASH: Stash = (PER_SIZE,) * len(SIZES)


def stash_of(sizes: Iterable[int]) -> Stash:
    counts = [0] * len(SIZES)
    for s in sizes:
        if s not in SIZES:
            raise PositionError(f"pyramid size {s!r} is not 1..6")
        counts[s - 1] += 1
    return tuple(counts)


def stash_sizes(stash: Stash) -> list[int]:
    return [size for size, n in zip(SIZES, stash, strict=True) for _ in range(n)]


@dataclass(frozen=True, slots=True)
class Position:
    board: tuple[Piece | None, ...]
    stashes: tuple[Stash, Stash]  # blue, red
    to_move: Side = Side.BLUE
    first_turn: bool = True

    def __post_init__(self) -> None:
        if len(self.board) != len(SPACES):
            raise PositionError(f"a position needs {len(SPACES)} spaces, got {len(self.board)}")
        for side in Side:
            stash = self.stashes[_SIDE_INDEX[side]]
            if len(stash) != len(SIZES) or any(n < 0 for n in stash):
                raise PositionError(f"{side.value} stash {stash!r} is not six counts >= 0")
            used = list(stash)
            for piece in self.board:
                if piece is not None and piece.side is side:
                    for s in piece.sizes:
                        used[s - 1] += 1
            for size, n in zip(SIZES, used, strict=True):
                if n > PER_SIZE:
                    raise PositionError(
                        f"{side.value} has {n} pyramids of size {size} on the board and in "
                        f"the stash: a side owns only {PER_SIZE}")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """Setting up: an empty board, every pyramid in its stash, Blue to roll first."""
        return cls((None,) * len(SPACES), (FULL_STASH, FULL_STASH), Side.BLUE, True)

    @classmethod
    def from_pieces(cls, pieces: Mapping[str | Space, Piece | tuple[Side, Iterable[int]]],
                    stashes: Mapping[Side, Iterable[int]] | None = None,
                    to_move: Side = Side.BLUE, first_turn: bool = False) -> Position:
        """Build from ``{"b3": Piece(...)}``; a missing stash is everything not on the board."""
        board: list[Piece | None] = [None] * len(SPACES)
        for where, p in pieces.items():
            sp = parse_space(where) if isinstance(where, str) else where
            board[sp] = p if isinstance(p, Piece) else Piece(p[0], tuple(p[1]))
        st: list[Stash] = []
        for side in Side:
            if stashes is not None and side in stashes:
                st.append(stash_of(stashes[side]))
            else:
                left = list(FULL_STASH)
                for piece in board:
                    if piece is not None and piece.side is side:
                        for s in piece.sizes:
                            left[s - 1] -= 1
                st.append(tuple(max(0, n) for n in left))
        return cls(tuple(board), (st[0], st[1]), to_move, first_turn)

    def replace(self, **changes: Any) -> Position:
        fields: dict[str, Any] = {"board": self.board, "stashes": self.stashes,
                                  "to_move": self.to_move, "first_turn": self.first_turn}
        fields.update(changes)
        return Position(**fields)

    # -- queries -----------------------------------------------------------------------------

    def stash(self, side: Side) -> Stash:
        return self.stashes[_SIDE_INDEX[side]]

    def stash_count(self, side: Side) -> int:
        return sum(self.stash(side))

    def on_board(self, side: Side) -> int:
        return sum(p.height for p in self.board if p is not None and p.side is side)

    def in_center(self, side: Side) -> int:
        """Pyramids of ``side`` already moved into the Center Zone (out of the game)."""
        return PYRAMIDS - self.stash_count(side) - self.on_board(side)

    def winner(self) -> Side | None:
        """The side with all twelve of its pyramids in the Center Zone."""
        for side in Side:
            if self.in_center(side) == PYRAMIDS:
                return side
        return None

    def same_board(self, other: Position) -> bool:
        return self.board == other.board

    def pieces(self, side: Side | None = None) -> list[tuple[Space, Piece]]:
        return [(sp, p) for sp, p in enumerate(self.board)
                if p is not None and (side is None or p.side is side)]

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "telic",
            "to_move": self.to_move.value,
            "first_turn": self.first_turn,
            "board": {space_name(sp): p.to_json() for sp, p in self.pieces()},
            "stash": {side.value: stash_sizes(self.stash(side)) for side in Side},
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: object) -> Position:
        doc = position_object(doc, "telic", ("first_turn", "board", "stash"))
        first = doc.get("first_turn", False)
        if not isinstance(first, bool):
            raise PositionError(f"first_turn must be true or false, got {first!r}")
        board_doc = doc.get("board", {})
        if not isinstance(board_doc, dict):
            raise PositionError(f"board must be an object of space: piece, got {board_doc!r}")
        stash_doc = doc.get("stash")
        stashes: dict[Side, list[int]] | None = None
        if stash_doc is not None:
            if not isinstance(stash_doc, dict) or not set(stash_doc) <= {"blue", "red"}:
                raise PositionError(f"stash must be {{'blue': [...], 'red': [...]}}, "
                                    f"got {stash_doc!r}")
            stashes = {}
            for name, sizes in stash_doc.items():
                if not isinstance(sizes, list):
                    raise PositionError(f"{name} stash must be a list of sizes, got {sizes!r}")
                stashes[Side.parse(name)] = sizes
        pieces: dict[str | Space, Piece | tuple[Side, Iterable[int]]] = {
            parse_space(k): Piece.from_json(v) for k, v in board_doc.items()}
        return cls.from_pieces(pieces, stashes, Side.parse(doc.get("to_move", "blue")), first)

    # -- text --------------------------------------------------------------------------------

    def center_sizes(self, side: Side) -> list[int]:
        """The sizes of ``side``'s pyramids in the Center Zone, smallest first."""
        left = [PER_SIZE - n for n in self.stash(side)]
        for piece in self.board:
            if piece is not None and piece.side is side:
                for s in piece.sizes:
                    left[s - 1] -= 1
        return stash_sizes(tuple(left))

    def to_text(self) -> str:
        """The one-line text form (module docstring); ``from_text(p.to_text()) == p``."""
        board = ",".join(f"{space_name(sp)}:{_SIDE_LETTER[p.side]}{''.join(map(str, p.sizes))}"
                         for sp, p in self.pieces())
        parts = [board or "-", self.to_move.value]
        if self.first_turn:
            parts.append("first")
        center = [_SIDE_LETTER[side] + "".join(map(str, sizes)) for side in Side
                  if (sizes := self.center_sizes(side))]
        if center:
            parts.append("cz=" + ",".join(center))
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse :meth:`to_text`'s form. Raises :class:`PositionError` naming the bad part;
        the position is built through :meth:`from_json`, so it refuses the same things."""
        fields = text.split()
        if len(fields) < 2:
            raise PositionError(f"position text {quoted(text)} needs the board and the side "
                                "to move")
        board_text, to_move_name, *extra = fields
        pieces: dict[str, Piece] = {}
        if board_text != "-":
            for item in board_text.split(","):
                name, sep, token = item.partition(":")
                if not sep:
                    raise PositionError(f"board entry {item!r} in {board_text!r} should look "
                                        "like b3:B52 (space, colon, piece)")
                where = space_name(parse_space(name))
                if where in pieces:
                    raise PositionError(f"space {where} is given twice in {board_text!r}")
                side, sizes = _parse_pyramids(token, f"piece {token!r} on {where}")
                try:
                    pieces[where] = Piece(side, tuple(sizes))
                except PositionError as exc:
                    raise PositionError(f"piece {token!r} on {where}: {exc}") from None
        first = False
        center: dict[Side, list[int]] = {side: [] for side in Side}
        seen: set[str] = set()
        for item in extra:
            key = item.partition("=")[0] if "=" in item else item
            if key not in ("first", "cz") or (key == "first") != (item == "first"):
                raise PositionError(f"unknown field {item!r} after the side to move: "
                                    "fields are first and cz=...")
            if key in seen:
                raise PositionError(f"field {key!r} is given twice in {quoted(text)}")
            seen.add(key)
            if key == "first":
                first = True
                continue
            value = item.partition("=")[2]
            if value == "-":
                continue
            for group in value.split(","):
                side, sizes = _parse_pyramids(group, f"Center Zone entry {group!r}")
                if center[side]:
                    raise PositionError(f"{side.value} is given twice in {item!r}")
                center[side] = sizes
        stash: dict[str, list[int]] = {}
        for side in Side:
            left = [PER_SIZE] * len(SIZES)
            for s in center[side] + [s for p in pieces.values() if p.side is side
                                     for s in p.sizes]:
                if s not in SIZES:
                    raise PositionError(f"{side.value} Center Zone pyramid size {s} is not 1..6")
                left[s - 1] -= 1
            for size, n in zip(SIZES, left, strict=True):
                if n < 0:
                    raise PositionError(
                        f"{side.value} has {PER_SIZE - n} pyramids of size {size} on the board "
                        f"and in the Center Zone: a side owns only {PER_SIZE}")
            stash[side.value] = stash_sizes(tuple(left))
        return cls.from_json({
            "to_move": to_move_name, "first_turn": first,
            "board": {where: p.to_json() for where, p in pieces.items()}, "stash": stash,
        })

    def __str__(self) -> str:
        """The board as the rule book draws it (Blue's side on top): ``b3:B52`` etc."""
        rows = []
        for row in LAYOUT:
            cells = []
            for name in row:
                if name is None:
                    cells.append("  ..  ")
                    continue
                p = self.board[SPACE_NAMES.index(name)]
                what = "-" if p is None else p.side.value[0].upper() + "".join(map(str, p.sizes))
                cells.append(f"{name}:{what}".ljust(6))
            rows.append(" ".join(cells))
        return "\n".join(rows)


_SIDE_LETTER = {Side.BLUE: "B", Side.RED: "R"}
_LETTER_SIDE = {letter: side for side, letter in _SIDE_LETTER.items()}
_PYRAMIDS = re.compile(r"(?P<side>[A-Za-z])(?P<sizes>[0-9]+)")


def _parse_pyramids(token: str, what: str) -> tuple[Side, list[int]]:
    """``B52`` -> (blue, [5, 2]); ``what`` names the token in errors."""
    m = _PYRAMIDS.fullmatch(token)
    if m is None:
        raise PositionError(f"unknown {what}: expected B or R then pyramid sizes, like B52")
    if m.group("side") not in _LETTER_SIDE:
        raise PositionError(f"unknown colour {m.group('side')!r} in {what}: "
                            "B is blue, R is red")
    return _LETTER_SIDE[m.group("side")], [int(c) for c in m.group("sizes")]
