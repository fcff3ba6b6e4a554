"""The rules core: pure Python, no camera, UI, serial or numpy. One module per game."""

from companion.rules.errors import MoveError, PositionError, RulesError, VariantError

GAMES = ("teleporters", "portals", "telic", "portal-hex")

__all__ = ["GAMES", "MoveError", "PositionError", "RulesError", "VariantError"]
