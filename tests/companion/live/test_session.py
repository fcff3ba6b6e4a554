"""The live session (issue 5): frames -> vision -> referee -> events -> app, LEDs, match log.

Issue 5: "The turn is committed when the player presses End turn on the tablet, presses the
bridge's button, or the opponent's pieces start to move. Illegal changes light the offending
spaces red on the board; legal moves light their from/to spaces; the side to move and markers
left are shown with status LEDs." Issue 6: "the demo's match is recorded like any other".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.live.api import Link, SessionLike, Update
from companion.live.board import RecordingBoard
from companion.live.lights import DEFAULT_SCHEME
from companion.live.recorder import open_store
from companion.live.session import Session, SessionError
from companion.live.sighting import Sighting, Vision
from companion.live.textlog import TextLog, describe_lights
from companion.matchlog import (
    TERMINATION_TAG,
    DieRoll,
    DieSource,
    IllegalMove,
    MatchStore,
    Resolution,
    Result,
)
from companion.matchlog.export import export_text, import_text
from companion.referee import (
    BoardSettled,
    CommitBy,
    DieRolled,
    GameStarted,
    GameWon,
    IllegalChange,
    Occluded,
    Refused,
    TentativeMoves,
    TurnCommitted,
    Uncertain,
    VisionState,
    WarningCleared,
)
from companion.rules.teleporters import Position, Side, end_turn, parse_move, play
from companion.sim.demo import SCENE
from firmware_bridge.colors import Color
from tests.memo import demo_table_profile
from vision.gate import GateState
from vision.simtable import Hand, render
from vision.sources import Frame, SourceEvent, SourceEventKind

START = Position.start()
AFTER_D3, TURN_D3 = play(START, parse_move("Pd1-d3"))
# A Pole walking three spaces: "Walking" forbids it.
TOO_FAR = START.replace(poles=tuple(
    {3: None, 27: START.poles[3]}.get(i, p) for i, p in enumerate(START.poles)))
# South one move from winning (the demo's last turn): Pe6-e8 puts its fourth Pole home.
NEAR_WIN = Position.from_text("2PP1P2/1[nw]3p2/[SE]3P2[nw]/5[SWNE]2/4[SW][sw]2/2[ne]5/"
                              "2p4p/4p3 south")


@pytest.fixture(scope="module")
def profile() -> Any:
    return demo_table_profile()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    with MatchStore(tmp_path / "matches.sqlite3") as s:
        yield s


class Updates(list[Update]):
    def events(self) -> list[Any]:
        return [e for u in self for e in u.events]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events() if isinstance(e, kind)]


def session_with(store: MatchStore | None = None, start: Position = START, **kw: Any
                 ) -> tuple[Session, RecordingBoard, Updates]:
    board = RecordingBoard()
    session = Session(board=board, store=store, start=start, **kw)
    updates = Updates()
    session.on_update(updates.append)
    return session, board, updates


def test_session_implements_the_app_interface() -> None:
    session, _, _ = session_with()
    assert isinstance(session, Session)
    app_view: SessionLike = session  # what companion.app drives
    assert app_view.state.turn_number == 1 and app_view.links.board is Link.OK


def test_rendered_frames_through_vision_reach_subscribers_and_light_the_move(
        profile: Any, store: MatchStore) -> None:
    session, board, updates = session_with(store, vision=Vision.from_profile(profile))
    hand = Hand(reach=(3.5, 1.0), from_deg=270, height=1.4)
    frames = ([(START, None)] * 5 + [(START, hand), (AFTER_D3, hand)] + [(AFTER_D3, None)] * 5)
    for i, (pos, h) in enumerate(frames):
        image = render(pos.to_json(), SCENE.with_(seed=500 + i), h).image
        session.process(image, i / 10)
    assert isinstance(updates.events()[0], GameStarted)
    assert updates.of(Occluded) and updates.of(BoardSettled)
    moves = updates.of(TentativeMoves)
    assert [m.notation() for m in moves[-1].moves] == ["Pd1-d3"]
    # Legal moves light their from/to spaces; status: south to move, one Pole marker used.
    assert board.board == {"d1": Color.DIM_GREEN, "d3": Color.GREEN}
    assert board.status_leds["turn_1"] is Color.WHITE
    assert board.status_leds["turn_2"] is Color.OFF
    assert board.status_leds["vision"] is Color.GREEN
    assert [board.status_leds[f"marker_{i}"] for i in (1, 2, 3, 4)] == [
        Color.GREEN, Color.OFF, Color.GREEN, Color.GREEN]


def test_an_illegal_change_lights_its_spaces_red_and_is_logged_until_put_right(
        store: MatchStore) -> None:
    session, board, updates = session_with(store)
    session.observe(START, t=0.0)
    session.observe(TOO_FAR, t=1.0)
    illegal = updates.of(IllegalChange)
    assert illegal and illegal[0].squares == ("d1", "d4")
    assert board.board == {"d1": Color.RED, "d4": Color.RED}
    assert board.status_leds["vision"] is Color.RED  # the board disagrees with the rules
    session.observe(START, t=2.0)
    assert updates.of(WarningCleared) and board.board == {}
    match = store.get_match(session.match_id)
    warnings = [e.data for e in match.events if isinstance(e.data, IllegalMove)]
    assert [(w.squares, w.rule, w.resolution) for w in warnings] == [
        (("d1", "d4"), "walk-one-or-two-spaces", Resolution.PUT_RIGHT)]


def test_end_turn_on_the_tablet_commits_the_turn_into_the_match_store(
        store: MatchStore) -> None:
    session, board, updates = session_with(store)
    session.observe(START, t=0.0)
    session.observe(AFTER_D3, t=4.0)
    session.end_turn()
    commit = updates.of(TurnCommitted)
    assert [c.by for c in commit] == [CommitBy.TABLET]
    turn = store.get_match(session.match_id).turns
    assert [(t.side.value, t.moves, t.seconds) for t in turn] == [("south", ("Pd1-d3",), 4.0)]
    assert turn[0].position.same_board(end_turn(AFTER_D3))
    assert board.status_leds["turn_2"] is Color.WHITE and board.board == {}


def test_the_opponent_starting_to_move_commits_the_turn(store: MatchStore) -> None:
    session, _, updates = session_with(store)
    session.observe(START, t=0.0)
    session.observe(AFTER_D3, t=1.0)
    north, _ = play(end_turn(AFTER_D3), parse_move("Pd8-d6"))
    session.observe(north, t=2.0)
    assert [c.by for c in updates.of(TurnCommitted)] == [CommitBy.OPPONENT]
    assert len(store.get_match(session.match_id).turns) == 1


def test_the_boards_button_commits_the_turn_and_a_die_roll_is_recorded(
        store: MatchStore) -> None:
    session, board, updates = session_with(store)
    session.observe(START, t=0.0)
    session.observe(AFTER_D3, t=1.0)
    board.press_button()
    assert [c.by for c in updates.of(TurnCommitted)] == [CommitBy.BRIDGE]
    board.roll_die(4, 6)
    assert [(d.value, d.sides, d.source) for d in updates.of(DieRolled)] == [(4, 6, "bridge")]
    assert updates[-1].last_die == 4
    match = store.get_match(session.match_id)
    assert len(match.turns) == 1
    assert [e.data for e in match.events] == [DieRoll(4, DieSource.ELECTRONIC)]


def test_the_virtual_board_shows_the_move_and_its_button_ends_the_turn(
        store: MatchStore) -> None:
    """The real ``Bridge`` to the virtual LED/die board on a pseudo-terminal."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.virtual_device import VirtualDevice

    with VirtualDevice(seed=3) as device:
        bridge = Bridge.open(device.port)
        assert bridge.wait_connected(5.0)
        session = Session(board=bridge, store=store)
        session.observe(START, t=0.0)
        session.observe(AFTER_D3, t=1.0)
        assert bridge.sync(3.0)
        colors = device.state().colors
        lit = {name: Color(colors[i]) for i, name in enumerate(bridge.layout.spaces)
               if colors[i]}
        assert lit == {"d1": Color.DIM_GREEN, "d3": Color.GREEN}
        device.press_button()
        assert session.wait_until(lambda s: s.turn_number == 2, timeout=5.0)
        assert len(store.get_match(session.match_id).turns) == 1
        session.close()  # closes the bridge (and the store) too
    assert bridge.status().state.value == "closed"


