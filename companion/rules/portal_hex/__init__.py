"""Portal (the Polish hex-board game): positions, moves, legal moves, explain.
See docs/rules/portal-hex.md."""

from companion.rules.portal_hex.board import (
    CENTRUM,
    DEFAULT_VARIANT,
    DIRECTIONS,
    MAX_ROLL,
    PALETTE,
    Cell,
    Colour,
    Geometry,
    Kind,
    Variant,
    cell_name,
    distance,
    geometry,
    parse_cell,
)
from companion.rules.portal_hex.clauses import Rule, Violation
from companion.rules.portal_hex.explain import Explanation, explain
from companion.rules.portal_hex.movegen import (
    allowed_actions,
    apply,
    check_move,
    legal_moves,
    play,
    winner,
)
from companion.rules.portal_hex.moves import Action, Move, parse_move
from companion.rules.portal_hex.position import Position, board_faults

GAME = "portal-hex"

__all__ = [
    "CENTRUM", "DEFAULT_VARIANT", "DIRECTIONS", "GAME", "MAX_ROLL", "PALETTE", "Action", "Cell",
    "Colour", "Explanation", "Geometry", "Kind", "Move", "Position", "Rule", "Variant",
    "Violation", "allowed_actions", "apply", "board_faults", "cell_name", "check_move",
    "distance", "explain", "geometry", "legal_moves", "parse_cell", "parse_move", "play",
    "winner",
]
