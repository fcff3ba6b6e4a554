"""Issue 21, "Hand-written where a library exists": the host's framing is the standard
library's CRC-CCITT (``binascii.crc_hqx``) and the ``cobs`` package, the firmware keeps its
own C, "and the two must still agree bit for bit (table tests)". Each table goes through the
firmware's own code, built for this machine (``make host``): its CRC, the frames its encoder
writes, and what its decoder accepts and refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import (
    MAX_ENCODED,
    MAX_FRAME_PAYLOAD,
    FrameFault,
    FrameReader,
    cobs_decode,
    crc16,
    decode_frame,
    encode_frame,
)
from firmware_bridge.protocol import (
    Ack,
    Code,
    Effect,
    ErrorReport,
    EventKind,
    Fill,
    Hello,
    Message,
    Ping,
    SetEffect,
    SetLeds,
    SetRange,
    decode_payload,
    encode_message,
)
from firmware_bridge.simavr import FirmwareHost


@pytest.fixture(scope="module")
def fw(fw_host: Path) -> FirmwareHost:
    return FirmwareHost(fw_host)


def frames_of(wire: bytes) -> list[bytes]:
    """The frames in bytes the board sent, each with its delimiter."""
    assert wire.endswith(b"\0") or not wire, wire.hex()
    return [piece + b"\0" for piece in wire.split(b"\0") if piece]


# CRC-16/CCITT-FALSE known values: the catalogue's check value, the worked example of
# docs/protocol.md, and the edges (nothing, zeros, ones, the longest payload).
CRC_TABLE = [
    (b"123456789", 0x29B1),
    (b"", 0xFFFF),
    (b"\x00", 0xE1F0),
    (b"A", 0xB915),
    (b"\x02\x02", 0x5B2F),                     # PING seq 2: on the wire 05 02 02 5b 2f 00
    (b"\x00" * 126, 0x7ED1),
    (b"\xff" * 126, 0x6372),
    (bytes(range(126)), 0x67FC),
]


@pytest.mark.parametrize(("data", "crc"), CRC_TABLE)
def test_crc_table_host_and_firmware(data: bytes, crc: int, fw: FirmwareHost) -> None:
    assert crc16(data) == crc
    assert fw.crc16(data) == crc


def test_crc_goes_on_from_a_value_as_over_the_whole(fw: FirmwareHost) -> None:
    """``crc16(b, crc16(a)) == crc16(a + b)``: the start value is the register so far."""
    a, b = b"\x05\x07\x00", bytes(range(40, 90))
    assert crc16(b, crc16(a)) == crc16(a + b) == fw.crc16(a + b)


@pytest.mark.parametrize("start", [-1, 0x10000, 0x1FFFF])
def test_a_crc_start_value_is_16_bits(start: int) -> None:
    with pytest.raises(BridgeError, match=hex(start)):
        crc16(b"123456789", start)


ROLLS = 2100


@pytest.fixture(scope="module")
def board_frames(fw: FirmwareHost) -> list[bytes]:
    """Every frame the firmware's encoder wrote for: a handshake, a PING with each seq
    (ACKs: the acked seq and the board's own seq take every byte value, zero too), and 2,100
    die rolls (EVENTs: event numbers with a zero byte, every value of the board's seq; the
    2,047th is the first whose CRC's high byte is zero)."""
    fw.init(0xBEEF)
    wire = fw.feed(encode_message(Hello(2, 68, 64), 0))
    for seq in range(256):
        wire += fw.feed(encode_message(Ping(), seq))
    for i in range(ROLLS):
        wire += fw.push_event(EventKind.ROLL, 8, i % 8 + 1)
    return frames_of(wire)


def test_the_firmwares_frames_are_the_hosts_bit_for_bit(board_frames: list[bytes]) -> None:
    """Each frame the firmware sent is exactly what the host's encode_frame makes of its
    payload, and the host decodes it."""
    assert len(board_frames) == 1 + 256 + ROLLS
    for frame in board_frames:
        payload = decode_frame(frame[:-1])
        assert encode_frame(payload) == frame, frame.hex()


def test_the_board_frames_cover_the_cases_cobs_treats_apart(board_frames: list[bytes]) -> None:
    """The table above holds what would tell two COBS apart: a zero as the last byte (the
    CRC's low byte: the frame ends in an empty block, 01), a zero as the CRC's high byte,
    zeros side by side, a zero after the first byte, and no zero at all."""
    raws = [cobs_decode(frame[:-1]) for frame in board_frames]
    assert any(raw[-1] == 0 for raw in raws)
    assert any(raw[-2] == 0 for raw in raws)
    assert any(b"\0\0" in raw for raw in raws)
    assert any(raw[1] == 0 for raw in raws)
    assert any(0 not in raw for raw in raws)
    assert any(frame.endswith(b"\x01\0") for frame in board_frames)


def acks(wire: bytes) -> list[Ack]:
    packets = [decode_payload(decode_frame(f[:-1])).message for f in frames_of(wire)]
    assert all(isinstance(p, Ack) for p in packets), packets
    return [p for p in packets if isinstance(p, Ack)]


# Host frames with the edges of COBS and of the frame's size, each acknowledged OK by the
# firmware only if it decoded the host's COBS and matched its CRC bit for bit.
HOST_TABLE: list[tuple[str, Message, int]] = [
    ("ping, seq 0", Ping(), 0),
    ("the longest payload: 62 LEDs set", SetLeds(tuple((i, i % 16) for i in range(62))), 7),
    ("zeros all along: 64 LEDs off", SetRange(0, (0,) * 64), 0),
    ("no zero in the body", SetRange(1, (1,) * 64), 9),
    ("a body of one zero", Fill(0), 256 - 1),
    ("122 LEDs blink: every byte value up to 121", SetEffect(Effect.BLINK, 1,
                                                              tuple(range(122))), 3),
]


@pytest.mark.parametrize(("what", "msg", "seq"), HOST_TABLE, ids=[t[0] for t in HOST_TABLE])
def test_the_firmware_accepts_the_hosts_frames(what: str, msg: Message, seq: int,
                                               fw: FirmwareHost) -> None:
    fw.init(0xBEEF)
    assert acks(fw.feed(encode_message(Hello(2, 128, 128), 1)))[0].code is Code.OK
    frame = encode_message(msg, seq)
    assert len(frame) <= MAX_ENCODED + 1
    got = acks(fw.feed(frame))
    assert [(a.acked_seq, a.code) for a in got] == [(seq, Code.OK)], what


def test_the_longest_payload_is_the_limit_on_both_sides() -> None:
    """The table's longest frame is the longest the protocol has: payload + CRC = 128."""
    longest = HOST_TABLE[1][1]
    raw = cobs_decode(encode_message(longest, 7)[:-1])
    assert len(raw) == MAX_FRAME_PAYLOAD


def fault_code(reason: str) -> Code:
    """The firmware's code for a frame the host dropped for ``reason``."""
    if reason == "frame too long":
        return Code.OVERFLOW
    return Code.BAD_CRC if reason.startswith("CRC mismatch") else Code.BAD_FRAME


PING_2 = bytes.fromhex("0502025b2f")  # docs/protocol.md, without its delimiter
# Frames both sides must drop, and how: COBS broken, too short, too long, CRC wrong.
BAD_TABLE = [
    ("a block runs past the end", bytes.fromhex("0311"), Code.BAD_FRAME),
    ("a lone 0xFF block code", b"\xff", Code.BAD_FRAME),
    ("PING cut short", PING_2[:-1], Code.BAD_FRAME),
    ("empty after COBS", b"\x01", Code.BAD_FRAME),
    ("three bytes: no room for a CRC", bytes.fromhex("0402025b"), Code.BAD_FRAME),
    ("the CRC's last bit flipped", PING_2[:-1] + b"\x2e", Code.BAD_CRC),
    ("the type's bit flipped", bytes.fromhex("0503025b2f"), Code.BAD_CRC),
    ("a block code pointing past the end", bytes.fromhex("0302025b2f"), Code.BAD_FRAME),
    ("a zero put in the payload", bytes.fromhex("030202035b2f"), Code.BAD_CRC),
    ("129 bytes decoded: over the payload limit", b"\x82" + b"\x11" * 129, Code.BAD_FRAME),
    ("more than a frame's bytes before a delimiter", b"\x11" * (MAX_ENCODED + 1),
     Code.OVERFLOW),
]


@pytest.mark.parametrize(("what", "frame", "code"), BAD_TABLE, ids=[t[0] for t in BAD_TABLE])
def test_host_and_firmware_drop_the_same_frames_for_the_same_reason(
        what: str, frame: bytes, code: Code, fw: FirmwareHost) -> None:
    assert 0 not in frame
    got = list(FrameReader().feed(frame + b"\0"))
    assert len(got) == 1 and isinstance(got[0], FrameFault), got
    assert fault_code(got[0].reason) is code, got[0].reason
    if code is not Code.OVERFLOW:
        with pytest.raises(BridgeError):
            decode_frame(frame)
    fw.init(0xBEEF)
    answer = [decode_payload(decode_frame(f[:-1])).message
              for f in frames_of(fw.feed(frame + b"\0"))]
    assert [(m.code if isinstance(m, ErrorReport) else m) for m in answer] == [code], what
