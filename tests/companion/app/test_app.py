"""The tablet app (issue 5) in a real Kivy window: events from the real referee go in, the
window's pixels and widgets are checked, buttons are pressed with touch events.

Each test names the requirement of issue 5 it checks. One app serves every test (Kivy keeps
one window per process): each starts with a new game in landscape (``fresh``).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.app import theme
from companion.app.driver import AppDriver
from companion.app.model import Action, BannerKind
from companion.live.api import Link, Links
from tests.companion.app.fakes import NEAR_WIN, START, FakeSession, after, pole_moved

RGB = tuple[int, int, int]
# A desktop-sized window: every pixel costs on Mesa's software renderer (the screenshots
# script shows the 1280x800 tablet).
LANDSCAPE = (960, 600)
PORTRAIT = (600, 960)


def _rgb(rgba: tuple[float, ...]) -> RGB:
    r, g, b = (round(c * 255) for c in rgba[:3])
    return (r, g, b)


def near(a: RGB, b: RGB, tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def reddish(c: RGB) -> bool:
    return c[0] > 150 and c[0] > c[1] + 60 and c[0] > c[2] + 60


def greenish(c: RGB) -> bool:
    return c[1] > c[0] + 30 and c[1] > c[2] + 30


def popups() -> list[Any]:
    from kivy.core.window import Window

    from companion.app.controls import ConfirmPopup, EndGamePopup

    return [w for w in Window.children if isinstance(w, ConfirmPopup | EndGamePopup)]


def text_pixels(driver: AppDriver, widget: Any) -> int:
    """Near-white pixels inside ``widget`` on screen: its text, drawn."""
    return int((driver.widget_pixels(widget) > 215).all(axis=2).sum())


@pytest.fixture
def fresh(app_driver: AppDriver) -> tuple[AppDriver, FakeSession]:
    """A new game in landscape, no popup open, no call recorded."""
    for popup in popups():
        popup.dismiss()
    app_driver.resize(*LANDSCAPE)
    session = app_driver.session
    assert isinstance(session, FakeSession)
    session.set_links(Links(Link.SIMULATED, Link.SIMULATED, "scripted session"))
    session.new_game()
    session.calls.clear()
    app_driver.frames(6)
    return app_driver, session


def test_markers_panel_shows_two_used_markers_after_a_two_move_turn(fresh: Any) -> None:
    driver, session = fresh
    session.observe(after(START, "Pd1-d3", "Vc3sw-c5"))
    driver.frames(6)
    panel = driver.root.markers
    assert [i.used for i in panel.icons] == [True, False, True, False]
    assert [i.label for i in panel.icons] == ["used: d3", "free", "used: c5 sw", "free"]
    # On screen: the used markers grey, the free ones green.
    colours = [driver.pixel(*icon.sample_point()) for icon in panel.icons]
    assert near(colours[0], _rgb(theme.MARKER_USED)) and near(colours[2], _rgb(theme.MARKER_USED))
    assert near(colours[1], _rgb(theme.MARKER_FREE)) and near(colours[3], _rgb(theme.MARKER_FREE))
    assert text_pixels(driver, panel) > 200  # the labels are drawn


def test_last_move_is_highlighted_on_the_board(fresh: Any) -> None:
    driver, session = fresh
    board = driver.root.board
    plain = driver.pixel(*board.point("d3", 0.15, 0.5))
    session.observe(after(START, "Pd1-d3"))
    driver.frames(6)
    landed = driver.pixel(*board.point("d3", 0.15, 0.5))
    assert greenish(landed) and not greenish(plain)
    # The Pole is drawn where it landed, in south's colour, and gone from d1's centre.
    assert near(driver.pixel(*board.point("d3", 0.5, 0.3)), _rgb(theme.PIECE[START.to_move]))
    assert not near(driver.pixel(*board.point("d1", 0.5, 0.3)), _rgb(theme.PIECE[START.to_move]))


def test_ports_are_drawn_in_their_corners(fresh: Any) -> None:
    """c3's south Port stands in sw: walls on the south and west edges, the others open."""
    driver, _ = fresh
    board, south = driver.root.board, _rgb(theme.PIECE[START.to_move])
    assert near(driver.pixel(*board.point("c3", 0.5, 0.1)), south)  # south wall
    assert near(driver.pixel(*board.point("c3", 0.1, 0.5)), south)  # west wall
    assert not near(driver.pixel(*board.point("c3", 0.5, 0.9)), south)  # north side open
    assert not near(driver.pixel(*board.point("c3", 0.9, 0.5)), south)  # east side open


