"""Issue 19, piecepack die mode (Telic): DIE_MODE 6 rolls the faces null, ace, 2..5 as 0..5,
named on the host side; protocol version 2, whose handshake still serves version 1 hosts and
falls back to version 1 boards (docs/protocol.md, "Versions"). Against the board model, the
virtual board and the CLI; the firmware's side is in test_firmware_simavr.py, its fairness in
test_die_fairness.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware_bridge import Bridge, BridgeError, DieMode, DieRoll, LedLayout, LinkState
from firmware_bridge.bridge import (
    ButtonPress,
    _Picture,
    fallback_version,
    next_command,
    too_old,
)
from firmware_bridge.cli import describe, die_modes
from firmware_bridge.device import DeviceCore
from firmware_bridge.framing import FrameReader
from firmware_bridge.protocol import (
    MIN_PROTOCOL_VERSION,
    PIECEPACK_FACES,
    PROTOCOL_VERSION,
    Ack,
    Code,
    Event,
    EventKind,
    Hello,
    HelloInfo,
    Message,
    SetDieMode,
    decode_payload,
    encode_message,
    encode_payload,
    piecepack_face,
    piecepack_value,
    roll_values,
)
from firmware_bridge.virtual_device import VirtualDevice

from .conftest import FAST, simulate_bridge, wait_for

LAYOUT = LedLayout.grid()
ROOT = Path(__file__).resolve().parents[2]


# --- the wire ------------------------------------------------------------------------------

# Payloads (type, seq, body) as docs/protocol.md gives them.
PIECEPACK_GOLDEN = [
    (Hello(2, 68, 64), 1, "0101024440"),
    (SetDieMode(DieMode.PIECEPACK), 12, "0a0c06"),
    (Event(4, EventKind.ROLL, 6, 0), 5, "81050004010600"),           # null
    (Event(9, EventKind.ROLL, 6, 1), 6, "81060009010601"),           # ace
    (Event(10, EventKind.ROLL, 6, 5), 7, "8107000a010605"),
    (Ack(1, Code.BAD_VERSION, b"\x01"), 3, "8003010601"),            # a version 1 board
    (Ack(1, Code.OK, HelloInfo(2, 1, 1, 128, 0xBEEF, 0).to_bytes()), 2,
     "8002010002010180beef0000"),
]


@pytest.mark.parametrize(("msg", "seq", "hexpayload"), PIECEPACK_GOLDEN)
def test_piecepack_and_version_2_messages_encode_and_decode(msg: Message, seq: int,
                                                            hexpayload: str) -> None:
    """Issue 19: the piecepack mode, its rolls and the version 2 handshake on the wire."""
    assert encode_payload(msg, seq).hex() == hexpayload
    assert decode_payload(bytes.fromhex(hexpayload)).message == msg


def test_piecepack_rolls_decode_for_faces_0_to_5_only() -> None:
    """Issue 19: a roll with a = 6 carries a face 0..5 (0 null); a d4 or d8 still 1..N."""
    for mode, ok in ((6, range(6)), (4, range(1, 5)), (8, range(1, 9))):
        for value in range(256):
            payload = bytes.fromhex("81010001") + bytes((1, mode, value))
            if value in ok:
                assert decode_payload(payload).message == Event(1, EventKind.ROLL, mode, value)
            else:
                with pytest.raises(BridgeError, match="bad roll"):
                    decode_payload(payload)
    assert list(roll_values(DieMode.PIECEPACK)) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(BridgeError):
        roll_values(DieMode.OFF)


def test_protocol_version_is_2_and_version_1_is_still_spoken() -> None:
    """Issue 19: the host speaks versions 1..2 and says HELLO in 2 first."""
    assert (MIN_PROTOCOL_VERSION, PROTOCOL_VERSION) == (1, 2)
    assert int(DieMode.PIECEPACK) == 6 and [int(m) for m in DieMode] == [0, 4, 6, 8]


# --- face names ----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "name"), list(enumerate(["null", "ace", "2", "3", "4", "5"])))
def test_piecepack_faces_are_named_and_the_names_round_trip(value: int, name: str) -> None:
    """Issue 19: faces by name on the host side; value -> name -> value round-trips."""
    assert piecepack_face(value) == name == PIECEPACK_FACES[value]
    assert piecepack_value(name) == value
    assert piecepack_value(name.upper()) == value
    assert piecepack_face(piecepack_value(piecepack_face(value))) == name
    assert DieRoll(6, value, 1).face == name


@pytest.mark.parametrize("bad", [-1, 6, 255, True, 2.0, "2", None])
def test_a_bad_piecepack_value_is_a_bridge_error_naming_it(bad: object) -> None:
    """Issue 19: a value outside 0..5 is refused with a BridgeError (a ValueError) naming it."""
    with pytest.raises(BridgeError, match=f"roll value {bad!r} is not 0..5") as info:
        piecepack_face(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", ["six", "0", "1", "", " ace", "blank", 1, None])
def test_a_bad_piecepack_face_name_is_a_bridge_error_naming_it(bad: object) -> None:
    """Issue 19: a name that is no piecepack face is refused, naming it."""
    with pytest.raises(BridgeError, match=f"{bad!r} is not a piecepack face"):
        piecepack_value(bad)  # type: ignore[arg-type]


def test_die_rolls_show_their_face() -> None:
    """Issue 19: the bridge's rolls name piecepack faces; a d4 or d8 shows its number (issue 21:
    the simulator's line is `die: d8 rolled 5`)."""
    assert [DieRoll(6, v, 1).face for v in range(6)] == list(PIECEPACK_FACES)
    assert DieRoll(4, 3, 2).face == "3" and DieRoll(8, 8, 3).face == "8"
    assert describe(Event(7, EventKind.ROLL, 6, 0)) == "die: piecepack rolled null"
    assert describe(Event(8, EventKind.ROLL, 8, 8)) == "die: d8 rolled 8"
    assert describe(Event(9, EventKind.BUTTON, 0, 1)) == "button: pressed"
    assert die_modes(2) == "d4, piecepack, d8" and die_modes(1) == "d4, d8"


