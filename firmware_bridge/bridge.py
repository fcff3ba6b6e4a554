"""The public API: ``Bridge.open(port)``, ``show``, ``flash``, ``die_rolls``, ``status``.

Every call returns at once: it changes the *desired* state and wakes the bridge's worker
thread, which owns the port. The worker sends one command at a time, waits for its ACK (or
retries), and keeps a mirror of what the board has confirmed; the difference between desired and
confirmed is what it sends next. So after an unplug, a board reset or a reconnect it only has to
forget the mirror, and the last desired picture is restored by itself.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from firmware_bridge.colors import DEFAULT_PALETTE, Color
from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameFault
from firmware_bridge.layout import LedLayout
from firmware_bridge.ports import find_port
from firmware_bridge.protocol import (
    EVENT_SEQ_HALF,
    MAX_BODY,
    MIN_PROTOCOL_VERSION,
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
    Heartbeat,
    Hello,
    HelloInfo,
    Message,
    Packet,
    SetDieMode,
    SetEffect,
    SetLeds,
    SetPalette,
    SetRange,
    StatusLeds,
    encode_message,
    event_seq_after,
    events_after,
    min_protocol_for,
    next_event_seq,
    piecepack_face,
    previous_event_seq,
)
from firmware_bridge.transport import Incoming, LinkLost, SerialTransport

log = logging.getLogger(__name__)


class LinkState(enum.Enum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class DieRoll:
    """A roll of the board's die: ``sides`` is its mode (4, 8, or 6 for the piecepack die),
    ``value`` 1..sides, or 0..5 on the piecepack die (see :attr:`face`)."""

    sides: int
    value: int
    seq: int

    @property
    def face(self) -> str:
        """The face as players name it: "null", "ace", "2".."5" on the piecepack die, the
        number on a d4 or d8."""
        return piecepack_face(self.value) if self.sides == DieMode.PIECEPACK else str(self.value)


@dataclass(frozen=True, slots=True)
class ButtonPress:
    button: int
    seq: int


@dataclass(frozen=True, slots=True)
class BridgeStatus:
    state: LinkState
    port: str | None
    firmware: str | None = None
    boot_id: int | None = None
    last_event_seq: int = 0
    retries: int = 0
    bad_frames: int = 0
    lost_events: int = 0
    reconnects: int = 0
    in_sync: bool = False
    last_error: str = ""
    protocol: int | None = None       # the version the last handshake settled on


@dataclass(frozen=True, slots=True)
class Timing:
    """How patient the bridge is (seconds); tests shorten these."""

    ack_timeout: float = 0.15
    retries: int = 5
    silence: float = 2.5          # no frame at all for this long: the link is down
    reconnect: float = 0.5


@dataclass(slots=True)
class _Picture:
    """LED state as the host wants it, or as the board confirmed it (None = unknown)."""

    colors: list[int | None]
    effects: list[int | None]
    periods: dict[Effect, int | None] = field(default_factory=dict)
    palette: list[tuple[int, int, int] | None] = field(default_factory=list)
    brightness: int | None = None
    die_mode: DieMode | None = None

    @classmethod
    def unknown(cls, n: int) -> _Picture:
        return cls([None] * n, [None] * n, {Effect.BLINK: None, Effect.PULSE: None},
                   [None] * len(DEFAULT_PALETTE))

    def copy(self) -> _Picture:
        return _Picture(list(self.colors), list(self.effects), dict(self.periods),
                        list(self.palette), self.brightness, self.die_mode)

    def apply(self, msg: Message, status_base: int) -> None:
        """What the board now shows after acknowledging ``msg``."""
        match msg:
            case SetPalette(start, colors):
                self.palette[start:start + len(colors)] = colors
            case SetLeds(pairs):
                for i, c in pairs:
                    self.colors[i] = c
            case SetRange(start, colors):
                self.colors[start:start + len(colors)] = colors
            case StatusLeds(colors):
                self.colors[status_base:status_base + len(colors)] = colors
            case SetEffect(effect, period, indices):
                if effect is not Effect.STEADY:
                    self.periods[effect] = period
                for i in indices:
                    self.effects[i] = int(effect)
            case Brightness(level):
                self.brightness = level
            case SetDieMode(mode):
                self.die_mode = mode


def next_command(want: _Picture, have: _Picture, status_base: int,
                 protocol: int = PROTOCOL_VERSION) -> Message | None:
    """The one message that brings ``have`` closest to ``want`` on a board that speaks
    ``protocol`` (pure; table-tested)."""
    pal = [i for i, c in enumerate(want.palette) if c != have.palette[i]]
    if pal:
        lo, hi = min(pal), max(pal)
        return SetPalette(lo, tuple(c for c in want.palette[lo:hi + 1] if c is not None))
    die = want.die_mode
    if die is not None and protocol < min_protocol_for(die):
        die = DieMode.OFF                      # too old for it: no die, not another die's rolls
    if have.die_mode != die and die is not None:
        return SetDieMode(die)                 # first: a roll during the restore stays a roll
    if have.brightness != want.brightness and want.brightness is not None:
        return Brightness(want.brightness)
    changed = [i for i, c in enumerate(want.colors) if c != have.colors[i]]
    if changed:
        lo, hi = min(changed), max(changed)
        if len(changed) <= 6:
            return SetLeds(tuple((i, want.colors[i] or 0) for i in changed))
        if lo >= status_base:
            return StatusLeds(tuple(c or 0 for c in want.colors[status_base:hi + 1]))
        return SetRange(lo, tuple(c or 0 for c in want.colors[lo:hi + 1]))
    for effect in (Effect.BLINK, Effect.PULSE):
        period = want.periods[effect]
        if period is not None and have.periods[effect] != period:
            return SetEffect(effect, period, ())
    moved = [i for i, e in enumerate(want.effects) if e != have.effects[i]]
    if moved:
        effect = Effect(want.effects[moved[0]] or 0)
        group = [i for i in moved if want.effects[i] == effect][:MAX_BODY - 2]
        return SetEffect(effect, want.periods.get(effect) or 1, tuple(group))
    return None


def fallback_version(asked: int, ack: Ack) -> int | None:
    """The version to say HELLO in again after the board answered a HELLO in ``asked`` with
    ``ack`` (None: no retry). A board refuses a version it does not speak with BAD_VERSION and
    the newest one it does; the host falls back to that if it speaks it too (pure)."""
    if ack.code is not Code.BAD_VERSION or len(ack.extra) != 1:
        return None
    theirs = ack.extra[0]
    return theirs if MIN_PROTOCOL_VERSION <= theirs < asked else None


def too_old(mode: DieMode, firmware: str | None, protocol: int) -> str:
    """The one error for a die mode the board's firmware is too old for."""
    return (f"the board's firmware ({firmware or 'unknown'}, protocol {protocol}) is too old "
            f"for the {mode.name.lower()} die, which needs protocol "
            f"{min_protocol_for(mode)}: update the firmware (docs/hardware.md); "
            f"d4 and d8 still work")


