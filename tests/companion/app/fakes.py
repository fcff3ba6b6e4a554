"""A scripted session for the app's tests: the real referee, and a record of every call the
app makes on it (the buttons' effects)."""

from __future__ import annotations

from companion.app.screenshots import after, pole_moved
from companion.app.scripted import ScriptedSession
from companion.rules.teleporters import Position, Side

START = Position.start()
# South one walk from winning: three Poles on Goal Telepads c8-e8, the fourth on f7.
NEAR_WIN = Position.from_text(
    "2PPP3/1[nw]3P[ne]1/2[nw]2[ne]2/pp4pp/8/2[SW]2[SE]2/1[SW]4[SE]1/8 south")


class FakeSession(ScriptedSession):
    """A ``SessionLike`` (see ``companion.live.api``) that also records the app's calls."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.calls: list[str] = []

    def end_turn(self) -> None:
        self.calls.append("end_turn")
        super().end_turn()

    def undo_last_commit(self) -> None:
        self.calls.append("undo_last_commit")
        super().undo_last_commit()

    def new_game(self) -> None:
        self.calls.append("new_game")
        super().new_game()

    def accept_board(self) -> None:
        self.calls.append("accept_board")
        super().accept_board()

    def show_restore(self) -> None:
        self.calls.append("show_restore")
        super().show_restore()

    def resign(self, side: Side) -> None:
        self.calls.append(f"resign {side.value}")
        super().resign(side)

    def agree_draw(self) -> None:
        self.calls.append("agree_draw")
        super().agree_draw()

    def close(self) -> None:
        self.calls.append("close")
        super().close()


__all__ = ["NEAR_WIN", "START", "FakeSession", "after", "pole_moved"]
