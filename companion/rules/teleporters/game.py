"""Teleporters through the shared :class:`~companion.rules.game.Game` interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.rules.errors import RulesError
from companion.rules.game import Die, RulesCore
from companion.rules.teleporters.board import Variant
from companion.rules.teleporters.explain import Explanation, explain
from companion.rules.teleporters.movegen import legal_moves
from companion.rules.teleporters.moves import Move, parse_move
from companion.rules.teleporters.position import Position, Side

NO_DIE = "Teleporters uses no die: --roll is for games with one (portals, telic, portal-hex)"


class Teleporters(RulesCore):
    """Teleporters (Kadon): 8x8 mat, Poles, Ports and Teleports; no die. Its turn state
    (the markers used) stays inside its own explanation."""

    id = "teleporters"
    name = "Teleporters"
    die = Die.NONE
    flags = ("send_marker", "wrap_rows", "carry", "portpads", "home_telepads")
    position_type = Position
    _parse_move = staticmethod(parse_move)

    def start(self, flags: Sequence[str] = (), first: str | None = None) -> Position:
        if first not in (None, "south", "north"):
            raise RulesError(f"--first for teleporters is south or north, got {first!r}")
        return Position.start(Variant.from_flags(flags), to_move=Side(first or "south"))

    def with_flags(self, position: Position, flags: Sequence[str]) -> Position:
        return position.replace(variant=Variant.from_flags(flags, position.variant))

    def legal_moves(self, position: Position, roll: Any = None) -> list[Move]:
        if roll is not None:
            raise RulesError(NO_DIE)
        return legal_moves(position)

    def explain(self, start: Position, observed: Position, roll: Any = None) -> Explanation:
        if roll is not None:
            raise RulesError(NO_DIE)
        return explain(start, observed)

    def parse_roll(self, text: str) -> Any:
        raise RulesError(NO_DIE)


GAME_RULES = Teleporters()
