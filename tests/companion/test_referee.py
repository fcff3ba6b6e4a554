"""The referee loop (issue 5), driven by position streams: no camera, no Kivy, no serial port.

Each test names the requirement of issue 5 or the rule-book clause it checks. Boards are built
with the rules core (``Position.start()``, ``play``, ``parse_move``), the way vision would
report them once the board is still.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.live.lights import (
    POLE_MARKER_LEDS,
    PORT_MARKER_LEDS,
    LightFrame,
    frame_for,
    lights_for,
    status_for,
)
from companion.referee import (
    EVENT_TYPES,
    BoardSettled,
    CommitBy,
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    DrawAgreed,
    Ending,
    Event,
    FirstMoverChosen,
    GameResigned,
    GameStarted,
    GameWon,
    IllegalChange,
    Occluded,
    RecoveryOffered,
    Referee,
    RefereeConfig,
    RefereeError,
    Refused,
    RestoreShown,
    TentativeMoves,
    TurnCommitted,
    Uncertain,
    UncertainScope,
    VisionState,
    WarningCleared,
    describe_space,
)
from companion.rules.errors import PositionError
from companion.rules.teleporters import (
    Position,
    Rule,
    Side,
    TurnState,
    end_turn,
    explain,
    parse_move,
    parse_square,
    play,
)
from companion.rules.teleporters.random_play import random_midgame, random_turn
from firmware_bridge import Bridge, Color, LedLayout, Timing

START = Position.start()
# South one walk from winning: three Poles on Goal Telepads c8-e8, the fourth on f7.
NEAR_WIN = Position.from_text(
    "2PPP3/1[nw]3P[ne]1/2[nw]2[ne]2/pp4pp/8/2[SW]2[SE]2/1[SW]4[SE]1/8 south")


def board(*moves: str, start: Position = START) -> Position:
    """The board after legal ``moves`` of one turn from ``start``."""
    pos, turn = start, TurnState()
    for m in moves:
        pos, turn = play(pos, parse_move(m), turn)
    return pos


def knock(pos: Position, frm: str, to: str) -> Position:
    """A Pole slid from ``frm`` to ``to`` by hand, whatever the rules say."""
    poles = list(pos.poles)
    a, b = parse_square(frm), parse_square(to)
    poles[b], poles[a] = poles[a], None
    return pos.replace(poles=tuple(poles))


def kinds(events: list[Event]) -> list[type]:
    return [type(e) for e in events]


def only(events: list[Event], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, events
    return found[0]


def notations(moves: tuple[Any, ...]) -> list[str]:
    return [m.notation() for m in moves]


# --------------------------------------------------------------------------------------------
# Tentative moves: "a move isn't final ... until you use the Marker" (Taking turns)


def test_legal_single_move_is_a_tentative_move() -> None:
    """Taking turns: a move seen on the mat is reported as tentative, with its marker."""
    ref = Referee()
    ev = only(ref.observe(board("Pd1-d3"), t=1.0), TentativeMoves)
    assert ev.side is Side.SOUTH
    assert notations(ev.moves) == ["Pd1-d3"]
    assert (ev.pole_markers_used, ev.port_markers_used) == (1, 0)
    assert ev.squares == ("d1", "d3")
    assert not ev.would_win
    assert ref.state.turn_start == START  # nothing is final yet


def test_move_taken_back_disappears() -> None:
    """Taking turns: "you can safely test potential moves and put them back" - re-explained
    from the turn start, a take-back leaves no tentative move at all."""
    ref = Referee()
    ref.observe(board("Pd1-d3"), t=1.0)
    ev = only(ref.observe(START, t=2.0), TentativeMoves)
    assert ev.moves == () and ev.squares == ()
    assert (ev.pole_markers_left, ev.port_markers_left) == (2, 2)
    assert ref.state.tentative == ()


def test_four_move_turn_uses_every_marker() -> None:
    """Taking turns: four moves, two Poles and two Ports, one marker each."""
    ref = Referee()
    seen = []
    for i, upto in enumerate((["Pd1-d3"], ["Pd1-d3", "Vc3sw-c5"],
                              ["Pd1-d3", "Vc3sw-c5", "Pe1-e3"],
                              ["Pd1-d3", "Vc3sw-c5", "Pe1-e3", "Vf3se-f4"])):
        seen.append(only(ref.observe(board(*upto), t=float(i)), TentativeMoves))
    assert [len(e.moves) for e in seen] == [1, 2, 3, 4]
    last = seen[-1]
    assert sorted(notations(last.moves)) == sorted(["Pd1-d3", "Vc3sw-c5", "Pe1-e3", "Vf3se-f4"])
    assert (last.pole_markers_left, last.port_markers_left) == (0, 0)
    assert ref.state.pole_markers_left == ref.state.port_markers_left == 0


def test_markers_used_per_kind_in_json() -> None:
    """Markers: round on Poles, angled on Ports and Teleports - counted apart."""
    ref = Referee()
    ev = only(ref.observe(board("Vc3sw-c5", "Vf3se-f4"), t=1.0), TentativeMoves)
    doc = ev.to_json()
    assert doc["event"] == "tentative_moves"
    assert doc["markers"] == {"pole_used": 0, "port_used": 2, "pole_left": 2, "port_left": 0}
    assert sorted(doc["moves"]) == ["Vc3sw-c5", "Vf3se-f4"]


def test_same_board_twice_says_nothing_new() -> None:
    """Events are changes: a board seen again (vision re-reporting it) produces no event."""
    ref = Referee()
    ref.observe(board("Pd1-d3"), t=1.0)
    assert ref.observe(board("Pd1-d3"), t=2.0) == []


def test_vision_json_position_is_accepted() -> None:
    """Vision reports the rules core's position JSON; its side to move is not trusted."""
    ref = Referee()
    doc = board("Pd1-d3").replace(to_move=Side.NORTH).to_json()
    ev = only(ref.observe(doc, t=1.0), TentativeMoves)
    assert notations(ev.moves) == ["Pd1-d3"] and ev.side is Side.SOUTH


