"""Framing: CRC-16/CCITT-FALSE and COBS, pure functions shared bit for bit with the firmware.

A frame on the wire is ``COBS(payload + crc16_be(payload)) + b"\\x00"``. COBS removes every
zero byte from the frame, so 0x00 always means "frame ends here": a receiver that lost sync or
saw line noise recovers at the next zero. The CRC catches what COBS cannot (flipped bits,
dropped or inserted bytes); a frame that fails either check is dropped, never acted on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from firmware_bridge.errors import BridgeError

DELIMITER = 0x00
# type + seq + body + CRC; the firmware's receive buffer is sized for this (firmware/proto.h).
MAX_FRAME_PAYLOAD = 128
MAX_ENCODED = MAX_FRAME_PAYLOAD + MAX_FRAME_PAYLOAD // 254 + 2  # COBS overhead + delimiter


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): check("123456789")=0x29B1."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing (canonical form): the result has no zero byte."""
    out = bytearray()
    parts = data.split(b"\x00")
    for k, part in enumerate(parts):
        while len(part) >= 254:
            out += b"\xff" + part[:254]
            part = part[254:]
            if not part and k == len(parts) - 1:
                return bytes(out)   # a full block ends the data: no trailing empty block
        out.append(len(part) + 1)
        out += part
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises BridgeError on a zero byte or a short block."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise BridgeError(f"COBS: zero byte at offset {i}")
        end = i + code
        if end > n:
            raise BridgeError(f"COBS: block of {code} at offset {i} runs past the end ({n})")
        block = data[i + 1:end]
        if 0 in block:
            raise BridgeError(f"COBS: zero byte inside the block at offset {i}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    """The bytes to send for one payload (type, seq, body): COBS(payload + CRC) + 0x00."""
    if not 2 <= len(payload) <= MAX_FRAME_PAYLOAD - 2:
        raise BridgeError(f"payload of {len(payload)} bytes; must be 2..{MAX_FRAME_PAYLOAD - 2}")
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(frame: bytes) -> bytes:
    """The payload of one frame without its delimiter; raises BridgeError if COBS or CRC fail."""
    raw = cobs_decode(frame)
    if len(raw) < 4:
        raise BridgeError(f"frame of {len(raw)} bytes is too short (minimum 4)")
    if len(raw) > MAX_FRAME_PAYLOAD:
        raise BridgeError(f"frame of {len(raw)} bytes is too long (maximum {MAX_FRAME_PAYLOAD})")
    payload, crc = raw[:-2], (raw[-2] << 8) | raw[-1]
    if crc16(payload) != crc:
        raise BridgeError(f"CRC mismatch: got {crc:#06x}, computed {crc16(payload):#06x}")
    return payload


@dataclass(frozen=True, slots=True)
class FrameFault:
    """A frame that was dropped, and why (for error counters and logs)."""

    reason: str
    raw: bytes


class FrameReader:
    """Stream splitter: feed it bytes as they arrive, get payloads and faults back.

    Bytes after an over-long run are discarded up to the next delimiter, so a flood of noise
    costs bounded memory and the next good frame is read normally.
    """

    __slots__ = ("_buf", "_overflow")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> Iterator[bytes | FrameFault]:
        for byte in data:
            if byte != DELIMITER:
                if len(self._buf) < MAX_ENCODED:
                    self._buf.append(byte)
                else:
                    self._overflow = True
                continue
            raw, overflow = bytes(self._buf), self._overflow
            self._buf.clear()
            self._overflow = False
            if overflow:
                yield FrameFault("frame too long", raw)
            elif raw:  # back-to-back delimiters are idle fill, not an error
                try:
                    yield decode_frame(raw)
                except BridgeError as exc:
                    yield FrameFault(str(exc), raw)
