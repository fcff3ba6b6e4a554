"""Telic moves and their notation (``parse_move(m.notation()) == m`` for every move).

=================  ============================================================================
``+4b3``           rolled (die names b3), a size-4 pyramid from the stash enters b3 (vacant,
                   or stacked on a friendly piece there)
``+4xb3``          ... bumping the opponent's smaller Single on b3 back to its owner's stash
``~b3``            rolled (die names b3), turn forfeit
``ra-k5``          the piece on ra steps to k5 (vacant, or stacked on a friendly piece there)
``raxk5``          ... bumping the opposing piece of equal or lesser power on k5
``k2-cz``          the piece on k2 moves into the Center Zone (only from k2 or k3)
``pass``           no legal move at all (empty stash and no piece can move)
=================  ============================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.rules.common import quoted
from companion.rules.errors import MoveError, PositionError
from companion.rules.telic.board import CENTER, Face, Space, parse_space, space_face, space_name


@dataclass(frozen=True, slots=True)
class Enter:
    """After a roll: one pyramid of ``size`` from the stash onto ``to`` (the die's space)."""

    to: Space
    size: int
    bump: bool = False

    @property
    def roll(self) -> Face:
        return space_face(self.to)

    def notation(self) -> str:
        return f"+{self.size}{'x' if self.bump else ''}{space_name(self.to)}"

    def spaces(self) -> tuple[Space, ...]:
        return (self.to,)

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Forfeit:
    """After a roll: the turn is forfeit (occupied space the player cannot or will not use)."""

    to: Space

    @property
    def roll(self) -> Face:
        return space_face(self.to)

    def notation(self) -> str:
        return f"~{space_name(self.to)}"

    def spaces(self) -> tuple[Space, ...]:
        return (self.to,)

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Step:
    """No roll: a Single or Stack moves one space; ``to`` None is the Center Zone."""

    frm: Space
    to: Space | None
    bump: bool = False

    roll = None

    def notation(self) -> str:
        dest = CENTER if self.to is None else space_name(self.to)
        return f"{space_name(self.frm)}{'x' if self.bump else '-'}{dest}"

    def spaces(self) -> tuple[Space, ...]:
        return (self.frm,) if self.to is None else (self.frm, self.to)

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Pass:
    """No legal move at all: nothing in the stash and no piece on the board can move."""

    roll = None

    def notation(self) -> str:
        return "pass"

    def spaces(self) -> tuple[Space, ...]:
        return ()

    def __str__(self) -> str:
        return self.notation()


Move = Enter | Forfeit | Step | Pass

_ENTER = re.compile(r"^\+([1-6])(x?)([a-z][a-z0-9])$")
_FORFEIT = re.compile(r"^~([a-z][a-z0-9])$")
_STEP = re.compile(r"^([a-z][a-z0-9])([-x])([a-z][a-z0-9])$")


def parse_move(text: object) -> Move:
    if not isinstance(text, str):
        raise MoveError(f"a move must be text, got {quoted(text)}")
    t = text.strip().lower()
    try:
        if t == "pass":
            return Pass()
        if m := _ENTER.match(t):
            return Enter(parse_space(m[3]), int(m[1]), m[2] == "x")
        if m := _FORFEIT.match(t):
            return Forfeit(parse_space(m[1]))
        if m := _STEP.match(t):
            if m[3] == CENTER:
                if m[2] == "x":
                    raise MoveError(f"move {quoted(text)}: nothing is bumped in the Center Zone")
                return Step(parse_space(m[1]), None)
            return Step(parse_space(m[1]), parse_space(m[3]), m[2] == "x")
    except PositionError as exc:
        raise MoveError(f"move {quoted(text)}: {exc}") from None
    raise MoveError(f"cannot read move {quoted(text)}: expected e.g. +4b3, +4xb3, ~b3, ra-k5, "
                    "raxk5, k2-cz or pass")
