"""The match history screen in the app's window (issue 6): the Matches button opens a real
match log read only, a match is replayed turn by turn on the board view, Close goes back to
the game, and a log that cannot be read is a notice, not a crash."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app import theme
from companion.app.driver import AppDriver
from companion.app.history import HistoryView
from companion.rules.teleporters import Side
from tests.companion.app.history_data import positions, record_matches
from tests.companion.app.test_app import LANDSCAPE, _rgb, near


def history_views() -> list[HistoryView]:
    from kivy.core.window import Window

    return [w for w in Window.children if isinstance(w, HistoryView)]


@pytest.fixture
def app(app_driver: AppDriver) -> Iterator[AppDriver]:
    """The app in landscape with no history open; the match log unset again afterwards."""
    app_driver.resize(*LANDSCAPE)
    yield app_driver
    assert app_driver.app is not None
    app_driver.app.close_history()
    app_driver.app.store_path = None
    app_driver.frames(4)


def test_matches_button_is_off_without_a_match_log(app: AppDriver) -> None:
    button = app.root.controls.ids.matches
    assert app.app.store_path is None
    assert button.disabled and "no match log" in button.text
    app.tap(button)
    assert app.app.history is None and not history_views()


def test_history_replays_a_match_on_the_board_and_close_returns_to_the_game(
        app: AppDriver, tmp_path: Path) -> None:
    from kivy.metrics import dp

    path = tmp_path / "matches.db"
    _, match_id = record_matches(path)
    app.app.store_path = path
    app.frames(3)
    button = app.root.controls.ids.matches
    assert not button.disabled and button.text == "Matches"
    app.tap(button)
    view = app.app.history
    assert view is not None and history_views() == [view]
    rows = view.row_buttons
    assert [r.row.id for r in rows] == [match_id, match_id - 1]  # newest first
    assert "Ann (south) v Ben (north)" in rows[0].text and "3 turns" in rows[0].text
    assert all(r.height >= dp(48) for r in rows)

    app.tap(rows[0])
    assert view.replaying and view.replay is not None and view.replay.index == 0
    buttons = [view.ids[name] for name in ("first", "back", "next", "last")]
    assert all(b.height >= dp(48) and b.width >= dp(48) for b in buttons)
    assert view.ids.first.disabled and view.ids.back.disabled
    app.tap(view.ids.next)
    app.tap(view.ids.next)
    app.frames(4)
    after_two = positions()[2]
    board = view.board
    assert board.screen is not None and board.screen.position == after_two
    assert view.caption == "Turn 2 of 3 · North: Pd8-d6"
    assert view.ids.caption.text == view.caption
    # On screen: north's Pole now stands on d6 and left d8; south's on d3.
    north, south = _rgb(theme.PIECE[Side.NORTH]), _rgb(theme.PIECE[Side.SOUTH])
    assert near(app.pixel(*board.point("d6", 0.5, 0.3)), north)
    assert not near(app.pixel(*board.point("d8", 0.5, 0.3)), north)
    assert near(app.pixel(*board.point("d3", 0.5, 0.3)), south)

    app.tap(view.ids.last)
    assert view.replay.at_last and view.ids.next.disabled
    app.tap(view.ids.close)
    assert app.app.history is None and not history_views()
    assert app.app._store is None  # the log is closed with the screen
    assert app.root.board.screen is app.app.screen  # the game is shown again


@pytest.mark.parametrize("content", [None, b"this is not a match store" * 100])
def test_a_missing_or_corrupt_match_log_is_a_notice_not_a_crash(
        app: AppDriver, tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "matches.db"
    if content is not None:
        path.write_bytes(content)
    app.app.store_path = path
    app.frames(3)
    serial = app.app.screen.notice_serial
    app.tap(app.root.controls.ids.matches)
    assert app.app.history is None and not history_views()
    screen: Any = app.app.screen
    assert screen.notice_serial > serial
    assert screen.notice.startswith("Could not open the match log:") and str(path) in screen.notice
    assert path.exists() is (content is not None)  # never created
    if content is not None:
        assert path.read_bytes() == content  # left as it was