def test_a_win_finishes_the_match_with_its_result(store: MatchStore) -> None:
    session, board, updates = session_with(store, start=NEAR_WIN)
    session.observe(NEAR_WIN, t=0.0)
    won, _ = play(NEAR_WIN, parse_move("Pe6-e8"))
    session.observe(won, t=3.0)
    session.end_turn()
    assert [w.side.value for w in updates.of(GameWon)] == ["south"]
    assert set(board.board) == {"c8", "d8", "e8", "f8"}  # the winner's Goal Telepads
    match = store.get_match(session.match_id)
    assert match.result is Result.SOUTH and match.finished


def test_a_resignation_finishes_the_match_and_lights_the_winner(store: MatchStore) -> None:
    """Issue 21: a resignation is stored as the other side's win, by resignation; the board
    lights the winner's side and no markers."""
    session, board, _ = session_with(store, players={"south": "Ann", "north": "Ben"})
    session.observe(START, t=0.0)
    session.resign(Side.SOUTH)
    match = store.get_match(session.match_id)
    assert match.result is Result.NORTH and match.tags[TERMINATION_TAG] == "resignation"
    assert board.status_leds["turn_2"] is DEFAULT_SCHEME.win  # north's side LED
    assert board.status_leds["turn_1"] is Color.OFF


