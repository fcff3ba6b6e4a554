"""Telic through the shared :class:`~companion.rules.game.Game` interface."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.errors import RulesError, VariantError
from companion.rules.game import Die, RulesCore
from companion.rules.telic.board import Face
from companion.rules.telic.explain import explain
from companion.rules.telic.movegen import legal_moves
from companion.rules.telic.moves import parse_move
from companion.rules.telic.position import Position


class Telic(RulesCore):
    """Telic (piecepack): a race to the Center Zone; the piecepack die."""

    id = "telic"
    name = "Telic"
    die = Die.PIECEPACK
    flags: tuple[str, ...] = ()
    position_type = Position
    _parse_move = staticmethod(parse_move)
    _legal_moves = staticmethod(legal_moves)
    _explain = staticmethod(explain)

    def start(self, flags: Sequence[str] = (), first: str | None = None) -> Position:
        position = self.with_flags(Position.start(), flags)
        if first not in (None, position.to_move.value):
            raise RulesError(f"--first for telic: {position.to_move.value} rolls first by the "
                             f"rule book, got {first!r}")
        return position

    def with_flags(self, position: Position, flags: Sequence[str]) -> Position:
        if flags:
            raise VariantError(f"telic has no variant flags, got {flags[0]!r}")
        return position

    def parse_roll(self, text: str) -> Face:
        return Face.parse(text)


GAME_RULES = Telic()
