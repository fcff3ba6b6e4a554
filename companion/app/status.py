"""StatusBar: whose turn it is, the camera's and the LED/die board's connection, the die."""

from __future__ import annotations

from kivy.graphics import Color, Ellipse
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.app.kvload import load_kv
from companion.app.model import LINK_WORDS, Screen
from companion.referee import VisionState

# Pip positions on a unit die face, by value (1-6); other dice show their number.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.75), (0.75, 0.25)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)),
}


class DieFace(Widget):
    """A d6 shows its pips; any other die (or no roll yet) its number, in status.kv."""

    value = NumericProperty(0)  # 0: no roll yet
    sides = NumericProperty(6)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(value=self._draw, sides=self._draw, pos=self._draw, size=self._draw)

    def _draw(self, *_args: object) -> None:
        self.canvas.after.clear()
        if self.sides != 6 or self.value not in PIPS:
            return
        s = min(self.width, self.height)
        x0, y0, r = self.center_x - s / 2, self.center_y - s / 2, s * 0.09
        with self.canvas.after:
            Color(0.1, 0.1, 0.1, 1)
            for u, v in PIPS[int(self.value)]:
                Ellipse(pos=(x0 + u * s - r, y0 + v * s - r), size=(2 * r, 2 * r))


class LinkLamp(BoxLayout):
    name = StringProperty("")
    state = StringProperty("none")  # a Link value
    words = StringProperty("")


class StatusBar(BoxLayout):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    headline = StringProperty("")
    detail = StringProperty("")

    def on_screen(self, _widget: StatusBar, screen: Screen | None) -> None:
        if screen is None:
            return
        self.headline = screen.headline
        self.detail = screen.links.detail
        camera = screen.links.camera
        words = LINK_WORDS[camera]
        if screen.vision is VisionState.OCCLUDED:
            words += ", hand over the mat"
        elif screen.vision is VisionState.UNCERTAIN:
            words += ", unsure"
        self.ids.camera.state, self.ids.camera.words = camera.value, words
        board = screen.links.board
        self.ids.board.state, self.ids.board.words = board.value, LINK_WORDS[board]
        self.ids.die.value = screen.die or 0
        self.ids.die.sides = screen.die_sides


load_kv(__file__)

__all__ = ["DieFace", "LinkLamp", "StatusBar"]