# --------------------------------------------------------------------------------------------
# Illegal changes


def test_illegal_change_names_clause_and_squares_until_corrected() -> None:
    """Walking: "A Pole may move one or two spaces" - e1 to e4 is flagged with the clause and
    the spaces to light red, and the warning is cleared once the board is legal again."""
    ref = Referee()
    ev = only(ref.observe(knock(START, "e1", "e4"), t=1.0), IllegalChange)
    assert ev.rule is Rule.POLE_WALK_DISTANCE and ev.clause == "Walking"
    assert set(ev.squares) == {"e1", "e4"}
    assert "e1 to e4" in ev.message
    doc = ev.to_json()
    assert doc["event"] == "illegal_change" and doc["clause"] == "Walking"
    assert ref.state.illegal
    events = ref.observe(board("Pe1-e3"), t=2.0)
    assert kinds(events) == [WarningCleared, TentativeMoves]
    assert notations(events[1].moves) == ["Pe1-e3"]
    assert not ref.state.illegal


def test_opponent_piece_moved_not_home_is_illegal() -> None:
    """Taking turns: only the side to move moves (a knocked north Pole, three spaces)."""
    ref = Referee()
    ev = only(ref.observe(knock(board("Pd1-d3"), "d8", "d5"), t=1.0), IllegalChange)
    assert ev.rule is Rule.ONLY_MOVER_MOVES and set(ev.squares) == {"d8", "d5"}


# --------------------------------------------------------------------------------------------
# Occlusion and uncertainty (issue 5: "occluded", "uncertain ... do not guess")


def test_occluded_once_then_board_settled() -> None:
    """A hand over the mat: one Occluded event, nothing judged, then BoardSettled."""
    ref = Referee()
    ref.observe(board("Pd1-d3"), t=1.0)
    assert kinds(ref.observe(None, t=2.0)) == [Occluded]
    assert ref.observe_occluded(t=2.5) == []
    assert ref.state.vision is VisionState.OCCLUDED
    events = ref.observe(board("Pd1-d3", "Pe1-e3"), t=3.0)
    assert kinds(events) == [BoardSettled, TentativeMoves]
    assert events[0].after == "occluded"


def test_observe_still_rejudges_the_last_board_after_a_hand() -> None:
    """The stability gate reports a board once: after a hand over an unchanged board the app
    says 'still', and the referee is clear again without a new verdict."""
    ref = Referee()
    ref.observe(board("Pd1-d3"), t=1.0)
    ref.observe_occluded(t=2.0)
    assert kinds(ref.observe_still(t=3.0)) == [BoardSettled]
    assert ref.state.vision is VisionState.CLEAR
    assert Referee().observe_still(t=1.0) == []


def test_uncertain_is_not_judged() -> None:
    """Uncertain: below the confidence threshold the referee asks for a re-look and does not
    judge, even a board that would be illegal; with confidence it judges it."""
    ref = Referee(config=RefereeConfig(uncertain_below=0.5))
    ref.observe(board("Pd1-d3"), t=1.0)
    bad = knock(START, "e1", "e4")
    conf = {"e4": 0.3, "e1": 0.9, "a1": 0.2}
    ev = only(ref.observe(bad, conf, t=2.0), Uncertain)
    assert ev.squares == ("a1", "e4") and ev.confidences == (0.2, 0.3)
    assert ev.to_json()["confidences"] == {"a1": 0.2, "e4": 0.3}
    assert ref.state.vision is VisionState.UNCERTAIN and not ref.state.illegal
    assert notations(ref.state.tentative) == ["Pd1-d3"]  # the last verdict stands
    assert ref.observe(bad, conf, t=2.5) == []  # asked once
    events = ref.observe(bad, {"e4": 0.95}, t=3.0)
    assert kinds(events) == [BoardSettled, IllegalChange]


