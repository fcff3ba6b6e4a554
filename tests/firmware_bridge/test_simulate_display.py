"""Issue 21: `bridge simulate` shows the board's LEDs in the terminal and prints each roll.

The drawing is a pure function of the board's state (table-tested here); the virtual board
reports its changes through an observer hook; a real `bridge simulate` run with its output
piped prints one plain line per change and one line per roll.
"""

from __future__ import annotations

import argparse
import queue
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge import Bridge
from firmware_bridge.cli import register
from firmware_bridge.colors import Color
from firmware_bridge.device import DeviceCore, LedState
from firmware_bridge.layout import LedLayout, Rotation
from firmware_bridge.protocol import DieMode, Effect, Event, EventKind
from firmware_bridge.terminal import Screen, draw_board, plain_line
from firmware_bridge.virtual_device import VirtualDevice
from tests.firmware_bridge.conftest import FAST, simulate_bridge, wait_for

ROOT = Path(__file__).resolve().parents[2]
GRID = LedLayout.grid()
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def board(lit: dict[str, Color], effects: dict[str, Effect] | None = None,
          layout: LedLayout = GRID, palette: dict[int, tuple[int, int, int]] | None = None
          ) -> LedState:
    """The state of a board the host has said hello to, with ``lit`` LEDs by name."""
    core = DeviceCore(boot_id=1)
    core.led_count, core.status_base = layout.led_count, layout.status_base
    for name, color in lit.items():
        core.colors[layout.index_of(name)] = color.value
    for name, effect in (effects or {}).items():
        core.effects[layout.index_of(name)] = int(effect)
    for i, rgb in (palette or {}).items():
        core.palette[i] = rgb
    return core.state()


@pytest.mark.parametrize(("lit", "effects", "palette", "line"), [
    ({}, {}, {}, "leds: none"),
    ({"h8": Color.RED, "a1": Color.GREEN}, {}, {}, "leds: a1 green, h8 red"),
    # board order (rank by rank from a1), not strip order (serpentine: h2 comes before a2)
    ({"a2": Color.BLUE, "h2": Color.WHITE}, {}, {}, "leds: a2 blue, h2 white"),
    ({"c3": Color.BLUE, "turn_1": Color.AMBER}, {"c3": Effect.BLINK}, {},
     "leds: c3 blue (blink), turn_1 amber"),
    ({"d4": Color.PINK}, {"d4": Effect.PULSE}, {}, "leds: d4 pink (pulse)"),
    # a palette entry the host changed is named by its colour, not the boot name
    ({"e5": Color.RED}, {}, {2: (1, 2, 255)}, "leds: e5 #0102ff"),
    # an entry set to black is dark, whatever its index
    ({"e5": Color.RED}, {}, {2: (0, 0, 0)}, "leds: none"),
])
def test_plain_line_names_each_lit_space_and_colour(
        lit: dict[str, Color], effects: dict[str, Effect],
        palette: dict[int, tuple[int, int, int]], line: str) -> None:
    """Issue 21: off a terminal, one plain line a change names the lit spaces and colours."""
    assert plain_line(board(lit, effects, palette=palette), GRID) == line


def test_plain_line_before_the_hosts_hello_is_dark() -> None:
    """Issue 21: LEDs past the count the host announced (all, before HELLO) are not lit."""
    core = DeviceCore(boot_id=1)
    core.colors[0] = Color.RED.value
    assert plain_line(core.state(), GRID) == "leds: none"


def _cells(drawing: str) -> list[list[str]]:
    """The drawing's rows of raw cells (SGR codes + 2 characters), labels cut off."""
    rows = []
    for line in drawing.splitlines()[:8]:
        body = line[2:]
        rows.append(re.findall(r"(?:\x1b\[[0-9;]*m)+[^\x1b]{2}\x1b\[0m", body))
    return rows


@pytest.mark.parametrize(("space", "row", "col"), [
    ("a1", 7, 0), ("h1", 7, 7), ("a8", 0, 0), ("h8", 0, 7), ("c2", 6, 2), ("f7", 1, 5),
])
def test_draw_board_puts_rank_8_on_top_and_a1_bottom_left(space: str, row: int,
                                                           col: int) -> None:
    """Issue 21: the board is drawn as the rule book's, a1 bottom-left, rank 8 at the top."""
    cells = _cells(draw_board(board({space: Color.GREEN}), GRID))
    assert [len(r) for r in cells] == [8] * 8
    green = [(r, c) for r, cs in enumerate(cells) for c, cell in enumerate(cs)
             if "48;2;0;255;0m" in cell]
    assert green == [(row, col)]