def test_board_turned_for_a_player_sitting_north(fresh: Any) -> None:
    """``flipped`` draws north's side at the bottom: c3's sw Port then shows top right."""
    driver, _ = fresh
    board, south = driver.root.board, _rgb(theme.PIECE[START.to_move])
    board.flipped = True
    try:
        driver.frames(4)
        assert board.point("c1")[1] > board.point("c8")[1]  # south's Home at the top
        wall_x, wall_y = board.point("c3", 0.5, 0.1)
        assert wall_y > board.point("c3", 0.5, 0.9)[1]  # the south edge above the north one
        assert near(driver.pixel(wall_x, wall_y), south)
        assert near(driver.pixel(*board.point("c3", 0.1, 0.5)), south)
        assert not near(driver.pixel(*board.point("c3", 0.9, 0.5)), south)
    finally:
        board.flipped = False
        driver.frames(2)


def test_illegal_change_shows_a_plain_warning_and_flashes_the_space_red(fresh: Any,
                                                                         tmp_path: Any) -> None:
    driver, session = fresh
    session.observe(pole_moved(START, "e1", "e4"))
    driver.frames(6)
    banner = driver.root.banner
    assert banner.shown and banner.kind == BannerKind.ILLEGAL.value
    assert "walks one or two spaces" in banner.title
    assert "Rule: Walking" in banner.body
    assert text_pixels(driver, banner) > 300  # the words are on screen
    assert reddish(driver.pixel(banner.center_x, banner.y + 3))
    board = driver.root.board
    seen = set()
    for _ in range(6):  # over more than two phases of the flash
        seen.add(driver.pixel(*board.point("e4", 0.15, 0.5)))
        driver.wait(theme.FLASH_PERIOD / 2)
    assert all(reddish(c) for c in seen)  # red in both phases...
    assert len(seen) >= 2  # ...of the flash
    assert reddish(driver.pixel(*board.point("e1", 0.15, 0.5)))  # the space it left, too
    assert not reddish(driver.pixel(*board.point("d4", 0.15, 0.5)))
    driver.save_png(tmp_path / "illegal.png")
    # Put right: the warning goes, the flash stops.
    session.observe(START)
    driver.frames(6)
    assert not banner.shown and banner.height == 0
    assert not reddish(driver.pixel(*board.point("e4", 0.15, 0.5)))


def test_end_turn_button_calls_session_end_turn_and_the_move_list_shows_the_turn(
        fresh: Any) -> None:
    driver, session = fresh
    session.observe(after(START, "Pd1-d3", "Vc3sw-c5"))
    driver.frames(4)
    assert "1. South so far: Pd1-d3 Vc3sw-c5" in driver.root.moves.plain_text
    driver.tap(driver.root.controls.ids.end_turn)
    assert session.calls == ["end_turn"]
    moves = driver.root.moves
    assert "1. South: Pd1-d3 Vc3sw-c5" in moves.plain_text
    assert "2. North so far: (no move yet)" in moves.plain_text
    assert text_pixels(driver, moves) > 300
    assert driver.root.status.headline == "North to move · turn 2"
    assert [i.used for i in driver.root.markers.icons] == [False] * 4  # north's fresh turn


def test_end_turn_refused_shows_the_reason(fresh: Any) -> None:
    driver, session = fresh
    session.observe(pole_moved(START, "e1", "e4"))
    driver.frames(4)
    driver.tap(driver.root.controls.ids.end_turn)
    notice = driver.root.notice
    assert session.calls == ["end_turn"]
    assert notice.shown and notice.text.startswith("Can't end the turn: the board is not legal")


def _one_turn_committed(driver: Any, session: Any) -> None:
    """South's first turn seen and ended, the session's calls so far forgotten, the screen
    redrawn: a game under way, for the controls that end or undo it."""
    session.observe(after(START, "Pd1-d3"))
    session.end_turn()
    session.calls.clear()
    driver.frames(4)


