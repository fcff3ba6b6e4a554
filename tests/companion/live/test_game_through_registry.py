"""Issue 17: the live pipeline and the commands reach the game only through the registry
(``GAMES.table()``, ``GAMES.quests()``): the parts take the game they are handed, the default
is the registry's table game, and a game lacking a capability is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands.main import main
from companion.live.guide import Guide, lift_and_place
from companion.live.keys import KeyPad
from companion.live.lights import SIDE_LEDS, side_leds
from companion.live.quest import QuestSession
from companion.live.session import Session
from companion.rules import GAMES, MissingCapability
from tests.companion.live.test_keys import Calls


def test_a_session_plays_the_game_it_is_given_and_by_default_the_table_game() -> None:
    game = GAMES.table()
    assert Session().game is game and Session(game=game).game is game
    assert Session().state.expected == game.start()
    assert side_leds(game) == SIDE_LEDS == {game.sides[0]: "turn_1", game.sides[1]: "turn_2"}


def test_a_guide_plans_and_names_squares_through_the_game() -> None:
    game = GAMES.table()
    start = game.start()
    move = game.legal_moves(start)[0]
    guide = Guide.plan(start, 1, (move,), game)
    assert guide.game is game and guide.side is start.to_move
    assert guide.boards[1] == game.play(start, move)[0]
    assert guide.notation() == game.notation(move)
    assert guide == Guide.plan(start, 1, (move,))  # the default game is the same game
    lift, places = lift_and_place(move, game)
    assert [lift, *places] == [game.square_name(sq) for sq in game.move_squares(move)]


def test_the_keys_ask_for_the_game_s_sides() -> None:
    said: list[str] = []
    calls = Calls()
    pad = KeyPad(calls, said.append, {"north": "Ben"}, GAMES.table())
    pad.press("r")
    assert said[-1] == "who resigns? s = south, n = north (Ben); any other key cancels"
    pad.press("n")
    assert calls.done == ["resign north"]


@pytest.mark.parametrize("game_id", ["portals", "telic", "portal-hex"])
def test_a_quest_session_for_a_game_without_quests_is_refused(game_id: str) -> None:
    with pytest.raises(MissingCapability, match=f"^{game_id}: no Solitaire Quests"):
        QuestSession("queens", game=game_id)
    assert QuestSession("queens", game="teleporters").book is GAMES.quests()


@pytest.mark.parametrize("game_id", ["portals", "telic", "portal-hex"])
def test_referee_refuses_a_game_vision_cannot_read_in_one_line(
        game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "--source", str(tmp_path / "nope.mp4"), "--game", game_id]) == 2
    assert capsys.readouterr().err == (
        f"companion referee: --game {game_id}: vision reads only the Teleporters mat so far; "
        f"judge {game_id} positions with `companion judge --game {game_id}`\n")
