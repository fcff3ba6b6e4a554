"""Teleporters through the shared :class:`~companion.rules.game.Game` interface, and the
two capabilities only it has so far: being played at the table with the camera
(:class:`~companion.rules.game.TableGame`) and its Solitaire Quests
(:class:`~companion.rules.game.QuestBook`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.errors import RulesError
from companion.rules.game import Die, QuestBook, RulesCore, TableGame
from companion.rules.teleporters import quests
from companion.rules.teleporters.board import Square, Variant, square_name
from companion.rules.teleporters.explain import Explanation, explain
from companion.rules.teleporters.movegen import end_turn, legal_moves, play
from companion.rules.teleporters.moves import Move, TurnState, parse_move
from companion.rules.teleporters.position import Position, Side

NO_DIE = "Teleporters uses no die: --roll is for games with one (portals, telic, portal-hex)"


class TeleportersQuests:
    """The rule book's Solitaire Quests (:mod:`companion.rules.teleporters.quests`)."""

    all = tuple(quests.Quest)

    def parse(self, text: object) -> quests.Quest:
        return quests.Quest.parse(text)

    def check(self, quest: quests.Quest | str, position: Position) -> quests.QuestReport:
        return quests.check(quest, position)

    def solution_classes(self, quest: quests.Quest) -> tuple[quests.SolutionClass, ...]:
        return quests.solution_classes(quest)


class Teleporters(RulesCore):
    """Teleporters (Kadon): 8x8 mat, Poles, Ports and Teleports; no die. Its turn state
    (the markers used) stays inside its own explanation, and inside the ``turn`` that
    :meth:`play` hands back. The mat is what vision reads, so it is a table game."""

    id = "teleporters"
    name = "Teleporters"
    die = Die.NONE
    flags = ("send_marker", "wrap_rows", "carry", "portpads", "home_telepads")
    position_type = Position
    _parse_move = staticmethod(parse_move)
    sides = (Side.SOUTH, Side.NORTH)  # turn_1, turn_2 on the board's status LEDs
    quests: QuestBook = TeleportersQuests()

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

    # -- at the table (TableGame) -------------------------------------------------------------

    def parse_side(self, text: str) -> Side:
        return Side.parse(text)

    def square_name(self, square: Square) -> str:
        return square_name(square)

    def position_from_json(self, doc: Mapping[str, Any]) -> Position:
        return Position.from_json(dict(doc))

    def play(self, position: Position, move: Move, turn: TurnState | None = None
             ) -> tuple[Position, TurnState]:
        return play(position, move, turn)

    def end_turn(self, position: Position) -> Position:
        return end_turn(position)

    def with_to_move(self, position: Position, side: Side) -> Position:
        return position.replace(to_move=side)

    def move_squares(self, move: Move) -> tuple[Square, ...]:
        return move.squares()

    def goal_squares(self, position: Position, side: Side) -> tuple[Square, ...]:
        return position.variant.goal(side)

    def board_difference(self, a: Position, b: Position) -> list[Square]:
        return [sq for sq in range(64)
                if a.poles[sq] is not b.poles[sq] or a.ports[sq] != b.ports[sq]]


# Typed as the capability, so that mypy checks the adapter provides all of it.
GAME_RULES: TableGame = Teleporters()
