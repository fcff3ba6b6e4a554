"""Portal moves (one action per turn) and their notation.

``parse_move(m.notation()) == m`` for every move:

====================================  ======================================================
``portal 1,-1 in 2,-1 0,-1 out 1,0``  build a portal with entrances 2,-1 0,-1 and exit 1,0
``platform 2,-1 to 1,-1 from 3,-2``   build a platform entering portal 1,-1, exit of 3,-2
``fire 1,-1``                         activate the portal on 1,-1
``fire 1,-1 demons 1,0``              ... demons come out on 1,0 (when that is a choice)
``start``                             put a pawn from the pool on one's own START
``centrum``                           take one's pawn off CENTRUM
``pass``                              no action is possible: the turn ends
====================================  ======================================================

Empty lists are left out. Cells inside a list are written in (q, r) order.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from companion.rules.common import quoted
from companion.rules.errors import MoveError, PositionError
from companion.rules.portal_hex.board import Cell, cell_name, parse_cell


class Action(enum.Enum):
    PORTAL = "portal"  # build a portal
    PLATFORM = "platform"  # build a platform
    FIRE = "fire"  # activate a portal
    START = "start"
    CENTRUM = "centrum"
    PASS = "pass"

    @property
    def is_build(self) -> bool:
        return self in (Action.PORTAL, Action.PLATFORM)


@dataclass(frozen=True, slots=True)
class Move:
    """One turn.

    Builds: ``cell`` is the new element; ``ins`` the cells whose arrows point into it (a
    portal's entrances; the portals a platform is an exit of, notation ``from``), ``outs``
    the cells its arrows point to (a portal's exits; the portals a platform enters,
    notation ``to``). Fire: ``cell`` is the portal, ``demons`` the exits that get the demons
    when the player chooses. Both lists are kept sorted.
    """

    action: Action
    cell: Cell | None = None
    ins: tuple[Cell, ...] = ()
    outs: tuple[Cell, ...] = ()
    demons: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        for name in ("ins", "outs", "demons"):
            value = tuple(sorted(set(getattr(self, name))))
            if len(value) != len(getattr(self, name)):
                raise MoveError(f"{name} lists a cell twice: {getattr(self, name)!r}")
            object.__setattr__(self, name, value)
        needs_cell = self.action.is_build or self.action is Action.FIRE
        if needs_cell != (self.cell is not None):
            raise MoveError(f"a {self.action.value} move "
                            + ("names its cell" if needs_cell else "names no cell"))
        if (self.ins or self.outs) and not self.action.is_build:
            raise MoveError(f"only builds have arrows, not {self.action.value}")
        if self.demons and self.action is not Action.FIRE:
            raise MoveError(f"only a fire move places demons, not {self.action.value}")
        both = set(self.ins) & set(self.outs)
        if both:
            raise MoveError(f"{self.notation()}: {', '.join(map(cell_name, sorted(both)))} "
                            "is joined both ways; one arrow per portal and platform")
        if self.cell is not None and self.cell in self.ins + self.outs:
            raise MoveError(f"{self.notation()}: an element is not joined to itself")

    def notation(self) -> str:
        if self.cell is None:
            return self.action.value
        text = f"{self.action.value} {cell_name(self.cell)}"
        words = {Action.PORTAL: (("in", self.ins), ("out", self.outs)),
                 Action.PLATFORM: (("to", self.outs), ("from", self.ins)),
                 Action.FIRE: (("demons", self.demons),)}[self.action]
        for word, cells in words:
            if cells:
                text += f" {word} " + " ".join(map(cell_name, cells))
        return text

    def cells(self) -> tuple[Cell, ...]:
        """Every cell the move names, its own cell first."""
        own = () if self.cell is None else (self.cell,)
        return own + self.ins + self.outs + self.demons

    def squares(self) -> tuple[Cell, ...]:  # the name the referee uses for every game
        return self.cells()

    def __str__(self) -> str:
        return self.notation()


PASS = Move(Action.PASS)
START = Move(Action.START)
TAKE_OFF = Move(Action.CENTRUM)

_WORDS = {Action.PORTAL: {"in": "ins", "out": "outs"},
          Action.PLATFORM: {"from": "ins", "to": "outs"},
          Action.FIRE: {"demons": "demons"}}


def parse_move(text: str) -> Move:
    """Notation -> move. Raises :class:`MoveError` naming the text when it is not a move."""
    if not isinstance(text, str):
        raise MoveError(f"{quoted(text)} is not a Portal move: moves are text")
    norm = re.sub(r"\s*,\s*", ",", text.strip().lower())
    tokens = norm.split()
    examples = ("(examples: 'portal 1,-1 in 2,-1 out 1,0', 'platform 2,-1 to 1,-1', "
                "'fire 1,-1', 'start', 'centrum', 'pass')")
    try:
        action = Action(tokens[0]) if tokens else None
    except ValueError:
        action = None
    if action is None:
        raise MoveError(f"{quoted(text)} is not a Portal move {examples}")
    if action in (Action.START, Action.CENTRUM, Action.PASS):
        if len(tokens) != 1:
            raise MoveError(f"{quoted(text)}: '{action.value}' takes no cells")
        return Move(action)
    if len(tokens) < 2:
        raise MoveError(f"{quoted(text)}: '{action.value}' needs a cell {examples}")
    try:
        cell = parse_cell(tokens[1])
        lists: dict[str, list[Cell]] = {}
        current: list[Cell] | None = None
        for token in tokens[2:]:
            if token in _WORDS[action]:
                field = _WORDS[action][token]
                if field in lists:
                    raise MoveError(f"{quoted(text)}: '{token}' is given twice")
                current = lists[field] = []
            elif current is None:
                raise MoveError(f"{quoted(text)}: expected one of "
                                f"{', '.join(_WORDS[action])} before {token!r}")
            else:
                current.append(parse_cell(token))
        if any(not v for v in lists.values()):
            raise MoveError(f"{quoted(text)}: a list word must be followed by at least one cell")
        return Move(action, cell, **{k: tuple(v) for k, v in lists.items()})
    except (PositionError, MoveError) as exc:
        msg = str(exc)
        raise MoveError(msg if msg.startswith(quoted(text)) else f"{quoted(text)}: {msg}") from None
