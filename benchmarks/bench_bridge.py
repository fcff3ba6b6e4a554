"""Serial bridge figures: a full 64-space LED update, acknowledged.

    python3 benchmarks/bench_bridge.py [--rounds N]

1. Computed from bytes on the wire at 115200 baud (8N1: 10 bits a byte) plus the WS2812 write.
2. Measured against the virtual board paced to 115200 baud, raw frames and through the Bridge.
3. Measured against the real firmware in simavr paced to real time (skipped with the reason
   when avr-gcc or simavr is missing): PING round trip, full update, through the Bridge.
4. Codec speed (encode + decode of a full update).
Target: a full board update acknowledged in under 20 ms on real hardware timing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import serial

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.progress import Progress
from firmware_bridge import Bridge, Color, LedLayout
from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameReader, decode_frame
from firmware_bridge.protocol import (
    BAUD,
    Ack,
    Code,
    Hello,
    Message,
    Ping,
    SetRange,
    decode_payload,
    encode_message,
)
from firmware_bridge.simavr import SimulatedBoard, ToolchainMissing, build
from firmware_bridge.virtual_device import VirtualDevice

LAYOUT = LedLayout.grid()
BYTE_S = 10 / BAUD


def full_update(i: int) -> SetRange:
    return SetRange(0, tuple((i + k) % 15 + 1 for k in range(64)))


def summary(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"  {name:<48} median {statistics.median(ms):6.2f} ms   p99 {p99:6.2f} ms   "
          f"worst {ms[-1]:6.2f} ms   (n={len(ms)})")


def timed_rounds(what: str, rounds: int, one: Callable[[int], float]) -> list[float]:
    """``one(i)`` (the seconds of round ``i``) for each round, counted by a bar stepped between
    rounds, outside each timed one, and wiped before the figures are printed."""
    with Progress(what, rounds, unit="round") as bar:
        return [one(i) for i in bar.track(range(rounds))]


def computed() -> None:
    frame = len(encode_message(full_update(0), 1))
    ack = len(encode_message(Ack(1, Code.OK), 1))
    leds = LAYOUT.led_count
    ws = leds * 24 * 1.25e-6 + 50e-6
    wire = (frame + ack) * BYTE_S
    print(f"computed at {BAUD} baud, 8N1:")
    print(f"  full update frame {frame} B ({frame * BYTE_S * 1000:.2f} ms) + ACK {ack} B "
          f"({ack * BYTE_S * 1000:.2f} ms) + WS2812 {leds} LEDs ({ws * 1000:.2f} ms) "
          f"= {(wire + ws) * 1000:.2f} ms; with 1 ms USB latency each way "
          f"{(wire + ws + 0.002) * 1000:.2f} ms (target < 20 ms)")


class RawLink:
    def __init__(self, port: str) -> None:
        self.ser = serial.Serial(port, BAUD, timeout=0.5)
        self.reader = FrameReader()
        self.seq = 0

    def round_trip(self, msg: Message) -> float:
        self.seq = (self.seq + 1) & 0xFF
        frame = encode_message(msg, self.seq)
        start = time.perf_counter()
        self.ser.write(frame)
        while True:
            data = self.ser.read(max(1, self.ser.in_waiting))
            if not data:
                raise BridgeError("no answer")
            for item in self.reader.feed(data):
                if isinstance(item, bytes):
                    msg_in = decode_payload(item).message
                    if isinstance(msg_in, Ack) and msg_in.acked_seq == self.seq:
                        return time.perf_counter() - start

    def close(self) -> None:
        self.ser.close()


def measure_raw(port: str, rounds: int, label: str) -> None:
    link = RawLink(port)
    try:
        link.round_trip(Hello(1, LAYOUT.led_count, LAYOUT.status_base))
        summary(f"{label}: PING round trip",
                timed_rounds(f"{label}: PING", rounds, lambda _: link.round_trip(Ping())))
        summary(f"{label}: full 64-space update acknowledged",
                timed_rounds(f"{label}: full updates", rounds,
                             lambda i: link.round_trip(full_update(i))))
    finally:
        link.close()


def measure_bridge(port: str, rounds: int, label: str) -> None:
    with Bridge.open(port) as bridge:
        if not bridge.wait_connected(5):
            raise BridgeError(f"bridge did not connect: {bridge.status().last_error}")
        bridge.sync(3)

        def one(i: int) -> float:
            picture = {sq: Color((i + k) % 15 + 1) for k, sq in enumerate(LAYOUT.spaces)}
            start = time.perf_counter()
            bridge.show(picture)
            if not bridge.sync(3):
                raise BridgeError("bridge did not sync")
            return time.perf_counter() - start

        summary(f"{label}: Bridge.show() of 64 spaces to confirmed",
                timed_rounds(f"{label}: Bridge.show()", rounds, one))


def codec_speed() -> None:
    msg = full_update(3)
    n = 20000
    start = time.perf_counter()
    for i in range(n):
        decode_payload(decode_frame(encode_message(msg, i & 0xFF)[:-1]))
    rate = n / (time.perf_counter() - start)
    print(f"codec: {rate:,.0f} full-update frames/s encoded and decoded "
          f"({1e6 / rate:.1f} us each)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args(argv)
    computed()
    print(f"virtual board on a pty, paced to {BAUD} baud:")
    with VirtualDevice(seed=1, baud=BAUD) as dev:
        measure_raw(dev.port, args.rounds, "virtual")
        measure_bridge(dev.port, args.rounds, "virtual")
    print("real firmware in simavr, paced to real time (16 MHz):")
    out = Path(tempfile.mkdtemp(prefix="bench-fw-"))
    try:
        build("all", out)
        build("harness", out)
        with SimulatedBoard(out) as board:
            measure_raw(board.port, args.rounds, "simavr")
            measure_bridge(board.port, args.rounds, "simavr")
    except ToolchainMissing as exc:
        print(f"  skipped: {exc}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    codec_speed()
    return 0


if __name__ == "__main__":
    sys.exit(main())
