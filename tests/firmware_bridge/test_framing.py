"""Issue 4, wire protocol framing: COBS + CRC-16; lost or corrupted frames are never acted on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import (
    MAX_FRAME_PAYLOAD,
    FrameFault,
    FrameReader,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_frame,
    encode_frame,
)

FUZZ = settings(derandomize=True, max_examples=300, deadline=None)


@pytest.mark.parametrize(("data", "crc"), [
    (b"123456789", 0x29B1),          # the catalogue check value of CRC-16/CCITT-FALSE
    (b"", 0xFFFF),
    (b"\x00", 0xE1F0),
    (b"A", 0xB915),
])
def test_crc16_is_ccitt_false(data: bytes, crc: int) -> None:
    assert crc16(data) == crc


# Vectors from the COBS paper / Wikipedia (without the 0x00 delimiter).
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_table(raw: bytes, encoded: bytes) -> None:
    assert cobs_encode(raw) == encoded
    assert cobs_decode(encoded) == raw


@pytest.mark.parametrize("bad", [b"\x00", b"\x03\x11", b"\x02\x00", b"\x05\x11\x22\x00\x44"])
def test_cobs_decode_rejects_malformed(bad: bytes) -> None:
    with pytest.raises(BridgeError):
        cobs_decode(bad)


def test_frame_layout_is_cobs_of_payload_and_big_endian_crc() -> None:
    payload = b"\x02\x07"                      # PING, seq 7
    crc = crc16(payload)
    assert encode_frame(payload) == cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\0"
    assert decode_frame(encode_frame(payload)[:-1]) == payload


@pytest.mark.parametrize("size", [0, 1, MAX_FRAME_PAYLOAD - 1])
def test_encode_frame_rejects_bad_payload_sizes(size: int) -> None:
    with pytest.raises(BridgeError, match=str(size)):
        encode_frame(bytes(size))


@FUZZ
@given(st.binary(max_size=600))
def test_cobs_roundtrip_and_no_zero(data: bytes) -> None:
    enc = cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(enc) == data


payloads = st.binary(min_size=2, max_size=MAX_FRAME_PAYLOAD - 2)


@FUZZ
@given(st.lists(payloads, max_size=8), st.data())
def test_reader_splits_a_stream_in_any_chunking(frames: list[bytes], data: st.DataObject) -> None:
    stream = b"\0\0" + b"".join(encode_frame(p) for p in frames)  # idle fill is not an error
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    reader, got = FrameReader(), []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got.extend(reader.feed(stream[a:b]))
    assert got == frames


@FUZZ
@given(payloads, st.lists(st.integers(0, 10_000), min_size=1, max_size=3, unique=True))
def test_any_three_flipped_bits_are_detected(payload: bytes, bits: list[int]) -> None:
    frame = bytearray(encode_frame(payload))
    nbits = (len(frame) - 1) * 8              # leave the delimiter alone
    positions = {b % nbits for b in bits}
    for pos in positions:
        frame[pos // 8] ^= 1 << (pos % 8)
    got = list(FrameReader().feed(bytes(frame) + b"\0"))
    # A flip can create a zero and split the frame, but no piece may pass as a payload.
    assert all(isinstance(g, FrameFault) for g in got), got


@FUZZ
@given(payloads, st.integers(0, 10_000), st.integers(1, 8))
def test_dropped_bytes_are_detected(payload: bytes, where: int, count: int) -> None:
    frame = encode_frame(payload)[:-1]
    at = where % len(frame)
    cut = frame[:at] + frame[at + count:]
    assert all(isinstance(g, FrameFault) for g in FrameReader().feed(cut + b"\0"))


@FUZZ
@given(st.binary(max_size=2000))
def test_reader_never_crashes_on_noise_and_recovers(noise: bytes) -> None:
    reader = FrameReader()
    for item in reader.feed(noise):
        assert isinstance(item, (bytes, FrameFault))
    # After any noise, one delimiter resynchronises: the next frame is read intact.
    assert list(reader.feed(b"\0" + encode_frame(b"\x02\x01")))[-1] == b"\x02\x01"
