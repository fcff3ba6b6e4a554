"""Teleporters (Kadon Enterprises, by Manuel Garcia): positions, moves, legal moves, explain."""

from companion.rules.teleporters.board import (
    CORNERS,
    EDGES,
    SQUARE_NAMES,
    SQUARES,
    Carry,
    Corner,
    Diagonal,
    Edge,
    Portpad,
    SendMarker,
    Side,
    Square,
    Variant,
    WrapRows,
    parse_square,
    square,
    square_name,
)
from companion.rules.teleporters.explain import Explanation, Rule, Violation, explain
from companion.rules.teleporters.movegen import (
    apply,
    blockaded,
    end_turn,
    legal_moves,
    play,
    successors,
    surrounded,
    walk_targets,
)
from companion.rules.teleporters.moves import (
    Marker,
    Move,
    PoleMove,
    PoleMoveKind,
    PortMove,
    TeleportMove,
    TeleportMoveKind,
    TurnState,
    parse_move,
)
from companion.rules.teleporters.position import Placement, Position

GAME = "teleporters"

__all__ = [
    "CORNERS", "EDGES", "GAME", "SQUARES", "SQUARE_NAMES", "Carry", "Corner", "Diagonal",
    "Edge", "Explanation", "Marker", "Move", "Placement", "PoleMove", "PoleMoveKind",
    "PortMove", "Portpad", "Position", "Rule", "SendMarker", "Side", "Square", "TeleportMove",
    "TeleportMoveKind", "TurnState", "Variant", "Violation", "WrapRows", "apply", "blockaded",
    "end_turn", "explain", "legal_moves", "parse_move", "parse_square", "play", "square",
    "square_name", "successors", "surrounded", "walk_targets",
]
