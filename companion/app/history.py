"""HistoryView: the match history screen, over the app's game screen.

It lists the matches of a match store (newest first); tapping one shows its replay on the
app's own :class:`~companion.app.board.BoardView`, stepped with First / Back / Next / Last.
The logic (rows, current step, bounds) is :mod:`companion.app.history_model`; this module only
shows it. A store that fails while the screen is open (``MatchLogError``) is said on the
screen, never raised.
"""

from __future__ import annotations

import logging
from typing import Protocol

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

from companion.app import controls  # noqa: F401  (its ControlButton rule, used in history.kv)
from companion.app.board import BoardView
from companion.app.history_model import MatchRow, ReplayModel, match_rows
from companion.app.kvload import load_kv
from companion.app.model import Screen
from companion.matchlog import Match, MatchId, MatchLogError, MatchSummary

log = logging.getLogger(__name__)


class MatchSource(Protocol):
    """What the screen reads of a :class:`~companion.matchlog.MatchStore`."""

    def list_matches(self) -> list[MatchSummary]: ...

    def get_match(self, match_id: MatchId) -> Match: ...


class MatchRowButton(Button):
    row: MatchRow | None = ObjectProperty(None, allownone=True)


class HistoryView(ModalView):
    """Full-window screen: the match list, or one match's replay. ``on_close`` when the
    player goes back to the game (the view is dismissed too)."""

    replaying = BooleanProperty(False)
    screen: Screen | None = ObjectProperty(None, allownone=True)  # the replay's board
    heading = StringProperty("Matches")
    caption = StringProperty("")
    message = StringProperty("")  # an error, or "no matches yet"
    at_first = BooleanProperty(True)
    at_last = BooleanProperty(True)

    __events__ = ("on_close",)

    def __init__(self, source: MatchSource, **kwargs: object) -> None:
        self.source = source
        self.rows: list[MatchRow] = []
        self.replay: ReplayModel | None = None
        super().__init__(**kwargs)
        self.refresh()

    @property
    def board(self) -> BoardView:
        return self.ids.board

    @property
    def row_buttons(self) -> list[MatchRowButton]:
        return list(reversed(self.ids.rows.children))  # top row first

    # --- the list ------------------------------------------------------------------------

    def refresh(self) -> None:
        try:
            self.rows = match_rows(self.source.list_matches())
        except MatchLogError as exc:
            log.warning("match list: %s", exc)
            self.rows, self.message = [], f"Could not read the match log: {exc}"
        else:
            self.message = "" if self.rows else "No matches recorded yet."
        box = self.ids.rows
        box.clear_widgets()
        for row in self.rows:
            box.add_widget(MatchRowButton(row=row, text=row.text,
                                          on_release=lambda b: self.select(b.row.id)))
        self.show_list()

    def show_list(self) -> None:
        self.replay, self.replaying, self.screen = None, False, None
        self.heading, self.caption = "Matches", ""

    def select(self, match_id: int) -> bool:
        """Show the replay of match ``match_id`` (from its start); False, said, if the store
        cannot give it."""
        try:
            match = self.source.get_match(MatchId(match_id))
        except MatchLogError as exc:
            log.warning("match %s: %s", match_id, exc)
            self.message = f"Could not read match {match_id}: {exc}"
            return False
        self.message = ""
        self.replay = ReplayModel(match)
        row = next((r for r in self.rows if r.id == match_id), None)
        self.heading = f"Match #{match_id}" + (f" · {row.players} · {row.result}" if row else "")
        self.replaying = True
        self._show()
        return True

    # --- the replay ----------------------------------------------------------------------

    def step(self, how: str) -> None:
        """``how``: first, back, next or last (the buttons)."""
        if self.replay is not None and getattr(self.replay, how)():
            self._show()

    def _show(self) -> None:
        replay = self.replay
        assert replay is not None
        self.screen = replay.screen
        self.caption = replay.caption
        self.at_first, self.at_last = replay.at_first, replay.at_last

    # --- closing -------------------------------------------------------------------------

    def close(self) -> None:
        self.dismiss(animation=False)
        self.dispatch("on_close")

    def on_close(self) -> None:
        pass


load_kv(__file__)

__all__ = ["HistoryView", "MatchRowButton", "MatchSource"]