def test_uncertain_scope_changed_looks_only_at_changed_spaces() -> None:
    """UncertainScope.CHANGED: a doubtful space nobody touched does not stop the judging."""
    ref = Referee(config=RefereeConfig(uncertain_scope=UncertainScope.CHANGED))
    assert kinds(ref.observe(board("Pd1-d3"), {"h5": 0.1}, t=1.0)) == [TentativeMoves]
    ev = only(ref.observe(board("Pd1-d3"), {"d3": 0.1}, t=2.0), Uncertain)
    assert ev.squares == ("d3",)


def test_bad_observation_input_raises_value_errors() -> None:
    """Errors are ValueErrors naming the offending value."""
    ref = Referee()
    with pytest.raises(RefereeError, match=r"1\.5"):
        ref.observe(START, {"e4": 1.5}, t=1.0)
    with pytest.raises(PositionError, match="z9"):
        ref.observe(START, {"z9": 0.9}, t=1.0)
    ref.observe(START, t=5.0)
    with pytest.raises(RefereeError, match="before the last input"):
        ref.observe(START, t=4.0)
    with pytest.raises(RefereeError, match="not a position"):
        ref.observe_position("8/8", t=6.0)  # type: ignore[arg-type]
    with pytest.raises(RefereeError, match="uncertain_below 2"):
        RefereeConfig(uncertain_below=2)
    with pytest.raises(ValueError):
        ref.end_turn(t=7.0, source="elbow")
    with pytest.raises(RefereeError, match="opponent_moved"):
        ref.end_turn(t=7.0, source="opponent_moved")


# --------------------------------------------------------------------------------------------
# Committing a turn


@pytest.mark.parametrize("source", [CommitBy.TABLET, "bridge"])
def test_end_turn_commits_the_tentative_moves(source: CommitBy | str) -> None:
    """Taking turns: End turn (tablet or the board's button) makes the moves final and hands
    the move to the other side."""
    ref = Referee()
    seen = board("Pd1-d3", "Vc3sw-c5")
    ref.observe(seen, t=1.0)
    ev = only(ref.end_turn(t=2.0, source=source), TurnCommitted)
    assert ev.side is Side.SOUTH and ev.number == 1 and ev.by is CommitBy(source)
    assert sorted(notations(ev.moves)) == ["Pd1-d3", "Vc3sw-c5"]
    assert ev.position.same_board(seen)
    assert ev.to_json()["by"] == CommitBy(source).value
    state = ref.state
    assert state.to_move is Side.NORTH and state.turn_number == 2
    assert state.turn_start.same_board(seen) and state.tentative == ()
    assert (state.pole_markers_left, state.port_markers_left) == (2, 2)
    # The committed board seen again is north's untouched turn start: nothing to say.
    assert ref.observe(seen, t=3.0) == []


def test_end_turn_on_untouched_board_is_a_pass() -> None:
    """A sample move sequence: "Players may 'pass' any of their four moves" - all four too."""
    ref = Referee()
    ev = only(ref.end_turn(t=1.0), TurnCommitted)
    assert ev.moves == () and ref.state.to_move is Side.NORTH


def test_end_turn_refused_while_illegal_occluded_or_uncertain() -> None:
    """The turn cannot end on a board no legal turn explains, nor one vision cannot see."""
    ref = Referee()
    ref.observe(knock(START, "e1", "e4"), t=1.0)
    ev = only(ref.end_turn(t=2.0), Refused)
    assert ev.action == "end_turn" and "not legal" in ev.reason
    ref.observe_occluded(t=3.0)
    assert "hand" in only(ref.end_turn(t=4.0), Refused).reason
    ref.observe(START, {"a1": 0.1}, t=5.0)
    assert "a1" in only(ref.end_turn(t=6.0), Refused).reason
    assert ref.state.to_move is Side.SOUTH


def test_opponent_starting_to_move_commits_the_turn() -> None:
    """Issue 5: the turn is committed when the opponent's pieces start to move - the board is
    south's tentative turn plus a legal first move of north."""
    ref = Referee()
    south = board("Pd1-d3", "Vc3sw-c5")
    ref.observe(south, t=1.0)
    north = board("Pd8-d6", start=end_turn(south))
    events = ref.observe(north, t=2.0)
    assert kinds(events) == [TurnCommitted, TentativeMoves]
    commit, tentative = events
    assert commit.by is CommitBy.OPPONENT and commit.side is Side.SOUTH
    assert commit.position.same_board(south)
    assert tentative.side is Side.NORTH and notations(tentative.moves) == ["Pd8-d6"]
    assert ref.state.to_move is Side.NORTH


