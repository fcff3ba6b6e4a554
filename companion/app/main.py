"""CompanionApp: the tablet app over a :class:`~companion.session_api.SessionLike`.

The session's updates may arrive on any thread (vision, the serial bridge): ``post_update``
only queues them, and the queue is drained on Kivy's main thread before the next frame, in
order, so widgets are only ever touched there. Each update is folded into a
:class:`~companion.app.model.Screen`, which every widget reads through its ``screen`` property.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.app import DEFAULT_TITLE, theme

# Each module loads its own .kv rules on import, before main.kv uses them.
from companion.app.banner import NoticeBar, WarningBanner
from companion.app.board import BoardView
from companion.app.controls import ControlBar
from companion.app.kvload import load_kv
from companion.app.markers import MarkersPanel
from companion.app.model import Action, Screen, ScreenModel
from companion.app.movelist import MoveList
from companion.app.status import StatusBar
from companion.session_api import SessionLike, Update

log = logging.getLogger(__name__)


class CompanionRoot(BoxLayout):
    """Status bar on top; below it the board beside the panels (landscape) or above them
    (portrait), chosen from the window's shape on every resize."""

    screen: Screen | None = ObjectProperty(None, allownone=True)
    landscape = BooleanProperty(True)

    @property
    def board(self) -> BoardView:
        return self.ids.board

    @property
    def markers(self) -> MarkersPanel:
        return self.ids.markers

    @property
    def banner(self) -> WarningBanner:
        return self.ids.banner

    @property
    def notice(self) -> NoticeBar:
        return self.ids.notice

    @property
    def moves(self) -> MoveList:
        return self.ids.moves

    @property
    def controls(self) -> ControlBar:
        return self.ids.controls

    @property
    def status(self) -> StatusBar:
        return self.ids.status


class CompanionApp(App):
    screen: Screen | None = ObjectProperty(None, allownone=True)

    def __init__(self, session: SessionLike, *, title: str = DEFAULT_TITLE,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.session = session
        self.model = ScreenModel()
        self._pending: deque[Update] = deque()
        self._drain_trigger = Clock.create_trigger(self._drain, -1)
        self.main_thread = threading.get_ident()

    def build(self) -> CompanionRoot:
        from kivy.core.window import Window

        Window.clearcolor = theme.BACKGROUND  # cheaper than painting a full-window rectangle
        root = CompanionRoot()
        self.bind(screen=root.setter("screen"))
        return root

    def on_start(self) -> None:
        self.session.on_update(self.post_update)
        self.apply_update(Update((), self.session.state, self.session.links))

    # --- updates -----------------------------------------------------------------------

    def post_update(self, update: Update) -> None:
        """The session's callback: any thread. Widgets are touched only in :meth:`_drain`."""
        self._pending.append(update)
        self._drain_trigger()

    def _drain(self, _dt: float) -> None:
        while self._pending:
            self.apply_update(self._pending.popleft())

    def apply_update(self, update: Update) -> None:
        """Show one update (main thread only)."""
        self.screen = self.model.apply(update)

    # --- actions (buttons) --------------------------------------------------------------

    def end_turn(self) -> None:
        self._act("end the turn", self.session.end_turn)

    def undo_last_commit(self) -> None:
        self._act("undo", self.session.undo_last_commit)

    def new_game(self) -> None:
        self._act("start a new game", self.session.new_game)

    def banner_action(self, action: str) -> None:
        if Action(action) is Action.ACCEPT_BOARD:
            self._act("accept the board", self.session.accept_board)
        else:
            self._act("show what to restore", self.session.show_restore)

    def _act(self, what: str, call: Callable[[], None]) -> None:
        # A failing session must not take the app down: say so, keep showing the game.
        try:
            call()
        except Exception as exc:
            log.exception("session could not %s", what)
            self.model.say(f"Could not {what}: {exc}")
            self.apply_update(Update((), self.session.state, self.session.links))


load_kv(__file__)

__all__ = ["DEFAULT_TITLE", "CompanionApp", "CompanionRoot"]
