"""What every game's rules core shares: the south/north sides, rule-book clauses as an enum
base, and reading a position's JSON object."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

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


QUOTED_MAX = 60  # characters of an offending value an error message shows


def quoted(value: object) -> str:
    """``repr(value)``, cut to ``QUOTED_MAX`` characters: an error names the offending value,
    and a whole file pasted where a move or a position belongs must not flood the terminal."""
    text = repr(value)
    if len(text) <= QUOTED_MAX:
        return text
    return f"{text[:QUOTED_MAX - 3]}... ({len(text)} characters)"


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
    except RecursionError:  # Python's JSON reader stops at about 1,000 levels
        raise PositionError("nested far deeper than a position is: not one") from None


def position_object(doc: object, game: str, fields: Iterable[str] = ()) -> dict[str, Any]:
    """A position document as a JSON object of ``game`` (text is parsed strictly first),
    with no field but ``game``, ``to_move`` and ``fields``."""
    if isinstance(doc, (str, bytes)):
        doc = loads_strict(doc)
    if not isinstance(doc, dict):
        raise PositionError(f"a position must be a JSON object, got {type(doc).__name__}")
    found = doc.get("game", game)
    if found != game:
        raise PositionError(f"this is a {found!r} position, not a {game} one")
    unknown = set(doc) - {"game", "to_move", *fields}
    if unknown:
        raise PositionError(f"unknown field(s) {sorted(unknown)!r} in position")
    return doc


# --- what every game's explanation shares ------------------------------------------------------

T = TypeVar("T")


def in_order_once(groups: Iterable[Iterable[T]]) -> tuple[T, ...]:
    """Every place in ``groups``, once, in the order first met: the spaces to light."""
    found: list[T] = []
    for group in groups:
        found.extend(x for x in group if x not in found)
    return tuple(found)


class Broken(Protocol):
    """A violation as the shared helpers see it: a clause and a sentence."""

    @property
    def rule(self) -> Clause: ...

    @property
    def message(self) -> str: ...


class Judgement:
    """What every game's ``Explanation`` shares. Subclasses are frozen dataclasses with the
    fields ``moves``, ``alternatives`` and ``violations``."""

    __slots__ = ()
    moves: Sequence[Any]
    alternatives: Sequence[Any]
    violations: Sequence[Any]

    @property
    def move(self) -> Any:
        """The (first) move found, or None."""
        return self.moves[0] if self.moves else None

    @property
    def ambiguous(self) -> bool:
        """Other moves give the same board too."""
        return bool(self.alternatives)

    @property
    def reason(self) -> Any:
        """The first rule broken, or None when legal."""
        return self.violations[0] if self.violations else None


class OneMoveJudgement(Judgement):
    """The explanation of a game whose turn is one move (Portals, Portal): the same JSON and
    words, the places named by the game (``squares`` / ``cells``)."""

    __slots__ = ()
    legal: bool
    winner: Any

    def one_move_json(self, key: str, places: Sequence[Any], name: Callable[[Any], str]
                      ) -> dict[str, Any]:
        doc: dict[str, Any] = {"legal": self.legal}
        if self.legal:
            doc["moves"] = [m.notation() for m in self.moves]
            doc["alternatives"] = [m.notation() for m in self.alternatives]
            doc["winner"] = self.winner.value if self.winner else None
        else:
            doc["reason"] = self.violations[0].to_json()
            doc["violations"] = [v.to_json() for v in self.violations]
        doc[key] = [name(p) for p in places]
        return doc

    def describe(self) -> str:
        if not self.legal:
            return describe_illegal(self.violations)
        text = "legal: " + " ".join(m.notation() for m in self.moves)
        if self.alternatives:
            text += "\n  or: " + " ".join(m.notation() for m in self.alternatives)
        if self.winner:
            text += f"\n  {self.winner.value} wins"
        return text


def violation_json(v: Broken, key: str, places: Sequence[Any], name: Callable[[Any], str]
                   ) -> dict[str, Any]:
    """``{"rule", "clause", key: [names], "message"}``: a violation's JSON in every game."""
    return {"rule": v.rule.id, "clause": v.rule.clause, key: [name(p) for p in places],
            "message": v.message}


def describe_illegal(violations: Sequence[Broken]) -> str:
    """``illegal: <first>`` and an ``  also: ...`` line for each further violation."""
    return "\n".join(["illegal: " + violations[0].message]
                     + ["  also: " + v.message for v in violations[1:]])

