"""The Portals board: 11x11 squares a1..k11, the sides, the piece kinds, the variant flag.

Squares are numbers ``file + 11 * rank`` (a1 = 0, k1 = 10, a2 = 11, k11 = 120). South plays
up the board (towards rank 11) and moves first; north is south turned half a circle.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from companion.rules.common import Side as Side  # re-exported: this game's sides
from companion.rules.errors import PositionError, VariantError

SIZE = 11
Square = int
FILE_NAMES = "abcdefghijk"
SQUARES: tuple[Square, ...] = tuple(range(SIZE * SIZE))
CENTER: Square = 5 + SIZE * 5  # f6
MAX_ROLL = 4  # a tetrahedral die
GUARDS_PER_SIDE = 15


def square(file: int, rank: int) -> Square:
    return file + SIZE * rank


def square_file(sq: Square) -> int:
    return sq % SIZE


def square_rank(sq: Square) -> int:
    return sq // SIZE


def square_name(sq: Square) -> str:
    return f"{FILE_NAMES[sq % SIZE]}{sq // SIZE + 1}"


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(s) for s in SQUARES)
_BY_NAME = {n: i for i, n in enumerate(SQUARE_NAMES)}


def parse_square(name: object) -> Square:
    """``"a1"`` -> 0, ``"k11"`` -> 120. Raises :class:`PositionError` naming anything else."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise PositionError(f"unknown square {name!r}: squares are a1..k11")


class Kind(enum.Enum):
    PRINCE = "prince"  # moves like a chess King
    GUARD = "guard"  # moves like a chess Rook

    @property
    def letter(self) -> str:
        return "K" if self is Kind.PRINCE else "G"

    @classmethod
    def parse(cls, value: object) -> Kind:
        try:
            return cls(value)
        except ValueError:
            raise PositionError(f"unknown piece {value!r}: pieces are 'prince' and 'guard'"
                                ) from None


ROOK_DIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
KING_DIRS: tuple[tuple[int, int], ...] = (*ROOK_DIRS, (1, 1), (1, -1), (-1, 1), (-1, -1))
DIR_NAMES = {(0, 1): "north", (0, -1): "south", (1, 0): "east", (-1, 0): "west"}


def _rays() -> tuple[tuple[tuple[Square, ...], ...], ...]:
    out = []
    for sq in SQUARES:
        f, r = square_file(sq), square_rank(sq)
        rays = []
        for df, dr in ROOK_DIRS:
            ray = []
            nf, nr = f + df, r + dr
            while 0 <= nf < SIZE and 0 <= nr < SIZE:
                ray.append(square(nf, nr))
                nf, nr = nf + df, nr + dr
            rays.append(tuple(ray))
        out.append(tuple(rays))
    return tuple(out)


RAYS = _rays()  # RAYS[sq][i]: squares from sq outwards in ROOK_DIRS[i], nearest first
KING_STEPS: tuple[tuple[Square, ...], ...] = tuple(
    tuple(square(square_file(s) + df, square_rank(s) + dr) for df, dr in KING_DIRS
          if 0 <= square_file(s) + df < SIZE and 0 <= square_rank(s) + dr < SIZE)
    for s in SQUARES)


def king_distance(a: Square, b: Square) -> int:
    return max(abs(square_file(a) - square_file(b)), abs(square_rank(a) - square_rank(b)))


def same_line(a: Square, b: Square) -> bool:
    return a != b and (square_file(a) == square_file(b) or square_rank(a) == square_rank(b))


def between(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares strictly between two squares on one rank or file, from ``a`` towards ``b``."""
    fa, ra, fb, rb = square_file(a), square_rank(a), square_file(b), square_rank(b)
    df = (fb > fa) - (fb < fa)
    dr = (rb > ra) - (rb < ra)
    out = []
    f, r = fa + df, ra + dr
    while (f, r) != (fb, rb):
        out.append(square(f, r))
        f, r = f + df, r + dr
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Variant:
    """Rules flags. ``portable_portal=False`` is the rule book's faster game without it."""

    portable_portal: bool = True

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_VARIANT

    def to_json(self) -> dict[str, Any]:
        return {} if self.is_default else {"portable_portal": self.portable_portal}

    @classmethod
    def from_json(cls, doc: object) -> Variant:
        if doc is None:
            return DEFAULT_VARIANT
        if not isinstance(doc, dict):
            raise VariantError(f"a variant must be a JSON object, got {doc!r}")
        unknown = set(doc) - {"portable_portal"}
        if unknown:
            raise VariantError(f"unknown variant flag(s) {sorted(unknown)!r}")
        value = doc.get("portable_portal", True)
        if not isinstance(value, bool):
            raise VariantError(f"portable_portal must be true or false, got {value!r}")
        return cls(portable_portal=value)


DEFAULT_VARIANT = Variant()
NO_PORTABLE_PORTAL = Variant(portable_portal=False)