def test_an_agreed_draw_finishes_the_match_drawn(store: MatchStore) -> None:
    """Issue 21: an agreed draw is stored as a draw, by agreement; the board shows no move."""
    session, board, _ = session_with(store)
    session.observe(START, t=0.0)
    session.observe(AFTER_D3, t=1.0)
    session.agree_draw()
    match = store.get_match(session.match_id)
    assert match.result is Result.DRAW and match.tags[TERMINATION_TAG] == "agreement"
    assert board.board == {}


def test_an_undone_win_reopens_the_match_and_keeps_recording(store: MatchStore) -> None:
    """Issue 21 (nothing recorded is lost): a winning turn undone at the table reopens the
    logged match, so the turns after it are recorded, not left waiting for ever."""
    session, _, _ = session_with(store, start=NEAR_WIN)
    session.observe(NEAR_WIN, t=0.0)
    won, _ = play(NEAR_WIN, parse_move("Pe6-e8"))
    session.observe(won, t=3.0)
    session.end_turn()
    assert store.get_match(session.match_id).tags[TERMINATION_TAG] == "rule"
    session.undo_last_commit()
    match = store.get_match(session.match_id)
    assert match.result is None and TERMINATION_TAG not in match.tags
    other, _ = play(NEAR_WIN, parse_move("Pe6-e7"))
    session.observe(other, t=5.0)
    session.end_turn()
    assert session.unrecorded_turns == 0 and session.log_problem == ""
    assert [t.moves for t in store.get_match(session.match_id).turns] == [
        ("Pe6-e8",), ("Pe6-e7",)]


def test_an_undone_commit_keeps_the_log_replayable(store: MatchStore) -> None:
    session, _, _ = session_with(store)
    session.observe(START, t=0.0)
    session.observe(AFTER_D3, t=1.0)
    session.end_turn()
    session.undo_last_commit()
    other, _ = play(START, parse_move("Pe1-e3"))
    session.observe(other, t=3.0)
    session.end_turn()
    match = store.get_match(session.match_id)
    assert [t.moves for t in match.turns] == [("Pd1-d3",), ("Pe1-e3",)]
    again = import_text(export_text(match))[0]
    assert again.final_position.same_board(end_turn(other))


