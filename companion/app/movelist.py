"""MoveList: the committed turns in notation, then the turn in play (so far)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.app import theme
from companion.app.kvload import load_kv
from companion.app.model import Screen


def _hex(rgba: tuple[float, ...]) -> str:
    return "".join(f"{round(c * 255):02x}" for c in rgba[:3])


class MoveList(BoxLayout):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    markup_text = StringProperty("")  # what the list shows (Kivy markup)
    plain_text = StringProperty("")  # the same without markup, one turn per line

    def on_screen(self, _widget: MoveList, screen: Screen | None) -> None:
        if screen is None:
            return
        lines = []
        for turn in screen.turns:
            text = escape_markup(turn.text)
            if turn.tentative:  # not final until the turn ends: set apart
                text = f"[i][color={_hex(theme.MARKER_FREE)}]{text}[/color][/i]"
            lines.append(text)
        self.plain_text = screen.move_list_text
        self.markup_text = "\n".join(lines)
        Clock.schedule_once(self._scroll_to_end, 0)

    def _scroll_to_end(self, _dt: float) -> None:
        self.ids.scroll.scroll_y = 0  # the newest turn in view


load_kv(__file__)

__all__ = ["MoveList"]
