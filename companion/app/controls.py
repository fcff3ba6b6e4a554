"""ControlBar (End turn, Undo last commit, New game, Matches) and the confirmation popup.

End turn acts at once: the referee refuses it with a reason when it cannot act, and the app
shows the reason. Undo and New game throw work away, so they ask first.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup

from companion.app.kvload import load_kv
from companion.app.model import Screen


class ConfirmPopup(Popup):
    message = StringProperty("")
    confirm_text = StringProperty("OK")

    def __init__(self, on_confirm: Callable[[], None], **kwargs: object) -> None:
        self._on_confirm = on_confirm
        super().__init__(**kwargs)

    def confirm(self) -> None:
        self.dismiss()
        self._on_confirm()


class ControlBar(BoxLayout):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    can_undo = BooleanProperty(False)
    game_over = BooleanProperty(False)
    has_match_log = BooleanProperty(False)  # Matches opens the history; else it says why not

    __events__ = ("on_end_turn", "on_undo", "on_new_game", "on_matches")

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

    def on_new_game(self) -> None:
        pass

    def on_matches(self) -> None:
        pass


load_kv(__file__)

__all__ = ["ConfirmPopup", "ControlBar"]
