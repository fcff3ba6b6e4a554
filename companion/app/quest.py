"""The Quest screen: a Solitaire Quest's verdict on the tablet.

:class:`QuestScreen` shows one :class:`~companion.app.quest_model.QuestView`: the board with
its lit spaces in the LED colours (red the Poles in conflict, amber the spaces between them,
green a solved layout, dim blue where another Pole could still stand), the quest's title, the
status in plain words, the report's problems and the classes found so far (words and a bar).

:class:`QuestApp` shows it over a :class:`~companion.live.quest.QuestSession`: the session tells
its subscribers from its frame thread, so :meth:`QuestApp.post_update` only queues the
update and the queue is drained on Kivy's main thread, where widgets are touched. A session
with a frame source is read (``session.run()``) in a daemon thread; closing the window closes
the session. Tests and demo drivers build the app without ``run()``: ``app.build()`` then
``app.attach()`` (what ``on_start`` does), and let Kivy's clock run.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color as GColor
from kivy.graphics import InstructionGroup
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from companion.app import DEFAULT_SIZE, configure_window, prepare_kivy_env, theme
from companion.app.board import BoardView
from companion.app.kvload import load_kv
from companion.app.model import Screen
from companion.app.quest_model import QuestScreenModel, QuestStatus, QuestView
from companion.live.quest import QuestSession, QuestUpdate
from firmware_bridge.colors import DEFAULT_PALETTE, Color

log = logging.getLogger(__name__)

DEFAULT_QUEST_TITLE = "Teleporters companion · Quest"

# The LEDs' colours on screen: strong enough to read at a glance, translucent so the mat's
# printing (Telepads, stripes) still shows through.
LIGHT_COLOURS: dict[Color, theme.RGBA] = {
    Color.RED: theme.rgb(235, 30, 30, 0.85),
    Color.AMBER: theme.rgb(245, 160, 0, 0.8),
    Color.GREEN: theme.rgb(40, 185, 70, 0.8),
    Color.DIM_BLUE: theme.rgb(70, 120, 255, 0.45),
}


def light_rgba(colour: Color) -> theme.RGBA:
    """A LED colour as drawn on a space (the palette's colour for any other light)."""
    if colour in LIGHT_COLOURS:
        return LIGHT_COLOURS[colour]
    r, g, b = DEFAULT_PALETTE[colour.value]
    return theme.rgb(r, g, b, 0.7)


class QuestBoardView(BoardView):
    """The app's board, with the quest's lights instead of the game's highlights."""

    lights: Mapping[str, Color] = DictProperty({})  # square name -> LED colour

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(lights=self._redraw_trigger)

    def _draw_highlights(self) -> InstructionGroup:
        group = InstructionGroup()
        by_colour: dict[Color, list[str]] = {}
        for name, colour in self.lights.items():
            if colour is not Color.OFF:
                by_colour.setdefault(colour, []).append(name)
        for colour, names in by_colour.items():
            group.add(GColor(*light_rgba(colour)))
            for name in sorted(names):
                group.add(self._rect(name))
        return group


class QuestScreen(BoxLayout):
    """The quest's board beside its verdict (landscape) or above it (portrait)."""

    landscape = BooleanProperty(True)
    screen: Screen | None = ObjectProperty(None, allownone=True)  # the board drawn
    lights: Mapping[str, Color] = DictProperty({})
    quest_title = StringProperty("")
    player = StringProperty("")
    status = StringProperty("")
    status_colour = StringProperty(QuestStatus.WAITING.colour)  # a key of theme.BANNER
    problems_text = StringProperty("")
    note = StringProperty("")
    counter = StringProperty("")
    found_text = StringProperty("")
    progress = NumericProperty(0.0)  # found classes, 0..1

    def __init__(self, **kwargs: object) -> None:
        self.view: QuestView | None = None
        super().__init__(**kwargs)

    @property
    def board(self) -> QuestBoardView:
        return self.ids.board

    def show(self, view: QuestView) -> None:
        """Show one view (main thread only)."""
        self.view = view
        self.screen = view.screen
        self.lights = dict(view.lights)
        self.quest_title = view.title
        self.player = view.player
        self.status = view.status
        self.status_colour = view.status_kind.colour
        self.problems_text = view.problems_text
        self.note = view.note
        self.counter = view.counter
        self.found_text = view.found_text
        self.progress = view.progress


class QuestApp(App):
    """The Quest screen over a :class:`QuestSession`. ``run_source``: read the session's frame
    source in a daemon thread (None: when it has one)."""

    def __init__(self, session: QuestSession, *, title: str = DEFAULT_QUEST_TITLE,
                 run_source: bool | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.session = session
        self.model = QuestScreenModel(session.quest, player=session.player,
                                      found=session.found, total=session.total)
        self.model.say(session.problem)
        if run_source is None:
            run_source = session.has_source
        self.run_source = run_source
        self.quest_screen: QuestScreen | None = None
        self.frame_thread: threading.Thread | None = None
        self._pending: deque[QuestUpdate] = deque()
        self._drain_trigger = Clock.create_trigger(self._drain, -1)
        self._attached = False
        self._closed = False

    def load_kv(self, filename: str | None = None) -> bool:
        # App would load "quest.kv" again, named after this class (QuestApp -> quest.kv):
        # its rules are loaded once, on import (load_kv below), or they apply twice.
        return True

    def build(self) -> QuestScreen:
        from kivy.core.window import Window

        Window.clearcolor = theme.BACKGROUND
        self.quest_screen = QuestScreen()
        self.quest_screen.show(self.model.view)
        return self.quest_screen

    def on_start(self) -> None:
        self.attach()

    def attach(self) -> None:
        """Subscribe to the session, show its last verdict, start reading its frames."""
        if self._attached:
            return
        self._attached = True
        self.session.on_update(self.post_update)
        if self.session.last is not None:
            self.post_update(self.session.last)
        if self.run_source:
            self.frame_thread = threading.Thread(target=self._read_frames, name="quest-frames",
                                                 daemon=True)
            self.frame_thread.start()

    def _read_frames(self) -> None:
        try:
            self.session.run()
        except Exception as exc:  # the window stays up: say it
            log.exception("the quest's frames stopped")
            text = f"frames stopped: {exc}"
            Clock.schedule_once(lambda _dt: self._note(text), -1)

    # --- updates -----------------------------------------------------------------------

    def post_update(self, update: QuestUpdate) -> None:
        """The session's callback: any thread. Widgets are touched only in :meth:`_drain`."""
        self._pending.append(update)
        self._drain_trigger()

    def _drain(self, _dt: float) -> None:
        while self._pending:
            self.apply_update(self._pending.popleft())

    def apply_update(self, update: QuestUpdate) -> QuestView:
        """Show one update (main thread only)."""
        self.model.apply(update)
        view = self.model.say(self.session.problem)
        if self.quest_screen is not None:
            self.quest_screen.show(view)
        return view

    def _note(self, text: str) -> None:
        view = self.model.say(text)
        if self.quest_screen is not None:
            self.quest_screen.show(view)

    # --- closing -----------------------------------------------------------------------

    def on_stop(self) -> None:
        self.close_session()

    def close_session(self) -> None:
        """Close the session once (stops its frame loop), and wait briefly for the reader."""
        if self._closed:
            return
        self._closed = True
        self.session.close()
        thread = self.frame_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)


def run_quest_app(session: QuestSession, *, title: str = DEFAULT_QUEST_TITLE,
                  size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False) -> None:
    """Open the Quest screen over ``session`` and block until the window is closed; the
    session is closed on the way out, whatever happened. A session with a frame source is
    read in a daemon thread meanwhile."""
    app: QuestApp | None = None
    try:
        prepare_kivy_env()
        configure_window(size, fullscreen=fullscreen)
        app = QuestApp(session, title=title)
        app.run()
    finally:
        if app is not None:
            app.close_session()
        else:
            session.close()


load_kv(__file__)

__all__ = ["DEFAULT_QUEST_TITLE", "LIGHT_COLOURS", "QuestApp", "QuestBoardView", "QuestScreen",
           "light_rgba", "run_quest_app"]