def test_opponent_moving_out_of_turn_does_not_end_an_untouched_turn() -> None:
    """Decision: an empty turn ends only by End turn (after the first turn), so north moving
    while south has not moved yet is flagged, not taken as south passing."""
    ref = Referee()
    ref.end_turn(t=1.0)  # south passes
    ref.end_turn(t=2.0)  # north passes
    ev = only(ref.observe(board("Pd8-d6", start=end_turn(START)), t=3.0), IllegalChange)
    assert ev.rule is Rule.ONLY_MOVER_MOVES
    assert ref.state.to_move is Side.SOUTH


def test_other_side_moving_first_on_the_first_turn() -> None:
    """Taking turns: "Players choose who will move first" - north moving first is a choice."""
    ref = Referee()
    events = ref.observe(board("Pd8-d6", start=end_turn(START)), t=1.0)
    assert kinds(events) == [FirstMoverChosen, TentativeMoves]
    assert events[0].side is Side.NORTH and events[0].to_json()["side"] == "north"
    assert ref.state.to_move is Side.NORTH and ref.state.turn_number == 1


def test_undo_last_commit_reopens_the_turn() -> None:
    """Issue 5: a wrong commit (north's Pole knocked one space looked like north moving) is
    undone; north's piece is then flagged, and no longer taken as a commit."""
    ref = Referee()
    south = board("Pd1-d3")
    ref.observe(south, t=1.0)
    knocked = knock(south, "d8", "d7")  # a legal north walk, so it commits south's turn
    assert kinds(ref.observe(knocked, t=2.0)) == [TurnCommitted, TentativeMoves]
    events = ref.undo_last_commit(t=3.0)
    assert kinds(events) == [CommitUndone, IllegalChange]
    assert notations(events[0].moves) == ["Pd1-d3"] and events[0].number == 1
    assert events[1].rule is Rule.ONLY_MOVER_MOVES
    assert ref.state.to_move is Side.SOUTH and ref.state.turn_number == 1
    # South moves on while the knocked Pole still stands wrong: still flagged, not committed.
    assert kinds(ref.observe(knock(board("Pd1-d3", "Pe1-e3"), "d8", "d7"), t=4.0)) == [
        IllegalChange]
    events = ref.observe(board("Pd1-d3", "Pe1-e3"), t=5.0)  # north's Pole put back
    assert kinds(events) == [WarningCleared, TentativeMoves]
    assert sorted(notations(events[1].moves)) == ["Pd1-d3", "Pe1-e3"]


def test_undo_with_nothing_committed_is_refused() -> None:
    ev = only(Referee().undo_last_commit(t=1.0), Refused)
    assert ev.action == "undo"


# --------------------------------------------------------------------------------------------
# Winning, the die


def test_win_on_commit() -> None:
    """Goal of the game: all four Poles on the other side's starting spaces. Tentative until
    the turn is committed, then the game is over (and an undo reopens it)."""
    ref = Referee(NEAR_WIN)
    won = board("Pf7-f8", start=NEAR_WIN)
    assert only(ref.observe(won, t=1.0), TentativeMoves).would_win
    events = ref.end_turn(t=2.0)
    assert kinds(events) == [TurnCommitted, GameWon]
    assert events[1].side is Side.SOUTH and events[1].to_json()["side"] == "south"
    assert ref.state.winner is Side.SOUTH
    assert ref.observe(START, t=3.0) == []  # nothing is judged after the game
    assert ref.observe_occluded(t=3.5) == [] and ref.tick(t=3.6) == []
    assert "over" in only(ref.end_turn(t=4.0), Refused).reason
    assert kinds(ref.undo_last_commit(t=5.0)) == [CommitUndone, TentativeMoves]
    assert ref.state.winner is None


def test_resigning_ends_the_game_for_the_other_side() -> None:
    """Issue 21: either side may resign, whoever is to move; the other side wins, nothing on
    the mat is judged after, and a resignation is not undone (the log has finished the
    match): a new game is the way on."""
    ref = Referee()
    ref.observe(START, t=0.0)
    after = board("Pd1-d3")
    ref.observe(after, t=1.0)
    ref.end_turn(t=2.0)
    ev = only(ref.resign(Side.SOUTH, t=3.0), GameResigned)  # north is to move
    assert ev.side is Side.SOUTH and ev.winner is Side.NORTH
    assert ev.to_json() == {"event": "game_resigned", "t": 3.0, "side": "south",
                            "winner": "north"}
    state = ref.state
    assert state.winner is Side.NORTH and state.ending is Ending.RESIGNATION and state.over
    assert ref.observe(after, t=4.0) == [] and ref.tick(t=4.5) == []
    assert "south resigned" in only(ref.end_turn(t=5.0), Refused).reason
    assert "start a new game" in only(ref.undo_last_commit(t=6.0), Refused).reason
    assert "over" in only(ref.resign(Side.NORTH, t=7.0), Refused).reason
    assert "over" in only(ref.agree_draw(t=7.5), Refused).reason
    ref.new_game(t=8.0)
    assert not ref.state.over and ref.state.winner is None