@pytest.mark.parametrize(("color", "rgb"), [
    (Color.RED, "255;0;0"), (Color.AMBER, "255;120;0"), (Color.DIM_BLUE, "0;0;60"),
    (Color.PINK, "255;80;160"),
])
def test_draw_board_uses_24_bit_palette_colours(color: Color, rgb: str) -> None:
    """Issue 21: each lit space is a 24-bit background block in its palette colour."""
    assert f"\x1b[48;2;{rgb}m" in draw_board(board({"e4": color}), GRID)


def test_draw_board_labels_files_and_ranks_and_status_leds() -> None:
    """Issue 21: file letters under the board, rank numbers beside it, status LEDs after."""
    plain = ANSI.sub("", draw_board(board({}), GRID)).splitlines()
    assert [line[:2] for line in plain[:8]] == [f"{r} " for r in range(8, 0, -1)]
    assert plain[8] == "  a b c d e f g h"
    assert " ".join(plain[9:]).split() == [
        "turn_1", "··", "turn_2", "··", "vision", "··", "marker_1", "··", "marker_2", "··",
        "marker_3", "··", "marker_4", "··"]
    # no line an 80-column terminal would wrap: a wrapped line throws the redraw off
    assert len(plain) == 11 and max(len(line) for line in plain) <= 80


def test_draw_board_marks_blinking_and_pulsing_leds_in_their_on_colour() -> None:
    """Issue 21: a blinking LED shows its on colour with a marker (pulse another one)."""
    drawing = draw_board(board({"a1": Color.RED, "b1": Color.RED, "c1": Color.RED},
                               {"a1": Effect.BLINK, "b1": Effect.PULSE}), GRID)
    row1 = _cells(drawing)[7]
    assert [ANSI.sub("", c) for c in row1[:3]] == ["**", "~~", "  "]
    assert all("48;2;255;0;0m" in c for c in row1[:3])


def test_draw_board_of_a_rotated_layout_still_draws_by_space_name() -> None:
    """Issue 21: the strip's order does not change the picture: h8 is top right either way."""
    turned = LedLayout.grid(rotation=Rotation.R180)
    assert turned.spaces[0] == "h8"
    drawing = draw_board(board({"h8": Color.GREEN}, layout=turned), turned)
    assert "48;2;0;255;0m" in _cells(drawing)[0][7]


def test_draw_board_of_a_non_square_layout_lists_its_spaces() -> None:
    """Issue 21: spaces that are not square names (a hex mat's) are drawn on a line by name."""
    hexes = LedLayout(("centre", "ring_1"), ("turn",))
    drawing = draw_board(board({"centre": Color.RED}, layout=hexes), hexes)
    assert drawing.count("\n") == 0 and drawing.startswith("centre \x1b[48;2;255;0;0m")
    assert ANSI.sub("", drawing).split() == ["centre", "ring_1", "··", "turn", "··"]


def test_screen_redraws_in_place_with_log_lines_above() -> None:
    """Issue 21: on a terminal each change moves up over the last drawing and clears it."""
    text, screen = Screen().redraw("A\nB")
    assert text == "A\nB\n" and screen == Screen(2)
    text, screen = screen.redraw("C\nD\nE", ("die: d8 rolled 5",))
    assert text == "\x1b[2F\x1b[J" + "die: d8 rolled 5\nC\nD\nE\n" and screen == Screen(3)


def test_the_virtual_board_reports_changes_and_rolls_to_a_watcher(device: VirtualDevice
                                                                 ) -> None:
    """Issue 21: the virtual board's observer hook gets a snapshot after each applied change
    and each event, on the board's thread (queued here, as the CLI does)."""
    seen: queue.Queue[LedState | Event] = queue.Queue()
    device.watch(seen.put)
    with Bridge.open(device.port, timing=FAST) as bridge:
        assert bridge.wait_connected(3.0)
        bridge.show({"a1": Color.GREEN})
        bridge.die_mode(DieMode.D4)
        assert bridge.sync()
        device.press_button()
        assert wait_for(lambda: any(isinstance(x, Event) for x in list(seen.queue)))
    items = list(seen.queue)
    states = [x for x in items if isinstance(x, LedState)]
    assert any(plain_line(s, GRID) == "leds: a1 green" for s in states)
    event = next(x for x in items if isinstance(x, Event))
    assert event.kind is EventKind.ROLL and event.a == int(DieMode.D4)
    device.reset()   # a reboot goes dark, and the watcher is still told
    assert wait_for(lambda: plain_line(list(seen.queue)[-1], GRID) == "leds: none"
                    if isinstance(list(seen.queue)[-1], LedState) else False)


