"""The wire protocol's messages: pure encode/decode of frame payloads (see docs/protocol.md).

A payload is ``type, seq, body``. ``seq`` is the sender's 8-bit message counter: the host's
``seq`` is what the board acknowledges; the board's is informational. Every decoder checks the
exact body length and every value's range, so a frame that passed the CRC by chance still has to
be a well-formed message before anything acts on it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TypeVar

from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import MAX_FRAME_PAYLOAD, encode_frame

PROTOCOL_VERSION = 2    # the newest this host speaks; it falls back to older boards' versions
MIN_PROTOCOL_VERSION = 1
PIECEPACK_PROTOCOL = 2  # the first version with the piecepack die (docs/protocol.md, Versions)
BAUD = 115200
MAX_LEDS = 128          # the firmware's frame buffers are sized for this many strip LEDs
PALETTE_SIZE = 16       # colours are 4-bit palette indices: two LEDs per byte
MAX_BODY = MAX_FRAME_PAYLOAD - 4   # minus type, seq and CRC
EVENT_RING = 16         # events the board keeps for replay after a reconnect


class MsgType(enum.IntEnum):
    # host -> board (each one acknowledged)
    HELLO = 0x01
    PING = 0x02
    SET_PALETTE = 0x03
    SET_LEDS = 0x04
    SET_RANGE = 0x05
    FILL = 0x06
    SET_EFFECT = 0x07
    BRIGHTNESS = 0x08
    STATUS_LEDS = 0x09
    DIE_MODE = 0x0A
    EVENTS_SINCE = 0x0B
    # board -> host
    ACK = 0x80
    EVENT = 0x81
    HEARTBEAT = 0x82
    ERROR = 0x83


class Code(enum.IntEnum):
    """Result codes in ACK and ERROR messages."""

    OK = 0
    BAD_CRC = 1
    BAD_FRAME = 2
    UNKNOWN_TYPE = 3
    BAD_LENGTH = 4
    BAD_VALUE = 5
    BAD_VERSION = 6
    OVERFLOW = 7
    WATCHDOG_RESET = 8
    EVENTS_LOST = 9
    NOT_READY = 10


class Effect(enum.IntEnum):
    STEADY = 0
    BLINK = 1
    PULSE = 2


class DieMode(enum.IntEnum):
    """The die's mode; a roll's EVENT carries it as ``a`` (the number of faces)."""

    OFF = 0
    D4 = 4
    PIECEPACK = 6   # faces null, ace, 2..5, rolled as 0..5 (Telic); protocol version 2 on
    D8 = 8


# Piecepack faces by roll value: null is the blank face (0), ace is 1.
PIECEPACK_FACES = ("null", "ace", "2", "3", "4", "5")


def roll_values(mode: DieMode) -> range:
    """The values a roll in ``mode`` can take: 0..5 for piecepack, 1..N for a dN."""
    if mode is DieMode.OFF:
        raise BridgeError("the die is off: it has no roll values")
    return range(len(PIECEPACK_FACES)) if mode is DieMode.PIECEPACK else range(1, mode + 1)


def piecepack_face(value: int) -> str:
    """The name of a piecepack roll value: 0 "null", 1 "ace", 2..5 "2".."5"."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise BridgeError(f"piecepack roll value {value!r} is not 0..5")
    return PIECEPACK_FACES[value]


def piecepack_value(face: str) -> int:
    """The roll value of a piecepack face named as :func:`piecepack_face` names it
    (any case): "null" 0, "ace" 1, "2".."5" 2..5."""
    name = face.lower() if isinstance(face, str) else None
    if name not in PIECEPACK_FACES:
        raise BridgeError(f"{face!r} is not a piecepack face (null, ace, 2, 3, 4, 5)")
    return PIECEPACK_FACES.index(name)


def min_protocol_for(mode: DieMode) -> int:
    """The first protocol version that has die mode ``mode``."""
    return PIECEPACK_PROTOCOL if mode is DieMode.PIECEPACK else MIN_PROTOCOL_VERSION


class EventKind(enum.IntEnum):
    ROLL = 1
    BUTTON = 2


def _u16(body: bytes, at: int) -> int:
    return (body[at] << 8) | body[at + 1]


def _be16(value: int) -> bytes:
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise BridgeError(what)