def test_an_agreed_draw_ends_the_game_without_a_winner() -> None:
    """Issue 21: the players may agree a draw: the game is over, nobody won."""
    ref = Referee()
    ref.observe(START, t=0.0)
    ev = only(ref.agree_draw(t=1.0), DrawAgreed)
    assert ev.to_json() == {"event": "draw_agreed", "t": 1.0}
    assert ref.state.over and ref.state.winner is None and ref.state.ending is Ending.AGREEMENT
    assert "drawn by agreement" in only(ref.end_turn(t=2.0), Refused).reason
    assert "drawn by agreement" in only(ref.resign(Side.NORTH, t=3.0), Refused).reason


def test_a_win_by_the_rules_is_its_ending_until_undone() -> None:
    """Issue 21: a win on commit ends the game by the rules; its undo reopens it."""
    ref = Referee(NEAR_WIN)
    ref.observe(board("Pf7-f8", start=NEAR_WIN), t=1.0)
    ref.end_turn(t=2.0)
    assert ref.state.ending is Ending.RULE
    ref.undo_last_commit(t=3.0)
    assert ref.state.ending is None and not ref.state.over


def test_win_by_opponent_starting_to_move() -> None:
    """A winning turn committed by the other side moving still wins."""
    ref = Referee(NEAR_WIN)
    won = board("Pf7-f8", start=NEAR_WIN)
    ref.observe(won, t=1.0)
    north = board("Pa5-a4", start=end_turn(won))
    assert kinds(ref.observe(north, t=2.0)) == [TurnCommitted, GameWon]


def test_die_rolled_is_logged() -> None:
    """Issue 5: die rolled (from the board's electronic die); bad values name themselves."""
    ref = Referee()
    got: list[Event] = []
    ref.on_event(got.append)
    ev = only(ref.die_rolled(4, "bridge", t=1.0), DieRolled)
    assert ev.to_json() == {"event": "die_rolled", "t": 1.0, "value": 4, "sides": 6,
                            "source": "bridge"}
    assert got == [ev]
    with pytest.raises(RefereeError, match="7"):
        ref.die_rolled(7, t=2.0)
    with pytest.raises(RefereeError, match="1"):
        ref.die_rolled(3, t=2.0, sides=1)


# --------------------------------------------------------------------------------------------
# Recovery: "if vision and the referee disagree for long"


def _disagreeing(after: float = 5.0) -> tuple[Referee, Position]:
    ref = Referee(config=RefereeConfig(recovery_after=after))
    ref.observe(board("Pd1-d3"), t=1.0)
    bad = knock(board("Pd1-d3"), "d8", "d5")  # a north Pole knocked three spaces
    ref.observe(bad, t=10.0)
    return ref, bad


def test_recovery_offered_after_the_timeout() -> None:
    """Recovery: offered once the disagreement has lasted ``recovery_after`` seconds, with the
    spaces that differ from the last legal board; not while a hand is over the mat."""
    ref, _ = _disagreeing()
    assert ref.tick(t=14.9) == []
    ref.observe_occluded(t=15.0)
    assert ref.tick(t=15.5) == []  # a hand over the mat: not now
    events = ref.observe_still(t=16.0)
    ev = only(events, RecoveryOffered)
    assert ev.since == 10.0 and set(ev.squares) == {"d8", "d5"}
    assert ev.to_json()["event"] == "recovery_offered"
    assert ref.tick(t=30.0) == []  # offered once
    assert ref.state.recovery_offered


def test_accept_board_logs_a_correction() -> None:
    """Recovery, 'accept the board as seen': the seen board becomes the turn start, logged with
    both positions; the marker of the Pole already moved stays used."""
    ref, bad = _disagreeing()
    ref.tick(t=15.0)
    events = ref.accept_board(t=16.0)
    assert kinds(events) == [CorrectionAccepted, WarningCleared, TentativeMoves]
    corr = events[0]
    assert corr.accepted.same_board(bad) and corr.expected.same_board(board("Pd1-d3"))
    assert set(corr.squares) == {"d8", "d5"}
    doc = corr.to_json()
    assert doc["event"] == "correction_accepted" and "expected" in doc and "accepted" in doc
    assert notations(events[2].moves) == ["Pd1-d3"] and events[2].pole_markers_left == 1
    assert ref.state.turn_start.same_board(bad) and not ref.state.recovery_offered
    # South plays on from the corrected board, with one Pole marker left.
    ev = only(ref.observe(board("Pe1-e3", start=bad), t=17.0), TentativeMoves)
    assert sorted(notations(ev.moves)) == ["Pd1-d3", "Pe1-e3"] and ev.pole_markers_left == 0


