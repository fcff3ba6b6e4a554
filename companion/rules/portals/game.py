"""Portals through the shared :class:`~companion.rules.game.Game` interface."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.errors import RulesError
from companion.rules.game import Die, RulesCore, parse_flags, parse_number_roll
from companion.rules.portals.board import MAX_ROLL, Side, Variant
from companion.rules.portals.explain import explain
from companion.rules.portals.movegen import legal_moves
from companion.rules.portals.moves import parse_move
from companion.rules.portals.position import Position


class Portals(RulesCore):
    """Portals (NewVenture Games): 11x11 board, Princes, Guards, Portals; a d4."""

    id = "portals"
    name = "Portals"
    die = Die.D4
    flags = ("portable_portal",)
    position_type = Position
    _parse_move = staticmethod(parse_move)
    _legal_moves = staticmethod(legal_moves)
    _explain = staticmethod(explain)

    def start(self, flags: Sequence[str] = (), first: str | None = None) -> Position:
        if first not in (None, Side.SOUTH.value):
            raise RulesError("--first for portals: the side to move first is given in the "
                             "position (south moves first)")
        return Position.start(Variant.from_json(parse_flags(flags)))

    def with_flags(self, position: Position, flags: Sequence[str]) -> Position:
        variant = Variant.from_json({**position.variant.to_json(), **parse_flags(flags)})
        doc = position.to_json()
        doc["variant"] = variant.to_json() or None
        return Position.from_json(doc)

    def parse_roll(self, text: str) -> int:
        return parse_number_roll(text, self.id, "a d4", MAX_ROLL)


GAME_RULES = Portals()
