"""What every game's rules core shares: the south/north sides, rule-book clauses as an enum
base, and reading a position's JSON object."""

from __future__ import annotations

import enum
import json
from typing import Any

from companion.rules.errors import PositionError


class Side(enum.Enum):
    """The two sides of a two-player game played from opposite edges (Teleporters, Portals)."""

    SOUTH = "south"
    NORTH = "north"

    @property
    def opponent(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH

    @classmethod
    def parse(cls, value: object) -> Side:
        try:
            return cls(value)
        except ValueError:
            raise PositionError(f"unknown side {value!r}: sides are 'south' and 'north'") from None


class Clause(enum.Enum):
    """Base of a game's ``Rule`` enum: each member's value is (id, rule-book heading)."""

    @property
    def id(self) -> str:
        return str(self.value[0])

    @property
    def clause(self) -> str:
        return str(self.value[1])


def loads_strict(text: str | bytes) -> Any:
    """``json.loads`` that rejects duplicate keys (two pieces listed on one square)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise PositionError(f"{k!r} is given twice (two pieces cannot share a space)")
            out[k] = v
        return out

    try:
        return json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not valid JSON: {exc}") from None


def position_object(doc: object, game: str) -> dict[str, Any]:
    """A position document as a JSON object of ``game`` (text is parsed strictly first)."""
    if isinstance(doc, (str, bytes)):
        doc = loads_strict(doc)
    if not isinstance(doc, dict):
        raise PositionError(f"a position must be a JSON object, got {type(doc).__name__}")
    found = doc.get("game", game)
    if found != game:
        raise PositionError(f"this is a {found!r} position, not a {game} one")
    return doc
