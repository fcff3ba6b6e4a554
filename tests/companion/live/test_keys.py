"""Issue 21: the terminal's keys for `companion run` without the app (end turn, undo, take
back, accept, resign, draw), as a state machine: no threads, no camera."""

from __future__ import annotations

from companion.live.keys import KeyPad, line_keys
from companion.referee import CommitBy
from companion.rules.teleporters import Side


class Calls:
    """The session's actions, noted."""

    def __init__(self) -> None:
        self.done: list[str] = []

    def end_turn(self, source: CommitBy | str = CommitBy.TABLET) -> None:
        self.done.append(f"end_turn {CommitBy(source).value}")

    def undo_last_commit(self) -> None:
        self.done.append("undo")

    def show_restore(self) -> None:
        self.done.append("show_restore")

    def accept_board(self) -> None:
        self.done.append("accept")

    def resign(self, side: Side) -> None:
        self.done.append(f"resign {side.value}")

    def agree_draw(self) -> None:
        self.done.append("draw")

    def new_game(self) -> None:
        self.done.append("new_game")

    def stop(self) -> None:
        self.done.append("stop")


def pad() -> tuple[KeyPad, Calls, list[str]]:
    calls, said = Calls(), []
    return KeyPad(calls, said.append, {"south": "Ann"}), calls, said


def test_each_key_calls_its_action_and_what_throws_a_game_away_asks_first() -> None:
    """Issue 21: e, t, a act at once; u, d, n want y; r asks who resigns; any other key
    cancels; q stops the session."""
    keys, calls, said = pad()
    for key in "etauynxdyrsrxq":
        keys.press(key)
    assert calls.done == ["end_turn keyboard", "show_restore", "accept", "undo", "draw",
                          "resign south", "stop"]
    assert "who resigns? s = south (Ann), n = north; any other key cancels" in said
    assert "new game: cancelled" in said and "resign: cancelled" in said
    assert keys.quit


def test_an_unknown_key_is_answered_with_the_keys() -> None:
    keys, calls, said = pad()
    keys.press("z")
    assert calls.done == [] and said[-1].startswith("key 'z' does nothing; keys: e end turn")


def test_a_typed_line_is_words_or_keys() -> None:
    """Issue 21: from a pipe, lines are read: "end turn", "take back", "resign north",
    "yes"/"no", or the keys themselves."""
    assert line_keys("  End Turn ") == ["e"]
    assert line_keys("take back") == ["t"] and line_keys("accept") == ["a"]
    assert line_keys("resign north") == ["r", "n"] and line_keys("r s") == ["r", "s"]
    assert line_keys("draw") == ["d"] and line_keys("yes") == ["y"]
    assert line_keys("no") == ["x"] and line_keys("new game") == ["n"]
    assert line_keys("") == []
