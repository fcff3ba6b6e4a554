"""Portals (NewVenture Games): positions, moves, legal moves, explain. See docs/rules/portals.md."""

from companion.rules.portals.board import (
    CENTER,
    DEFAULT_VARIANT,
    MAX_ROLL,
    NO_PORTABLE_PORTAL,
    SIZE,
    SQUARE_NAMES,
    Kind,
    Side,
    Square,
    Variant,
    parse_square,
    square,
    square_name,
)
from companion.rules.portals.explain import Explanation, Rule, Violation, explain
from companion.rules.portals.movegen import (
    apply,
    is_stalled,
    legal_moves,
    piece_moves,
    play,
    portal_shifts,
    winner,
)
from companion.rules.portals.moves import Move, PortalShift, parse_move
from companion.rules.portals.position import DEFAULT_PORTALS, DEFAULT_SETUP, Position

GAME = "portals"

__all__ = [
    "CENTER", "DEFAULT_PORTALS", "DEFAULT_SETUP", "DEFAULT_VARIANT", "GAME", "MAX_ROLL",
    "NO_PORTABLE_PORTAL", "SIZE", "SQUARE_NAMES", "Explanation", "Kind", "Move",
    "PortalShift", "Position", "Rule", "Side", "Square", "Variant", "Violation", "apply",
    "explain", "is_stalled", "legal_moves", "parse_move", "parse_square", "piece_moves", "play",
    "portal_shifts", "square", "square_name", "winner",
]
