"""Portal (the hex-board game) through the shared :class:`~companion.rules.game.Game`
interface."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.errors import RulesError
from companion.rules.game import Die, RulesCore, parse_flags, parse_number_roll
from companion.rules.portal_hex.board import _FLAGS, MAX_ROLL, Colour, Variant
from companion.rules.portal_hex.explain import explain
from companion.rules.portal_hex.movegen import legal_moves
from companion.rules.portal_hex.moves import parse_move
from companion.rules.portal_hex.position import Position


class PortalHex(RulesCore):
    """Portal (Polish hex board): 2-6 players by colour; the K8 die in the dice variant.
    What the camera saw may break a building rule, which ``explain`` then names: an
    observed position is read leniently."""

    id = "portal-hex"
    name = "Portal (hex board)"
    die = Die.D8
    flags = _FLAGS
    position_type = Position
    _parse_move = staticmethod(parse_move)
    _legal_moves = staticmethod(legal_moves)
    _explain = staticmethod(explain)

    def start(self, flags: Sequence[str] = (), first: str | None = None) -> Position:
        variant = Variant.from_json(parse_flags(flags))
        colour = None if first is None else Colour.parse(first)
        if colour is not None and colour not in variant.colours:
            raise RulesError(f"--first {first}: the players are "
                             + ", ".join(c.value for c in variant.colours))
        return Position.start(variant, colour)

    def _read(self, stripped: str, observed: bool) -> Position:
        if stripped.startswith("{"):
            return Position.from_json(stripped, strict=not observed)
        return Position.from_text(stripped, strict=not observed)

    def with_flags(self, position: Position, flags: Sequence[str]) -> Position:
        variant = Variant.from_json({**position.variant.to_json(), **parse_flags(flags)})
        doc = position.to_json()
        doc["variant"] = variant.to_json()
        return Position.from_json(doc, strict=False)

    def parse_roll(self, text: str) -> int:
        return parse_number_roll(text, self.id, "the K8 die", MAX_ROLL)


GAME_RULES = PortalHex()
