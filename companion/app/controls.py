"""ControlBar (End turn, Undo last commit, Resign or draw, New game, Matches), the
confirmation popup and the popup that ends a game.

End turn acts at once: the referee refuses it with a reason when it cannot act, and the app
shows the reason. Undo and New game throw work away, so they ask first. Resign or draw asks
how the game ends (which side resigns, or a draw both agree to), as the terminal's r and d
keys do; cancelling changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.popup import Popup

from companion.app.kvload import load_kv
from companion.app.model import Screen
from companion.rules.teleporters import Side


class ConfirmPopup(Popup):
    message = StringProperty("")
    confirm_text = StringProperty("OK")

    def __init__(self, on_confirm: Callable[[], None], **kwargs: object) -> None:
        self._on_confirm = on_confirm
        super().__init__(**kwargs)

    def confirm(self) -> None:
        self.dismiss()
        self._on_confirm()


class EndGamePopup(Popup):
    """How the game ends: a side resigns, or both agree to a draw (one tap each)."""

    def __init__(self, on_resign: Callable[[Side], None], on_draw: Callable[[], None],
                 **kwargs: object) -> None:
        self._on_resign = on_resign
        self._on_draw = on_draw
        super().__init__(**kwargs)

    def resign(self, side: str) -> None:
        self.dismiss()
        self._on_resign(Side(side))

    def draw(self) -> None:
        self.dismiss()
        self._on_draw()


class ControlBar(GridLayout):
    """The buttons in one row where they fit, else in two (the side panel in landscape)."""

    screen: Screen | None = ObjectProperty(None, allownone=True)
    can_undo = BooleanProperty(False)
    game_over = BooleanProperty(False)
    has_match_log = BooleanProperty(False)  # Matches opens the history; else it says why not

    __events__ = ("on_end_turn", "on_undo", "on_resign", "on_draw", "on_new_game",
                  "on_matches")

    def on_screen(self, _widget: ControlBar, screen: Screen | None) -> None:
        self.can_undo = bool(screen and screen.can_undo)
        self.game_over = bool(screen and (screen.over or screen.winner is not None))

    def ask_undo(self) -> ConfirmPopup:
        committed = [t for t in self.screen.turns if not t.tentative] if self.screen else []
        last = committed[-1] if committed else None
        what = (f"{last.side.value}'s turn {last.number} ({' '.join(last.moves) or 'pass'})"
                if last else "the last committed turn")
        return self._ask("Undo last commit?",
                         f"This reopens {what}. The board seen now is judged again from that "
                         "turn's start.", "Undo", lambda: self.dispatch("on_undo"))

    def ask_end_game(self) -> EndGamePopup:
        popup = EndGamePopup(lambda side: self.dispatch("on_resign", side),
                             lambda: self.dispatch("on_draw"), title="End the game?")
        popup.open()
        return popup

    def ask_new_game(self) -> ConfirmPopup:
        return self._ask("Start a new game?",
                         "Set the pieces up as at the start. This game's move list is cleared.",
                         "New game", lambda: self.dispatch("on_new_game"))

    def _ask(self, title: str, message: str, confirm_text: str,
             on_confirm: Callable[[], None]) -> ConfirmPopup:
        popup = ConfirmPopup(on_confirm, title=title, message=message,
                             confirm_text=confirm_text)
        popup.open()
        return popup

    def on_end_turn(self) -> None:
        pass

    def on_undo(self) -> None:
        pass

    def on_resign(self, side: Side) -> None:
        pass

    def on_draw(self) -> None:
        pass

    def on_new_game(self) -> None:
        pass

    def on_matches(self) -> None:
        pass


load_kv(__file__)

__all__ = ["ConfirmPopup", "ControlBar", "EndGamePopup"]
