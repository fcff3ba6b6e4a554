"""``companion demo`` (issue 5): "the simulated table plays a scripted match ... through the
real vision pipeline and the referee, with the virtual LED device, shown in the app.
`--headless` prints the same events as text; on a machine with no display the plain command
says so and runs headless rather than failing." Done when "`companion demo --headless`
finishes the scripted match and its output shows the flagged illegal move and the win".
Issue 6: "the demo's match is recorded like any other"."""

from __future__ import annotations

import errno
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.commands.main import main
from companion.live.api import Link
from companion.matchlog import IllegalMove, MatchStore, Resolution, Result
from firmware_bridge.colors import Color
from tests.memo import remembered

NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")


@pytest.fixture(scope="module", autouse=True)
def _calibrated_once() -> Iterator[None]:
    """Four tests here play the demo, each calibrating from the same rendered start position
    (a good part of a demo's time) and planning the same sample layout: the first answer for
    exactly those inputs is kept and copied, as in test_referee. The match itself, vision
    and refereeing included, is played afresh every time."""
    import calibration.profile
    import vision.detect

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(calibration.profile, "calibrate", remembered(calibration.profile.calibrate))
        patch.setattr(vision.detect, "sample_layout", remembered(vision.detect.sample_layout))
        yield


def test_headless_demo_flags_the_illegal_move_ends_in_a_win_and_is_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "demo.sqlite3"
    assert main(["demo", "--headless", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    illegal = [ln for ln in lines if "ILLEGAL" in ln]
    assert len(illegal) == 1, out
    assert "north Pole h4 to h1: a Pole walks one or two spaces, this is 3" in illegal[0]
    assert illegal[0].endswith("— light h4, h1 red")
    assert any("PUT-RIGHT" in ln for ln in lines)  # ... and corrected
    assert "south: Pe6-e8 [markers left: Pole 1, Port 2] — light e6 dim green; e8 green" in out
    assert "nothing moved this turn — lights off" in out  # the try put back
    assert "Vb5se-f5ne>e8" in out  # the Pole Vault
    for by in ("End turn on the tablet", "the opponent starting to move", "the board's button"):
        assert f"committed by {by}" in out
    assert any("WIN       south wins" in ln for ln in lines)
    assert "shows: light f8, e8, d8, c8 green" in out  # the LED board itself, after the win
    with MatchStore(db) as store:
        (summary,) = store.list_matches()
        match = store.get_match(summary.id)
    assert match.result is Result.SOUTH and len(match.turns) == 3
    assert [t.moves for t in match.turns][1:] == [("Ph4-h2", "Pe8-f7"), ("Pe6-e8",)]
    warnings = [e.data for e in match.events if isinstance(e.data, IllegalMove)]
    assert [(w.squares, w.resolution) for w in warnings] == [(("h4", "h1"),
                                                               Resolution.PUT_RIGHT)]


def test_without_a_display_the_plain_command_says_so_and_runs_headless(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Also: the default match store cannot be made, so the demo says so and plays on."""
    for name in NO_DISPLAY:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/proc/no-such-dir")
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "no display found: running headless"
    assert "playing without recording" in out
    assert "south wins with all four Poles" in out
    assert out.rstrip().endswith("the match was not recorded")


def test_with_a_display_the_app_is_given_the_session(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The app's entry points as issue 5's app exposes them; the match plays unpaced with
    --fast, recorded in the default store ($COMPANION_DB)."""
    seen: dict[str, Any] = {}

    def run_app(session: Any) -> None:
        seen["won"] = session.wait_until(lambda s: s.winner is not None, timeout=120)
        seen["links"] = session.links
        session.close()

    app = types.ModuleType("companion.app")
    app.display_available = lambda: True  # type: ignore[attr-defined]
    app.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.app", app)
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "default.sqlite3"))
    assert main(["demo", "--fast"]) == 0
    assert seen["won"]
    assert (seen["links"].camera, seen["links"].board) == (Link.SIMULATED, Link.SIMULATED)
    assert "ILLEGAL" not in capsys.readouterr().out  # the app shows it, not the terminal
    with MatchStore(tmp_path / "default.sqlite3") as store:
        assert [m.result for m in store.list_matches()] == [Result.SOUTH]


def test_an_unusable_db_option_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--headless", "--db", "/proc/no-such-dir/m.sqlite3"]) == 2
    assert "cannot open the match store /proc/no-such-dir/m.sqlite3" in capsys.readouterr().err


def test_without_a_pseudo_terminal_the_demo_uses_an_in_process_board(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.sim.demo import virtual_board
    from firmware_bridge.virtual_device import VirtualDevice

    def no_pty(self: VirtualDevice) -> str:
        raise OSError(errno.ENOENT, "out of pseudo-terminals")

    monkeypatch.setattr(VirtualDevice, "start", no_pty)
    said: list[str] = []
    board = virtual_board(said.append)
    assert said == ["no pseudo-terminal for the virtual board (out of pseudo-terminals): "
                    "using an in-process one"]
    board.link.show({"e4": Color.RED})
    assert board.leds() == {"e4": Color.RED}
    board.stop()


def test_when_vision_is_unsure_the_players_hold_still_until_it_has_looked_again() -> None:
    """'Vision is imperfect': the first readings of the moved board come back unsure; the
    demo's players keep the board still (new exposures) until the referee has judged it."""
    from dataclasses import replace

    from companion.live.board import RecordingBoard
    from companion.live.session import Session
    from companion.live.sighting import Vision
    from companion.referee import TurnCommitted, Uncertain
    from companion.sim.demo import DemoTable, Step, calibrate_table
    from vision.gate import GateState

    class Unsure(Vision):
        """The real detector and gate, unsure of e8 the first three times it sees it still."""

        doubts = 3

        def see(self, image: Any, t: float) -> Any:
            s = super().see(image, t)
            if (s.state is GateState.STILL and s.reading is not None
                    and s.reading["poles"].get("e8") == "south" and self.doubts):
                self.doubts -= 1
                return replace(s, confidences={**(s.confidences or {}), "e8": 0.2})
            return s

    vision = Unsure(calibrate_table().detector())
    script = (Step("move", "Pe6-e8"), Step("end-turn"))
    table = DemoTable(script=script)
    session = Session(vision=vision, source=table, board=RecordingBoard(),
                      start=table.start)
    table.bind(session)
    events: list[Any] = []
    session.on_update(lambda u: events.extend(u.events))
    session.run()
    assert [e.squares for e in events if isinstance(e, Uncertain)] == [("e8",)]
    assert vision.doubts == 0
    (commit,) = [e for e in events if isinstance(e, TurnCommitted)]
    assert [m.notation() for m in commit.moves] == ["Pe6-e8"]


def test_sigterm_stops_the_demo_with_what_it_recorded(tmp_path: Path) -> None:
    """Issue 18, "a signal test for every long-running command": `companion demo` stopped
    with SIGTERM part-way ends through its cleanup: exit 130, "stopped", no traceback, the
    match log closed and readable with the turns committed so far."""
    import os
    import signal
    import subprocess
    import sys

    from companion.matchlog import MatchStore

    root = Path(__file__).resolve().parents[3]
    db = tmp_path / "m.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--headless", "--db", str(db)], cwd=root,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root), "TMPDIR": str(tmp_path)})
    assert proc.stdout is not None
    for line in proc.stdout:  # wait for the first committed turn
        if "COMMIT" in line:
            break
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped" in out and "Traceback" not in err
    with MatchStore(db) as store:
        (match,) = store.list_matches()
        assert match.turns >= 1
    assert list(tmp_path.glob("companion-board-*")) == []
