"""MarkersPanel: the four turn markers, two round Pole markers and two angled Port markers.

A used marker is grey and names the piece it was used on, where that piece stands now ("d3",
"c5 sw", "Teleport d4"); a free one is green. The shapes are drawn in markers.kv.
"""

from __future__ import annotations

from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.app.kvload import load_kv
from companion.app.model import MarkerView, Screen
from companion.rules.teleporters import Marker


class MarkerShape(Widget):
    """The marker itself, drawn in markers.kv: a disc (Pole) or an angled V (Port)."""

    kind = OptionProperty("pole", options=["pole", "port"])
    used = BooleanProperty(False)
    size_px = NumericProperty(0)
    stroke = NumericProperty(0)


class MarkerIcon(BoxLayout):
    kind = OptionProperty("pole", options=["pole", "port"])
    used = BooleanProperty(False)
    on = StringProperty("")  # the marked piece, while used
    label = StringProperty("free")

    def show(self, marker: MarkerView) -> None:
        self.kind = "pole" if marker.kind is Marker.POLE else "port"
        self.used, self.on, self.label = marker.used, marker.on, marker.label

    def sample_point(self) -> tuple[float, float]:
        """A window point inside the drawn shape (for tests reading the screen's pixels)."""
        shape = self.ids.shape
        x, y = shape.center_x, shape.center_y
        if self.kind == "port":  # the middle of the V's left arm
            x -= shape.size_px / 4
        return shape.to_window(x, y)


class MarkersPanel(BoxLayout):
    screen: Screen | None = ObjectProperty(None, allownone=True)
    title = StringProperty("Markers")

    def on_screen(self, _widget: MarkersPanel, screen: Screen | None) -> None:
        if screen is None:
            return
        self.title = f"Markers · {screen.to_move.value.capitalize()}'s turn {screen.turn_number}"
        icons = self.icons
        for icon, marker in zip(icons, screen.markers, strict=True):
            icon.show(marker)

    @property
    def icons(self) -> list[MarkerIcon]:
        return [self.ids.pole1, self.ids.pole2, self.ids.port1, self.ids.port2]

    @property
    def used_count(self) -> int:
        return sum(1 for icon in self.icons if icon.used)


load_kv(__file__)

__all__ = ["MarkerIcon", "MarkerShape", "MarkersPanel"]
