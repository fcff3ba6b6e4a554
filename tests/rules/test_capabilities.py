"""Issue 17: the live pipeline reaches a game only through the registry. What it needs beyond
``Game`` is a capability a game has or lacks (``TableGame``: read by the camera, played with
the LEDs; ``QuestBook``: Solitaire Quests), and a game without one is refused by name, never
handed a stub."""

from __future__ import annotations

import pytest

from companion.rules import GAMES, MissingCapability, QuestBook, RulesError, TableGame

OTHERS = [g for g in GAMES if g != "teleporters"]


def test_the_default_game_is_the_table_game_and_has_the_quests() -> None:
    assert GAMES.default == "teleporters"
    table = GAMES.table()
    assert isinstance(table, TableGame) and table is GAMES["teleporters"]
    assert GAMES.table("teleporters") is table
    assert isinstance(GAMES.quests(), QuestBook) and GAMES.quests() is GAMES.quests("teleporters")


@pytest.mark.parametrize("game_id", OTHERS)
def test_a_game_vision_cannot_read_is_refused_with_one_line(game_id: str) -> None:
    with pytest.raises(MissingCapability) as refused:
        GAMES.table(game_id)
    assert str(refused.value) == f"{game_id}: vision reads only the Teleporters mat so far"
    assert refused.value.game == game_id
    with pytest.raises(MissingCapability) as refused:
        GAMES.quests(game_id)
    assert str(refused.value) == f"{game_id}: no Solitaire Quests (Teleporters has them)"
    assert issubclass(MissingCapability, RulesError) and issubclass(MissingCapability, ValueError)


def test_an_unknown_game_or_default_is_named() -> None:
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        GAMES.table("chess")
    with pytest.raises(RulesError, match="default game 'chess'"):
        type(GAMES)({"teleporters": "companion.rules.teleporters.game"}, default="chess")


def test_a_turn_played_through_the_table_interface() -> None:
    """What the live pipeline does with a game: play moves, end the turn, name squares."""
    game = GAMES.table()
    start = game.start()
    south, north = game.sides
    assert start.to_move is south and game.parse_side("north") is north
    move = game.legal_moves(start)[0]
    after, turn = game.play(start, move)
    assert game.explain(start, after).legal
    lifted, *placed = game.move_squares(move)
    assert game.board_difference(start, after) == sorted({lifted, *placed})
    assert [game.square_name(sq) for sq in (0, 63)] == ["a1", "h8"]
    ended = game.end_turn(after)
    assert ended.to_move is north and game.board_difference(after, ended) == []
    assert game.with_to_move(after, north) == ended
    assert game.position_from_json(game.position_json(ended)) == ended
    assert {game.square_name(sq) for sq in game.goal_squares(start, south)} == {
        "c8", "d8", "e8", "f8"}
    with pytest.raises(RulesError):
        game.play(ended, move, turn)  # south's move, with north to move


def test_the_quest_book_judges_a_layout() -> None:
    book = GAMES.quests()
    queens = book.parse("queens")
    assert queens in book.all and book.parse(queens) is queens
    report = book.check(queens, GAMES.table().start())
    assert not report.solved and report.describe()
    assert len(book.solution_classes(queens)) == 12
