"""Issue 4, the firmware's frame parser compiled for the host and fuzzed: on any byte stream
(random, mutated, valid) it says and does exactly what the Python reference model does, and
under AddressSanitizer/UBSan it never misbehaves."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.device import DeviceCore
from firmware_bridge.framing import FrameReader, crc16, encode_frame
from firmware_bridge.protocol import (
    Effect,
    Event,
    EventKind,
    EventsSince,
    Fill,
    Hello,
    SetEffect,
    SetLeds,
    SetRange,
    StatusLeds,
    decode_payload,
    encode_message,
)
from firmware_bridge.simavr import FirmwareHost

from .test_protocol import host_messages

FUZZ = settings(derandomize=True, max_examples=300, deadline=None)


@pytest.fixture(scope="module")
def fw(fw_host: Path) -> FirmwareHost:
    return FirmwareHost(fw_host)


def model_state(core: DeviceCore) -> bytes:
    s = core.state()
    return (bytes((s.led_count, s.status_base, *s.colors, *s.effects))
            + bytes(v for c in s.palette for v in c)
            + bytes((s.brightness, s.blink_cs, s.pulse_cs, s.die_mode)))


def mutate(frame: bytes, rng: random.Random) -> bytes:
    f = bytearray(frame)
    kind = rng.randrange(6)
    if kind == 0:                                   # bit flips
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(f) * 8)
            f[pos // 8] ^= 1 << (pos % 8)
    elif kind == 1:                                 # lost bytes
        at = rng.randrange(len(f))
        del f[at:at + rng.randint(1, 5)]
    elif kind == 2:                                 # inserted noise
        at = rng.randrange(len(f))
        f[at:at] = rng.randbytes(rng.randint(1, 6))
    elif kind == 3:                                 # truncated, no delimiter
        f = f[:rng.randrange(len(f))]
    elif kind == 4:                                 # a valid frame with a forged CRC-correct body
        body = rng.randbytes(rng.randint(0, 124))
        f = bytearray(encode_frame(bytes((rng.randint(0, 255), rng.randint(0, 255))) + body))
    return bytes(f)


@FUZZ
@given(data=st.binary(max_size=200))
def test_c_crc_matches_python(data: bytes, fw: FirmwareHost) -> None:
    assert fw.crc16(data) == crc16(data)


STREAMS = given(
    items=st.lists(st.one_of(host_messages, st.binary(min_size=1, max_size=40),
                             st.tuples(st.sampled_from(EventKind), st.integers(0, 255))),
                   max_size=25),
    seed=st.integers(0, 2**32), hello_first=st.booleans())


@FUZZ
@STREAMS
def test_c_parser_and_python_model_agree_on_any_stream(items: list[object], seed: int,
                                                       hello_first: bool,
                                                       fw: FirmwareHost) -> None:
    agree_on_stream(fw, DeviceCore(boot_id=0xBEEF), items, seed, hello_first)


@pytest.fixture(scope="module")
def fw_v1(fw_host_v1: Path) -> FirmwareHost:
    return FirmwareHost(fw_host_v1)


@FUZZ
@STREAMS
def test_c_parser_built_for_version_1_and_the_version_1_model_agree(
        items: list[object], seed: int, hello_first: bool, fw_v1: FirmwareHost) -> None:
    """Issue 19, backward-compatible handshake: the firmware built to speak only version 1
    (`make PROTOCOL=1`, as firmware 1.0) and the model of a version 1 board (the virtual
    board's `protocol=1`, which the host's fallback tests use) say and do the same."""
    agree_on_stream(fw_v1, DeviceCore(boot_id=0xBEEF, protocol=1), items, seed, hello_first)


def agree_on_stream(fw: FirmwareHost, core: DeviceCore, items: list[object], seed: int,
                    hello_first: bool) -> None:
    rng = random.Random(seed)
    fw.init(0xBEEF)
    chunks: list[bytes | tuple[EventKind, int]] = []
    if hello_first:
        chunks.append(encode_message(Hello(rng.choice([1, 2]), rng.randint(1, 128), 0), 0))
    for i, item in enumerate(items):
        if isinstance(item, bytes):
            chunks.append(item)                                    # raw noise
        elif isinstance(item, tuple):
            chunks.append(item)                                    # the board records an event
        else:
            frame = encode_message(item, rng.choice([i, i, i - 1]) & 0xFF)  # sometimes a retry
            chunks.append(mutate(frame, rng) if rng.random() < 0.3 else frame)
    for chunk in chunks:
        if isinstance(chunk, tuple):
            kind, value = chunk
            a, b = (8, value % 8 + 1) if kind is EventKind.ROLL else (0, 1)
            assert fw.push_event(kind, a, b) == core.push_event(kind, a, b)
        else:
            assert fw.feed(chunk) == b"".join(core.feed(chunk)), chunk.hex()
    assert fw.feed(b"\0") == b"".join(core.feed(b"\0"))
    assert fw.state() == model_state(core)


def test_parser_under_sanitizers_survives_a_megabyte_of_mutated_frames(fw_host: Path) -> None:
    rng = random.Random(2026)
    msgs = [encode_message(Hello(1, 128, 64), 1)]
    samples = [SetRange(0, tuple(range(16)) * 8), SetLeds(((1, 2), (3, 4))), Fill(3),
               SetEffect(Effect.BLINK, 20, tuple(range(100))), StatusLeds((1, 2, 3))]
    stream = bytearray()
    while len(stream) < 1_000_000:
        r = rng.random()
        if r < 0.4:
            frame = encode_message(rng.choice(samples), rng.randrange(256))
            stream += mutate(frame, rng) if rng.random() < 0.5 else frame
        elif r < 0.7:
            stream += rng.randbytes(rng.randint(1, 300))
        else:
            stream += rng.choice(msgs)
    proc = subprocess.run([str(fw_host / "fuzzmain")], input=bytes(stream), capture_output=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert b"bytes 1" in proc.stdout


def test_c_firmware_replays_events_across_the_number_wrap(fw: FirmwareHost) -> None:
    """Issue 18, data loss: after event 65535 the board numbers the next one 1 (docs/
    protocol.md, "Events"), and EVENTS_SINCE from before the wrap resends the events after
    it too, as the Python model does (they used to look older than the ones asked for)."""
    fw.init(0x1234)
    core = DeviceCore(boot_id=0x1234)
    hello = encode_message(Hello(1, 68, 64), 1)
    assert fw.feed(hello) == b"".join(core.feed(hello))
    for i in range(65537):                      # events 1 .. 65535, then 1 and 2 again
        kind, a, b = (EventKind.ROLL, 8, i % 8 + 1)
        if i >= 65537 - 20:                     # the last ring's worth, compared exactly
            assert fw.push_event(kind, a, b) == core.push_event(kind, a, b)
        else:
            fw.push_event(kind, a, b)
            core.last_event_seq = i + 1         # the model is told, not made to encode them
            core.tx_seq = (core.tx_seq + 1) & 0xFF
    ask = encode_message(EventsSince(65533), 2)
    answer = fw.feed(ask)
    assert answer == b"".join(core.feed(ask))
    frames = [f for f in FrameReader().feed(answer) if isinstance(f, bytes)]
    sent = [decode_payload(f).message for f in frames]
    replayed = [m.seq for m in sent if isinstance(m, Event)]
    assert replayed == [65534, 65535, 1, 2]