def test_accept_board_refused_when_a_piece_is_missing() -> None:
    """Game pieces: four Poles and four Ports each - a board short of one is not accepted."""
    ref = Referee()
    poles = list(START.poles)
    poles[parse_square("d8")] = None
    ref.observe(START.replace(poles=tuple(poles)), t=1.0)
    ev = only(ref.accept_board(t=2.0), Refused)
    assert "3 north Poles" in ev.reason
    assert only(Referee().accept_board(t=1.0), Refused).reason == "nothing seen yet"


def test_show_restore_lists_what_goes_where_until_fixed() -> None:
    """Recovery, 'show me what to restore': each space to fix with what should stand there;
    the list follows the board as it is fixed and disappears when it is legal again."""
    ref = Referee()
    assert only(ref.show_restore(t=0.5), Refused).action == "show_restore"
    ref.observe(board("Pd1-d3"), t=1.0)
    two_wrong = knock(knock(board("Pd1-d3"), "d8", "d5"), "c8", "b6")
    ref.observe(two_wrong, t=2.0)
    ev = only(ref.show_restore(t=3.0), RestoreShown)
    fixes = {f.square: (f.want, f.seen) for f in ev.fixes}
    assert fixes == {"d8": ("north Pole", "empty"), "d5": ("empty", "north Pole"),
                     "c8": ("north Pole", "empty"), "b6": ("empty", "north Pole")}
    assert ev.to_json()["fixes"][0].keys() == {"square", "want", "seen"}
    events = ref.observe(knock(board("Pd1-d3"), "d8", "d5"), t=4.0)  # c8 put back
    assert kinds(events) == [IllegalChange, RestoreShown]
    assert set(events[1].squares) == {"d8", "d5"}
    events = ref.observe(board("Pd1-d3"), t=5.0)
    assert kinds(events) == [WarningCleared, TentativeMoves] and ref.state.restore == ()
    assert "nothing to restore" in only(ref.show_restore(t=6.0), Refused).reason


def test_describe_space_in_the_games_words() -> None:
    tele = board("Vc3sw@nw", "Vf3se-c3")  # two south Ports boxing c3: a Teleport
    assert describe_space(tele, parse_square("c3")) == "south Teleport nwse"
    assert describe_space(START, parse_square("b7")) == "north Port nw"
    assert describe_space(START, parse_square("d4")) == "empty"


# --------------------------------------------------------------------------------------------
# Events as data


def test_every_event_type_round_trips_to_json_in_one_game() -> None:
    """Events are frozen values with to_json() for the match log: one scripted evening at
    the table produces every type, and all of them serialise."""
    ref = Referee()
    log: list[Event] = []
    ref.on_event(log.append)
    ref.new_game(t=0.0)
    ref.undo_last_commit(t=0.5)                                      # Refused
    ref.observe(board("Pd8-d6", start=end_turn(START)), t=1.0)       # north moves first
    ref.observe(None, t=2.0)
    ref.observe(board("Pd8-d6", start=end_turn(START)), {"a1": 0.1}, t=3.0)
    north = board("Pd8-d6", "Pe8-e6", start=end_turn(START))
    ref.observe(north, t=4.0)                                        # BoardSettled, Tentative
    ref.end_turn(t=5.0)
    ref.undo_last_commit(t=6.0)
    ref.end_turn(t=7.0)
    bad = knock(north, "e1", "e4")
    ref.observe(bad, t=8.0)                                          # IllegalChange
    ref.show_restore(t=9.0)
    ref.tick(t=20.0)                                                 # RecoveryOffered
    ref.accept_board(t=21.0)                                         # WarningCleared
    ref.die_rolled(6, "tablet", t=22.0)
    ref.new_game(NEAR_WIN, t=23.0)
    ref.observe(board("Pf7-f8", start=NEAR_WIN), t=24.0)
    ref.end_turn(t=25.0)                                             # GameWon
    ref.new_game(t=26.0)
    ref.resign(Side.NORTH, t=27.0)                                   # GameResigned
    ref.new_game(t=28.0)
    ref.agree_draw(t=29.0)                                           # DrawAgreed
    assert {type(e) for e in log} == set(EVENT_TYPES)
    for e in log:
        doc = json.loads(json.dumps(e.to_json()))
        assert doc["event"] == type(e).EVENT and doc["t"] == e.t
        # Issue 17: each event puts itself into words once, for every front end
        words = e.describe()
        assert words and "\n" not in words and type(e).LABEL.isupper()
    assert len({T.EVENT for T in EVENT_TYPES}) == len({T.LABEL for T in EVENT_TYPES}) == len(
        EVENT_TYPES)
    assert isinstance(log[0], GameStarted) and log[0].to_json()["to_move"] == "south"
    with pytest.raises(AttributeError):
        log[0].t = 1.0  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# Property: take-backs (hypothesis)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), midgame=st.integers(0, 3),
       script=st.lists(st.sampled_from(["move", "move", "back", "hand"]), max_size=12))
