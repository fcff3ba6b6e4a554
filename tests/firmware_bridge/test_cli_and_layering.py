"""Issue 4: `companion bridge test --port PORT` (exit 2 and one line on a bad port) and
`bridge simulate`; the bridge's diffing; firmware_bridge imports only stdlib, pyserial and
cobs (issue 21: the framing's COBS is the package's)."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.bridge import _Picture, next_command
from firmware_bridge.cli import register
from firmware_bridge.protocol import (
    Brightness,
    DieMode,
    SetDieMode,
    SetLeds,
    SetPalette,
    SetRange,
)
from firmware_bridge.virtual_device import VirtualDevice

ROOT = Path(__file__).resolve().parents[2]


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_bridge_test_on_a_missing_port_exits_2_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["bridge", "test", "--port", "/dev/ttyNOPE7"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/ttyNOPE7" in err and "Traceback" not in err


def test_bridge_test_on_a_port_that_is_not_a_board_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_tty = tmp_path / "plain-file"
    not_a_tty.write_text("x")
    assert run_cli(["bridge", "test", "--port", str(not_a_tty)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bridge_test_runs_the_pattern_on_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    with VirtualDevice(seed=3) as dev:
        assert run_cli(["bridge", "test", "--port", dev.port, "--step", "0"]) == 0
        out = capsys.readouterr().out
        assert "firmware 1.1" in out and "all red" in out and "test pattern done" in out
        assert dev.state().colors[:71] == (0,) * 71


def _simulate(seed: int) -> subprocess.Popen[str]:
    """`bridge simulate --seed SEED` in its own process, stdin, stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-c", "import argparse,sys;from firmware_bridge.cli import register;"
         "p=argparse.ArgumentParser();register(p.add_subparsers());a=p.parse_args(sys.argv[1:]);"
         "sys.exit(a.func(a))", "bridge", "simulate", "--seed", str(seed)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def test_bridge_simulate_prints_its_port_and_stops_on_ctrl_c() -> None:
    proc = _simulate(1)
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert Path(port).exists()
        time.sleep(0.2)
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        assert proc.wait(timeout=30) == 0  # generous: CI machines are shared and slow
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        proc.kill()


def _want(n: int = 8) -> _Picture:
    p = _Picture.unknown(n)
    p.palette = [(0, 0, 0)] * 16
    p.colors, p.effects = [0] * n, [0] * n
    p.periods = {k: 50 for k in p.periods}
    p.brightness, p.die_mode = 64, DieMode.OFF
    return p


def test_next_command_sends_palette_die_mode_brightness_then_colours() -> None:
    want, have = _want(), _Picture.unknown(8)
    assert isinstance(next_command(want, have, 6), SetPalette)
    have.palette = list(want.palette)
    assert next_command(want, have, 6) == SetDieMode(DieMode.OFF)
    have.die_mode = DieMode.OFF
    assert next_command(want, have, 6) == Brightness(64)
    have.brightness = 64
    assert next_command(want, have, 6) == SetRange(0, (0,) * 8)   # unknown: all of them
    have.colors = [0] * 8
    want.colors[3] = 2
    assert next_command(want, have, 6) == SetLeds(((3, 2),))      # a few: by index


FORBIDDEN = {"companion", "vision", "calibration", "kivy", "cv2", "numpy"}


def test_firmware_bridge_imports_only_stdlib_pyserial_and_cobs() -> None:
    for path in (ROOT / "firmware_bridge").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path}: imports {name}"
                assert top in sys.stdlib_module_names | {"serial", "cobs", "firmware_bridge"}, \
                    name


def test_port_auto_detection_prefers_arduino_ids_and_an_explicit_port_wins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from firmware_bridge import ports
    from firmware_bridge.errors import BridgeError

    fake = [SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None),
            SimpleNamespace(device="/dev/ttyUSB0", vid=0x1A86, pid=0x7523),
            SimpleNamespace(device="/dev/ttyACM0", vid=0x2341, pid=0x0043)]
    monkeypatch.setattr(ports.list_ports, "comports", lambda: fake)
    assert ports.find_port() == "/dev/ttyACM0"
    assert ports.find_port("/dev/ttyUSB7") == "/dev/ttyUSB7"
    monkeypatch.setattr(ports.list_ports, "comports", lambda: fake[:1])
    with pytest.raises(BridgeError, match="--port"):
        ports.find_port()


def test_missing_toolchain_is_a_skip_reason_not_a_crash(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    from firmware_bridge import simavr

    monkeypatch.setattr(simavr.shutil, "which", lambda name: None)
    with pytest.raises(simavr.ToolchainMissing, match="avr-gcc"):
        simavr.build("all", tmp_path)


def test_bridge_simulate_presses_its_button_on_enter() -> None:
    """`companion bridge simulate`: "press Enter to roll/press" (each Enter is one press, one
    event the host sees), and Ctrl-C still stops it while stdin is being read."""
    from firmware_bridge import Bridge, DieMode

    proc = _simulate(2)
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        with Bridge.open(port) as bridge:
            bridge.die_mode(DieMode.D8)
            assert bridge.sync()
            proc.stdin.write("\n\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            rolls = list(bridge.die_rolls(timeout=5.0))
            deadline = time.monotonic() + 10
            while len(rolls) < 2 and time.monotonic() < deadline:
                rolls += list(bridge.die_rolls(timeout=1.0))
        assert len(rolls) == 2 and all(r.sides == 8 for r in rolls)
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        proc.kill()