def test_bridge_simulate_piped_prints_a_line_per_change_and_per_roll() -> None:
    """Issue 21: `companion bridge simulate` with stdout not a terminal prints `leds: ...`
    after each change the host makes and `die: d8 rolled N` for each roll (no redrawing)."""
    proc = simulate_bridge("--seed", "5")
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        with Bridge.open(port) as bridge:
            assert bridge.wait_connected(5.0)
            bridge.show({"a1": Color.GREEN, "h8": Color.RED})
            bridge.die_mode(DieMode.D8)
            assert bridge.sync()
            proc.stdin.write("\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            roll = next(bridge.die_rolls(timeout=10.0))
            bridge.flash(["c3"], Color.BLUE)
            assert bridge.sync()
            time.sleep(0.3)   # the simulator prints from its own thread
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        assert proc.wait(timeout=30) == 0
        out = proc.stdout.read()  # type: ignore[union-attr]
        err = proc.stderr.read()  # type: ignore[union-attr]
        lines = out.splitlines()
        assert "Traceback" not in err and "\x1b[" not in out
        assert lines[0] == "leds: none"
        want = ["leds: a1 green, h8 red", f"die: d8 rolled {roll.value}",
                "leds: a1 green, c3 blue (blink), h8 red"]
        assert [ln for ln in lines if ln in want] == want
        assert len(lines) == len(set(lines))   # a change that shows nothing new is not printed
    finally:
        proc.kill()


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))


@pytest.mark.parametrize("content", [None, "{not json", '{"spaces": []}'])
def test_bridge_simulate_with_a_bad_layout_exits_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None) -> None:
    """Issue 21: a missing or bad --layout file is bad input: exit 2 and one clear line."""
    path = tmp_path / "layout.json"
    if content is not None:
        path.write_text(content)
    assert run_cli(["bridge", "simulate", "--layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion bridge: ")
    assert "Traceback" not in err


def test_bridge_simulate_on_a_terminal_redraws_the_board_in_place() -> None:
    """Issue 21: with stdout a terminal, `bridge simulate` draws the board in colour blocks
    and redraws it in place (cursor up, clear) at each change, the roll line above it."""
    import os
    import select

    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", "import argparse,sys;from firmware_bridge.cli import register;"
         "p=argparse.ArgumentParser();register(p.add_subparsers());a=p.parse_args(sys.argv[1:]);"
         "sys.exit(a.func(a))", "bridge", "simulate", "--seed", "5"],
        cwd=ROOT, stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    seen = b""

    def read_until(want: bytes, timeout: float = 10.0) -> bool:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while want not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                seen += os.read(master, 65536)
        return want in seen

    try:
        assert read_until(b"\n")
        port = seen.split(b"\r\n")[0].decode().strip()
        with Bridge.open(port) as bridge:
            assert bridge.wait_connected(5.0)
            bridge.show({"h8": Color.RED})
            bridge.die_mode(DieMode.D4)
            assert bridge.sync()
            assert read_until(b"\x1b[48;2;255;0;0m")
            os.write(master, b"\n")
            roll = next(bridge.die_rolls(timeout=10.0))
            assert read_until(f"die: d4 rolled {roll.value}".encode())
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        assert proc.wait(timeout=30) == 0
        text = seen.decode()
        lines = text.split("\x1b[11F\x1b[J")   # each redraw climbs the 11-line drawing
        assert len(lines) >= 3
        top = ANSI.sub("", lines[-1]).splitlines()
        assert top[0] == f"die: d4 rolled {roll.value}" and top[1].startswith("8 ")
        assert "leds:" not in text and "Traceback" not in proc.stderr.read().decode()  # type: ignore[union-attr]
    finally:
        proc.kill()
        os.close(master)
