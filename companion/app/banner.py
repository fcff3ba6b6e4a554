"""WarningBanner (what is wrong, in plain words, with the recovery buttons) and NoticeBar (one
line for one-off messages: a refused button, the first mover chosen, a correction accepted)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.app.kvload import load_kv
from companion.app.model import Action, Screen

NOTICE_SECONDS = 10.0


class BannerButton(Button):
    action = StringProperty("")


class WarningBanner(BoxLayout):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    kind = StringProperty("none")
    title = StringProperty("")
    body = StringProperty("")
    actions = ListProperty([])  # Action values, one button each
    shown = BooleanProperty(False)

    __events__ = ("on_action",)

    def on_screen(self, _widget: WarningBanner, screen: Screen | None) -> None:
        banner = screen.banner if screen is not None else None
        self.shown = bool(banner and banner.shown)
        self.kind = banner.kind.value if banner else "none"
        self.title = banner.title if banner else ""
        self.body = banner.body if banner else ""
        self.actions = [a.value for a in banner.actions] if banner else []

    def on_actions(self, _widget: WarningBanner, actions: list[str]) -> None:
        box = self.ids.actions
        box.clear_widgets()
        for value in actions:
            button = BannerButton(text=Action(value).label, action=value)
            button.bind(on_release=lambda b: self.dispatch("on_action", b.action))
            box.add_widget(button)

    def button(self, action: Action) -> BannerButton | None:
        for child in self.ids.actions.children:
            if isinstance(child, BannerButton) and child.action == action.value:
                return child
        return None

    def on_action(self, action: str) -> None:
        """Dispatched with an :class:`Action` value when its button is pressed."""


class NoticeBar(Label):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    shown = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        self._serial = 0
        self._hide = Clock.create_trigger(self._timeout, NOTICE_SECONDS)
        super().__init__(**kwargs)

    def on_screen(self, _widget: NoticeBar, screen: Screen | None) -> None:
        if screen is None or screen.notice_serial == self._serial:
            return
        self._serial = screen.notice_serial
        self.text, self.shown = screen.notice, bool(screen.notice)
        self._hide.cancel()
        self._hide()

    def _timeout(self, _dt: float) -> None:
        self.shown = False


load_kv(__file__)

__all__ = ["NOTICE_SECONDS", "BannerButton", "NoticeBar", "WarningBanner"]