def pack_nibbles(colors: tuple[int, ...]) -> bytes:
    """Two palette indices per byte, the lower-numbered LED in the low nibble."""
    out = bytearray((len(colors) + 1) // 2)
    for i, c in enumerate(colors):
        out[i // 2] |= (c & 0x0F) << (4 * (i % 2))
    return bytes(out)


def unpack_nibbles(data: bytes, count: int) -> tuple[int, ...]:
    return tuple((data[i // 2] >> (4 * (i % 2))) & 0x0F for i in range(count))


# --- host -> board -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello:
    """Handshake: the host's protocol version and the strip's size (board + status LEDs)."""

    version: int
    led_count: int
    status_base: int
    TYPE = MsgType.HELLO


@dataclass(frozen=True, slots=True)
class Ping:
    TYPE = MsgType.PING


@dataclass(frozen=True, slots=True)
class SetPalette:
    start: int
    colors: tuple[tuple[int, int, int], ...]
    TYPE = MsgType.SET_PALETTE


@dataclass(frozen=True, slots=True)
class SetLeds:
    """Some LEDs, each by strip index, to a palette colour."""

    pairs: tuple[tuple[int, int], ...]
    TYPE = MsgType.SET_LEDS


@dataclass(frozen=True, slots=True)
class SetRange:
    """A run of LEDs from ``start``, packed two per byte: 64 spaces take a 34-byte body."""

    start: int
    colors: tuple[int, ...]
    TYPE = MsgType.SET_RANGE


@dataclass(frozen=True, slots=True)
class Fill:
    color: int
    TYPE = MsgType.FILL


@dataclass(frozen=True, slots=True)
class SetEffect:
    """Blink or pulse the listed LEDs (STEADY stops it); the period applies to all of them."""

    effect: Effect
    period_cs: int  # centiseconds, 1..255
    indices: tuple[int, ...]
    TYPE = MsgType.SET_EFFECT


@dataclass(frozen=True, slots=True)
class Brightness:
    level: int
    TYPE = MsgType.BRIGHTNESS


@dataclass(frozen=True, slots=True)
class StatusLeds:
    """The status LEDs (from the handshake's ``status_base``), in order."""

    colors: tuple[int, ...]
    TYPE = MsgType.STATUS_LEDS


@dataclass(frozen=True, slots=True)
class SetDieMode:
    mode: DieMode
    TYPE = MsgType.DIE_MODE


# Event sequence numbers run 1, 2, ... 65535 and then 1 again (0: no event yet). Which of two
# is later is serial-number arithmetic (RFC 1982) over that circle: the one less than half the
# circle ahead, so the board's 65,536th roll follows its 65,535th instead of looking old.
EVENT_SEQ_SPAN = 0xFFFF
EVENT_SEQ_HALF = EVENT_SEQ_SPAN // 2


def next_event_seq(seq: int) -> int:
    """The event number after ``seq`` (1 after 65535; 1 after 0, no event yet)."""
    return seq % EVENT_SEQ_SPAN + 1


def previous_event_seq(seq: int) -> int:
    """The event number before ``seq`` (65535 before 1)."""
    return (seq - 2) % EVENT_SEQ_SPAN + 1


def events_after(since: int, seq: int) -> int:
    """How many steps event ``seq`` lies after event ``since`` round the circle (0: the same;
    from 0, no event yet, ``seq`` itself)."""
    return seq if since == 0 else (seq - since) % EVENT_SEQ_SPAN


def event_seq_after(seq: int, since: int) -> bool:
    """Whether event ``seq`` comes after event ``since`` (RFC 1982: less than half the
    circle ahead). Every event comes after 0, no event yet."""
    return seq != 0 and (since == 0 or 0 < events_after(since, seq) <= EVENT_SEQ_HALF)


@dataclass(frozen=True, slots=True)
class EventsSince:
    """Resend every kept event that comes after event ``seq`` (:func:`event_seq_after`)."""

    seq: int
    TYPE = MsgType.EVENTS_SINCE


# --- board -> host -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ack:
    acked_seq: int
    code: Code
    extra: bytes = b""
    TYPE = MsgType.ACK


@dataclass(frozen=True, slots=True)
class HelloInfo:
    """The extra bytes of the ACK to a HELLO."""

    version: int
    fw_major: int
    fw_minor: int
    max_leds: int
    boot_id: int
    last_event_seq: int

    def to_bytes(self) -> bytes:
        return (bytes((self.version, self.fw_major, self.fw_minor, self.max_leds))
                + _be16(self.boot_id) + _be16(self.last_event_seq))

    @classmethod
    def from_bytes(cls, data: bytes) -> HelloInfo:
        _check(len(data) == 8, f"HELLO info of {len(data)} bytes; expected 8")
        return cls(data[0], data[1], data[2], data[3], _u16(data, 4), _u16(data, 6))


@dataclass(frozen=True, slots=True)
class Event:
    """A die roll (``a`` = the die mode, ``b`` = a value of :func:`roll_values`) or a button
    press (``a`` = button)."""

    seq: int
    kind: EventKind
    a: int
    b: int
    TYPE = MsgType.EVENT


@dataclass(frozen=True, slots=True)
class Heartbeat:
    boot_id: int
    last_event_seq: int
    uptime_s: int
    rx_errors: int
    TYPE = MsgType.HEARTBEAT


@dataclass(frozen=True, slots=True)
class ErrorReport:
    code: Code
    detail: int
    TYPE = MsgType.ERROR


Message = (Hello | Ping | SetPalette | SetLeds | SetRange | Fill | SetEffect | Brightness
           | StatusLeds | SetDieMode | EventsSince | Ack | Event | Heartbeat | ErrorReport)


@dataclass(frozen=True, slots=True)
class Packet:
    seq: int
    message: Message = field()


def encode_body(msg: Message) -> bytes:
    """The body bytes of a message; raises BridgeError for out-of-range fields."""
    match msg:
        case Hello(version, led_count, status_base):
            _check(0 < led_count <= MAX_LEDS and 0 <= status_base <= led_count
                   and 0 <= version <= 255, f"bad HELLO {msg}")
            return bytes((version, led_count, status_base))
        case Ping():
            return b""
        case SetPalette(start, colors):
            _check(bool(colors) and start >= 0 and start + len(colors) <= PALETTE_SIZE
                   and all(0 <= v <= 255 for c in colors for v in c)
                   and all(len(c) == 3 for c in colors), f"bad palette update {msg}")
            return bytes([start, *(v for c in colors for v in c)])
        case SetLeds(pairs):
            _check(0 < len(pairs) <= MAX_BODY // 2, f"{len(pairs)} LEDs in one SET_LEDS")
            _check(all(0 <= i < MAX_LEDS and 0 <= c < PALETTE_SIZE for i, c in pairs),
                   f"bad LED/colour pair in {pairs}")
            return bytes(v for p in pairs for v in p)
        case SetRange(start, colors):
            _check(bool(colors) and start >= 0 and start + len(colors) <= MAX_LEDS
                   and all(0 <= c < PALETTE_SIZE for c in colors), f"bad SET_RANGE {msg}")
            return bytes((start, len(colors))) + pack_nibbles(colors)
        case Fill(color) | Brightness(color):
            _check(0 <= color < (PALETTE_SIZE if isinstance(msg, Fill) else 256),
                   f"bad value {color} in {msg}")
            return bytes((color,))
        case SetEffect(effect, period_cs, indices):
            _check(1 <= period_cs <= 255, f"effect period {period_cs} cs; must be 1..255")
            _check(len(indices) <= MAX_BODY - 2 and all(0 <= i < MAX_LEDS for i in indices),
                   f"bad LED indices {indices}")
            return bytes((Effect(effect), period_cs, *indices))
        case StatusLeds(colors):
            _check(bool(colors) and len(colors) <= MAX_LEDS
                   and all(0 <= c < PALETTE_SIZE for c in colors), f"bad STATUS_LEDS {msg}")
            return bytes((len(colors),)) + pack_nibbles(colors)
        case SetDieMode(mode):
            return bytes((DieMode(mode),))
        case EventsSince(seq):
            _check(0 <= seq <= 0xFFFF, f"event seq {seq} out of range")
            return _be16(seq)
        case Ack(acked_seq, code, extra):
            return bytes((acked_seq, Code(code))) + extra
        case Event(seq, kind, a, b):
            return _be16(seq) + bytes((EventKind(kind), a, b))
        case Heartbeat(boot_id, last_event_seq, uptime_s, rx_errors):
            return _be16(boot_id) + _be16(last_event_seq) + _be16(uptime_s) + bytes((rx_errors,))
        case ErrorReport(code, detail):
            return bytes((Code(code), detail))
    raise BridgeError(f"not a message: {msg!r}")


def encode_payload(msg: Message, seq: int) -> bytes:
    body = encode_body(msg)
    _check(len(body) <= MAX_BODY, f"body of {len(body)} bytes; maximum {MAX_BODY}")
    _check(0 <= seq <= 255, f"seq {seq} out of range 0..255")
    return bytes((msg.TYPE, seq)) + body


def encode_message(msg: Message, seq: int) -> bytes:
    """The frame (with CRC, COBS and delimiter) that carries ``msg``."""
    return encode_frame(encode_payload(msg, seq))


def _exact(body: bytes, n: int, name: str) -> None:
    _check(len(body) == n, f"{name} body of {len(body)} bytes; expected {n}")


_E = TypeVar("_E", bound=enum.IntEnum)


def _enum(cls: type[_E], value: int, name: str) -> _E:
    try:
        return cls(value)
    except ValueError:
        raise BridgeError(f"{name}: {value} is not a valid {cls.__name__}") from None


def decode_payload(payload: bytes) -> Packet:
    """The message in a CRC-checked payload; raises BridgeError unless it is well-formed."""
    _check(len(payload) >= 2, f"payload of {len(payload)} bytes; minimum 2")
    kind = _enum(MsgType, payload[0], "message type")
    seq, body = payload[1], payload[2:]
    n = len(body)
    msg: Message
    match kind:
        case MsgType.HELLO:
            _exact(body, 3, "HELLO")
            _check(0 < body[1] <= MAX_LEDS and body[2] <= body[1], f"bad HELLO {body.hex()}")
            msg = Hello(body[0], body[1], body[2])
        case MsgType.PING:
            _exact(body, 0, "PING")
            msg = Ping()
        case MsgType.SET_PALETTE:
            _check(n >= 4 and (n - 1) % 3 == 0, f"SET_PALETTE body of {n} bytes")
            count = (n - 1) // 3
            _check(body[0] + count <= PALETTE_SIZE, f"palette entries {body[0]}+{count}")
            msg = SetPalette(body[0], tuple(tuple(body[1 + 3 * i:4 + 3 * i])  # type: ignore[misc]
                                            for i in range(count)))
        case MsgType.SET_LEDS:
            _check(n >= 2 and n % 2 == 0, f"SET_LEDS body of {n} bytes")
            pairs = tuple((body[i], body[i + 1]) for i in range(0, n, 2))
            _check(all(i < MAX_LEDS and c < PALETTE_SIZE for i, c in pairs),
                   f"bad SET_LEDS pairs {body.hex()}")
            msg = SetLeds(pairs)
        case MsgType.SET_RANGE:
            _check(n >= 3, f"SET_RANGE body of {n} bytes")
            start, count = body[0], body[1]
            _check(count > 0 and start + count <= MAX_LEDS, f"SET_RANGE {start}+{count}")
            _exact(body, 2 + (count + 1) // 2, "SET_RANGE")
            _check(count % 2 == 0 or body[-1] >> 4 == 0, "SET_RANGE: padding nibble not zero")
            msg = SetRange(start, unpack_nibbles(body[2:], count))
        case MsgType.FILL:
            _exact(body, 1, "FILL")
            _check(body[0] < PALETTE_SIZE, f"FILL colour {body[0]}")
            msg = Fill(body[0])
        case MsgType.SET_EFFECT:
            _check(n >= 2 and body[1] >= 1, f"SET_EFFECT body {body.hex()}")
            _check(all(i < MAX_LEDS for i in body[2:]), f"SET_EFFECT indices {body.hex()}")
            msg = SetEffect(_enum(Effect, body[0], "effect"), body[1], tuple(body[2:]))
        case MsgType.BRIGHTNESS:
            _exact(body, 1, "BRIGHTNESS")
            msg = Brightness(body[0])
        case MsgType.STATUS_LEDS:
            _check(n >= 2 and 0 < body[0] <= MAX_LEDS, f"STATUS_LEDS body {body.hex()}")
            _exact(body, 1 + (body[0] + 1) // 2, "STATUS_LEDS")
            _check(body[0] % 2 == 0 or body[-1] >> 4 == 0, "STATUS_LEDS: padding not zero")
            msg = StatusLeds(unpack_nibbles(body[1:], body[0]))
        case MsgType.DIE_MODE:
            _exact(body, 1, "DIE_MODE")
            msg = SetDieMode(_enum(DieMode, body[0], "die mode"))
        case MsgType.EVENTS_SINCE:
            _exact(body, 2, "EVENTS_SINCE")
            msg = EventsSince(_u16(body, 0))
        case MsgType.ACK:
            _check(n >= 2, f"ACK body of {n} bytes")
            msg = Ack(body[0], _enum(Code, body[1], "ACK code"), bytes(body[2:]))
        case MsgType.EVENT:
            _exact(body, 5, "EVENT")
            ev_kind = _enum(EventKind, body[2], "event kind")
            if ev_kind is EventKind.ROLL:
                _check(body[3] in _ROLL_MODES and body[4] in roll_values(DieMode(body[3])),
                       f"bad roll {body.hex()}")
            msg = Event(_u16(body, 0), ev_kind, body[3], body[4])
        case MsgType.HEARTBEAT:
            _exact(body, 7, "HEARTBEAT")
            msg = Heartbeat(_u16(body, 0), _u16(body, 2), _u16(body, 4), body[6])
        case MsgType.ERROR:
            _exact(body, 2, "ERROR")
            msg = ErrorReport(_enum(Code, body[0], "error code"), body[1])
    return Packet(seq, msg)


_ROLL_MODES = frozenset(int(m) for m in DieMode if m is not DieMode.OFF)
