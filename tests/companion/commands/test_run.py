"""``companion run --camera N --profile P --bridge PORT|auto|none`` (issue 5: "the real thing"),
with a clear error and exit 2 for a missing or damaged profile, a camera that cannot be opened
and a board port that cannot be opened; "`companion run` ... take[s] --db too" (issue 6)."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.commands.main import main
from companion.commands.opening import open_camera
from companion.commands.run import run_live
from companion.errors import UserError
from companion.matchlog import MatchStore
from companion.rules.teleporters import Position, Side, parse_move, play
from companion.sim.demo import SCENE
from tests.memo import demo_table_profile
from vision.simtable import render

START = Position.start()
AFTER_D3, _ = play(START, parse_move("Pd1-d3"))


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("run") / "profile.json"
    demo_table_profile().save(path)
    return str(path)


def test_a_missing_profile_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--profile", "/no/such/profile.json", "--headless"]) == 2
    assert "cannot read profile /no/such/profile.json" in capsys.readouterr().err


def test_a_damaged_profile_is_bad_input(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "p.json"
    bad.write_text('{"kind": "tabletop-companion/teleporters-profile", "version": 2}')
    assert main(["run", "--profile", str(bad), "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion run: ") and "profile is damaged" in err


def test_a_camera_that_cannot_be_opened_is_bad_input(
        profile_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--camera", "99", "--profile", profile_path, "--bridge", "none",
                 "--db", str(tmp_path / "m.sqlite3"), "--headless"]) == 2
    assert "camera 99 cannot be opened" in capsys.readouterr().err


def test_a_board_port_that_cannot_be_opened_is_bad_input(
        profile_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--profile", profile_path, "--bridge", "/dev/no-such-board",
                 "--db", str(tmp_path / "m.sqlite3"), "--headless"]) == 2
    assert "cannot open the board's port /dev/no-such-board" in capsys.readouterr().err


def test_an_unusable_db_is_bad_input(profile_path: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--profile", profile_path, "--bridge", "none", "--db",
                 "/proc/no-such-dir/m.sqlite3", "--headless"]) == 2
    assert "cannot open the match store" in capsys.readouterr().err


class FakeCapture:
    """A ``cv2.VideoCapture`` playing a script of images, then Ctrl-C (the user stops)."""

    def __init__(self, script: list[tuple[np.ndarray, Any]], fps: float = 25.0) -> None:
        self.script = list(script)
        self.period = 1 / fps
        self.opened = True

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.script:
            raise KeyboardInterrupt
        image, action = self.script.pop(0)
        if action is not None:
            action()
        time.sleep(self.period)
        return True, image

    def release(self) -> None:
        self.opened = False


def test_a_frame_size_other_than_the_profiles_is_refused() -> None:
    small = np.zeros((180, 320, 3), np.uint8)
    with pytest.raises(UserError, match="sends 320x180 frames but the profile was calibrated "
                       "at 640x360"):
        open_camera(0, (640, 360), opener=lambda _: FakeCapture([(small, None)]))


def test_run_referees_the_camera_lights_the_board_and_its_button_commits(
        profile_path: str, tmp_path: Path) -> None:
    from firmware_bridge.virtual_device import VirtualDevice

    start = render(START.to_json(), SCENE.with_(seed=901)).image
    after = render(AFTER_D3.to_json(), SCENE.with_(seed=902)).image
    db = tmp_path / "m.sqlite3"
    out = io.StringIO()
    with VirtualDevice(seed=2) as device:
        script = ([(start, None)] * 15 + [(after, None)] * 15
                  + [(after, device.press_button)] + [(after, None)] * 20)
        assert run_live(camera=0, profile=profile_path, bridge=device.port, db=str(db),
                        headless=True, out=out,
                        opener=lambda _: FakeCapture(script)) == 130  # Ctrl-C
    text = out.getvalue()
    assert "MOVES     south: Pd1-d3" in text and "light d1 dim green; d3 green" in text
    assert "committed by the board's button: Pd1-d3" in text
    assert text.rstrip().endswith("stopped")
    with MatchStore(db) as store:
        (summary,) = store.list_matches(unfinished=True)  # stopped mid-game: resumable
        assert [t.moves for t in store.get_match(summary.id).turns] == [("Pd1-d3",)]


EMPTY_MAT = {"game": "teleporters", "to_move": "south", "poles": {}, "ports": []}


def test_run_without_a_profile_calibrates_with_the_empty_mat_photo(tmp_path: Path) -> None:
    """Issue 16: `run --camera N --empty EMPTY` (no --profile) calibrates from the camera's
    first still frames and the empty-mat photo, then referees."""
    import cv2

    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render(EMPTY_MAT, SCENE.with_(seed=900)).image)
    start = render(START.to_json(), SCENE.with_(seed=901)).image
    after = render(AFTER_D3.to_json(), SCENE.with_(seed=902)).image
    out = io.StringIO()
    script = [(start, None)] * 20 + [(after, None)] * 15
    assert run_live(camera=0, empty=str(empty), bridge="none", db=str(tmp_path / "m.sqlite3"),
                    headless=True, out=out, opener=lambda _: FakeCapture(script)) == 130
    text = out.getvalue()
    assert "calibrating the mat from camera 0" in text
    assert "with the mat calibrated at the start" in text
    assert "MOVES     south: Pd1-d3" in text and text.rstrip().endswith("stopped")


def test_run_refuses_an_empty_photo_it_cannot_use(
        profile_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: `run --empty` with `--profile` (the profile holds the calibration), an
    unreadable empty-mat photo, or one of another size than the camera's frames: exit 2 (or
    UserError), one line naming the file."""
    import cv2

    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.zeros((180, 320, 3), np.uint8))
    assert main(["run", "--profile", profile_path, "--empty", str(small), "--headless"]) == 2
    err = capsys.readouterr().err
    assert "the profile already holds the calibration" in err and err.count("\n") == 1
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a photo")
    assert main(["run", "--empty", str(junk), "--headless", "--bridge", "none"]) == 2
    assert "junk.png: not an image" in capsys.readouterr().err
    frame = render(START.to_json(), SCENE.with_(seed=901)).image
    with pytest.raises(UserError, match=re.escape(
            f"camera 0 sends 640x360 frames but the empty-mat photo {small} is 320x180")):
        run_live(camera=0, empty=str(small), bridge="none", db=str(tmp_path / "m.sqlite3"),
                 headless=True, out=io.StringIO(),
                 opener=lambda _: FakeCapture([(frame, None)]))


