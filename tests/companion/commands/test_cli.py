"""The ``companion`` command line: setup and judge, exit codes 0 legal / 1 illegal / 2 bad."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.commands.main import main
from companion.rules.teleporters import Position, parse_move, play
from tests.memo import remembered


def write(tmp_path: Path, name: str, content: str) -> str:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return str(path)


def test_setup_prints_start_position_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "--game", "teleporters"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert Position.from_json(doc) == Position.start()


def test_setup_with_variant_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "--variant", "send_marker=either", "--text", "--first", "north"]) == 0
    pos = Position.from_text(capsys.readouterr().out)
    assert pos.variant.send_marker.value == "either" and pos.to_move.value == "north"


def test_setup_bad_variant_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "--variant", "wrap_rows=sideways"]) == 2
    assert "sideways" in capsys.readouterr().err


def test_judge_legal_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = Position.start()
    now, _ = play(start, parse_move("Pd1-d3"))
    a = write(tmp_path, "start.json", start.to_json_text())
    b = write(tmp_path, "now.txt", now.to_text())  # text notation is accepted too
    assert main(["judge", "--game", "teleporters", a, b]) == 0
    assert "Pd1-d3" in capsys.readouterr().out
    assert main(["judge", a, b, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is True and doc["moves"] == ["Pd1-d3"]
    assert doc["markers"] == {"pole_used": 1, "port_used": 0}


def test_judge_illegal_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = Position.start()
    now = Position.from_text("2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/3P4/2[SW]2[SE]2/1[SW]4[SE]1/"
                             "2PP1P2 south")
    a = write(tmp_path, "start.json", start.to_json_text())
    b = write(tmp_path, "now.json", now.to_json_text())
    assert main(["judge", a, b, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False
    assert doc["reason"]["rule"] == "walk-one-or-two-spaces"
    assert set(doc["squares"]) == {"e1", "d4"}


@pytest.mark.parametrize("content, words", [
    ("{broken", "not valid JSON"),
    ('{"poles": {"k1": "south"}}', "k1"),
    ("", "empty"),
])
def test_judge_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 content: str, words: str) -> None:
    a = write(tmp_path, "start.json", Position.start().to_json_text())
    b = write(tmp_path, "bad.json", content)
    assert main(["judge", a, b]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_judge_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path, "start.json", Position.start().to_json_text())
    assert main(["judge", a, str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


def test_console_script_runs_as_module() -> None:
    """``python -m companion`` is the same program as the ``companion`` script."""
    out = subprocess.run([sys.executable, "-m", "companion", "setup", "--text"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("2pppp2/")


def test_mat_writes_a_printable_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    """Issue 3: `companion mat --out mat.png` draws the mat at print resolution."""
    out = tmp_path / "mat.png"
    assert main(["mat", "--out", str(out), "--paper", "A2", "--dpi", "100"]) == 0
    assert out.stat().st_size > 1000 and "A2 at 100 dpi" in capsys.readouterr().out


def test_mat_bad_output_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mat", "--out", str(tmp_path / "mat.doc")]) == 2
    assert "mat.doc" in capsys.readouterr().err
    assert main(["mat", "--out", str(tmp_path / "mat.png"), "--dpi", "5"]) == 2


def test_calibrate_then_detect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 3: `companion calibrate --image start.png --out profile.json` then `companion
    detect --profile profile.json IMAGE... [--json]`; bad images exit 2 with a message."""
    import cv2

    from vision.simtable import CameraPose, Scene, render

    scene = Scene(pose=CameraPose(tilt_deg=15), seed=4)
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(Position.start().to_json(), scene).image)
    later, _ = play(Position.start(), parse_move("Pd1-d3"))
    now = tmp_path / "now.png"
    cv2.imwrite(str(now), render(later.to_json(), scene.with_(seed=5)).image)
    profile = tmp_path / "profile.json"
    assert main(["calibrate", "--image", str(start), "--out", str(profile)]) == 0
    capsys.readouterr()
    assert main(["detect", "--profile", str(profile), str(now), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["path"] == str(now) and doc["status"] == "ok" and len(doc["confidence"]) == 64
    assert Position.from_json(doc["position"]).same_board(later)
    from vision.simtable import Hand

    hand = tmp_path / "hand.png"
    cv2.imwrite(str(hand), render(later.to_json(), scene.with_(seed=6),
                                  Hand(reach=(4, 3))).image)
    assert main(["detect", "--profile", str(profile), str(hand), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"path": str(hand), "status": "occluded"}
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    assert main(["detect", "--profile", str(profile), str(junk)]) == 2
    assert "junk.png" in capsys.readouterr().err
    assert main(["calibrate", "--image", str(junk), "--out", str(profile)]) == 2
    assert main(["detect", "--profile", str(tmp_path / "none.json"), str(now)]) == 2


def test_portals_setup_and_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: `companion setup/judge --game portals` (the rules core's own JSON and
    explain), exit 0 legal, 1 illegal, 2 bad input; the die roll is an input."""
    from companion.rules.portals import Position as PortalsPosition
    from companion.rules.portals import legal_moves as portals_moves
    from companion.rules.portals import play as portals_play

    assert main(["setup", "--game", "portals"]) == 0
    start = PortalsPosition.from_json(json.loads(capsys.readouterr().out))
    assert start == PortalsPosition.start()
    moved = portals_play(start, portals_moves(start)[0])
    a = write(tmp_path, "a.json", json.dumps(start.to_json()))
    b = write(tmp_path, "b.json", json.dumps(moved.to_json()))
    assert main(["judge", "--game", "portals", a, b]) == 0
    assert main(["judge", "--game", "portals", a, a]) == 1
    capsys.readouterr()
    bad = write(tmp_path, "bad.json", "{not json")
    assert main(["judge", "--game", "portals", a, bad]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert main(["setup", "--game", "portals", "--variant", "nonsense"]) == 2


def test_teleporters_judge_refuses_a_roll(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Teleporters has no die: a --roll is bad input, said plainly."""
    a = write(tmp_path, "a.json", json.dumps(Position.start().to_json()))
    assert main(["judge", a, a, "--roll", "3"]) == 2
    assert "no die" in capsys.readouterr().err


def test_telic_judge_takes_the_die_face(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: `companion judge --game telic --roll FACE`: the roll is an input; a legal
    entry of the rolled face's tile is legal, the board left as it was is not."""
    from companion.rules.telic import Face
    from companion.rules.telic import Position as TelicPosition
    from companion.rules.telic import legal_moves as telic_moves
    from companion.rules.telic import play as telic_play

    start = TelicPosition.start()
    entered = telic_play(start, telic_moves(start, Face.THREE)[0], Face.THREE)
    a = write(tmp_path, "a.json", json.dumps(start.to_json()))
    b = write(tmp_path, "b.json", json.dumps(entered.to_json()))
    assert main(["judge", "--game", "telic", a, b, "--roll", "3"]) == 0
    assert main(["judge", "--game", "telic", a, a, "--roll", "3"]) == 1
    capsys.readouterr()
    assert main(["judge", "--game", "telic", a, b, "--roll", "9"]) == 2
    assert "die face" in capsys.readouterr().err


def test_portal_hex_setup_and_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: `companion setup --game portal-hex [--players N]` and `companion judge --game
    portal-hex START NOW [--roll N]`: 2-6 players, START platforms equidistant from CENTRUM;
    a NOW that breaks a building rule is still read, so the rule can be named."""
    from companion.rules.portal_hex import Position as HexPosition
    from companion.rules.portal_hex import parse_move as hex_move
    from companion.rules.portal_hex import play as hex_play

    assert main(["setup", "--game", "portal-hex", "--players", "4"]) == 0
    four = HexPosition.from_json(json.loads(capsys.readouterr().out))
    assert len(four.variant.colours) == 4 and four.to_move.value == "red"
    assert main(["setup", "--game", "portal-hex", "--first", "blue"]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == "blue"
    assert main(["setup", "--game", "portal-hex", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err
    assert main(["setup", "--game", "portal-hex", "--first", "green"]) == 2
    assert "red, blue" in capsys.readouterr().err
    assert main(["setup", "--game", "teleporters", "--players", "3"]) == 2
    capsys.readouterr()

    start = HexPosition.start()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(start.to_json()))
    b.write_text(json.dumps(hex_play(start, hex_move("start")).to_json()))
    assert main(["judge", "--game", "portal-hex", str(a), str(b)]) == 0
    assert "legal: start" in capsys.readouterr().out
    # A portal joined straight to a portal: read, and named.
    bad = start.to_json()
    bad["cells"] = {"1,0": "portal", "2,0": "portal"}
    bad["arrows"] = [["1,0", "2,0"]]
    c = tmp_path / "c.json"
    c.write_text(json.dumps(bad))
    assert main(["judge", "--game", "portal-hex", str(a), str(c), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["legal"] is False
    assert main(["judge", "--game", "portal-hex", str(a), str(b), "--roll", "9"]) == 2
    assert "1-8" in capsys.readouterr().err


def test_portals_and_telic_text_notation_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: each game's position has a text notation: `setup --text` prints it and
    `judge` reads it as well as JSON."""
    from companion.rules.portals import Position as PortalsPosition
    from companion.rules.portals import legal_moves as portals_moves
    from companion.rules.portals import play as portals_play

    assert main(["setup", "--game", "portals", "--text"]) == 0
    text = capsys.readouterr().out.strip()
    start = PortalsPosition.from_text(text)
    assert start == PortalsPosition.start()
    a, b = tmp_path / "a.txt", tmp_path / "b.json"
    a.write_text(text + "\n")
    b.write_text(json.dumps(portals_play(start, portals_moves(start)[0]).to_json()))
    assert main(["judge", "--game", "portals", str(a), str(b)]) == 0
    assert capsys.readouterr().out.startswith("legal: ")
    assert main(["setup", "--game", "telic", "--text"]) == 0
    assert capsys.readouterr().out.strip() == "- blue first"
    a.write_text("nonsense here")
    assert main(["judge", "--game", "portals", str(a), str(b)]) == 2
    assert str(a) in capsys.readouterr().err


def test_portal_hex_judge_reads_a_rule_breaking_text_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: NOW in the text notation is read leniently too, so the broken building rule
    is named (exit 1), not refused as bad input."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert main(["setup", "--game", "portal-hex", "--text"]) == 0
    a.write_text(capsys.readouterr().out)
    b.write_text("red | platforms 1,0 | -\n")
    assert main(["judge", "--game", "portal-hex", str(a), str(b)]) == 1
    assert "joined to no portal" in capsys.readouterr().out


# --- issue 16: calibrating with a photo of the empty mat -------------------------------------

@pytest.fixture(scope="module", autouse=True)
def _calibrated_once() -> Iterator[None]:
    """Two tests here calibrate from the same start and empty-mat photos (through --image and
    --empty, and through --camera --with-empty): the first answer for exactly those inputs
    is kept and copied, as in test_referee. What the commands say and write is afresh."""
    import calibration.profile
    import vision.detect

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(calibration.profile, "calibrate", remembered(calibration.profile.calibrate))
        patch.setattr(vision.detect, "sample_layout", remembered(vision.detect.sample_layout))
        yield


EMPTY_MAT = {"game": "teleporters", "to_move": "south", "poles": {}, "ports": []}


@pytest.fixture(scope="module")
def table_photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The empty mat, the start position and the board after Pd1-d3, one 640x360 camera."""
    import cv2

    from vision.simtable import CameraPose, Scene, render

    scene = Scene(pose=CameraPose(tilt_deg=15, width=640, height=360), seed=4)
    later, _ = play(Position.start(), parse_move("Pd1-d3"))
    where = tmp_path_factory.mktemp("photos")
    out = {}
    for name, doc, seed in (("empty", EMPTY_MAT, 3), ("start", Position.start().to_json(), 4),
                            ("now", later.to_json(), 5)):
        out[name] = str(where / f"{name}.png")
        cv2.imwrite(out[name], render(doc, scene.with_(seed=seed)).image)
    out["moved"] = str(where / "moved.png")  # the camera bumped between the two shots
    cv2.imwrite(out["moved"], render(EMPTY_MAT, scene.with_(
        pose=CameraPose(tilt_deg=25, azimuth_deg=40, width=640, height=360), seed=3)).image)
    small = cv2.resize(cv2.imread(out["empty"]), (320, 180))
    out["small"] = str(where / "small.png")
    cv2.imwrite(out["small"], small)
    return out


def test_calibrate_with_an_empty_mat_photo_then_detect(
        table_photos: dict[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: `calibrate --image START --empty EMPTY --out P` learns the table from the
    empty-mat photo too, and `detect --profile P` reads positions with it."""
    profile = tmp_path / "profile.json"
    assert main(["calibrate", "--image", table_photos["start"], "--empty",
                 table_photos["empty"], "--out", str(profile)]) == 0
    assert "the empty mat learned from its photo" in capsys.readouterr().out
    assert main(["detect", "--profile", str(profile), table_photos["now"], "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    later, _ = play(Position.start(), parse_move("Pd1-d3"))
    assert doc["status"] == "ok" and Position.from_json(doc["position"]).same_board(later)


def test_calibrate_refuses_an_empty_photo_it_cannot_use(
        table_photos: dict[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: an empty-mat photo of another size, or one that cannot be read, is bad
    input: exit 2 and one line naming the file; nothing is written."""
    profile = tmp_path / "profile.json"
    base = ["calibrate", "--image", table_photos["start"], "--out", str(profile)]
    assert main([*base, "--empty", table_photos["small"]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"the empty-mat photo {table_photos['small']} is 320x180 but the start photo" in err
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    assert main([*base, "--empty", str(junk)]) == 2
    assert "junk.png: not an image" in capsys.readouterr().err
    assert main([*base, "--empty", str(tmp_path / "none.png")]) == 2
    assert "none.png: no such image" in capsys.readouterr().err
    assert main([*base, "--empty", table_photos["moved"]]) == 2  # calibration says why
    err = capsys.readouterr().err
    assert err.startswith("companion calibrate: ") and err.count("\n") == 1
    assert main([*base, "--with-empty"]) == 2
    assert "--with-empty takes both photos from --camera N" in capsys.readouterr().err
    assert not profile.exists()


class _FakeCamera:
    """A ``CameraSource`` stand-in: shows whatever is on the (simulated) mat now."""

    def __init__(self, index: int, table: dict[str, Any]) -> None:
        self.table = table
        table["opened"] = index

    def read(self) -> Any:
        from vision.sources import Frame

        return Frame(self.table["images"][self.table["phase"]], 0.0, 0)

    def close(self) -> None:
        self.table["closed"] = True


class _Terminal(io.StringIO):
    """A terminal on stdin: each Enter changes what is on the mat (the user did the task)."""

    def __init__(self, table: dict[str, Any]) -> None:
        super().__init__()
        self.table = table

    def isatty(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:
        self.table["phase"] += 1
        return "\n"


def test_calibrate_camera_with_empty_prompts_for_both_shots(
        table_photos: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: `calibrate --camera N --with-empty` asks to clear the mat, grabs the empty
    shot, asks to set up the start position, grabs that, and calibrates with both."""
    import cv2

    import vision.sources

    # phase 0: whatever was there; 1: after "clear the mat"; 2: after "set up".
    table: dict[str, Any] = {"phase": 0, "images": [
        cv2.imread(table_photos["now"]), cv2.imread(table_photos["empty"]),
        cv2.imread(table_photos["start"])]}
    monkeypatch.setattr(vision.sources, "CameraSource",
                        lambda i, opener: _FakeCamera(i, table))
    monkeypatch.setattr(sys, "stdin", _Terminal(table))
    profile = tmp_path / "profile.json"
    assert main(["calibrate", "--camera", "1", "--with-empty", "--out", str(profile)]) == 0
    out, err = capsys.readouterr()
    assert err.index("clear the mat, then press Enter") < err.index(
        "set up the start position, then press Enter")
    assert table["opened"] == 1 and table["closed"] and table["phase"] == 2
    assert "the empty mat learned from its photo" in out and profile.exists()


def test_calibrate_camera_with_empty_needs_a_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: with no terminal on stdin, `calibrate --camera N --with-empty` cannot ask
    anyone to clear the mat: exit 2 at once, one line, the camera never opened."""
    import vision.sources

    def no_camera(index: int, opener: object) -> None:
        raise AssertionError("the camera must not be opened")

    monkeypatch.setattr(vision.sources, "CameraSource", no_camera)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["calibrate", "--camera", "0", "--with-empty", "--out",
                 str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err and "--image START --empty" in err


@pytest.mark.parametrize("error", ["user", "rules", "vision", "matchlog"])
def test_every_package_error_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: str) -> None:
    """Issue 17/18: one way to fail: bad input reaches the user as one line naming it, exit
    2, whichever package found it (one UserError for the commands, the packages' own
    ValueError subclasses), never a traceback."""
    import companion.commands.mat as mat_command
    from companion.errors import UserError
    from companion.matchlog import MatchLogError
    from companion.rules import RulesError
    from vision.errors import VisionError

    kinds = {"user": UserError, "rules": RulesError, "vision": VisionError,
             "matchlog": MatchLogError}

    def fails(args: object) -> int:
        raise kinds[error]("the value 'x7' is wrong: say what to do")

    monkeypatch.setattr(mat_command, "_cmd_mat", fails)
    assert main(["mat", "--out", "unused.png"]) == 2
    err = capsys.readouterr().err
    assert err == "companion mat: the value 'x7' is wrong: say what to do\n"


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_calibrate_never_replaces_a_link_or_fifo_given_as_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], table_photos: dict[str, str],
        kind: str) -> None:
    """Issue 18, data loss: `calibrate --out PATH` wrote through a temp file and a rename, so a
    symbolic link or a FIFO at PATH was replaced by a regular file. Outputs are new paths or
    regular files; anything else is refused with exit 2, naming it, and left as it was."""
    import os
    import stat

    out = tmp_path / "profile.json"
    target = tmp_path / "kept.json"
    if kind == "symlink":
        target.write_text("the user's file", encoding="utf-8")
        out.symlink_to(target)
    else:
        os.mkfifo(out)
    with pytest.raises(SystemExit) as done:  # argparse's usage line, then the error
        main(["calibrate", "--image", table_photos["start"], "--out", str(out)])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"argument --out: {out}" in err
    assert ("symbolic link" in err) if kind == "symlink" else ("FIFO" in err)
    mode = os.lstat(out).st_mode
    assert stat.S_ISLNK(mode) if kind == "symlink" else stat.S_ISFIFO(mode)
    if kind == "symlink":
        assert target.read_text(encoding="utf-8") == "the user's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["profile.json"] + (["kept.json"] if kind == "symlink" else []))


@pytest.mark.parametrize("args", [
    ["mat", "--out", "/dev/null"],
    ["calibrate", "camera", "--print-sheet", "/dev/null"],
    ["matches", "export", "1", "--out", "/dev/null"],
    ["clip", "--out", "/dev/null"],
])
def test_outputs_refuse_a_device(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: "Write only to regular files or new paths": a device is refused before
    anything is done (writing a profile there would have replaced /dev/null itself)."""
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "/dev/null is a device" in err


def test_sigterm_ends_a_long_running_command_through_its_cleanup(tmp_path: Path) -> None:
    """Issue 18, "Clean temp folders on every exit, including signals": `companion bridge
    simulate` killed with SIGTERM (as a service manager stops it) leaves no companion-board-*
    folder behind (Python's default SIGTERM skipped every cleanup), and no traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "bridge", "simulate", "--seed", "3"], cwd=root,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(root)})
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert Path(port).exists() and str(tmp_path) in port
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)  # generous: CI machines are shared and slow
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
        assert list(tmp_path.glob("companion-board-*")) == []
    finally:
        proc.kill()


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_error_is_one_line_unless_debug(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        debug: bool) -> None:
    """Issue 18: "No Python traceback reaches the user unless --debug is given": a bug
    (here a ZeroDivisionError in a command) is one line naming it and asking for a report,
    exit 1; with --debug its traceback is shown."""
    import companion.commands.mat as mat_command

    def buggy(args: object) -> int:
        return 1 // 0

    monkeypatch.setattr(mat_command, "_cmd_mat", buggy)
    argv = [*(["--debug"] if debug else []), "mat", "--out", "unused.png"]
    if debug:
        with pytest.raises(ZeroDivisionError):
            main(argv)
        return
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ZeroDivisionError" in err and "--debug" in err
