"""What the app shows, as data (issue 5), from genuine referee updates: no window needed.

``ScreenModel`` folds each session update into a ``Screen``; the window tests (test_app.py)
check that the widgets draw it. Each test names the requirement it checks.
"""

from __future__ import annotations

from companion.app.model import Action, BannerKind, Screen, ScreenModel
from companion.app.scripted import ScriptedSession
from companion.live.api import Link, Links, Update
from companion.referee import VisionState
from companion.rules.teleporters import Marker, Position, Side
from tests.companion.app.fakes import NEAR_WIN, START, after, pole_moved


class Shown:
    """A session whose every update goes through one ScreenModel, as in the app."""

    def __init__(self) -> None:
        self.session = ScriptedSession()
        self.model = ScreenModel()
        self.screen: Screen = self.model.apply(
            Update((), self.session.state, self.session.links))
        self.session.on_update(self._apply)

    def _apply(self, update: Update) -> None:
        self.screen = self.model.apply(update)


def test_markers_name_the_piece_each_was_used_on() -> None:
    shown = Shown()
    shown.session.observe(after(START, "Pd1-d3", "Vc3sw-c5"))
    markers = shown.screen.markers
    assert [m.kind for m in markers] == [Marker.POLE, Marker.POLE, Marker.PORT, Marker.PORT]
    assert [(m.used, m.on) for m in markers] == [
        (True, "d3"), (False, ""), (True, "c5 sw"), (False, "")]


def test_markers_of_a_teleport_move_name_the_teleport() -> None:
    shown = Shown()
    start = Position.from_text("2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/3[SWNE]4/8/1[SW]4[SE]1/"
                               "2PPPP2 south")
    shown.session.new_game_from(start)
    shown.session.observe(after(start, "Td4-d5", "Vb2sw-b4"))
    assert sorted(m.on for m in shown.screen.markers[2:]) == ["Teleport d5", "b4 sw"]
    assert [m.used for m in shown.screen.markers] == [False, False, True, True]


def test_markers_stay_named_while_the_board_is_illegal() -> None:
    """The referee keeps its expected turn while a board is illegal; so does the panel."""
    shown = Shown()
    two = after(START, "Pd1-d3", "Vc3sw-c5")
    shown.session.observe(two)
    shown.session.observe(pole_moved(two, "e1", "e4"))
    assert shown.screen.banner.kind is BannerKind.ILLEGAL
    assert [m.on for m in shown.screen.markers] == ["d3", "", "c5 sw", ""]


def test_tentative_moves_are_highlighted_from_and_to() -> None:
    shown = Shown()
    shown.session.observe(after(START, "Pd1-d3", "Vc3sw-c5"))
    h = shown.screen.highlights
    assert h.move_from == ("d1", "c3") and h.move_to == ("d3", "c5")
    assert h.illegal == () and h.last_turn == ()


def test_the_last_committed_turn_is_highlighted_until_the_next_move() -> None:
    shown = Shown()
    one = after(START, "Pd1-d3")
    shown.session.observe(one)
    shown.session.end_turn()
    assert shown.screen.highlights.last_turn == ("d1", "d3")
    shown.session.observe(after(one.replace(to_move=Side.NORTH), "Pe8-e6"))
    assert shown.screen.highlights.last_turn == ()
    assert shown.screen.highlights.move_to == ("e6",)


def test_illegal_change_gives_a_plain_warning_with_its_rule_and_squares() -> None:
    shown = Shown()
    shown.session.observe(pole_moved(START, "e1", "e4"))
    banner = shown.screen.banner
    assert banner.kind is BannerKind.ILLEGAL
    assert banner.title.startswith("South Pole e1 to e4: a Pole walks one or two spaces")
    assert banner.body.startswith("Rule: Walking.")
    assert set(shown.screen.highlights.illegal) == {"e1", "e4"}
    assert banner.actions == ()
    shown.session.observe(START)
    assert not shown.screen.banner.shown and shown.screen.highlights.illegal == ()