# --- the board's side: version handling (the model the firmware is fuzzed against) ---------

def _answers(core: DeviceCore, *msgs: Message) -> list[Message]:
    reader, out = FrameReader(), []
    for i, msg in enumerate(msgs):
        for frame in core.feed(encode_message(msg, (40 + i) & 0xFF)):
            out += [decode_payload(p).message for p in reader.feed(frame)
                    if isinstance(p, bytes)]
    return out


# board speaks up to, HELLO version -> ACK code, the ACK's extra (HelloInfo or BAD_VERSION's)
HANDSHAKES = [
    (2, 2, Code.OK, HelloInfo(2, 1, 1, 128, 7, 0).to_bytes()),
    (2, 1, Code.OK, HelloInfo(1, 1, 1, 128, 7, 0).to_bytes()),    # a v1 host on a v2 board
    (2, 3, Code.BAD_VERSION, b"\x02"),                             # a future host
    (2, 0, Code.BAD_VERSION, b"\x02"),
    (1, 1, Code.OK, HelloInfo(1, 1, 0, 128, 7, 0).to_bytes()),    # firmware 1.0
    (1, 2, Code.BAD_VERSION, b"\x01"),                             # a v2 host on a v1 board
]


@pytest.mark.parametrize(("board", "version", "code", "extra"), HANDSHAKES)
def test_board_handshake_by_version(board: int, version: int, code: Code,
                                    extra: bytes) -> None:
    """Issue 19: a board accepts every version from 1 up to its own, acknowledges in the
    host's version, and refuses a newer one with BAD_VERSION naming its own."""
    core = DeviceCore(boot_id=7, protocol=board)
    assert _answers(core, Hello(version, 8, 8)) == [Ack(40, code, extra)]


@pytest.mark.parametrize(("board", "version", "piecepack"),
                         [(2, 2, Code.OK), (2, 1, Code.BAD_VALUE), (1, 1, Code.BAD_VALUE)])
def test_piecepack_mode_only_in_a_version_2_session(board: int, version: int,
                                                    piecepack: Code) -> None:
    """Issue 19: DIE_MODE 6 from a version 1 host gets BAD_VALUE (as from a version 1 board);
    d4 and d8 work in every session."""
    core = DeviceCore(boot_id=7, protocol=board)
    acks = _answers(core, Hello(version, 8, 8), SetDieMode(DieMode.PIECEPACK),
                    SetDieMode(DieMode.D8), SetDieMode(DieMode.D4))
    assert [a.code for a in acks if isinstance(a, Ack)] == [Code.OK, piecepack, Code.OK,
                                                             Code.OK]
    assert core.die_mode is DieMode.D4


def test_a_version_1_hello_turns_the_piecepack_die_off() -> None:
    """Issue 19: a version 1 host that takes over a board in piecepack mode gets button
    presses, never rolls it could not read."""
    core, rng, reader = DeviceCore(boot_id=7), random.Random(1), FrameReader()
    _answers(core, Hello(2, 8, 8), SetDieMode(DieMode.PIECEPACK))
    rolls = [decode_payload(p).message for _ in range(60)
             for p in reader.feed(core.press_button(rng)) if isinstance(p, bytes)]
    assert len(rolls) == 60 and all(isinstance(r, Event) and r.a == 6 for r in rolls)
    assert {r.b for r in rolls if isinstance(r, Event)} == set(range(6))
    assert _answers(core, Hello(1, 8, 8))[0] == Ack(40, Code.OK, HelloInfo(
        1, 1, 1, 128, 7, 60).to_bytes())
    assert core.die_mode is DieMode.OFF
    core.press_button(rng)
    assert core.events[-1] == Event(61, EventKind.BUTTON, 0, 1)