def test_any_turn_with_take_backs_ends_with_the_moves_on_the_board(
        seed: int, midgame: int, script: list[str]) -> None:
    """Taking turns (moves tried and put back) + issue 5 (re-explain from the turn start):
    a random legal turn fed move by move, with arbitrary take-backs and hands over the mat,
    always ends with tentative moves that replay from the turn start to the board seen, never
    more of them than are on the board, and End turn commits exactly that board."""
    rng = random.Random(seed)
    start = random_midgame(rng, midgame)
    moves, _, _ = random_turn(start, rng)
    ref = Referee(start)
    stack = [(start, TurnState())]
    t = 0.0
    seen_kinds: set[type] = set()
    for action in script:
        t += 1.0
        if action == "move" and len(stack) <= len(moves):
            stack.append(play(stack[-1][0], moves[len(stack) - 1], stack[-1][1]))
            seen_kinds |= set(kinds(ref.observe(stack[-1][0], t=t)))
        elif action == "back" and len(stack) > 1:
            stack.pop()
            seen_kinds |= set(kinds(ref.observe(stack[-1][0], t=t)))
        elif action == "hand":
            seen_kinds |= set(kinds(ref.observe(None, t=t)))
    seen_kinds |= set(kinds(ref.observe(stack[-1][0], t=t + 1.0)))
    assert seen_kinds <= {TentativeMoves, Occluded, BoardSettled}
    state = ref.state
    assert state.verdict is not None and state.verdict.legal
    assert len(state.tentative) <= len(stack) - 1
    pos, turn = start, TurnState()
    for m in state.tentative:
        pos, turn = play(pos, m, turn)
    assert pos.same_board(stack[-1][0])
    assert (state.pole_markers_left, state.port_markers_left) == (
        turn.pole_markers_left, turn.port_markers_left)
    commit = only(ref.end_turn(t=t + 2.0), TurnCommitted)
    assert commit.position.same_board(stack[-1][0])
    assert ref.state.turn_start == end_turn(stack[-1][0]) or ref.state.winner is not None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), midgame=st.integers(0, 3))
def test_any_opponent_first_move_commits_any_turn(seed: int, midgame: int) -> None:
    """Issue 5, commit by the opponent starting to move: after any legal turn seen on the mat,
    a board showing one more legal move of the opponent commits exactly that turn and shows
    the opponent's move as tentative - unless the board also reads as a turn of the mover,
    which comes first (the mover is still playing)."""
    rng = random.Random(seed)
    start = random_midgame(rng, midgame)
    moves, mover_board, _ = random_turn(start, rng)
    assume(moves and mover_board.winner() is None)
    reply, observed, _ = random_turn(end_turn(mover_board), rng, n_moves=1)
    assume(reply and not observed.same_board(mover_board))  # a bounce home changes nothing
    ref = Referee(start)
    ref.observe(mover_board, t=1.0)
    events = ref.observe(observed, t=2.0)
    if explain(start, observed).legal:
        assert kinds(events) == [TentativeMoves] and events[0].side is start.to_move
        return
    assert kinds(events) == [TurnCommitted, TentativeMoves]
    commit, tentative = events
    assert commit.by is CommitBy.OPPONENT and commit.position.same_board(mover_board)
    assert tentative.side is start.to_move.opponent and len(tentative.moves) == 1
    assert ref.state.turn_start == end_turn(mover_board)


# --------------------------------------------------------------------------------------------
# Lights (companion/live/lights.py): what Bridge.show and Bridge.set_status take


def test_lights_of_tentative_moves() -> None:
    """Legal moves light their from (dim green) and to (green) spaces; status LEDs show the
    side to move, vision clear, and the markers left."""
    ref = Referee()
    ref.observe(board("Pd1-d3", "Vc3sw-c5"), t=1.0)
    lit = lights_for(ref.state)
    assert lit == {"d1": Color.DIM_GREEN, "d3": Color.GREEN, "c3": Color.DIM_GREEN,
                   "c5": Color.GREEN}
    status = status_for(ref.state)
    assert status["turn_1"] is Color.WHITE and status["turn_2"] is Color.OFF
    assert status["vision"] is Color.GREEN
    assert [status[n] for n in POLE_MARKER_LEDS] == [Color.GREEN, Color.OFF]
    assert [status[n] for n in PORT_MARKER_LEDS] == [Color.GREEN, Color.OFF]


