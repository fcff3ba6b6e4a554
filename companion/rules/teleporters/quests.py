"""The Teleporters rule book's Solitaire Quests: 8 Queens, its 7-, 6- and 5-Pole variants, and
4 Rooks. Pure and deterministic: a quest layout is an ordinary :class:`Position`, and
:func:`check` says whether it solves the quest, and if not, why, in plain words.

- **8 Queens**: 8 Poles (either colour) on the 64 spaces, no two "in the same row in any
  direction" (same rank, file, diagonal or anti-diagonal; pieces in between do not matter).
- **7, 6, 5 Queens** (quests 2-4): as many Poles, no two in line, *and* no empty space left
  where another Pole could stand without being in line with one: an independent dominating
  set of the 8x8 queen graph.
- **4 Rooks**: 4 Teleports inside one 4x4 section of ranks 2-7 (where Ports and Teleports may
  stand), no two in the same rank or file.

Solutions are enumerated once (bitmask backtracking) and cached, and grouped into classes under
the 8 symmetries of the square (rotations and reflections): of the whole board for the queens
quests, of the 4x4 section for the rooks quest (where the section is on the board is factored
out). See ``docs/rules/teleporters-quests.md``.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.rules.common import quoted
from companion.rules.errors import RulesError
from companion.rules.teleporters.board import (
    SQUARES,
    Square,
    in_telepad_row,
    parse_square,
    square,
    square_file,
    square_name,
    square_rank,
)
from companion.rules.teleporters.position import Position

__all__ = [
    "ROOK_SECTIONS",
    "Conflict",
    "Line",
    "LineKind",
    "Quest",
    "QuestError",
    "QuestReport",
    "Section",
    "SolutionClass",
    "check",
    "class_index",
    "solution_class",
    "solution_classes",
    "solutions",
    "transform",
]


class QuestError(RulesError):
    """An unknown quest, or squares asked about that are not a solution of the quest."""


class Quest(enum.Enum):
    """The five Solitaire Quests: value is (id, pieces used, plain title)."""

    QUEENS = ("queens", 8, "8 Queens")
    QUEENS7 = ("queens7", 7, "7 Queens with no room for another")
    QUEENS6 = ("queens6", 6, "6 Queens with no room for another")
    QUEENS5 = ("queens5", 5, "5 Queens with no room for another")
    ROOKS = ("rooks", 4, "4 Rooks")

    @property
    def id(self) -> str:
        return str(self.value[0])

    @property
    def pieces(self) -> int:
        """How many pieces the quest places."""
        return int(self.value[1])

    @property
    def title(self) -> str:
        return str(self.value[2])

    @property
    def is_queens(self) -> bool:
        return self is not Quest.ROOKS

    @property
    def maximal(self) -> bool:
        """Quests 2-4: no space may be left where another Pole could stand out of line."""
        return self in (Quest.QUEENS7, Quest.QUEENS6, Quest.QUEENS5)

    @property
    def piece_name(self) -> str:
        return "Pole" if self.is_queens else "Teleport"

    @classmethod
    def parse(cls, text: object) -> Quest:
        """``"queens7"`` -> :attr:`QUEENS7` (case and surrounding blanks ignored)."""
        if isinstance(text, Quest):
            return text
        if isinstance(text, str):
            wanted = text.strip().lower()
            for quest in cls:
                if quest.id == wanted:
                    return quest
        allowed = ", ".join(q.id for q in cls)
        raise QuestError(f"unknown quest {quoted(text)}: quests are {allowed}")


# ----------------------------------------------------------------------------------------------
# Lines: "in the same row in any direction"


class LineKind(enum.Enum):
    """The four directions of a row in the rule book's sense."""

    ROW = "row"  # a rank, horizontal
    COLUMN = "column"  # a file, vertical
    DIAGONAL = "diagonal"  # south-west to north-east
    ANTI_DIAGONAL = "anti-diagonal"  # north-west to south-east