def test_undo_last_commit_asks_for_confirmation(fresh: Any) -> None:
    driver, session = fresh
    _one_turn_committed(driver, session)
    undo = driver.root.controls.ids.undo
    assert not undo.disabled
    driver.tap(undo)
    driver.wait(0.3)  # the popup's opening animation
    [popup] = popups()
    assert "south's turn 1 (Pd1-d3)" in popup.message
    assert session.calls == []  # nothing happens before the confirmation
    driver.tap(popup.ids.cancel)
    driver.wait(0.3)
    assert popups() == [] and session.calls == []
    driver.tap(undo)
    driver.wait(0.3)
    [popup] = popups()
    driver.tap(popup.ids.confirm)
    driver.wait(0.3)
    assert popups() == []
    assert session.calls == ["undo_last_commit"]
    assert "1. South so far: Pd1-d3" in driver.root.moves.plain_text
    assert driver.root.controls.ids.undo.disabled  # nothing left to undo


def test_undo_is_disabled_with_nothing_to_undo(fresh: Any) -> None:
    driver, session = fresh
    undo = driver.root.controls.ids.undo
    assert undo.disabled
    driver.tap(undo)
    driver.wait(0.2)
    assert popups() == [] and session.calls == []


def test_new_game_asks_for_confirmation(fresh: Any) -> None:
    driver, session = fresh
    session.observe(after(START, "Pd1-d3"))
    session.end_turn()
    driver.frames(4)
    driver.tap(driver.root.controls.ids.new_game)
    driver.wait(0.3)
    [popup] = popups()
    assert session.calls == ["end_turn"]
    driver.tap(popup.ids.confirm)
    driver.wait(0.3)
    assert session.calls == ["end_turn", "new_game"]
    assert driver.root.moves.plain_text == "1. South so far: (no move yet)"


def test_resign_and_draw_from_the_tablet_end_the_game(fresh: Any) -> None:
    """Issue 21: "keys in the terminal for end turn, undo, take back, accept, resign and
    draw", and the tablet the same: Resign or draw asks how the game ends (nothing happens
    before the answer, Cancel changes nothing), then calls the session's resign or
    agree_draw, as the terminal's r and d keys do; the game is over on screen."""
    driver, session = fresh
    _one_turn_committed(driver, session)
    end_game = driver.root.controls.ids.end_game
    driver.tap(end_game)
    driver.wait(0.3)  # the popup's opening animation
    [popup] = popups()
    assert session.calls == []
    driver.tap(popup.ids.cancel)
    driver.wait(0.3)
    assert popups() == [] and session.calls == [] and not session.state.over
    driver.tap(end_game)
    driver.wait(0.3)
    [popup] = popups()
    driver.tap(popup.ids.resign_north)
    driver.wait(0.3)
    assert popups() == [] and session.calls == ["resign north"]
    banner = driver.root.banner
    assert banner.title == "South wins!" and banner.body.startswith("North resigned.")
    assert end_game.disabled and driver.root.controls.ids.end_turn.disabled
    driver.tap(driver.root.controls.ids.new_game)
    driver.wait(0.3)
    driver.tap(popups()[0].ids.confirm)
    driver.wait(0.3)
    assert not end_game.disabled
    driver.tap(end_game)
    driver.wait(0.3)
    driver.tap(popups()[0].ids.draw)
    driver.wait(0.3)
    assert session.calls == ["resign north", "new_game", "agree_draw"]
    assert banner.title == "Drawn by agreement"
    assert driver.root.status.headline == "Drawn by agreement" and end_game.disabled


def test_recovery_offered_gives_two_buttons_that_call_the_session(fresh: Any) -> None:
    driver, session = fresh
    session.observe(pole_moved(START, "e1", "e4"))
    session.wait(6.0)  # vision and the referee disagree for long
    driver.frames(6)
    banner = driver.root.banner
    accept, restore = banner.button(Action.ACCEPT_BOARD), banner.button(Action.SHOW_RESTORE)
    assert accept is not None and restore is not None
    assert accept.text == "Accept the board as seen"
    assert restore.text == "Show me what to restore"
    assert min(accept.height, restore.height) >= 48
    driver.tap(restore)
    assert session.calls == ["show_restore"]
    assert "To restore: e1 should hold south Pole (now empty)" in banner.body
    board = driver.root.board
    amber = driver.pixel(*board.point("e1", 0.3, 0.5))
    assert amber[0] > 200 and 110 < amber[1] < 200 and amber[2] < 90
    driver.tap(banner.button(Action.ACCEPT_BOARD))
    assert session.calls == ["show_restore", "accept_board"]
    # A board lacking nothing is accepted: the turn goes on from it, the warning is gone.
    assert not banner.shown
    assert driver.root.notice.text.startswith("The board as seen is south's turn start")


