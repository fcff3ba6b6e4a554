"""Portals moves (one per turn) and their notation.

One token per turn; ``parse_move(m.notation()) == m`` for every move:

=======================  ==============================================================
``Kf1-f2``               Prince steps one space (any of the eight directions)
``Gc2-c7``               Guard slides rank-and-file
``Gc2xc7``               ... capturing the opposing piece on c7
``Gd4@h8``               a piece standing on a Portal jumps to another Portal square
``Gd4@xh8``              ... capturing the opposing piece standing on it
``Gc2xc7+Pf6-f9``        a capture, then the Portable Portal moved f6 -> f9 (roll 3)
=======================  ==============================================================

The die roll of a Portable Portal move is the distance it moves (the rules demand the full
roll), so it is part of the move: :attr:`PortalShift.roll`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.rules.common import quoted
from companion.rules.errors import MoveError, PositionError
from companion.rules.portals.board import (
    DIR_NAMES,
    MAX_ROLL,
    Kind,
    Square,
    parse_square,
    square_file,
    square_name,
    square_rank,
)


@dataclass(frozen=True, slots=True)
class PortalShift:
    """The Portable Portal moved ``frm`` -> ``to`` in a straight rank-or-file line."""

    frm: Square
    to: Square

    def __post_init__(self) -> None:
        df = square_file(self.to) - square_file(self.frm)
        dr = square_rank(self.to) - square_rank(self.frm)
        if (df != 0) == (dr != 0):
            raise MoveError(f"Portable Portal {square_name(self.frm)}-{square_name(self.to)}: "
                            "it moves rank-and-file, at least one space")
        if abs(df + dr) > MAX_ROLL:
            raise MoveError(f"Portable Portal {square_name(self.frm)}-{square_name(self.to)}: "
                            f"a four-sided die rolls at most {MAX_ROLL}")

    @property
    def roll(self) -> int:
        return abs(square_file(self.to) - square_file(self.frm)) + abs(
            square_rank(self.to) - square_rank(self.frm))

    @property
    def direction(self) -> str:
        df = square_file(self.to) - square_file(self.frm)
        dr = square_rank(self.to) - square_rank(self.frm)
        return DIR_NAMES[((df > 0) - (df < 0), (dr > 0) - (dr < 0))]

    def notation(self) -> str:
        return f"P{square_name(self.frm)}-{square_name(self.to)}"


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a piece move, and after a capture optionally the Portable Portal's move."""

    piece: Kind
    src: Square
    dst: Square
    capture: bool = False
    jump: bool = False  # Portal to Portal
    shift: PortalShift | None = None

    def __post_init__(self) -> None:
        if self.src == self.dst:
            raise MoveError(f"{self.notation()}: a move must leave its square")
        if self.shift is not None and not self.capture:
            raise MoveError(f"{self.notation()}: the Portable Portal moves only after a capture")

    @property
    def roll(self) -> int | None:
        return None if self.shift is None else self.shift.roll

    def notation(self) -> str:
        sep = ("@" if self.jump else "") + ("x" if self.capture else ("" if self.jump else "-"))
        text = f"{self.piece.letter}{square_name(self.src)}{sep}{square_name(self.dst)}"
        return text + ("" if self.shift is None else "+" + self.shift.notation())

    def squares(self) -> tuple[Square, ...]:
        extra = () if self.shift is None else (self.shift.frm, self.shift.to)
        return (self.src, self.dst, *extra)

    def without_shift(self) -> Move:
        return Move(self.piece, self.src, self.dst, self.capture, self.jump)

    def __str__(self) -> str:
        return self.notation()


_SQ = r"[a-k](?:1[01]|[1-9])"
_MOVE_RE = re.compile(rf"([KG])({_SQ})(-|x|@|@x)({_SQ})(?:\+P({_SQ})-({_SQ}))?")


def parse_move(text: str) -> Move:
    """Notation -> move. Raises :class:`MoveError` naming the text when it is not a move."""
    t = text.strip() if isinstance(text, str) else text
    m = _MOVE_RE.fullmatch(t) if isinstance(t, str) else None
    if m is None:
        raise MoveError(f"{quoted(text)} is not a Portals move (examples: Kf1-g2, Gc2xc7, Gd4@h8, "
                        "Gc2xc7+Pf6-f9)")
    try:
        shift = (PortalShift(parse_square(m[5]), parse_square(m[6])) if m[5] else None)
        return Move(Kind.PRINCE if m[1] == "K" else Kind.GUARD, parse_square(m[2]),
                    parse_square(m[4]), capture="x" in m[3], jump="@" in m[3], shift=shift)
    except (PositionError, MoveError) as exc:
        raise MoveError(f"{quoted(text)}: {exc}") from None
