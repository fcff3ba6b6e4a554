"""Telic (Michael Schoessow, 2002), a piecepack race game: positions, moves, explain.

The die is always an input: ``legal_moves(position, roll)`` and ``explain(start, observed,
roll)`` take the face the player rolled, or None when the player chose not to roll.
"""

from companion.rules.telic.board import (
    CENTER,
    ENTRANCES,
    NEIGHBOURS,
    SPACE_NAMES,
    SPACES,
    Face,
    Side,
    Space,
    die_space,
    parse_space,
    space_name,
)
from companion.rules.telic.explain import Explanation, Rule, Violation, explain
from companion.rules.telic.movegen import apply, can_bump, can_stack, legal_moves, play
from companion.rules.telic.moves import Enter, Forfeit, Move, Pass, Step, parse_move
from companion.rules.telic.position import MAX_STACK, PYRAMIDS, SIZES, Piece, Position

GAME = "telic"

__all__ = [
    "CENTER", "ENTRANCES", "GAME", "MAX_STACK", "NEIGHBOURS", "PYRAMIDS", "SIZES",
    "SPACES", "SPACE_NAMES", "Enter", "Explanation", "Face", "Forfeit", "Move", "Pass",
    "Piece", "Position", "Rule", "Side", "Space", "Step", "Violation", "apply", "can_bump",
    "can_stack", "die_space", "explain", "legal_moves", "parse_move", "parse_space", "play",
    "space_name",
]