def test_uncertain_asks_to_look_again(fresh: Any) -> None:
    driver, session = fresh
    session.observe(START, {"c4": 0.2, "d5": 0.3, "e5": 0.9})
    driver.frames(4)
    banner = driver.root.banner
    assert banner.kind == BannerKind.UNSURE.value
    assert banner.title == "Look again: the camera is unsure about c4 and d5"
    assert text_pixels(driver, banner) > 300
    blue = driver.pixel(*driver.root.board.point("c4", 0.2, 0.5))
    assert blue[2] > blue[0] + 60


def test_occluded_says_hand_over_the_board(fresh: Any) -> None:
    driver, session = fresh
    session.observe(START)
    session.occluded()
    driver.frames(4)
    banner = driver.root.banner
    assert banner.kind == BannerKind.HAND.value and banner.title == "Hand over the board"
    assert "hand over the mat" in driver.root.status.ids.camera.words
    session.observe(START)
    driver.frames(4)
    assert not banner.shown


def test_game_won_shows_a_win_banner(fresh: Any) -> None:
    driver, session = fresh
    session.new_game_from(NEAR_WIN)
    session.observe(after(NEAR_WIN, "Pf7-f8"))
    driver.frames(4)
    assert driver.root.banner.title == "End the turn to win"
    driver.tap(driver.root.controls.ids.end_turn)
    banner = driver.root.banner
    assert banner.kind == BannerKind.WIN.value and banner.title == "South wins!"
    assert greenish(driver.pixel(banner.center_x, banner.y + 3))
    assert driver.root.controls.ids.end_turn.disabled
    assert greenish(driver.pixel(*driver.root.board.point("f8", 0.15, 0.5)))  # the Goal


def test_status_bar_shows_links_and_the_die(fresh: Any) -> None:
    driver, session = fresh
    session.set_links(Links(Link.OK, Link.LOST, "camera 0"))
    session.roll(4)
    driver.frames(4)
    status = driver.root.status
    assert status.ids.camera.words == "connected"
    assert status.ids.board.words == "lost, reconnecting"
    assert status.ids.die.value == 4
    lamp = status.ids.board.children[-1]  # the lamp's dot, before its words
    assert reddish(driver.pixel(*lamp.to_window(*lamp.center)))
    die = status.ids.die
    x, y = die.to_window(*die.center)
    assert sum(driver.pixel(x, y)) > 600  # a white face; its centre is no pip for a 4
    assert sum(driver.pixel(x - die.height * 0.25, y - die.height * 0.25)) < 150  # a pip


def test_layout_is_board_beside_panels_in_landscape_and_above_in_portrait(
        fresh: Any, tmp_path: Any) -> None:
    driver, _ = fresh
    root = driver.root
    board, panel = root.board, root.ids.panel
    assert root.landscape and board.right <= panel.x + 1
    assert board.height > 0.85 * (root.height - root.status.height)
    driver.resize(*PORTRAIT)
    assert not root.landscape
    assert board.y >= panel.top - 1  # above the panels
    assert board.width >= PORTRAIT[0] - 20 and board.cell * 8 > 0.75 * PORTRAIT[0]
    # Markers, moves and buttons still fit under it, inside the window.
    assert root.controls.y >= 0 and root.moves.height > 80
    driver.save_png(tmp_path / "portrait.png")
    # Everything a finger presses is big enough, in both orientations.
    for orientation in (PORTRAIT, LANDSCAPE):
        driver.resize(*orientation)
        for button in root.controls.ids.values():
            assert button.height >= 48 and button.width >= 48


def test_updates_from_another_thread_are_applied_on_the_main_thread(fresh: Any) -> None:
    driver, session = fresh
    app = driver.app
    seen: list[int] = []
    original = app.apply_update

    def spy(update: Any) -> None:
        seen.append(threading.get_ident())
        original(update)

    app.apply_update = spy
    try:
        worker = threading.Thread(target=session.observe, args=(after(START, "Pd1-d3"),))
        worker.start()
        worker.join()
        assert seen == []  # queued, not applied on the worker
        driver.frames(3)
    finally:
        del app.apply_update
    assert seen == [app.main_thread]
    assert driver.root.markers.used_count == 1