@dataclass(frozen=True, slots=True)
class Line:
    """The row (in any direction) two squares share, and the squares strictly between them."""

    kind: LineKind
    name: str  # "4" for rank 4, "d" for file d, "a1-h8" for a diagonal by its end squares
    between: tuple[Square, ...]

    @property
    def description(self) -> str:
        """``"same row 4"``, ``"same column d"``, ``"same diagonal a1-h8"``."""
        return f"same {self.kind.value} {self.name}"

    @classmethod
    def of(cls, a: Square, b: Square) -> Line | None:
        """The line through ``a`` and ``b``, or None when they are not in line (or equal)."""
        fa, ra, fb, rb = square_file(a), square_rank(a), square_file(b), square_rank(b)
        df, dr = fb - fa, rb - ra
        if (df, dr) == (0, 0):
            return None
        if dr == 0:
            kind, name = LineKind.ROW, str(ra + 1)
        elif df == 0:
            kind, name = LineKind.COLUMN, "abcdefgh"[fa]
        elif df == dr:
            kind, name = LineKind.DIAGONAL, _diagonal_name(fa, ra, 1)
        elif df == -dr:
            kind, name = LineKind.ANTI_DIAGONAL, _diagonal_name(fa, ra, -1)
        else:
            return None
        steps = max(abs(df), abs(dr))
        sf, sr = _sign(df), _sign(dr)
        between = tuple(square(fa + sf * i, ra + sr * i) for i in range(1, steps))
        return cls(kind, name, between)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "name": self.name,
                "between": [square_name(s) for s in self.between],
                "description": self.description}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _diagonal_name(f: int, r: int, dr: int) -> str:
    """A diagonal (dr=1) or anti-diagonal (dr=-1) through (f, r), named by its two ends."""
    back = min(f, r) if dr == 1 else min(f, 7 - r)
    fwd = min(7 - f, 7 - r) if dr == 1 else min(7 - f, r)
    start = square(f - back, r - dr * back)
    end = square(f + fwd, r + dr * fwd)
    return f"{square_name(start)}-{square_name(end)}"


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two pieces in line, and the line they share."""

    a: Square
    b: Square
    line: Line

    @property
    def description(self) -> str:
        text = f"{square_name(self.a)} and {square_name(self.b)}: {self.line.description}"
        if self.line.between:
            text += " (" + ", ".join(square_name(s) for s in self.line.between) + " between)"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"squares": [square_name(self.a), square_name(self.b)],
                "line": self.line.to_json(), "description": self.description}


# ----------------------------------------------------------------------------------------------
# The 4x4 sections of the rooks quest


@dataclass(frozen=True, slots=True)
class Section:
    """A 4x4 block of spaces, by its south-west space."""

    file: int
    rank: int

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset(square(self.file + f, self.rank + r) for f in range(4) for r in range(4))

    @property
    def name(self) -> str:
        """``"b2-e5"``: south-west and north-east spaces."""
        return (f"{square_name(square(self.file, self.rank))}-"
                f"{square_name(square(self.file + 3, self.rank + 3))}")

    def local(self, sq: Square) -> tuple[int, int]:
        return square_file(sq) - self.file, square_rank(sq) - self.rank


# Teleports (Ports) never stand in the Telepad rows, ranks 1 and 8: sections lie in ranks 2-7.
ROOK_SECTIONS: tuple[Section, ...] = tuple(
    Section(f, r) for r in range(1, 4) for f in range(5)
)


def _section_of(squares: Iterable[Square]) -> Section | None:
    """The one rook section holding all of ``squares`` (four rooks fill 4 files and 4 ranks,
    so at most one section fits a solution; for fewer squares the south-west-most one)."""
    sqs = list(squares)
    for section in ROOK_SECTIONS:
        if all(s in section.squares for s in sqs):
            return section
    return None


# ----------------------------------------------------------------------------------------------
# Symmetry: the 8 rotations and reflections of an n x n square

Cell = tuple[int, int]
_TRANSFORMS: tuple[Callable[[int, int, int], Cell], ...] = (
    lambda f, r, m: (f, r),
    lambda f, r, m: (m - r, f),  # quarter turn
    lambda f, r, m: (m - f, m - r),  # half turn
    lambda f, r, m: (r, m - f),  # three-quarter turn
    lambda f, r, m: (m - f, r),  # mirror east-west
    lambda f, r, m: (f, m - r),  # mirror north-south
    lambda f, r, m: (r, f),  # across the a1-h8 diagonal
    lambda f, r, m: (m - r, m - f),  # across the a8-h1 diagonal
)


def transform(cells: Iterable[Cell], index: int, size: int = 8) -> frozenset[Cell]:
    """Symmetry number ``index`` (0..7; 0 is the identity) of the ``size`` x ``size`` square
    applied to (file, rank) cells."""
    t = _TRANSFORMS[index]
    return frozenset(t(f, r, size - 1) for f, r in cells)


def _canonical(cells: Iterable[Cell], size: int) -> tuple[Cell, ...]:
    cells = tuple(cells)
    return min(tuple(sorted(transform(cells, i, size))) for i in range(8))


def _cell_name(cell: Cell) -> str:
    return "abcdefgh"[cell[0]] + str(cell[1] + 1)


def _class_key(quest: Quest, squares: Iterable[Square]) -> tuple[Cell, ...]:
    sqs = tuple(squares)
    if quest.is_queens:
        return _canonical(((square_file(s), square_rank(s)) for s in sqs), 8)
    section = _section_of(sqs)
    if section is None:
        raise QuestError(f"{_names(sqs)} does not lie inside one 4x4 section of ranks 2-7")
    return _canonical((section.local(s) for s in sqs), 4)


def solution_class(quest: Quest, squares: Iterable[Square]) -> str:
    """The canonical id of the class of ``squares`` under the square's 8 symmetries: the
    smallest image, as sorted square names joined by ``-`` (rooks: in the 4x4 section's own
    coordinates, a1 being its south-west space). Any placement gets an id; see
    :func:`class_index` for solutions only."""
    return "-".join(_cell_name(c) for c in _class_key(quest, squares))


# ----------------------------------------------------------------------------------------------
# Enumeration


def _line_mask(sq: Square) -> int:
    """Bit mask of ``sq`` and every square in line with it."""
    mask = 1 << sq
    for other in SQUARES:
        if Line.of(sq, other) is not None:
            mask |= 1 << other
    return mask


_IN_LINE: tuple[int, ...] = tuple(_line_mask(s) for s in SQUARES)
_FULL = (1 << 64) - 1


def _queen_sets(k: int) -> list[int]:
    """Every set of ``k`` squares, no two in line, leaving no square out of line with all of
    them (for k=8 the second condition always holds), as bit masks."""
    found: list[int] = []

    def extend(chosen: int, covered: int, available: int, left: int) -> None:
        if left == 0:
            if covered == _FULL:
                found.append(chosen)
            return
        if available.bit_count() < left:
            return
        # The lowest square nobody covers yet must be covered by a square still to come.
        uncovered = ~covered & _FULL
        if uncovered:
            low = uncovered & -uncovered
            if not _IN_LINE[low.bit_length() - 1] & available:
                return
        while available:
            bit = available & -available
            available ^= bit
            sq = bit.bit_length() - 1
            extend(chosen | bit, covered | _IN_LINE[sq], available & ~_IN_LINE[sq], left - 1)
            if available.bit_count() < left:
                return

    extend(0, 0, _FULL, k)
    return found


def _squares_of(mask: int) -> frozenset[Square]:
    return frozenset(s for s in SQUARES if mask >> s & 1)


@functools.cache
def solutions(quest: Quest) -> tuple[frozenset[Square], ...]:
    """Every solution of ``quest`` as a set of squares, in a stable order. For the rooks quest
    this is every solution in every 4x4 section of ranks 2-7 (24 per section)."""
    if quest.is_queens:
        return tuple(_squares_of(m) for m in sorted(_queen_sets(quest.pieces)))
    return tuple(
        frozenset(square(section.file + f, section.rank + r) for f, r in enumerate(perm))
        for section in ROOK_SECTIONS
        for perm in itertools.permutations(range(4))
    )


@dataclass(frozen=True, slots=True)
class SolutionClass:
    """Solutions that are rotations or reflections of each other."""

    quest: Quest
    number: int  # 1-based, in order of id
    id: str  # the canonical form, see :func:`solution_class`
    size: int  # distinct solutions in the class (rooks: within one 4x4 section)
    example: frozenset[Square]  # the canonical member (rooks: in the first section, a2-d5)

    def to_json(self) -> dict[str, Any]:
        return {"quest": self.quest.id, "number": self.number, "id": self.id,
                "size": self.size, "example": _names(self.example)}


@functools.cache
def solution_classes(quest: Quest) -> tuple[SolutionClass, ...]:
    """The classes of :func:`solutions` under the 8 symmetries, numbered 1.. by canonical id."""
    sols = solutions(quest)
    if not quest.is_queens:
        first = ROOK_SECTIONS[0]
        sols = tuple(s for s in sols if _section_of(s) == first)
    by_key: dict[tuple[Cell, ...], int] = {}
    for sol in sols:
        key = _class_key(quest, sol)
        by_key[key] = by_key.get(key, 0) + 1
    out = []
    for number, key in enumerate(sorted(by_key), start=1):
        if quest.is_queens:
            example = frozenset(square(f, r) for f, r in key)
        else:
            example = frozenset(square(ROOK_SECTIONS[0].file + f, ROOK_SECTIONS[0].rank + r)
                                for f, r in key)
        out.append(SolutionClass(quest, number, "-".join(_cell_name(c) for c in key),
                                 by_key[key], example))
    return tuple(out)


@functools.cache
def _class_numbers(quest: Quest) -> dict[str, int]:
    return {c.id: c.number for c in solution_classes(quest)}


@functools.cache
def _solution_set(quest: Quest) -> frozenset[frozenset[Square]]:
    return frozenset(solutions(quest))


def class_index(quest: Quest, squares: Iterable[Square | str]) -> int:
    """Which class (1-based, as in "class 3 of 12") the solution ``squares`` belongs to.
    Raises :class:`QuestError` naming the squares when they are not a solution."""
    sqs = frozenset(parse_square(s) if isinstance(s, str) else s for s in squares)
    if sqs not in _solution_set(quest):
        raise QuestError(f"{_names(sqs)} is not a solution of the {quest.title} quest")
    return _class_numbers(quest)[solution_class(quest, sqs)]


# ----------------------------------------------------------------------------------------------
# Checking a layout


@dataclass(frozen=True, slots=True)
class QuestReport:
    """Whether a layout solves a quest, and everything a player needs to see why not."""

    quest: Quest
    solved: bool
    pieces: tuple[Square, ...]  # the quest's pieces (Poles or Teleports), in square order
    conflicts: tuple[Conflict, ...] = ()  # pairs in line, with the line they share
    free: tuple[Square, ...] = ()  # queens: empty spaces out of line with every Pole
    missing: int = 0
    extra: int = 0
    problems: tuple[str, ...] = ()  # plain sentences, most basic first
    section: Section | None = None  # rooks: the 4x4 section holding the Teleports
    solution_class: str | None = None  # canonical id of the class, when solved
    class_number: int | None = None  # 1-based, when solved
    class_count: int = 0  # how many classes the quest has

    def to_json(self) -> dict[str, Any]:
        return {
            "quest": self.quest.id,
            "title": self.quest.title,
            "solved": self.solved,
            "pieces": _names(self.pieces),
            "missing": self.missing,
            "extra": self.extra,
            "conflicts": [c.to_json() for c in self.conflicts],
            "free": _names(self.free),
            "problems": list(self.problems),
            "section": None if self.section is None else self.section.name,
            "solution_class": self.solution_class,
            "class_number": self.class_number,
            "class_count": self.class_count,
        }

    def describe(self) -> str:
        head = f"{self.quest.title}: "
        if self.solved:
            where = f" in section {self.section.name}" if self.section else ""
            return (head + f"solved{where} ({_names_text(self.pieces)}); "
                    f"class {self.class_number} of {self.class_count}.")
        return head + "not solved.\n" + "\n".join(f"- {p}" for p in self.problems)


def check(quest: Quest | str, position: Position) -> QuestReport:
    """Judge ``position`` as a layout for ``quest``. Layouts a real mat can hold but that are
    not quest layouts (wrong kind of piece, loose Ports) are reported as not solved."""
    quest = Quest.parse(quest)
    if not isinstance(position, Position):
        raise QuestError(f"a quest layout must be a Teleporters Position, got {position!r}")
    return _check_queens(quest, position) if quest.is_queens else _check_rooks(quest, position)


def _conflicts(pieces: tuple[Square, ...], kinds: frozenset[LineKind]) -> tuple[Conflict, ...]:
    out = []
    for a, b in itertools.combinations(pieces, 2):
        line = Line.of(a, b)
        if line is not None and line.kind in kinds:
            out.append(Conflict(a, b, line))
    return tuple(out)


def _count_problems(quest: Quest, n: int) -> tuple[int, int, list[str]]:
    missing, extra = max(0, quest.pieces - n), max(0, n - quest.pieces)
    name = quest.piece_name
    if missing:
        return missing, 0, [f"{_count(missing, name)} missing: the quest uses "
                            f"{quest.pieces}, the board has {n}"]
    if extra:
        return 0, extra, [f"{_count(extra, name)} too many: the quest uses "
                          f"{quest.pieces}, the board has {n}"]
    return 0, 0, []


_ALL_LINES = frozenset(LineKind)


def _check_queens(quest: Quest, position: Position) -> QuestReport:
    problems: list[str] = []
    pieces = tuple(sq for sq, side in enumerate(position.poles) if side is not None)
    teleports = tuple(sq for sq in SQUARES if position.teleport_at(sq) is not None)
    loose = sorted((p.square, p.corner.value, p.side.value) for p in position.placements()
                   if position.teleport_at(p.square) is None)
    if teleports:
        problems.append(f"Teleports are not used in the {quest.title} quest: remove "
                        f"{_at(teleports)}")
    if loose:
        problems.append(f"Ports are not used in the {quest.title} quest: remove "
                        + ", ".join(f"the {side} Port at {square_name(s)} {corner}"
                                    for s, corner, side in loose))
    missing, extra, count_problems = _count_problems(quest, len(pieces))
    problems += count_problems
    conflicts = _conflicts(pieces, _ALL_LINES)
    problems += [f"Poles in line: {c.description}" for c in conflicts]
    covered = 0
    for sq in pieces:
        covered |= _IN_LINE[sq]
    free = tuple(sq for sq in SQUARES if not covered >> sq & 1)
    if quest.maximal and free:
        problems.append(f"Another Pole could still stand on {_names_text(free)} without being "
                        "in line with any Pole")
    return _report(quest, pieces, problems, conflicts, free, missing, extra, None)


def _check_rooks(quest: Quest, position: Position) -> QuestReport:
    problems: list[str] = []
    pieces = tuple(sq for sq in SQUARES if position.teleport_at(sq) is not None)
    poles = tuple(sq for sq, side in enumerate(position.poles) if side is not None)
    loose = sorted((p.square, p.corner.value, p.side.value) for p in position.placements()
                   if position.teleport_at(p.square) is None)
    if poles:
        problems.append(f"Poles are not used in the {quest.title} quest: remove {_at(poles)}")
    if loose:
        problems.append("Loose Ports: the quest uses whole Teleports (two Ports of one colour "
                        "in opposite corners of a space): "
                        + ", ".join(f"the {side} Port at {square_name(s)} {corner}"
                                    for s, corner, side in loose))
    missing, extra, count_problems = _count_problems(quest, len(pieces))
    problems += count_problems
    in_pad_rows = tuple(s for s in pieces if in_telepad_row(s))
    if in_pad_rows:
        problems.append(f"Teleports never stand in the Telepad rows (1 and 8): "
                        f"{_at(in_pad_rows)}")
    conflicts = _conflicts(pieces, frozenset({LineKind.ROW, LineKind.COLUMN}))
    problems += [f"Teleports in line: {c.description}" for c in conflicts]
    section = _section_of(pieces) if pieces else None
    if pieces and section is None and not in_pad_rows:
        files = sorted({square_file(s) for s in pieces})
        ranks = sorted({square_rank(s) for s in pieces})
        problems.append(
            "The Teleports do not fit inside one 4x4 section of the board: they spread over "
            f"files {'abcdefgh'[files[0]]}-{'abcdefgh'[files[-1]]} and ranks "
            f"{ranks[0] + 1}-{ranks[-1] + 1}"
        )
    return _report(quest, pieces, problems, conflicts, (), missing, extra, section)


def _report(quest: Quest, pieces: tuple[Square, ...], problems: list[str],
            conflicts: tuple[Conflict, ...], free: tuple[Square, ...], missing: int, extra: int,
            section: Section | None) -> QuestReport:
    solved = not problems
    if not solved:
        section = None  # named only for a solution, where it is the one section that fits
    cls_id = solution_class(quest, pieces) if solved else None
    number = _class_numbers(quest)[cls_id] if cls_id is not None else None
    if solved and frozenset(pieces) not in _solution_set(quest):  # pragma: no cover
        raise AssertionError(f"{_names(pieces)} passed every check but is not enumerated")
    return QuestReport(quest, solved, pieces, conflicts, free, missing, extra, tuple(problems),
                       section, cls_id, number, len(solution_classes(quest)))


def _names(squares: Iterable[Square]) -> list[str]:
    return [square_name(s) for s in sorted(squares)]


def _names_text(squares: Iterable[Square]) -> str:
    return ", ".join(_names(squares))


def _at(squares: Iterable[Square]) -> str:
    sqs = list(squares)
    return ("the one on " if len(sqs) == 1 else "the ones on ") + _names_text(sqs)


def _count(n: int, name: str) -> str:
    return f"{n} {name}" + ("" if n == 1 else "s")

