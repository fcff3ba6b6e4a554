"""The Telic board: eighteen piecepack tiles in five rows of four, with a 1x2 hole.

Rows are counted from Blue's side (row 0, Blue sits there) to Red's side (row 4), columns
from Blue's left as Red sees the diagram in the rule book (column 0 is the left column of the
diagram). Each space is named by its tile: colour letter (``r`` red, ``b`` blue, ``k`` black)
then its value (``n`` null, ``a`` ace, ``2``-``5``)::

    row 0   r5 bn ba r4      <- Blue's side
    row 1   b2 ka k4 b3
    row 2   k2 [Center] k3   (the hole: the Center Zone, entered only over the two coins)
    row 3   r3 k5 kn r2
    row 4   b4 ra rn b5      <- Red's side
"""

from __future__ import annotations

import enum

from companion.rules.common import quoted
from companion.rules.errors import PositionError

Space = int  # 0..17, row-major over the diagram, the hole left out


class Side(enum.Enum):
    BLUE = "blue"
    RED = "red"

    @property
    def other(self) -> Side:
        return Side.RED if self is Side.BLUE else Side.BLUE

    @classmethod
    def parse(cls, text: object) -> Side:
        for side in cls:
            if text == side.value:
                return side
        raise PositionError(f"unknown side {quoted(text)}: expected 'blue' or 'red'")


class Face(enum.Enum):
    """A piecepack die face; it names the tile of the roller's colour with that value."""

    NULL = "n"
    ACE = "a"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @classmethod
    def parse(cls, text: object) -> Face:
        if isinstance(text, int) and not isinstance(text, bool):
            text = str(text)
        if isinstance(text, str):
            t = text.strip().lower()
            t = {"null": "n", "0": "n", "ace": "a", "1": "a"}.get(t, t)
            for face in cls:
                if face.value == t:
                    return face
        raise PositionError(f"unknown die face {quoted(text)}: expected one of n, a, 2, 3, 4, 5")


LAYOUT: tuple[tuple[str | None, ...], ...] = (
    ("r5", "bn", "ba", "r4"),
    ("b2", "ka", "k4", "b3"),
    ("k2", None, None, "k3"),
    ("r3", "k5", "kn", "r2"),
    ("b4", "ra", "rn", "b5"),
)
ROWS, COLS = 5, 4

SPACE_NAMES: tuple[str, ...] = tuple(n for row in LAYOUT for n in row if n is not None)
SPACES: tuple[Space, ...] = tuple(range(len(SPACE_NAMES)))
COORDS: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r, row in enumerate(LAYOUT) for c, n in enumerate(row) if n is not None)
_BY_NAME = {n: i for i, n in enumerate(SPACE_NAMES)}
_BY_COORD = {rc: i for i, rc in enumerate(COORDS)}

CENTER = "cz"  # the name of the Center Zone in notation and messages
ENTRANCES: frozenset[Space] = frozenset({_BY_NAME["k2"], _BY_NAME["k3"]})  # the two coins
# Opposite corners are "virtually adjacent": red 5 <-> blue 5, red 4 <-> blue 4.
VIRTUAL_PAIRS: tuple[tuple[Space, Space], ...] = (
    (_BY_NAME["r5"], _BY_NAME["b5"]), (_BY_NAME["r4"], _BY_NAME["b4"]))


def _neighbours(sp: Space) -> tuple[Space, ...]:
    r, c = COORDS[sp]
    out = [_BY_COORD[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
           if (r + dr, c + dc) in _BY_COORD]
    for a, b in VIRTUAL_PAIRS:
        if sp == a:
            out.append(b)
        elif sp == b:
            out.append(a)
    return tuple(sorted(out))


NEIGHBOURS: tuple[tuple[Space, ...], ...] = tuple(_neighbours(sp) for sp in SPACES)


def parse_space(text: object) -> Space:
    if isinstance(text, str) and text.strip().lower() in _BY_NAME:
        return _BY_NAME[text.strip().lower()]
    raise PositionError(f"unknown space {quoted(text)}: expected one of {', '.join(SPACE_NAMES)}")


def space_name(sp: Space) -> str:
    return SPACE_NAMES[sp]


def space_words(sp: Space) -> str:
    """Plain words for a space, as the rule book names tiles: 'the blue 3 tile (b3)'."""
    name = SPACE_NAMES[sp]
    colour = {"r": "red", "b": "blue", "k": "black"}[name[0]]
    value = {"n": "null", "a": "ace"}.get(name[1], name[1])
    return f"the {colour} {value} tile ({name})"


def die_space(side: Side, face: Face) -> Space:
    """The space a roll names: the tile of the roller's colour showing the rolled value."""
    return _BY_NAME[side.value[0] + face.value]


def space_face(sp: Space) -> Face:
    return Face.parse(SPACE_NAMES[sp][1])


def space_colour(sp: Space) -> str:
    return {"r": "red", "b": "blue", "k": "black"}[SPACE_NAMES[sp][0]]


def adjacent(a: Space, b: Space) -> bool:
    return b in NEIGHBOURS[a]