def test_ctrl_c_while_calibrating_from_the_camera_stops_cleanly(tmp_path: Path) -> None:
    """Issue 16: without --profile, Ctrl-C while `run` waits for a still set-up to calibrate
    from is a stop (said; exit 130 as a shell reports Ctrl-C, issue 18), not a traceback;
    the camera is closed."""
    start = render(START.to_json(), SCENE.with_(seed=901)).image
    capture = FakeCapture([(start, None)] * 3)  # too short to be still; then Ctrl-C
    out = io.StringIO()
    assert run_live(camera=0, bridge="none", db=str(tmp_path / "m.sqlite3"), headless=True,
                    out=out, opener=lambda _: capture) == 130
    assert out.getvalue().rstrip().endswith("stopped before the game began")
    assert not capture.opened


# --------------------------------------------------------------------------------------------
# Issue 21: a finished `run` in the terminal: names, first mover, keys, the result stored


def keyed_script(start: np.ndarray, after: np.ndarray, send: Any,
                 keys: list[str]) -> list[tuple[np.ndarray, Any]]:
    """Frames: the start, Pd1-d3 made; then each of ``keys`` sent, with 15 frames (0.6 s)
    after each for the reader to press it and the referee to answer."""
    script: list[tuple[np.ndarray, Any]] = [(start, None)] * 15 + [(after, None)] * 15
    for key in keys:
        script += [(after, lambda key=key: send(key))] + [(after, None)] * 15
    return script


