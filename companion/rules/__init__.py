"""The rules core: pure Python, no camera, UI, serial or numpy. One package per game, each
reached through the shared :class:`~companion.rules.game.Game` interface."""

from companion.rules.errors import MoveError, PositionError, RulesError, VariantError
from companion.rules.game import Die, Game, MissingCapability, QuestBook, Registry, TableGame

# The games by id. A new game is one folder with a ``game.py`` (its ``GAME_RULES``) and one
# line here. The first is the default (``--game``), and the one the camera reads.
GAMES = Registry({
    "teleporters": "companion.rules.teleporters.game",
    "portals": "companion.rules.portals.game",
    "telic": "companion.rules.telic.game",
    "portal-hex": "companion.rules.portal_hex.game",
})

__all__ = ["GAMES", "Die", "Game", "MissingCapability", "MoveError", "PositionError",
           "QuestBook", "Registry", "RulesError", "TableGame", "VariantError"]
