"""``companion bridge ...``: the LED test pattern on a real board, and the virtual board.

The companion CLI calls :func:`register`; handlers return exit codes (0 ok, 1 the board failed
during the test, 2 bad input such as a missing port) and report user errors in one line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from firmware_bridge.bridge import Bridge, DieRoll, LinkState
from firmware_bridge.device import LedState
from firmware_bridge.errors import BridgeError
from firmware_bridge.layout import LedLayout, test_pattern
from firmware_bridge.ports import find_port
from firmware_bridge.protocol import (
    MIN_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    DieMode,
    Event,
    EventKind,
    min_protocol_for,
)
from firmware_bridge.terminal import Screen, draw_board, plain_line

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def register(subparsers: argparse._SubParsersAction) -> None:
    bridge = subparsers.add_parser("bridge", help="the LED/die board on USB serial")
    sub = bridge.add_subparsers(dest="bridge_command", metavar="ACTION", required=True)
    test = sub.add_parser("test", help="light the LED test pattern on the board")
    test.add_argument("--port", help="serial port (default: find the board by USB id)")
    test.add_argument("--layout", metavar="JSON", help="LED layout file (default: 8x8 "
                      "serpentine from a1, then 7 status LEDs)")
    test.add_argument("--step", type=float, default=1.0, metavar="SECONDS",
                      help="time each picture stays on (default 1)")
    test.set_defaults(func=cmd_test)
    sim = sub.add_parser("simulate", help="run a virtual board on a pseudo-terminal; Enter "
                         "rolls its die or presses its button; Ctrl-C stops")
    sim.add_argument("--seed", type=int, help="die seed (default: random)")
    sim.add_argument("--layout", metavar="JSON", help="LED layout to draw the board by "
                     "(default: 8x8 serpentine from a1, then 7 status LEDs)")
    sim.add_argument("--protocol", type=int, default=PROTOCOL_VERSION,
                     choices=range(MIN_PROTOCOL_VERSION, PROTOCOL_VERSION + 1),
                     help=f"newest protocol version the board speaks (default "
                     f"{PROTOCOL_VERSION}; 1: firmware 1.0, no piecepack die)")
    sim.set_defaults(func=cmd_simulate)


def _fail(code: int, message: str) -> int:
    print(f"companion bridge: {message}", file=sys.stderr)
    return code


def _layout(path: str | None) -> LedLayout:
    """The layout in the JSON file ``path`` (default: the 8x8 grid); BridgeError says why not."""
    if not path:
        return LedLayout.grid()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BridgeError(f"cannot read {path}: {exc.strerror or exc}") from None
    return LedLayout.from_json(text)


def cmd_test(args: argparse.Namespace) -> int:
    if not 0 <= args.step <= 60:
        return _fail(EXIT_BAD_INPUT, f"--step must be 0..60 seconds, got {args.step}")
    try:
        layout = _layout(args.layout)
        port = find_port(args.port)
    except BridgeError as exc:
        return _fail(EXIT_BAD_INPUT, str(exc))
    try:
        if not stat.S_ISCHR(os.stat(port).st_mode):
            return _fail(EXIT_BAD_INPUT, f"{port} is not a serial port")
    except OSError as exc:
        return _fail(EXIT_BAD_INPUT, f"cannot open {port}: {exc.strerror or exc}")
    with Bridge.open(port, layout=layout) as bridge:
        if not bridge.wait_connected(5.0):   # an Uno reboots when its port opens: ~2 s
            err = bridge.status().last_error or "no answer"
            return _fail(EXIT_BAD_INPUT, f"no LED/die board on {port}: {err}")
        st = bridge.status()
        print(f"board on {port}: firmware {st.firmware}, {layout.status_base} spaces + "
              f"{len(layout.status)} status LEDs")
        for step in test_pattern(layout):
            bridge.clear()
            bridge.set_leds(step.colors)
            if not bridge.sync(3.0):
                return _fail(EXIT_FAILED, f"the board stopped answering: "
                             f"{bridge.status().last_error}")
            if step.description:
                print(step.description)
            time.sleep(step.seconds * args.step)
        bridge.clear()
        ok = bridge.sync(3.0) and bridge.status().state is LinkState.CONNECTED
    if not ok:
        return _fail(EXIT_FAILED, "the board stopped answering at the end of the test")
    print("test pattern done")
    return EXIT_OK


def die_modes(protocol: int) -> str:
    """The die modes a board that speaks ``protocol`` has, as the simulator lists them."""
    return ", ".join(m.name.lower() for m in DieMode
                     if m is not DieMode.OFF and min_protocol_for(m) <= protocol)


def describe(event: Event) -> str:
    """One line for an event of the virtual board (piecepack faces by name)."""
    if event.kind is EventKind.ROLL:
        roll = DieRoll(event.a, event.b, event.seq)
        return f"die: {DieMode(event.a).name.lower()} rolled {roll.face}"
    return "button: pressed"


def show_board(changes: queue.Queue[LedState | Event], layout: LedLayout, out: TextIO, *,
               tty: bool) -> None:
    """Print the board's changes as they come, until KeyboardInterrupt: a terminal gets the
    board redrawn in place with event lines above it, anything else one line a change."""
    screen, last = Screen(), ""
    while True:
        try:
            batch = [changes.get(timeout=0.5)]   # a timeout: Ctrl-C is seen while waiting
        except queue.Empty:
            continue
        with contextlib.suppress(queue.Empty):
            while True:   # a burst (a chase, a fill) is drawn once, at its end
                batch.append(changes.get_nowait())
        log = tuple(describe(c) for c in batch if isinstance(c, Event))
        states = [c for c in batch if isinstance(c, LedState)]
        if tty:
            drawing = draw_board(states[-1], layout) if states else last
            if drawing != last or log:
                text, screen = screen.redraw(drawing, log)
                out.write(text)
                last = drawing
        else:
            for item in batch:   # in order: a roll between two pictures stays between them
                line = describe(item) if isinstance(item, Event) else plain_line(item, layout)
                if line != last or isinstance(item, Event):
                    out.write(line + "\n")
                if not isinstance(item, Event):
                    last = line
        out.flush()


@contextlib.contextmanager
def _no_echo(stream: TextIO) -> Iterator[None]:
    """Typed Enters not echoed on a terminal: an echoed newline would move the drawing."""
    try:
        import termios

        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (ImportError, AttributeError, ValueError, OSError):
        yield   # no standard input to speak of
        return
    except termios.error:
        yield   # not a terminal: nothing is echoed
        return
    new = list(saved)
    new[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, new)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def cmd_simulate(args: argparse.Namespace) -> int:
    from firmware_bridge.virtual_device import VirtualDevice

    try:
        layout = _layout(args.layout)
    except BridgeError as exc:
        return _fail(EXIT_BAD_INPUT, str(exc))
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C stops it however it was started: a shell starts background jobs, and so
        # their children, with SIGINT ignored, and Python then leaves it ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    changes: queue.Queue[LedState | Event] = queue.Queue()
    with VirtualDevice(seed=args.seed, protocol=args.protocol) as dev, _no_echo(sys.stdin):
        # the board's thread only queues; this thread draws (no drawing under its lock)
        dev.watch(changes.put)
        changes.put(dev.state())   # the board as it boots: dark until the host lights it
        # Ctrl-C may come as soon as the port is printed: everything after is inside the try.
        try:
            print(dev.port, flush=True)
            major, minor = dev.core.fw_version
            print(f"virtual board running, firmware {major}.{minor} (protocol {args.protocol}; "
                  f"dice: {die_modes(args.protocol)}): press Enter to roll/press, Ctrl-C to stop",
                  file=sys.stderr, flush=True)

            def presses() -> None:
                # Raw reads: a thread blocked in sys.stdin's buffered reader holds its lock,
                # and closing stdin at exit after Ctrl-C then waits for it for ever.
                try:
                    fd = sys.stdin.fileno()
                except (AttributeError, ValueError, OSError):
                    return  # no standard input to read presses from
                while data := os.read(fd, 1024):
                    for _ in range(data.count(b"\n")):
                        dev.press_button()   # its event reaches the queue through watch

            threading.Thread(target=presses, daemon=True).start()
            show_board(changes, layout, sys.stdout, tty=sys.stdout.isatty())
        except KeyboardInterrupt:
            pass
    return EXIT_OK
