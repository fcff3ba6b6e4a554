"""Issue 4, wire protocol messages: exact encodings, round trips, and fuzzing of the board model
(random and mutated frames never crash it and never make it act on something the host did not
send)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.device import DeviceCore
from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameReader, decode_frame
from firmware_bridge.protocol import (
    MAX_BODY,
    MAX_LEDS,
    Ack,
    Brightness,
    Code,
    DieMode,
    Effect,
    ErrorReport,
    Event,
    EventKind,
    EventsSince,
    Fill,
    Heartbeat,
    Hello,
    HelloInfo,
    Ping,
    SetDieMode,
    SetEffect,
    SetLeds,
    SetPalette,
    SetRange,
    StatusLeds,
    decode_payload,
    encode_message,
    encode_payload,
    event_seq_after,
    events_after,
    next_event_seq,
    previous_event_seq,
)

FUZZ = settings(derandomize=True, max_examples=200, deadline=None)

# Golden payloads (type, seq, body) as documented in docs/protocol.md.
GOLDEN = [
    (Hello(1, 68, 64), 1, "0101014440"),
    (Ping(), 2, "0202"),
    (SetPalette(3, ((255, 120, 0),)), 3, "030303ff7800"),
    (SetLeds(((0, 2), (63, 3))), 4, "040400023f03"),
    (SetRange(0, (1, 2, 3)), 5, "050500032103"),
    (Fill(0), 6, "060600"),
    (SetEffect(Effect.BLINK, 50, (9, 10)), 7, "07070132090a"),
    (Brightness(64), 8, "080840"),
    (StatusLeds((4, 5, 2)), 9, "0909035402"),
    (SetDieMode(DieMode.D8), 10, "0a0a08"),
    (EventsSince(0x0102), 11, "0b0b0102"),
    (Ack(5, Code.OK), 1, "80010500"),
    (Event(3, EventKind.ROLL, 4, 2), 2, "81020003010402"),
    (Heartbeat(0xBEEF, 3, 60, 0), 3, "8203beef0003003c00"),
    (ErrorReport(Code.BAD_CRC, 0), 4, "83040100"),
]


@pytest.mark.parametrize(("msg", "seq", "hexpayload"), GOLDEN)
def test_golden_encodings(msg: object, seq: int, hexpayload: str) -> None:
    assert encode_payload(msg, seq).hex() == hexpayload  # type: ignore[arg-type]
    assert decode_payload(bytes.fromhex(hexpayload)).message == msg
    assert decode_payload(decode_frame(encode_message(msg, seq)[:-1])).seq == seq  # type: ignore[arg-type]


def test_full_64_space_update_is_40_bytes_on_the_wire() -> None:
    assert len(encode_message(SetRange(0, tuple(i % 16 for i in range(64))), 1)) == 40


def test_hello_info_round_trip() -> None:
    info = HelloInfo(1, 1, 0, 128, 0xBEEF, 77)
    assert HelloInfo.from_bytes(info.to_bytes()) == info


@pytest.mark.parametrize("bad", [
    "ff00", "0100", "01010144", "0101014445", "0202ff", "0303100000ff", "04040002ff",
    "0505000002", "05050003ff", "050500031f21", "060610", "070703320102", "0707010001",
    "09090000", "0a0a05", "0b0b01", "81040003010500", "8104000301040500", "81040003090a01",
])
def test_malformed_payloads_are_rejected(bad: str) -> None:
    with pytest.raises(BridgeError):
        decode_payload(bytes.fromhex(bad))


def test_encoder_refuses_out_of_range_fields() -> None:
    for msg in (SetLeds(((MAX_LEDS, 0),)), SetRange(0, (16,)), Fill(16),
                SetEffect(Effect.PULSE, 0, ()), SetPalette(15, ((0, 0, 0), (0, 0, 0))),
                Hello(1, 0, 0), EventsSince(70000), SetLeds(())):
        with pytest.raises(BridgeError):
            encode_payload(msg, 1)


colors = st.integers(0, 15)
leds = st.integers(0, MAX_LEDS - 1)
host_messages = st.one_of(
    # versions 1 and 2, and now and then one no board speaks (Issue 19)
    st.builds(Hello, st.sampled_from([2, 2, 1, 3]), st.integers(1, MAX_LEDS), st.just(0)),
    st.just(Ping()),
    st.integers(0, 15).flatmap(lambda s: st.builds(
        SetPalette, st.just(s), st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1,
                                         max_size=16 - s).map(tuple))),
    st.builds(SetLeds, st.lists(st.tuples(leds, colors), min_size=1, max_size=20).map(tuple)),
    st.integers(0, MAX_LEDS - 1).flatmap(lambda s: st.builds(
        SetRange, st.just(s), st.lists(colors, min_size=1, max_size=MAX_LEDS - s).map(tuple))),
    st.builds(Fill, colors),
    st.builds(SetEffect, st.sampled_from(Effect), st.integers(1, 255),
              st.lists(leds, max_size=MAX_BODY - 2).map(tuple)),
    st.builds(Brightness, st.integers(0, 255)),
    st.builds(StatusLeds, st.lists(colors, min_size=1, max_size=MAX_LEDS).map(tuple)),
    st.builds(SetDieMode, st.sampled_from(DieMode)),
    st.builds(EventsSince, st.integers(0, 0xFFFF)),
)


@FUZZ
@given(host_messages, st.integers(0, 255))
def test_every_host_message_round_trips(msg: object, seq: int) -> None:
    packet = decode_payload(decode_frame(encode_message(msg, seq)[:-1]))  # type: ignore[arg-type]
    assert (packet.seq, packet.message) == (seq, msg)


@FUZZ
@given(st.binary(max_size=140))
def test_decoding_random_payloads_raises_only_bridge_error(data: bytes) -> None:
    with contextlib.suppress(BridgeError):
        decode_payload(data)


def _frames(msgs: list[object], first_seq: int = 1) -> list[tuple[object, bytes]]:
    return [(m, encode_message(m, (first_seq + i) % 256)) for i, m in  # type: ignore[arg-type]
            enumerate(msgs)]


@FUZZ
@given(st.binary(max_size=3000))
def test_board_model_survives_random_bytes(noise: bytes) -> None:
    dev = DeviceCore(boot_id=1)
    for out in dev.feed(noise):
        decode_frame(out[:-1])  # everything the board says is a valid frame
    assert not dev.applied or all(m is not None for m in dev.applied)


@FUZZ
@given(st.lists(host_messages, min_size=1, max_size=12), st.data())
def test_mutated_frames_are_never_acted_on(msgs: list[object], data: st.DataObject) -> None:
    """Only messages the host sent, in the order sent, are applied, whatever the line does."""
    hello = Hello(1, MAX_LEDS, 0)
    sent = _frames([hello, *msgs])
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    stream = bytearray()
    for _, frame in sent:
        f = bytearray(frame)
        damage = rng.random()
        if damage < 0.25:                               # up to 3 flipped bits
            for _ in range(rng.randint(1, 3)):
                pos = rng.randrange((len(f) - 1) * 8)
                f[pos // 8] ^= 1 << (pos % 8)
        elif damage < 0.4:                              # bytes lost
            at = rng.randrange(len(f) - 1)
            del f[at:at + rng.randint(1, 4)]
        elif damage < 0.5:                              # noise inserted (no delimiter)
            at = rng.randrange(len(f) - 1)
            f[at:at] = bytes(rng.randint(1, 255) for _ in range(rng.randint(1, 4)))
        stream += f
    dev = DeviceCore(boot_id=1)
    dev.feed(bytes(stream))
    applicable = [m for m, _ in sent if not isinstance(m, (Ping, EventsSince))]
    it = iter(applicable)
    assert all(any(a == b for b in it) for a in dev.applied), "applied something not sent"


def test_board_acknowledges_a_retry_without_acting_twice() -> None:
    dev = DeviceCore(boot_id=1)
    frames = [encode_message(Hello(1, 8, 8), 1), encode_message(Fill(2), 2)]
    dev.feed(b"".join(frames))
    replies = dev.feed(frames[1])                       # the ACK was lost: the host retries
    acks = [decode_payload(p).message for r in replies for p in FrameReader().feed(r)]
    assert acks == [Ack(2, Code.OK)]
    assert dev.applied == [Hello(1, 8, 8), Fill(2)]


def test_commands_before_the_handshake_are_refused() -> None:
    dev = DeviceCore(boot_id=1)
    replies = dev.feed(encode_message(Fill(2), 9))
    assert decode_payload(decode_frame(replies[0][:-1])).message == Ack(9, Code.NOT_READY)
    assert dev.applied == []


def test_out_of_strip_indices_are_refused_whole() -> None:
    dev = DeviceCore(boot_id=1)
    dev.feed(encode_message(Hello(1, 8, 6), 1))
    replies = dev.feed(encode_message(SetLeds(((1, 2), (8, 2))), 2)
                       + encode_message(StatusLeds((1, 1, 1)), 3))
    codes = [decode_payload(decode_frame(r[:-1])).message.code for r in replies]  # type: ignore[union-attr]
    assert codes == [Code.BAD_VALUE, Code.BAD_VALUE]
    assert dev.colors[1] == 0


def test_events_are_replayed_after_a_given_sequence_number() -> None:
    dev = DeviceCore(boot_id=1)
    dev.feed(encode_message(Hello(1, 8, 8), 1))
    dev.feed(encode_message(SetDieMode(DieMode.D4), 2))
    rng = random.Random(1)
    for _ in range(20):
        dev.press_button(rng)
    replies = dev.feed(encode_message(EventsSince(10), 3))
    msgs = [decode_payload(decode_frame(r[:-1])).message for r in replies]
    ack = msgs[0]
    assert isinstance(ack, Ack) and ack.code is Code.OK
    assert ack.extra == bytes((0, 5, 10))               # oldest kept is 5; 10 follow
    assert [m.seq for m in msgs[1:]] == list(range(11, 21))  # type: ignore[union-attr]
    assert all(isinstance(m, Event) and 1 <= m.b <= 4 for m in msgs[1:])


# Event numbers (docs/protocol.md, "Events"): 1..65535, then 1 again; 0 is "none yet".
@pytest.mark.parametrize(("seq", "since", "after", "steps"), [
    (2, 1, True, 1), (1, 2, False, 65534), (1, 65535, True, 1), (2, 65534, True, 3),
    (65535, 1, False, 65534), (5, 5, False, 0), (1, 0, True, 1), (65535, 0, True, 65535),
    (0, 7, False, 65528), (32768, 1, True, 32767), (32769, 1, False, 32768),
])
def test_event_numbers_compare_round_the_wrap(seq: int, since: int, after: bool,
                                              steps: int) -> None:
    assert event_seq_after(seq, since) is after
    assert events_after(since, seq) == steps


@given(st.integers(1, 65535))
def test_the_next_event_number_always_comes_after(seq: int) -> None:
    nxt = next_event_seq(seq)
    assert 1 <= nxt <= 65535 and event_seq_after(nxt, seq) and not event_seq_after(seq, nxt)
    assert previous_event_seq(nxt) == seq and events_after(seq, nxt) == 1