def test_recovery_offers_accept_or_restore_then_lists_the_fixes() -> None:
    shown = Shown()
    shown.session.observe(pole_moved(START, "e1", "e4"))
    shown.session.wait(6.0)
    banner = shown.screen.banner
    assert banner.actions == (Action.ACCEPT_BOARD, Action.SHOW_RESTORE)
    assert "disagreed for a while" in banner.body
    shown.session.show_restore()
    banner = shown.screen.banner
    assert banner.actions == (Action.ACCEPT_BOARD,)  # the fixes are shown already
    assert "To restore: e1 should hold south Pole (now empty); e4 should hold empty " \
           "(now south Pole)." in banner.body
    assert shown.screen.highlights.restore == ("e1", "e4")


def test_hand_over_the_board_and_look_again() -> None:
    shown = Shown()
    shown.session.occluded()
    assert shown.screen.banner.title == "Hand over the board"
    assert shown.screen.vision is VisionState.OCCLUDED
    shown.session.observe(START, {"c4": 0.1, "d5": 0.2})
    assert shown.screen.banner.kind is BannerKind.UNSURE
    assert shown.screen.banner.title == "Look again: the camera is unsure about c4 and d5"
    assert shown.screen.highlights.unsure == ("c4", "d5")
    shown.session.observe(START)
    assert not shown.screen.banner.shown


def test_move_list_follows_commits_undos_and_new_games() -> None:
    shown = Shown()
    one = after(START, "Pd1-d3", "Vc3sw-c5")
    shown.session.observe(one)
    assert shown.screen.move_list_text == "1. South so far: Pd1-d3 Vc3sw-c5"
    shown.session.end_turn()
    assert shown.screen.move_list_text == ("1. South: Pd1-d3 Vc3sw-c5\n"
                                           "2. North so far: (no move yet)")
    shown.session.end_turn()  # north passes
    assert "2. North: pass" in shown.screen.move_list_text
    shown.session.undo_last_commit()
    assert shown.screen.move_list_text.endswith("2. North so far: (no move yet)")
    # the app's notices are the events' own words, as the text log and the match log say them
    assert shown.screen.notice == "Turn 2 (north) is open again."
    shown.session.new_game()
    assert shown.screen.move_list_text == "1. South so far: (no move yet)"
    assert shown.screen.notice == "Game started: south to move."


def test_refused_button_says_why() -> None:
    shown = Shown()
    serial = shown.screen.notice_serial
    shown.session.undo_last_commit()
    assert shown.screen.notice == "Can't undo: no committed turn to undo."
    assert shown.screen.notice_serial == serial + 1


def test_win_banner_and_goal_highlight() -> None:
    shown = Shown()
    shown.session.new_game_from(NEAR_WIN)
    shown.session.observe(after(NEAR_WIN, "Pf7-f8"))
    assert shown.screen.banner.title == "End the turn to win"
    shown.session.end_turn()
    screen = shown.screen
    assert screen.banner.kind is BannerKind.WIN and screen.banner.title == "South wins!"
    assert screen.winner is Side.SOUTH and screen.headline == "South won"
    assert screen.highlights.win == ("c8", "d8", "e8", "f8")
    assert screen.move_list_text == "1. South: Pf7-f8"  # no turn in play after a win


def test_resignation_and_agreed_draw_banners() -> None:
    """Issue 21: a game ended by a resignation or an agreed draw (from the terminal's keys)
    shows so in the app too: who won and why, or the draw; no turn in play after it."""
    shown = Shown()
    shown.session.observe(after(START, "Pd1-d3"))
    shown.session.resign(Side.SOUTH)
    screen = shown.screen
    assert screen.banner.title == "North wins!" and "South resigned" in screen.banner.body
    assert screen.headline == "North won" and screen.move_list_text == ""
    shown.session.new_game()
    shown.session.agree_draw()
    screen = shown.screen
    assert screen.banner.title == "Drawn by agreement" and screen.winner is None
    assert screen.headline == "Drawn by agreement" and screen.highlights.win == ()


def test_links_and_die() -> None:
    shown = Shown()
    shown.session.set_links(Links(Link.OK, Link.LOST, "camera 0"))
    shown.session.roll(3)
    assert shown.screen.links.board is Link.LOST and shown.screen.die == 3
    assert shown.screen.die_sides == 6
    assert shown.screen.headline == "South to move · turn 1"