def _refusal(ack: Ack) -> str:
    if ack.code is Code.BAD_VERSION and len(ack.extra) == 1:
        return (f"BAD_VERSION (the board speaks protocol {ack.extra[0]}, this host "
                f"{MIN_PROTOCOL_VERSION}..{PROTOCOL_VERSION})")
    return ack.code.name


_WAKE = object()


class _Restarted(BridgeError):
    """The board rebooted under us; the port is fine."""


class Bridge:
    """A link to the LED/die board that survives unplugging, resets and noise.

    Open it with :meth:`open`; it connects (and later reconnects) in the background.
    """

    def __init__(self, port: str | None, layout: LedLayout, timing: Timing) -> None:
        self.layout = layout
        self.timing = timing
        self._port_arg = port
        self._lock = threading.Lock()
        n = layout.led_count
        self._want = _Picture([0] * n, [0] * n, {Effect.BLINK: 50, Effect.PULSE: 150},
                              list(DEFAULT_PALETTE), 64, DieMode.OFF)
        self._have = _Picture.unknown(n)
        self._inbox: queue.Queue[object] = queue.Queue()
        self._events: queue.Queue[DieRoll | ButtonPress] = queue.Queue()
        self._callbacks: list[Callable[[DieRoll | ButtonPress], None]] = []
        self._status = BridgeStatus(LinkState.CONNECTING, port)
        self._transport: SerialTransport | None = None
        self._closed = threading.Event()
        self._synced = threading.Condition(self._lock)
        self._seq = 0
        self._protocol: int | None = None   # the connected board's version; None: not known
        self._boot_id: int | None = None
        self._last_event = 0
        self._last_heard = 0.0
        self._need_replay = False
        self._want_dirty = True
        self._worker = threading.Thread(target=self._run, name="bridge", daemon=True)

    # --- public API ------------------------------------------------------------------------
    @classmethod
    def open(cls, port: str | None = None, *, layout: LedLayout | None = None,
             timing: Timing | None = None) -> Bridge:
        """Start a bridge on ``port`` (None: find the board by USB id). Returns at once."""
        bridge = cls(port, layout or LedLayout.grid(), timing or Timing())
        bridge._worker.start()
        return bridge

    def show(self, board_colors: Mapping[str, Color]) -> None:
        """The whole board: listed spaces in their colour, steady; every other space off."""
        idx = {self.layout.index_of(s): c for s, c in board_colors.items()}
        with self._lock:
            for i in range(self.layout.status_base):
                self._want.colors[i] = idx.get(i, Color.OFF).value
                self._want.effects[i] = Effect.STEADY
        self._wake()

    def flash(self, squares: Iterable[str], color: Color, *, effect: Effect = Effect.BLINK,
              period: float = 0.5) -> None:
        """Blink (or pulse) some spaces or status LEDs in ``color``; ``period`` in seconds."""
        cs = _centiseconds(period)
        indices = self.layout.indices(squares)
        with self._lock:
            for i in indices:
                self._want.colors[i] = color.value
                self._want.effects[i] = int(effect)
            if effect is not Effect.STEADY:
                self._want.periods[effect] = cs
        self._wake()

    def set_status(self, name: str, color: Color, effect: Effect = Effect.STEADY) -> None:
        """One status LED (``turn_1``, ``vision``, ``marker_3``, ...; see the layout)."""
        self.flash([name], color, effect=effect,
                   period=(self._want.periods.get(effect) or 50) / 100)

    def set_leds(self, colors: Mapping[int, Color]) -> None:
        """Raw strip indices (the test pattern); other LEDs keep their colour."""
        with self._lock:
            for i, c in colors.items():
                if not 0 <= i < self.layout.led_count:
                    raise BridgeError(f"LED index {i} outside the strip of "
                                      f"{self.layout.led_count}")
                self._want.colors[i] = c.value
                self._want.effects[i] = Effect.STEADY
        self._wake()

    def clear(self) -> None:
        self.set_leds(dict.fromkeys(range(self.layout.led_count), Color.OFF))

    def brightness(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise BridgeError(f"brightness {level}; must be 0..255")
        with self._lock:
            self._want.brightness = level
        self._wake()

    def die_mode(self, mode: DieMode) -> None:
        """The die's mode. Raises BridgeError for a mode the connected board's firmware is
        too old for (the piecepack die needs protocol 2); d4 and d8 work on every board.
        While no board has answered any mode is taken; should the board prove too old for it,
        its die is turned off and ``status().last_error`` says why."""
        try:
            mode = DieMode(mode)
        except ValueError:
            raise BridgeError(f"die mode {mode!r} is not one of "
                              f"{', '.join(f'{m.name} ({m.value})' for m in DieMode)}") from None
        with self._lock:
            if self._protocol is not None and self._protocol < min_protocol_for(mode):
                raise BridgeError(too_old(mode, self._status.firmware, self._protocol))
            self._want.die_mode = mode
        self._wake()

    def on_event(self, callback: Callable[[DieRoll | ButtonPress], None]) -> None:
        """Call ``callback`` (on the bridge's thread) for every roll and button press."""
        with self._lock:
            self._callbacks.append(callback)

    def die_rolls(self, timeout: float | None = None) -> Iterator[DieRoll]:
        """Rolls as they come, each once and in order; stops after ``timeout`` s of quiet."""
        while not self._closed.is_set():
            try:
                item = self._events.get(timeout=timeout)
            except queue.Empty:
                return
            if isinstance(item, DieRoll):
                yield item

    def status(self) -> BridgeStatus:
        with self._lock:
            return self._status

    def wait_connected(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status().state is LinkState.CONNECTED:
                return True
            time.sleep(0.01)
        return False

    def sync(self, timeout: float = 2.0) -> bool:
        """Wait (not on a UI thread, please) until the board confirms the desired state."""
        deadline = time.monotonic() + timeout
        with self._synced:
            while not self._status.in_sync or self._want_dirty:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._synced.wait(left)
        return True

    def close(self) -> None:
        self._closed.set()
        self._wake()
        if threading.current_thread() is not self._worker:
            self._worker.join(timeout=2.0)
        with self._lock:
            self._set_status(state=LinkState.CLOSED)

    def __enter__(self) -> Bridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- worker ----------------------------------------------------------------------------
    def _wake(self) -> None:
        with self._lock:
            self._want_dirty = True
            self._status = _replace(self._status, in_sync=False)
        self._inbox.put(_WAKE)

    def _set_status(self, **changes: object) -> None:
        self._status = _replace(self._status, **changes)

    def _note(self, **changes: object) -> None:
        with self._lock:
            self._set_status(**changes)

    def _run(self) -> None:
        while not self._closed.is_set():
            try:
                if self._transport is None:
                    self._connect()
                self._handshake()
                self._serve()
            except _Restarted as exc:
                self._note(last_error=str(exc))     # same port: handshake again, restore
            except BridgeError as exc:
                self._drop_link(str(exc))
                self._closed.wait(self.timing.reconnect)
        self._drop_link("closed")

    def _drop_link(self, reason: str) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None
        with self._lock:
            self._have = _Picture.unknown(self.layout.led_count)
            self._protocol = None             # the next board may run other firmware
            if self._status.state is not LinkState.CLOSED:
                self._set_status(state=LinkState.DISCONNECTED, last_error=reason,
                                 in_sync=False)

    def _connect(self) -> None:
        port = find_port(self._port_arg)
        self._note(port=port)
        self._drain()
        self._transport = SerialTransport(port, self._inbox.put)
        self._last_heard = time.monotonic()

    def _drain(self) -> None:
        while True:
            try:
                self._inbox.get_nowait()
            except queue.Empty:
                return

    def _hello(self, version: int) -> Ack:
        return self._command(Hello(version, self.layout.led_count, self.layout.status_base))

    def _handshake(self) -> None:
        version = PROTOCOL_VERSION
        ack = self._hello(version)
        older = fallback_version(version, ack)
        if older is not None:                   # older firmware: speak its version
            version = older
            ack = self._hello(version)
        if ack.code is not Code.OK:
            raise BridgeError(f"board refused the handshake: {_refusal(ack)}")
        info = HelloInfo.from_bytes(ack.extra)
        if info.version != version:             # the ACK names the session's version
            raise BridgeError(f"board acknowledged a version {version} HELLO as version "
                              f"{info.version}")
        firmware = f"{info.fw_major}.{info.fw_minor}"
        with self._lock:
            first = self._boot_id is None
            if first:
                self._last_event = info.last_event_seq  # history before we opened: not ours
            elif info.boot_id != self._boot_id:
                self._last_event = 0                    # the board restarted its counter
            self._need_replay = event_seq_after(info.last_event_seq, self._last_event)
            self._boot_id = info.boot_id
            self._protocol = version
            self._have = _Picture.unknown(self.layout.led_count)
            die = self._want.die_mode
            refused = (too_old(die, firmware, version)
                       if die is not None and version < min_protocol_for(die) else "")
            self._set_status(state=LinkState.CONNECTED, boot_id=info.boot_id,
                             firmware=firmware, protocol=version,
                             last_event_seq=self._last_event, last_error=refused,
                             in_sync=False,
                             reconnects=self._status.reconnects + (0 if first else 1))

    def _serve(self) -> None:
        while not self._closed.is_set():
            if self._need_replay:
                self._replay()
                continue
            with self._lock:
                msg = next_command(self._want, self._have, self.layout.status_base,
                                   self._protocol or PROTOCOL_VERSION)
                if msg is None:
                    self._want_dirty = False
                    self._set_status(in_sync=True)
                    self._synced.notify_all()
            if msg is not None:
                ack = self._command(msg)
                with self._lock:
                    if ack.code is not Code.OK:
                        self._set_status(last_error=f"board refused {msg.TYPE.name}: "
                                                    f"{ack.code.name}")
                        # a refusal is a bug, not noise: stop asking, take it as done
                    self._have.apply(msg, self.layout.status_base)
                continue
            self._idle(0.1)

    def _idle(self, seconds: float) -> None:
        try:
            item = self._inbox.get(timeout=seconds)
        except queue.Empty:
            item = None
        if item is not None and item is not _WAKE:
            self._handle(item)  # type: ignore[arg-type]
        if time.monotonic() - self._last_heard > self.timing.silence:
            raise BridgeError(f"no word from the board for {self.timing.silence:g} s")

    def _command(self, msg: Message) -> Ack:
        """Send ``msg`` and wait for its ACK, retrying; raises BridgeError when out of tries."""
        assert self._transport is not None
        self._seq = (self._seq + 1) & 0xFF
        seq, frame = self._seq, encode_message(msg, self._seq)
        for attempt in range(self.timing.retries + 1):
            if attempt:
                self._note(retries=self._status.retries + 1)
            self._transport.write(frame)
            deadline = time.monotonic() + self.timing.ack_timeout
            while (left := deadline - time.monotonic()) > 0:
                try:
                    item = self._inbox.get(timeout=left)
                except queue.Empty:
                    break
                if isinstance(item, Packet) and isinstance(item.message, Ack):
                    self._last_heard = time.monotonic()
                    if item.message.acked_seq == seq:
                        if item.message.code is Code.NOT_READY and msg.TYPE is not Hello.TYPE:
                            raise _Restarted("the board restarted (not ready)")
                        return item.message
                    continue
                if isinstance(item, Packet) and isinstance(item.message, ErrorReport):
                    self._handle(item)
                    break                  # the board saw a bad frame: resend now
                if item is not _WAKE:
                    self._handle(item)  # type: ignore[arg-type]
        raise BridgeError(f"no acknowledgement for {msg.TYPE.name} after "
                          f"{self.timing.retries + 1} tries")

    def _replay(self) -> None:
        with self._lock:
            since = self._last_event
            self._need_replay = False
        ack = self._command(EventsSince(since))
        if ack.code is Code.OK and len(ack.extra) == 3:
            oldest = (ack.extra[0] << 8) | ack.extra[1]
            lost = events_after(since, oldest) - 1
            if 0 < lost < EVENT_SEQ_HALF:  # the ring no longer holds them: say so, skip ahead
                with self._lock:
                    self._set_status(lost_events=self._status.lost_events + lost,
                                     last_error=f"{lost} events lost")
                    self._last_event = previous_event_seq(oldest)

    def _handle(self, item: Incoming) -> None:
        if isinstance(item, LinkLost):
            raise BridgeError(f"disconnected: {item.reason}")
        if isinstance(item, FrameFault):
            self._note(bad_frames=self._status.bad_frames + 1)
            return
        self._last_heard = time.monotonic()
        msg = item.message
        if isinstance(msg, Heartbeat):
            if self._boot_id is not None and msg.boot_id != self._boot_id:
                raise _Restarted("the board restarted")
            if event_seq_after(msg.last_event_seq, self._last_event):
                self._need_replay = True
        elif isinstance(msg, Event):
            self._deliver(msg)

    def _deliver(self, ev: Event) -> None:
        with self._lock:
            if not event_seq_after(ev.seq, self._last_event):
                return                                   # already delivered
            if ev.seq != next_event_seq(self._last_event):
                self._need_replay = True                 # a gap: fetch in order
                return
            self._last_event = ev.seq
            self._set_status(last_event_seq=ev.seq)
            callbacks = list(self._callbacks)
        item: DieRoll | ButtonPress = (DieRoll(ev.a, ev.b, ev.seq) if ev.kind is EventKind.ROLL
                                       else ButtonPress(ev.a, ev.seq))
        self._events.put(item)
        for cb in callbacks:
            try:
                cb(item)
            except Exception:  # a caller's bug must not kill the link
                log.exception("bridge event callback failed")


def _centiseconds(period: float) -> int:
    cs = round(period * 100)
    if not 1 <= cs <= 255:
        raise BridgeError(f"effect period {period} s; must be 0.01..2.55")
    return cs


def _replace(status: BridgeStatus, **changes: object) -> BridgeStatus:
    return dataclasses.replace(status, **changes)  # type: ignore[arg-type]