def test_a_terminal_run_is_played_resigned_and_its_result_shown(
        profile_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: "A `run` match in the terminal is played, resigned, and shows its result in
    `matches show`. A test drives the keys." Keys come as lines (stdin not a terminal):
    e ends south's turn, r + n resigns north after a refused draw offer; q quits (exit 0).
    The players' names and the first mover are taken from the command line."""
    import os

    start = render(START.to_json(), SCENE.with_(seed=901)).image
    after = render(AFTER_D3.to_json(), SCENE.with_(seed=902)).image
    db = tmp_path / "m.sqlite3"
    read_end, write_end = os.pipe()
    keys = os.fdopen(read_end, "r")

    def send(text: str) -> None:
        os.write(write_end, text.encode() + b"\n")

    script = keyed_script(start, after, send, ["e", "draw", "no", "resign north", "q"])
    out = io.StringIO()
    try:
        assert run_live(camera=0, profile=profile_path, bridge="none", db=str(db),
                        headless=True, out=out, opener=lambda _: FakeCapture(script),
                        players={"south": "Ann", "north": "Ben"}, first=Side.SOUTH,
                        keys=keys) == 0
    finally:
        keys.close()
        os.close(write_end)
    text = out.getvalue()
    assert "keys: e end turn" in text
    assert "committed by the End turn key: Pd1-d3" in text
    assert "draw: cancelled" in text
    assert "who resigns? s = south (Ann), n = north (Ben)" in text
    assert "RESIGN    north resigns: south wins" in text
    assert "quitting" in text
    with MatchStore(db) as store:
        (summary,) = store.list_matches()
        assert summary.result is not None and summary.result.value == "south"
        match = store.get_match(summary.id)
        assert dict(match.players) == {"south": "Ann", "north": "Ben"}
        assert [t.moves for t in match.turns] == [("Pd1-d3",)]
    assert main(["matches", "show", str(summary.id), "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "Ann (south) v Ben (north)" in shown and ": south won by resignation\n" in shown
    assert main(["matches", "list", "--db", str(db)]) == 0
    assert " * " not in capsys.readouterr().out  # a match that ends leaves no "*"


def test_keys_at_a_terminal_act_at_once_and_the_terminal_is_given_back(
        profile_path: str, tmp_path: Path) -> None:
    """Issue 21: at a terminal (a pty here) each key acts as pressed, without Enter: e ends
    the turn, d + y agrees a draw, q quits; the terminal's mode is restored after. North
    moves first (--first north), so south's Pd1-d3 is north's opponent starting."""
    import os
    import pty
    import termios

    start = render(START.to_json(), SCENE.with_(seed=901)).image
    north = render(play(START.replace(to_move=Side.NORTH), parse_move("Pd8-d6"))[0].to_json(),
                   SCENE.with_(seed=903)).image
    db = tmp_path / "m.sqlite3"
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    keys = os.fdopen(slave, "r")
    script = keyed_script(start, north, lambda k: os.write(master, k.encode()),
                          ["e", "d", "y", "q"])
    out = io.StringIO()
    try:
        assert run_live(camera=0, profile=profile_path, bridge="none", db=str(db),
                        headless=True, out=out, opener=lambda _: FakeCapture(script),
                        first=Side.NORTH, keys=keys) == 0
        assert termios.tcgetattr(slave) == before
    finally:
        keys.close()
        os.close(master)
    text = out.getvalue()
    assert "game started: north to move" in text
    assert "committed by the End turn key: Pd8-d6" in text
    assert "DRAW      the players agree to a draw" in text
    with MatchStore(db) as store:
        (summary,) = store.list_matches()
        match = store.get_match(summary.id)
        assert match.result is not None and match.result.value == "draw"
        assert match.tags["Termination"] == "agreement"


def test_quitting_mid_game_keeps_every_committed_turn(profile_path: str,
                                                      tmp_path: Path) -> None:
    """Issue 21: nothing recorded is lost: a run quit (or stopped) mid-game keeps its
    committed turns, the match unfinished so it can be taken up again."""
    import os

    start = render(START.to_json(), SCENE.with_(seed=901)).image
    after = render(AFTER_D3.to_json(), SCENE.with_(seed=902)).image
    db = tmp_path / "m.sqlite3"
    read_end, write_end = os.pipe()
    keys = os.fdopen(read_end, "r")
    script = keyed_script(start, after, lambda k: os.write(write_end, k.encode() + b"\n"),
                          ["end turn", "quit"])
    try:
        assert run_live(camera=0, profile=profile_path, bridge="none", db=str(db),
                        headless=True, out=io.StringIO(), keys=keys,
                        opener=lambda _: FakeCapture(script)) == 0
    finally:
        keys.close()
        os.close(write_end)
    with MatchStore(db) as store:
        (summary,) = store.list_matches(unfinished=True)
        assert [t.moves for t in store.get_match(summary.id).turns] == [("Pd1-d3",)]


@pytest.mark.parametrize(("argv", "said"), [
    (["--south", "  "], "a player's name needs a character"),
    (["--north", "Ben\x1b[2J"], "cannot hold control characters"),
    (["--first", "east"], "invalid choice: 'east'"),
])
def test_bad_names_and_first_mover_are_one_line_and_exit_2(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: player names and the first mover are checked as options: one line, exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(["run", "--headless", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