def test_new_game_abandons_the_match_and_begins_another(store: MatchStore) -> None:
    session, _, _ = session_with(store)
    session.observe(START, t=0.0)
    first = session.match_id
    session.new_game()
    assert session.match_id != first
    assert store.get_match(first).result is Result.ABANDONED
    assert session.state.vision is VisionState.NONE


def test_a_failing_match_store_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    session, _, updates = session_with(store)
    session.observe(START, t=0.0)
    store.close()  # e.g. the disk went away
    session.observe(AFTER_D3, t=1.0)
    session.end_turn()
    assert updates.of(TurnCommitted)
    assert "match log: cannot write" in session.log_problem
    assert "1 turn(s) kept" in session.links.detail
    session.close()
    assert session.unrecorded_turns == 1  # said, never reported done


def flaky(store: MatchStore, fault: Exception | None = None) -> list[bool]:
    """Make every write of ``store`` fail with ``fault`` (default "database is locked")
    while the returned flag's first item is true (another program holding the file, a full
    disk, an I/O error)."""
    from companion.matchlog import MatchLogError

    error = fault or MatchLogError("database is locked")
    broken = [False]
    for name in ("begin_match", "commit_turn", "record_event", "finish_match",
                 "resolve_warning"):
        real = getattr(store, name)

        def failing(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            if broken[0]:
                raise error
            return _real(*args, **kwargs)

        setattr(store, name, failing)
    return broken


@pytest.mark.parametrize("fault", ["database is locked", "database or disk is full",
                                   "disk I/O error", "no space left"])
def test_turns_the_store_cannot_take_wait_and_are_written_when_it_can(store: MatchStore,
                                                                      fault: str) -> None:
    """Issue 18, data loss: a store error mid-match stopped the recording for good, while
    turns went on being confirmed. Now the turn the store could not take waits (in order),
    is said on the status line and on the LEDs (the side to move's LED turns magenta), no
    further turn is ended by a button while it waits, and it is written when the store works
    again (tried again with backoff, and at once on a press)."""
    from companion.matchlog import MatchLogError

    broken = flaky(store, OSError(28, "No space left on device") if fault == "no space left"
                   else MatchLogError(fault))
    session, board, updates = session_with(store)
    session.observe(START, t=0.0)
    match = session.match_id
    assert match is not None
    broken[0] = True
    session.observe(AFTER_D3, t=1.0)
    session.end_turn()                            # south's turn: committed, not recorded
    assert session.unrecorded_turns == 1
    assert "1 turn(s) kept until it can" in session.links.detail
    assert board.status_leds["turn_2"] is Color.MAGENTA  # north to move, a turn waiting
    after_north, _ = play(end_turn(AFTER_D3), parse_move("Pd8-d6"))
    session.observe(after_north, t=2.0)
    session.end_turn()                            # north's press: refused, the turn open
    refused = updates.of(Refused)
    assert refused and "cannot write" in refused[-1].reason
    assert len(updates.of(TurnCommitted)) == 1 and store.get_match(match).turns == ()
    broken[0] = False                             # the other program lets go
    session.observe(after_north, t=30.0)          # the next frame after the backoff
    assert session.unrecorded_turns == 0 and session.log_problem == ""
    assert board.status_leds["turn_2"] is Color.WHITE
    session.end_turn()
    assert [t.moves for t in store.get_match(match).turns] == [("Pd1-d3",), ("Pd8-d6",)]
    session.close()


class ScriptedVision:
    """Stands in for the detector and gate: one scripted sighting per frame."""

    def __init__(self, sightings: list[Sighting]) -> None:
        self.sightings = list(sightings)
        self.gate = type("Gate", (), {"still_s": 0.3})()

    def see(self, image: np.ndarray, t: float) -> Sighting:
        s = self.sightings.pop(0)
        return Sighting(t, s.state, s.reported, s.reading, s.confidences)

    def reset(self) -> None:
        pass


def confident(low: dict[str, float] | None = None) -> dict[str, float]:
    conf = {f"{f}{r}": 0.95 for f in "abcdefgh" for r in range(1, 9)}
    conf.update(low or {})
    return conf


def test_when_vision_is_unsure_the_next_still_frame_is_looked_at_again() -> None:
    board = AFTER_D3.to_json()
    vision = ScriptedVision([
        Sighting(0, GateState.STILL, START.to_json(), START.to_json(), confident()),
        Sighting(0, GateState.STILL, board, board, confident({"d3": 0.2})),
        Sighting(0, GateState.STILL, None, board, confident({"d3": 0.3})),
        Sighting(0, GateState.STILL, None, board, confident()),
    ])
    session, _, updates = session_with(vision=vision)
    image = np.zeros((4, 4, 3), np.uint8)
    for i in range(4):
        session.process(image, i / 10)
    assert [e.squares for e in updates.of(Uncertain)] == [("d3",)]
    settled = updates.of(BoardSettled)
    assert [s.after for s in settled] == ["uncertain"]
    assert [m.notation() for m in updates.of(TentativeMoves)[-1].moves] == ["Pd1-d3"]


class ListSource:
    name = "list"

    def __init__(self, n: int) -> None:
        self.n, self.i = n, 0
        self.release = threading.Event()

    def read(self) -> Frame | SourceEvent:
        if self.i == self.n:
            self.release.wait(5.0)  # hold the last frame until the test has acted
            return SourceEvent(SourceEventKind.ENDED, "done", self.i / 10)
        self.i += 1
        return Frame(np.zeros((4, 4, 3), np.uint8), self.i / 10, self.i)

    def close(self) -> None:
        self.release.set()


def test_the_worker_thread_runs_frames_while_the_app_presses_end_turn() -> None:
    reading = AFTER_D3.to_json()
    vision = ScriptedVision(
        [Sighting(0, GateState.STILL, reading, reading, confident())]
        + [Sighting(0, GateState.STILL, None, reading, confident())] * 9)
    source = ListSource(10)
    session, board, updates = session_with(vision=vision, source=source)
    session.start()
    assert session.wait_until(lambda s: s.seen is not None, timeout=5.0)
    session.end_turn()  # from this (the app's) thread
    assert session.wait_until(lambda s: s.turn_number == 2, timeout=5.0)
    source.release.set()
    assert session.join(5.0)
    assert [c.by for c in updates.of(TurnCommitted)] == [CommitBy.TABLET]
    session.close()
    assert board.status().state.value == "closed"
    with pytest.raises(SessionError, match="no vision"):
        Session().process(np.zeros((4, 4, 3), np.uint8), 0.0)


def test_text_lines_name_the_event_and_the_spaces_to_light() -> None:
    lines: list[str] = []
    session, _, _ = session_with()
    log = TextLog(type("Out", (), {"write": lambda self, s: lines.append(s),
                                   "flush": lambda self: None})())
    session.on_update(log)
    session.observe(START, t=0.0)
    session.observe(TOO_FAR, t=12.3)
    text = "".join(lines)
    assert ("t= 12.3s  ILLEGAL   south: south Pole d1 to d4: a Pole walks one or two spaces, "
            "this is 3") in text
    assert text.rstrip().endswith("— light d1, d4 red")
    assert describe_lights({}) == "lights off"
    assert describe_lights({"e6": Color.DIM_GREEN, "e8": Color.GREEN}) == \
        "light e6 dim green; e8 green"


def test_an_unusable_default_store_is_said_and_skipped(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    said: list[str] = []
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/proc/no-such-dir")
    assert open_store(None, said.append) is None
    assert "playing without recording" in said[0]
    with pytest.raises(ValueError, match="cannot open the match store"):
        open_store("/proc/no-such-dir/m.sqlite3", said.append)
    assert open_store(str(tmp_path / "ok.sqlite3"), said.append) is not None


def test_the_session_tells_the_app_where_it_records(tmp_path: Path) -> None:
    """Issue 6: the app's match history opens the store the session records into."""
    from companion.live.session import Session
    from companion.matchlog import MatchStore

    with MatchStore(tmp_path / "m.sqlite3") as store:
        assert Session(store=store).store_path == tmp_path / "m.sqlite3"
    assert Session().store_path is None
