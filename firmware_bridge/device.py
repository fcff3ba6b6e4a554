"""The board's side of the protocol in Python: the reference model of the firmware.

``DeviceCore`` is pure (no I/O, no clock): bytes in, frames out, state changes logged. The
virtual device wraps it in a pseudo-terminal; the fuzz tests run it and the firmware's own C
parser on the same byte streams and require the same actions.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.colors import DEFAULT_PALETTE
from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameFault, FrameReader
from firmware_bridge.protocol import (
    EVENT_RING,
    MAX_LEDS,
    MIN_PROTOCOL_VERSION,
    PIECEPACK_PROTOCOL,
    PROTOCOL_VERSION,
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
    Message,
    MsgType,
    Ping,
    SetDieMode,
    SetEffect,
    SetLeds,
    SetPalette,
    SetRange,
    StatusLeds,
    decode_payload,
    encode_message,
    event_seq_after,
    min_protocol_for,
    next_event_seq,
    roll_values,
)

# The firmware release that speaks up to each protocol version (firmware/proto.h).
FW_VERSIONS = {1: (1, 0), 2: (1, 1)}
FW_VERSION = FW_VERSIONS[PROTOCOL_VERSION]
# Host messages that are safe to repeat and so skip the duplicate-seq check.
_REPEATABLE = (MsgType.HELLO, MsgType.PING, MsgType.EVENTS_SINCE)


@dataclass(frozen=True, slots=True)
class LedState:
    """What the strip should show, as the board holds it (comparable between implementations)."""

    led_count: int
    status_base: int
    colors: tuple[int, ...]
    effects: tuple[int, ...]
    palette: tuple[tuple[int, int, int], ...]
    brightness: int
    blink_cs: int
    pulse_cs: int
    die_mode: int


class DeviceCore:
    """Parses host frames, applies valid messages, acknowledges, keeps the last events.

    ``protocol`` is the newest version the board speaks: 1 models a board still on firmware
    1.0 (no piecepack die), for the host's fallback.
    """

    def __init__(self, boot_id: int | None = None, *, protocol: int = PROTOCOL_VERSION) -> None:
        if protocol not in FW_VERSIONS:
            raise BridgeError(f"no firmware speaks protocol version {protocol}; "
                              f"{MIN_PROTOCOL_VERSION}..{PROTOCOL_VERSION} do")
        self.max_protocol = protocol
        self.fw_version = FW_VERSIONS[protocol]
        self.protocol = 0           # the version of the last good HELLO; 0 until one
        self.boot_id = random.getrandbits(16) if boot_id is None else boot_id
        self._reader = FrameReader()
        self.led_count = 0          # 0 until a HELLO: commands before it get NOT_READY
        self.status_base = 0
        self.colors = [0] * MAX_LEDS
        self.effects = [0] * MAX_LEDS
        self.palette = list(DEFAULT_PALETTE)
        self.brightness = 64
        self.periods = {Effect.BLINK: 50, Effect.PULSE: 150}
        self.die_mode = DieMode.OFF
        self.events: deque[Event] = deque(maxlen=EVENT_RING)
        self.last_event_seq = 0
        self.last_seq: int | None = None
        self.last_code = Code.OK
        self.tx_seq = 0
        self.rx_errors = 0
        self.applied: list[Message] = []   # every state change, in order (for tests)
        # Called with each applied message and each new event, on the caller's thread (the
        # virtual board's, under its lock): how a display follows the board without polling.
        self.observers: list[Callable[[Message], None]] = []

    # --- output ----------------------------------------------------------------------------
    def _frame(self, msg: Message) -> bytes:
        self.tx_seq = (self.tx_seq + 1) & 0xFF
        return encode_message(msg, self.tx_seq)

    def heartbeat(self, uptime_s: int) -> bytes:
        return self._frame(Heartbeat(self.boot_id, self.last_event_seq, uptime_s & 0xFFFF,
                                     self.rx_errors))

    def push_event(self, kind: EventKind, a: int, b: int) -> bytes:
        """Record an event in the ring and return its frame (sent at once, kept for replay)."""
        self.last_event_seq = next_event_seq(self.last_event_seq)
        event = Event(self.last_event_seq, kind, a, b)
        self.events.append(event)
        self._notify(event)
        return self._frame(event)

    def _notify(self, msg: Message) -> None:
        for observer in self.observers:
            observer(msg)

    def press_button(self, rng: random.Random) -> bytes:
        """A debounced press: a roll in a die mode (uniform by ``rng``), else a button event."""
        if self.die_mode is DieMode.OFF:
            return self.push_event(EventKind.BUTTON, 0, 1)
        values = roll_values(self.die_mode)
        return self.push_event(EventKind.ROLL, int(self.die_mode),
                               values[rng.randrange(len(values))])

    # --- input -----------------------------------------------------------------------------
    def feed(self, data: bytes) -> list[bytes]:
        """Bytes from the host in, frames for the host out."""
        out: list[bytes] = []
        for item in self._reader.feed(data):
            if isinstance(item, FrameFault):
                self.rx_errors = min(self.rx_errors + 1, 255)
                code = Code.OVERFLOW if item.reason == "frame too long" else (
                    Code.BAD_CRC if item.reason.startswith("CRC") else Code.BAD_FRAME)
                out.append(self._frame(ErrorReport(code, 0)))
            else:
                out.extend(self._handle(item))
        return out

    def _handle(self, payload: bytes) -> list[bytes]:
        seq = payload[1]
        if payload[0] not in _HOST_TYPES:
            return [self._frame(Ack(seq, Code.UNKNOWN_TYPE))]
        try:
            msg = decode_payload(payload).message
        except BridgeError:
            return [self._frame(Ack(seq, Code.BAD_VALUE))]
        if isinstance(msg, SetDieMode) and min_protocol_for(msg.mode) > self.max_protocol:
            return [self._frame(Ack(seq, Code.BAD_VALUE))]   # a mode its firmware never knew
        kind = msg.TYPE
        if kind not in _REPEATABLE and self.led_count and seq == self.last_seq:
            return [self._frame(Ack(seq, self.last_code))]   # a retry: answer, don't redo
        code, extra, after = self._apply(msg)
        if kind not in _REPEATABLE or (kind is MsgType.HELLO and code is Code.OK):
            self.last_seq, self.last_code = seq, code
        # the ACK first, then what follows it, numbered in the order sent (as the firmware does)
        ack = self._frame(Ack(seq, code, extra))
        return [ack, *(self._frame(m) for m in after)]

    def _apply(self, msg: Message) -> tuple[Code, bytes, list[Message]]:
        if isinstance(msg, Hello):
            if not MIN_PROTOCOL_VERSION <= msg.version <= self.max_protocol:
                # the newest version it speaks: a newer host falls back to it
                return Code.BAD_VERSION, bytes((self.max_protocol,)), []
            self.protocol = msg.version              # the session speaks the host's version
            if self.protocol < PIECEPACK_PROTOCOL and self.die_mode is DieMode.PIECEPACK:
                self.die_mode = DieMode.OFF          # a version 1 host cannot read its rolls
            self.led_count, self.status_base = msg.led_count, msg.status_base
            self.applied.append(msg)
            self._notify(msg)
            info = HelloInfo(self.protocol, *self.fw_version, MAX_LEDS, self.boot_id,
                             self.last_event_seq)
            return Code.OK, info.to_bytes(), []
        if isinstance(msg, Ping):
            return Code.OK, b"", []
        if not self.led_count:
            return Code.NOT_READY, b"", []
        if isinstance(msg, EventsSince):
            kept = [e for e in self.events if event_seq_after(e.seq, msg.seq)]
            oldest = self.events[0].seq if self.events else next_event_seq(self.last_event_seq)
            extra = bytes(((oldest >> 8) & 0xFF, oldest & 0xFF, len(kept)))
            return Code.OK, extra, list(kept)
        n = self.led_count
        match msg:
            case SetPalette(start, colors):
                self.palette[start:start + len(colors)] = colors
            case SetLeds(pairs):
                if any(i >= n for i, _ in pairs):
                    return Code.BAD_VALUE, b"", []
                for i, c in pairs:
                    self.colors[i] = c
            case SetRange(start, colors):
                if start + len(colors) > n:
                    return Code.BAD_VALUE, b"", []
                self.colors[start:start + len(colors)] = colors
            case Fill(color):
                self.colors[:n] = [color] * n
            case SetEffect(effect, period_cs, indices):
                if any(i >= n for i in indices):
                    return Code.BAD_VALUE, b"", []
                if effect is not Effect.STEADY:
                    self.periods[effect] = period_cs
                for i in indices:
                    self.effects[i] = int(effect)
            case Brightness(level):
                self.brightness = level
            case StatusLeds(colors):
                if self.status_base + len(colors) > n:
                    return Code.BAD_VALUE, b"", []
                self.colors[self.status_base:self.status_base + len(colors)] = colors
            case SetDieMode(mode):
                if min_protocol_for(mode) > self.protocol:
                    return Code.BAD_VALUE, b"", []      # as a board of that version answers
                self.die_mode = mode
        self.applied.append(msg)
        self._notify(msg)
        return Code.OK, b"", []

    def state(self) -> LedState:
        return LedState(self.led_count, self.status_base, tuple(self.colors),
                        tuple(self.effects), tuple(self.palette), self.brightness,
                        self.periods[Effect.BLINK], self.periods[Effect.PULSE],
                        int(self.die_mode))


_HOST_TYPES = frozenset(int(t) for t in MsgType if t < 0x80)
