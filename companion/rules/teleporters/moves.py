"""Teleporters moves, their notation, and the turn state (the four markers).

Notation, one token per move (``parse_move(m.notation()) == m`` for every move):

==========================  ============================================================
``Pc1-c3``                  Pole walk (1-2 steps, wrap-around included)
``Pc1*e1``                  Pole teleport (Telepad, Teleport routes)
``Pd4!c1``                  Pole blockade escape to a Home Telepad
``Vb2sw@se``                Port spin in its space
``Vb2sw-b5``                Port glide, orientation kept
``Vb2sw-b5ne``              Port glide onto a Pole, then its free spin to ``ne``
``Vc3sw-c6xb7``             ... that repels the opponent's Port there to its Portpad b7
``Vc3sw-c6!b2``             ... anti-repel: the gliding Port bounced home to Portpad b2
``Vc3sw-e3ne>d8``           ... forming a Teleport round an opponent Pole, vaulted to d8
``Td4@nwse``                Teleport spin to the other diagonal
``Td4-d6`` / ``Td4-d6P``    Teleport glide, alone / carrying the Pole inside it
``Td4*c1``                  Teleport sends its Pole (variant send_marker=port|either)
==========================  ============================================================
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from companion.rules.common import quoted
from companion.rules.errors import MoveError, PositionError
from companion.rules.teleporters.board import (
    Corner,
    Diagonal,
    Square,
    parse_square,
    square_name,
)


class Marker(enum.Enum):
    POLE = "pole"  # round
    PORT = "port"  # angled: Ports and Teleports


class PoleMoveKind(enum.Enum):
    WALK = "-"
    TELEPORT = "*"
    ESCAPE = "!"


class TeleportMoveKind(enum.Enum):
    SPIN = "@"
    GLIDE = "-"
    SEND = "*"


@dataclass(frozen=True, slots=True)
class PoleMove:
    kind: PoleMoveKind
    frm: Square
    to: Square

    marker = Marker.POLE

    def notation(self) -> str:
        return f"P{square_name(self.frm)}{self.kind.value}{square_name(self.to)}"

    def squares(self) -> tuple[Square, ...]:
        return (self.frm, self.to)

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class PortMove:
    """A Port's spin or glide. ``to_corner`` is where it ends when it stays in ``to``.

    Side effects are part of the move, because the owner's choices are: ``repel_to`` (the
    opponent's repelled Port goes to this Portpad), ``bounce_to`` (anti-repel: this Port goes
    to its own Portpad instead), ``vault_to`` (an opponent Pole enclosed by the new Teleport
    goes to this Home Telepad).
    """

    frm: Square
    corner: Corner
    to: Square
    to_corner: Corner
    repel_to: Square | None = None
    bounce_to: Square | None = None
    vault_to: Square | None = None

    marker = Marker.PORT

    @property
    def is_spin(self) -> bool:
        return self.frm == self.to

    def notation(self) -> str:
        head = f"V{square_name(self.frm)}{self.corner.value}"
        if self.is_spin:
            return f"{head}@{self.to_corner.value}"
        out = f"{head}-{square_name(self.to)}"
        if self.to_corner is not self.corner and self.bounce_to is None:
            out += self.to_corner.value
        if self.repel_to is not None:
            out += f"x{square_name(self.repel_to)}"
        if self.bounce_to is not None:
            out += f"!{square_name(self.bounce_to)}"
        if self.vault_to is not None:
            out += f">{square_name(self.vault_to)}"
        return out

    def squares(self) -> tuple[Square, ...]:
        extra = (self.repel_to, self.bounce_to, self.vault_to)
        return (self.frm, self.to, *tuple(s for s in extra if s is not None))

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class TeleportMove:
    """A Teleport's spin, glide (with or without its Pole) or sending of its Pole."""

    kind: TeleportMoveKind
    frm: Square
    to: Square
    diagonal: Diagonal | None = None  # spin only: the orientation after it
    passenger: bool = False  # glide only: the same-side Pole inside rides along

    marker = Marker.PORT

    def notation(self) -> str:
        head = f"T{square_name(self.frm)}"
        if self.kind is TeleportMoveKind.SPIN:
            assert self.diagonal is not None
            return f"{head}@{self.diagonal.value}"
        out = f"{head}{self.kind.value}{square_name(self.to)}"
        if self.kind is TeleportMoveKind.GLIDE and self.passenger:
            out += "P"
        return out

    def squares(self) -> tuple[Square, ...]:
        return (self.frm, self.to) if self.frm != self.to else (self.frm,)

    def __str__(self) -> str:
        return self.notation()


Move = PoleMove | PortMove | TeleportMove

_SQ = r"[a-h][1-8]"
_CORNER = r"(?:sw|se|nw|ne)"
_POLE_RE = re.compile(rf"P({_SQ})([-*!])({_SQ})")
_PORT_SPIN_RE = re.compile(rf"V({_SQ})({_CORNER})@({_CORNER})")
_PORT_GLIDE_RE = re.compile(
    rf"V({_SQ})({_CORNER})-({_SQ})({_CORNER})?(?:x({_SQ}))?(?:!({_SQ}))?(?:>({_SQ}))?"
)
_TELEPORT_SPIN_RE = re.compile(rf"T({_SQ})@(swne|nwse)")
_TELEPORT_MOVE_RE = re.compile(rf"T({_SQ})([-*])({_SQ})(P?)")