def test_lights_of_an_illegal_change_restore_and_uncertainty() -> None:
    """Illegal changes light the offending spaces red (the vision LED too); asked to restore,
    the spaces to fix go amber; spaces vision doubts go blue; a hand turns vision amber."""
    ref = Referee()
    assert status_for(ref.state)["vision"] is Color.OFF  # nothing seen yet
    ref.observe(knock(START, "e1", "e4"), t=1.0)
    assert lights_for(ref.state) == {"e1": Color.RED, "e4": Color.RED}
    assert status_for(ref.state)["vision"] is Color.RED
    ref.show_restore(t=2.0)
    assert lights_for(ref.state) == {"e1": Color.AMBER, "e4": Color.AMBER}
    ref.observe(START, {"h8": 0.1}, t=3.0)
    assert lights_for(ref.state)["h8"] is Color.BLUE
    assert status_for(ref.state)["vision"] is Color.BLUE
    ref.observe_occluded(t=4.0)
    assert status_for(ref.state)["vision"] is Color.AMBER
    assert "h8" not in lights_for(ref.state)


def test_lights_after_commit_and_win() -> None:
    """The status LEDs follow the side to move; after a win the winner's Goal Telepads and its
    turn LED are green and the markers are dark."""
    ref = Referee(NEAR_WIN)
    ref.observe(board("Pf7-f8", start=NEAR_WIN), t=1.0)
    ref.end_turn(t=2.0)
    frame = frame_for(ref.state)
    assert frame.board == dict.fromkeys(["c8", "d8", "e8", "f8"], Color.GREEN)
    assert frame.status["turn_1"] is Color.GREEN and frame.status["turn_2"] is Color.OFF
    assert all(frame.status[n] is Color.OFF for n in (*POLE_MARKER_LEDS, *PORT_MARKER_LEDS))
    ref2 = Referee()
    ref2.end_turn(t=1.0)
    status = status_for(ref2.state)
    assert status["turn_2"] is Color.WHITE and status["turn_1"] is Color.OFF
    assert lights_for(ref2.state) == {}


def test_light_frame_is_what_the_bridge_takes() -> None:
    """Every name is a space or status LED of the default layout, and a real (unopened)
    Bridge accepts the frame: ``frame_for(state).send(bridge)``."""
    ref = Referee()
    ref.observe(board("Pd1-d3"), t=1.0)
    frame = frame_for(ref.state)
    layout = LedLayout.grid()
    assert set(frame.status) == set(layout.status)
    for name in [*frame.board, *frame.status]:
        layout.index_of(name)
    calls: list[tuple[str, Any]] = []

    class FakeBridge:
        def show(self, board_colors: Any) -> None:
            calls.append(("show", dict(board_colors)))

        def set_status(self, name: str, color: Color) -> None:
            calls.append((name, color))

    frame.send(FakeBridge())
    assert calls[0] == ("show", frame.board) and len(calls) == 1 + len(frame.status)
    bridge = Bridge(None, layout, Timing())  # never opened: no thread, no port
    frame.send(bridge)
    assert isinstance(frame, LightFrame)


def test_undo_then_end_turn_gives_the_turn_to_the_right_side() -> None:
    """Issue 5, Undo last commit: the reopened turn is the undone side's, however long ago
    the board it shows was first seen (vision's boards say nothing of whose turn it is)."""
    start = Position.start()
    board, _ = play(start, parse_move("Pd1-d3"))
    ref = Referee(start)
    ref.observe_position(board, t=1)
    ref.end_turn(t=2)  # south's turn 1
    ref.end_turn(t=3)  # north passes: turn 2
    ref.undo_last_commit(t=4)
    assert ref.state.to_move is Side.NORTH
    ref.end_turn(t=5)
    assert (ref.state.to_move, ref.state.turn_number) == (Side.SOUTH, 3)


def test_accept_board_right_after_a_commit_keeps_the_turn_order() -> None:
    """Issue 5, 'accept the board as seen': accepting the board the last turn ended on does
    not hand the move back to the side that just ended its turn."""
    start = Position.start()
    board, _ = play(start, parse_move("Pd1-d3"))
    ref = Referee(start)
    ref.observe_position(board, t=1)
    ref.end_turn(t=2)
    ref.accept_board(t=3)
    assert ref.state.to_move is Side.NORTH
