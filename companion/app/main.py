"""CompanionApp: the tablet app over a :class:`~companion.live.api.SessionLike`.

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
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.app import DEFAULT_TITLE, theme

# Each module loads its own .kv rules on import, before main.kv uses them.
from companion.app.banner import NoticeBar, WarningBanner
from companion.app.board import BoardView
from companion.app.controls import ControlBar
from companion.app.history import HistoryView
from companion.app.kvload import load_kv
from companion.app.markers import MarkersPanel
from companion.app.model import Action, Screen, ScreenModel
from companion.app.movelist import MoveList
from companion.app.status import StatusBar
from companion.live.api import SessionLike, Update
from companion.matchlog import MatchLogError, MatchStore
from companion.rules.teleporters import Side

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
    """``store_path``: the match log the Matches button opens (read only, when it is
    pressed); None: the session's ``store_path`` if it has one, else the button is off."""

    screen: Screen | None = ObjectProperty(None, allownone=True)
    store_path: Path | None = ObjectProperty(None, allownone=True)

    def __init__(self, session: SessionLike, *, title: str = DEFAULT_TITLE,
                 store_path: Path | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.session = session
        if store_path is None:
            store_path = getattr(session, "store_path", None)
        self.store_path = Path(store_path) if store_path is not None else None
        self.history: HistoryView | None = None
        self._store: MatchStore | None = None
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

    def resign(self, side: Side) -> None:
        self._act(f"resign for {side.value}", lambda: self.session.resign(side))

    def agree_draw(self) -> None:
        self._act("agree a draw", self.session.agree_draw)

    def new_game(self) -> None:
        self._act("start a new game", self.session.new_game)

    def banner_action(self, action: str) -> None:
        if Action(action) is Action.ACCEPT_BOARD:
            self._act("accept the board", self.session.accept_board)
        else:
            self._act("show what to restore", self.session.show_restore)

    # --- the match history ---------------------------------------------------------------

    def open_history(self) -> HistoryView | None:
        """Open the match log read only and show its matches over the game; a log that cannot
        be opened is said as a notice (the game stays on screen). None if not shown."""
        if self.history is not None:
            return self.history
        if self.store_path is None:
            self._notice("No match log in this session.")
            return None
        try:
            self._store = MatchStore(self.store_path, create=False)
            view = HistoryView(self._store)
        except MatchLogError as exc:
            log.warning("match log %s: %s", self.store_path, exc)
            self._close_store()
            self._notice(f"Could not open the match log: {exc}")
            return None
        view.bind(on_close=lambda *_: self.close_history())
        self.history = view
        view.open(animation=False)
        return view

    def close_history(self) -> None:
        view, self.history = self.history, None
        if view is not None:
            view.dismiss(animation=False)  # nothing if already closed
        self._close_store()

    def _close_store(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            store.close()

    def _notice(self, text: str) -> None:
        self.model.say(text)
        self.apply_update(Update((), self.session.state, self.session.links))

    def on_stop(self) -> None:
        self.close_history()

    def _act(self, what: str, call: Callable[[], None]) -> None:
        # A failing session must not take the app down: say so, keep showing the game.
        try:
            call()
        except Exception as exc:
            log.exception("session could not %s", what)
            self._notice(f"Could not {what}: {exc}")


load_kv(__file__)

__all__ = ["DEFAULT_TITLE", "CompanionApp", "CompanionRoot"]