def parse_move(text: str) -> Move:
    """Notation -> move. Raises :class:`MoveError` naming the text when it is not a move.

    """
    t = text.strip()
    try:
        if m := _POLE_RE.fullmatch(t):
            return PoleMove(PoleMoveKind(m[2]), parse_square(m[1]), parse_square(m[3]))
        if m := _PORT_SPIN_RE.fullmatch(t):
            sq = parse_square(m[1])
            if m[2] == m[3]:
                raise MoveError(f"{quoted(text)}: a spin must change the Port's corner")
            return PortMove(sq, Corner(m[2]), sq, Corner(m[3]))
        if m := _PORT_GLIDE_RE.fullmatch(t):
            frm, to = parse_square(m[1]), parse_square(m[3])
            if frm == to:
                raise MoveError(f"{quoted(text)}: a glide must leave its space")
            corner = Corner(m[2])
            return PortMove(
                frm, corner, to, Corner(m[4]) if m[4] else corner,
                repel_to=parse_square(m[5]) if m[5] else None,
                bounce_to=parse_square(m[6]) if m[6] else None,
                vault_to=parse_square(m[7]) if m[7] else None,
            )
        if m := _TELEPORT_SPIN_RE.fullmatch(t):
            sq = parse_square(m[1])
            return TeleportMove(TeleportMoveKind.SPIN, sq, sq, Diagonal(m[2]))
        if m := _TELEPORT_MOVE_RE.fullmatch(t):
            kind = TeleportMoveKind(m[2])
            if kind is TeleportMoveKind.SEND and m[4]:
                raise MoveError(f"{quoted(text)}: 'P' (passenger) belongs to a glide, not a send")
            return TeleportMove(kind, parse_square(m[1]), parse_square(m[3]),
                                passenger=bool(m[4]))
    except PositionError as exc:
        raise MoveError(f"{quoted(text)}: {exc}") from None
    raise MoveError(f"{quoted(text)} is not a Teleporters move "
                    "(examples: Pc1-c3, Vb2sw-b5, Td4-d6P)")


# ----------------------------------------------------------------------------------------------
# Turn state


@dataclass(frozen=True, slots=True)
class TurnState:
    """The markers used so far this turn, each on the piece it marks (where it stands now).

    ``pole_marks``: squares of Poles that used a Pole marker. ``port_marks``: (square, corner)
    of Ports that moved on their own. ``teleport_marks``: squares of Teleports that moved.
    ``moves``: the moves made, in order.
    """

    pole_marks: tuple[Square, ...] = ()
    port_marks: tuple[tuple[Square, Corner], ...] = ()
    teleport_marks: tuple[Square, ...] = ()
    moves: tuple[Move, ...] = ()

    POLE_MARKERS = 2
    PORT_MARKERS = 2

    @property
    def pole_markers_left(self) -> int:
        return self.POLE_MARKERS - len(self.pole_marks)

    @property
    def port_markers_left(self) -> int:
        return self.PORT_MARKERS - len(self.port_marks) - len(self.teleport_marks)

    def key(self) -> tuple[Any, ...]:
        """Everything that constrains the rest of the turn (not the order of the moves)."""
        return (tuple(sorted(self.pole_marks)),
                tuple(sorted(self.port_marks, key=lambda m: (m[0], m[1].value))),
                tuple(sorted(self.teleport_marks)))

    def to_json(self) -> dict[str, Any]:
        return {
            "pole_markers": [square_name(s) for s in self.pole_marks],
            "port_markers": [{"square": square_name(s), "corner": c.value}
                             for s, c in self.port_marks]
            + [{"teleport": square_name(s)} for s in self.teleport_marks],
            "moves": [m.notation() for m in self.moves],
        }

    @classmethod
    def from_json(cls, doc: object) -> TurnState:
        if not isinstance(doc, dict):
            raise MoveError(f"a turn state must be a JSON object, got {doc!r}")
        try:
            pole_marks = tuple(parse_square(s) for s in doc.get("pole_markers", []))
            port_marks: list[tuple[Square, Corner]] = []
            teleport_marks: list[Square] = []
            for item in doc.get("port_markers", []):
                if isinstance(item, dict) and "teleport" in item:
                    teleport_marks.append(parse_square(item["teleport"]))
                elif isinstance(item, dict):
                    port_marks.append((parse_square(item.get("square")),
                                       Corner.parse(item.get("corner"))))
                else:
                    raise MoveError(f"unknown port marker {item!r}")
        except PositionError as exc:
            raise MoveError(f"turn state: {exc}") from None
        state = cls(pole_marks, tuple(port_marks), tuple(teleport_marks),
                    tuple(parse_move(m) for m in doc.get("moves", [])))
        if state.pole_markers_left < 0 or state.port_markers_left < 0:
            raise MoveError(f"turn state uses more than 2+2 markers: {doc!r}")
        return state