def test_a_board_model_for_an_unknown_protocol_is_refused() -> None:
    """Issue 19: the model is firmware 1.0 (protocol 1) or 1.1 (protocol 2), nothing else."""
    with pytest.raises(BridgeError, match="protocol version 3"):
        DeviceCore(protocol=3)


# --- the host's side -----------------------------------------------------------------------

OK_INFO = HelloInfo(2, 1, 1, 128, 1, 0).to_bytes()


@pytest.mark.parametrize(("asked", "ack", "again"), [
    (2, Ack(1, Code.BAD_VERSION, b"\x01"), 1),        # a version 1 board: fall back
    (2, Ack(1, Code.BAD_VERSION, b"\x02"), None),     # it claims ours yet refused: no loop
    (2, Ack(1, Code.BAD_VERSION, b"\x03"), None),     # newer than ours: nothing to fall to
    (2, Ack(1, Code.BAD_VERSION, b"\x00"), None),     # no version 0
    (2, Ack(1, Code.BAD_VERSION, b""), None),
    (2, Ack(1, Code.BAD_VERSION, b"\x01\x01"), None),
    (1, Ack(1, Code.BAD_VERSION, b"\x01"), None),     # already at the oldest
    (2, Ack(1, Code.OK, OK_INFO), None),
    (2, Ack(1, Code.NOT_READY), None),
    (2, Ack(1, Code.BAD_VALUE, b"\x01"), None),
])
def test_host_falls_back_only_to_an_older_version_it_speaks(asked: int, ack: Ack,
                                                            again: int | None) -> None:
    """Issue 19: after BAD_VERSION naming 1, HELLO again in 1; nothing else is retried."""
    assert fallback_version(asked, ack) == again


@pytest.mark.parametrize(("want", "protocol", "sent"), [
    (DieMode.PIECEPACK, 2, DieMode.PIECEPACK),
    (DieMode.PIECEPACK, 1, DieMode.OFF),             # too old: the die off, no d4's rolls
    (DieMode.D4, 1, DieMode.D4),
    (DieMode.D8, 2, DieMode.D8),
])
def test_next_command_never_sends_a_mode_the_board_lacks(want: DieMode, protocol: int,
                                                         sent: DieMode) -> None:
    """Issue 19: the piecepack mode is refused locally on a version 1 board, not sent."""
    wanted, have = _Picture.unknown(8), _Picture.unknown(8)
    wanted.palette = have.palette = [(0, 0, 0)] * 16
    wanted.die_mode = want
    assert next_command(wanted, have, 6, protocol) == SetDieMode(sent)
    have.die_mode = sent
    assert next_command(wanted, have, 6, protocol) is None


def test_the_too_old_error_is_one_clear_line() -> None:
    """Issue 19: the error names the firmware, its protocol and what the mode needs."""
    msg = too_old(DieMode.PIECEPACK, "1.0", 1)
    assert msg == ("the board's firmware (1.0, protocol 1) is too old for the piecepack die, "
                   "which needs protocol 2: update the firmware (docs/hardware.md); "
                   "d4 and d8 still work")


def test_bridge_rolls_the_piecepack_die_on_a_version_2_board(bridge: Bridge,
                                                             device: VirtualDevice) -> None:
    """Issue 19: HELLO in version 2, DIE_MODE 6, rolls 0..5 delivered with their faces."""
    st = bridge.status()
    assert st.protocol == 2 and st.firmware == "1.1" and device.core.protocol == 2
    bridge.die_mode(DieMode.PIECEPACK)
    assert bridge.sync()
    assert device.state().die_mode == 6
    for _ in range(40):
        device.press_button()
    rolls = list(bridge.die_rolls(timeout=0.5))
    assert [r.seq for r in rolls] == list(range(1, 41))
    assert {r.sides for r in rolls} == {6} and {r.value for r in rolls} == set(range(6))
    assert [r.value for r in rolls[-16:]] == [e.b for e in device.core.events]
    assert {r.face for r in rolls} == set(PIECEPACK_FACES)
    assert bridge.status().last_error == ""


