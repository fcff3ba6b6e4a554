"""Framing: CRC-16/CCITT-FALSE and COBS, pure functions shared bit for bit with the firmware.

A frame on the wire is ``COBS(payload + crc16_be(payload)) + b"\\x00"``. COBS removes every
zero byte from the frame, so 0x00 always means "frame ends here": a receiver that lost sync or
saw line noise recovers at the next zero. The CRC catches what COBS cannot (flipped bits,
dropped or inserted bytes); a frame that fails either check is dropped, never acted on.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterator
from dataclasses import dataclass

from cobs import cobs as _cobs

from firmware_bridge.errors import BridgeError

DELIMITER = 0x00
# type + seq + body + CRC; the firmware's receive buffer is sized for this (firmware/proto.h).
MAX_FRAME_PAYLOAD = 128
MAX_ENCODED = MAX_FRAME_PAYLOAD + MAX_FRAME_PAYLOAD // 254 + 2  # COBS overhead + delimiter


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): check("123456789")=0x29B1.
    ``crc``: the value so far, to go on over more data. The standard library's CRC-CCITT in
    C; the firmware computes the same bit by bit (proto.c, ``fw_crc16``)."""
    if not 0 <= crc <= 0xFFFF:
        raise BridgeError(f"CRC start value {crc:#x} is not 16 bits")
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing (canonical form): the result has no zero byte.

    The ``cobs`` package (C), which is the firmware's COBS: a run of 254 non-zero bytes is a
    0xFF block with no zero after it, and one that ends the data is not followed by an
    empty block. The 0x00 delimiter is not COBS's: :func:`encode_frame` adds it."""
    return bytes(_cobs.encode(data))


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises BridgeError on a zero byte or a short block."""
    try:
        return bytes(_cobs.decode(data))
    except _cobs.DecodeError as exc:
        shown = data[:16].hex(" ") + (" ..." if len(data) > 16 else "")
        raise BridgeError(f"COBS: {exc} ({len(data)} bytes: {shown})") from None


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