def test_bridge_falls_back_to_version_1_on_an_old_board() -> None:
    """Issue 19: against a board on firmware 1.0 (BAD_VERSION to HELLO 2) the host says HELLO
    in version 1, refuses the piecepack mode locally with one clear error, and d4/d8 work."""
    with VirtualDevice(seed=3, heartbeat_s=0.1, protocol=1) as device, \
            Bridge.open(device.port, timing=FAST) as bridge:
        assert bridge.wait_connected(3.0), bridge.status()
        st = bridge.status()
        assert (st.protocol, st.firmware, st.last_error) == (1, "1.0", "")
        assert device.core.applied[0] == Hello(1, LAYOUT.led_count, LAYOUT.status_base)
        with pytest.raises(BridgeError, match=r"^the board's firmware \(1\.0, protocol 1\) "
                                              r"is too old for the piecepack die"):
            bridge.die_mode(DieMode.PIECEPACK)
        bridge.die_mode(DieMode.D8)
        assert bridge.sync()
        device.press_button()
        rolls = list(bridge.die_rolls(timeout=0.3))
        assert [(r.sides, r.seq) for r in rolls] == [(8, 1)] and 1 <= rolls[0].value <= 8
        assert bridge.status().last_error == "" and device.core.rx_errors == 0


def test_piecepack_asked_for_before_an_old_board_answers_turns_its_die_off(
        tmp_path: Path) -> None:
    """Issue 19: wanted before the board was known, the piecepack mode is not sent to a
    version 1 board: its die is turned off and status() carries the same error. A new board
    (version 2) behind the same port then gets the piecepack mode."""
    old = VirtualDevice(seed=4, heartbeat_s=0.1, protocol=1, link_dir=str(tmp_path))
    seen: list[DieRoll | ButtonPress] = []
    with Bridge.open(old.port, timing=FAST) as bridge:       # nothing on the port yet
        bridge.on_event(seen.append)
        bridge.die_mode(DieMode.PIECEPACK)                   # so any mode is taken
        old.start()
        try:
            assert bridge.wait_connected(3.0), bridge.status()
            assert bridge.sync()
            st = bridge.status()
            assert st.protocol == 1 and "too old for the piecepack die" in st.last_error
            assert old.state().die_mode == DieMode.OFF
            old.press_button()
            assert wait_for(lambda: bool(seen))
            assert seen == [ButtonPress(0, 1)]
        finally:
            old.stop()
        assert wait_for(lambda: bridge.status().state is LinkState.DISCONNECTED)
        tmp_path.mkdir(exist_ok=True)                        # stop() tidied the folder away
        with VirtualDevice(seed=5, heartbeat_s=0.1, link_dir=str(tmp_path)) as new:
            assert wait_for(lambda: bridge.status().protocol == 2
                            and bridge.status().state is LinkState.CONNECTED)
            assert bridge.sync()
            assert new.state().die_mode == DieMode.PIECEPACK
            assert bridge.status().last_error == ""


def test_a_bad_die_mode_is_a_bridge_error(bridge: Bridge) -> None:
    """Issue 19: a mode number the protocol lacks is refused naming it and the modes."""
    with pytest.raises(BridgeError, match=r"die mode 5 is not one of .*PIECEPACK \(6\)"):
        bridge.die_mode(5)  # type: ignore[arg-type]


# --- companion bridge simulate -------------------------------------------------------------

@pytest.mark.parametrize("protocol", [2, 1])
def test_bridge_simulate_shows_the_piecepack_die_and_can_be_an_old_board(
        protocol: int) -> None:
    """Issue 19: `bridge simulate` lists its dice (piecepack from protocol 2), names each
    roll's face (issue 21: on stdout, `die: piecepack rolled null`), and `--protocol 1` is a
    board on firmware 1.0 that the host falls back to."""
    proc = simulate_bridge("--seed", "9", "--protocol", str(protocol))
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        with Bridge.open(port) as bridge:
            assert bridge.wait_connected(5.0), bridge.status()
            assert bridge.status().protocol == protocol
            mode = DieMode.PIECEPACK if protocol == 2 else DieMode.D4
            if protocol == 1:
                with pytest.raises(BridgeError, match="too old"):
                    bridge.die_mode(DieMode.PIECEPACK)
            bridge.die_mode(mode)
            assert bridge.sync()
            proc.stdin.write("\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            roll = next(bridge.die_rolls(timeout=10.0))
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read()  # type: ignore[union-attr]
        out = proc.stdout.read()  # type: ignore[union-attr]
        dice = "d4, piecepack, d8" if protocol == 2 else "d4, d8"
        firmware = "1.1" if protocol == 2 else "1.0"
        assert f"firmware {firmware} (protocol {protocol}; dice: {dice})" in err
        assert f"\ndie: {mode.name.lower()} rolled {roll.face}\n" in out
        assert roll.sides == int(mode) and "Traceback" not in err
    finally:
        proc.kill()
