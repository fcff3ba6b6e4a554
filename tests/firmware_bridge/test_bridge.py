"""Issue 4, host bridge against the virtual board on a pseudo-terminal: handshake, LED updates,
die rolls once and in order, retries on a noisy line, unplug/replug and board reset with the LED
state restored, and no call blocking the caller."""

from __future__ import annotations

import time

from firmware_bridge import Bridge, Color, DieMode, DieRoll, Effect, LedLayout, LinkState
from firmware_bridge.device import DeviceCore
from firmware_bridge.protocol import Hello
from firmware_bridge.virtual_device import VirtualDevice

from .conftest import FAST, wait_for

LAYOUT = LedLayout.grid()


def test_handshake_reports_firmware_and_layout(bridge: Bridge, device: VirtualDevice) -> None:
    st = bridge.status()
    assert st.state is LinkState.CONNECTED and st.firmware == "1.1"
    assert st.boot_id == device.core.boot_id
    assert device.core.applied[0] == Hello(2, LAYOUT.led_count, LAYOUT.status_base)


def test_show_lights_the_listed_spaces_and_turns_the_rest_off(bridge: Bridge,
                                                               device: VirtualDevice) -> None:
    bridge.show({"a1": Color.RED, "e4": Color.GREEN})
    assert bridge.sync()
    colors = device.state().colors
    assert colors[LAYOUT.index_of("a1")] == Color.RED.value
    assert colors[LAYOUT.index_of("e4")] == Color.GREEN.value
    assert sum(1 for c in colors[:64] if c) == 2
    bridge.show({sq: Color.AMBER for sq in LAYOUT.spaces})      # "amber while it cannot see"
    assert bridge.sync()
    assert device.state().colors[:64] == (Color.AMBER.value,) * 64


def test_flash_and_status_leds(bridge: Bridge, device: VirtualDevice) -> None:
    bridge.flash(["c3", "d4"], Color.RED, period=0.4)
    bridge.set_status("turn_2", Color.BLUE)
    bridge.brightness(200)
    assert bridge.sync()
    st = device.state()
    assert st.effects[LAYOUT.index_of("c3")] == Effect.BLINK and st.blink_cs == 40
    assert st.colors[LAYOUT.index_of("turn_2")] == Color.BLUE.value and st.brightness == 200


def test_calls_return_at_once_even_when_the_board_is_silent(bridge: Bridge,
                                                             device: VirtualDevice) -> None:
    device.silent = True
    start = time.monotonic()
    for i in range(20):
        bridge.show({"a1": Color(i % 16)})
        bridge.flash(["b2"], Color.RED)
        bridge.status()
    assert time.monotonic() - start < 0.1     # no ACK is waited for on the caller's thread


def test_die_rolls_arrive_once_and_in_order(bridge: Bridge, device: VirtualDevice) -> None:
    seen: list[object] = []
    bridge.on_event(seen.append)
    bridge.die_mode(DieMode.D4)
    assert bridge.sync()
    for _ in range(10):
        device.press_button()
    rolls = list(bridge.die_rolls(timeout=0.5))
    assert [r.seq for r in rolls] == list(range(1, 11))
    assert all(r.sides == 4 and 1 <= r.value <= 4 for r in rolls)
    assert seen == rolls
    assert [e.b for e in device.core.events] == [r.value for r in rolls]


def test_corrupted_frames_are_retried_and_never_acted_on(bridge: Bridge,
                                                          device: VirtualDevice) -> None:
    hits = {"n": 0}

    def flip(data: bytes) -> bytes:                 # damage every other chunk the host sends
        hits["n"] += 1
        if hits["n"] % 2:
            b = bytearray(data)
            b[len(b) // 2] ^= 0x10
            return bytes(b)
        return data

    # what the bridge sent on connecting, applied before counting (a loaded machine is slow)
    assert bridge.sync(3.0)
    before = len(device.core.applied)
    device.mangle_rx = flip
    for i in range(6):
        bridge.show({"a1": Color(i + 1), "h8": Color(i + 2)})
        assert bridge.sync(3.0)
    device.mangle_rx = None
    assert bridge.status().retries > 0 and device.core.rx_errors > 0
    assert device.state().colors[LAYOUT.index_of("a1")] == 6
    applied = device.core.applied[before:]
    assert len(applied) == len({id(m) for m in applied}) <= 6 * 2


def test_a_lost_ack_is_retried_without_acting_twice(bridge: Bridge,
                                                    device: VirtualDevice) -> None:
    dropped = {"n": 0}

    def drop_acks(frame: bytes) -> bytes:
        if dropped["n"] < 2 and frame[1] == 0x80:     # frame[1]: the type, after COBS
            dropped["n"] += 1
            return b""
        return frame

    # what the bridge sent on connecting, applied before counting (a loaded machine is slow)
    assert bridge.sync(3.0)
    before = len(device.core.applied)
    device.mangle_tx = drop_acks
    bridge.show({"b2": Color.GREEN})
    assert bridge.sync(3.0)
    device.mangle_tx = None
    assert bridge.status().retries >= 1
    assert len(device.core.applied) - before == 1


def test_unplug_replug_restores_leds_and_replays_missed_rolls(bridge: Bridge,
                                                              device: VirtualDevice) -> None:
    bridge.die_mode(DieMode.D8)
    bridge.show({"a1": Color.RED})
    assert bridge.sync()
    device.press_button()
    assert [r.seq for r in bridge.die_rolls(timeout=0.3)] == [1]
    device.unplug()
    assert wait_for(lambda: bridge.status().state is LinkState.DISCONNECTED)
    for _ in range(3):
        device.press_button()                      # rolled while the cable was out
    bridge.show({"h8": Color.BLUE})                # desired while disconnected
    device.core.colors[:] = [0] * len(device.core.colors)   # and the board lost its picture
    device.replug()
    assert wait_for(lambda: bridge.status().state is LinkState.CONNECTED)
    assert bridge.sync(3.0)
    assert device.state().colors[LAYOUT.index_of("h8")] == Color.BLUE.value
    rolls = list(bridge.die_rolls(timeout=0.3))
    assert [r.seq for r in rolls] == [2, 3, 4]
    assert [r.value for r in rolls] == [e.b for e in list(device.core.events)[1:]]
    assert bridge.status().reconnects == 1


def test_board_reset_mid_session_restores_state(bridge: Bridge, device: VirtualDevice) -> None:
    bridge.die_mode(DieMode.D4)
    bridge.show({"d5": Color.MAGENTA})
    assert bridge.sync()
    device.press_button()
    assert len(list(bridge.die_rolls(timeout=0.3))) == 1
    old_boot = device.core.boot_id
    device.reset()
    assert wait_for(lambda: bridge.status().boot_id not in (None, old_boot))
    assert bridge.sync(3.0)
    st = device.state()
    assert st.colors[LAYOUT.index_of("d5")] == Color.MAGENTA.value and st.die_mode == 4
    device.press_button()                          # the new boot numbers events from 1 again
    rolls = list(bridge.die_rolls(timeout=0.3))
    assert [r.seq for r in rolls] == [1] and isinstance(rolls[0], DieRoll)


def test_more_missed_events_than_the_ring_holds_are_reported_lost(
        bridge: Bridge, device: VirtualDevice) -> None:
    bridge.die_mode(DieMode.D8)
    assert bridge.sync()
    device.unplug()
    assert wait_for(lambda: bridge.status().state is LinkState.DISCONNECTED)
    for _ in range(20):
        device.press_button()
    device.replug()
    assert wait_for(lambda: bridge.status().state is LinkState.CONNECTED)
    rolls = list(bridge.die_rolls(timeout=0.3))
    assert [r.seq for r in rolls] == list(range(5, 21))
    assert bridge.status().lost_events == 4


def test_a_silent_board_is_reported_disconnected(bridge: Bridge,
                                                 device: VirtualDevice) -> None:
    device.silent = True
    assert wait_for(lambda: bridge.status().state is LinkState.DISCONNECTED, 3.0)
    assert bridge.status().last_error
    device.silent = False
    assert wait_for(lambda: bridge.status().state is LinkState.CONNECTED, 3.0)


def test_a_missing_port_is_reported_not_raised() -> None:
    with Bridge.open("/nonexistent/ttyACM9", timing=FAST) as b:
        assert not b.wait_connected(0.3)
        st = b.status()
        assert st.state is LinkState.DISCONNECTED and "/nonexistent/ttyACM9" in st.last_error


def test_the_virtual_board_is_the_reference_model() -> None:
    with VirtualDevice(seed=1) as dev:
        assert isinstance(dev.core, DeviceCore) and dev.port.endswith("ttyBOARD0")


def test_a_noisy_line_from_the_board_never_yields_a_wrong_or_repeated_roll(
        bridge: Bridge, device: VirtualDevice) -> None:
    import random

    bridge.die_mode(DieMode.D8)
    assert bridge.sync()
    rng = random.Random(7)

    def damage(frame: bytes) -> bytes:             # a third of the board's frames hit
        if rng.random() < 0.33:
            b = bytearray(frame)
            for _ in range(rng.randint(1, 3)):
                pos = rng.randrange((len(b) - 1) * 8)
                b[pos // 8] ^= 1 << (pos % 8)
            return bytes(b)
        return frame

    device.mangle_tx = damage
    for _ in range(12):
        device.press_button()
        time.sleep(0.02)
    rolls: list[DieRoll] = []
    deadline = time.monotonic() + 5
    while len(rolls) < 12 and time.monotonic() < deadline:
        rolls += list(bridge.die_rolls(timeout=0.2))
    device.mangle_tx = None
    truth = [(e.seq, e.b) for e in device.core.events]
    assert [(r.seq, r.value) for r in rolls] == truth[-12:]   # all, once, in order, right value
    assert bridge.status().bad_frames > 0



def test_rolls_across_the_event_number_wrap_are_delivered_in_order() -> None:
    """Issue 18, data loss: event numbers wrap from 65535 to 1 (serial-number arithmetic,
    RFC 1982). The host used to take the rolls after the wrap for duplicates and drop them,
    and the board to leave them out of a replay."""
    for replayed in (False, True):
        with VirtualDevice(seed=7, heartbeat_s=0.1) as device:
            device.core.last_event_seq = 65533      # a board that has been rolled a lot
            with Bridge.open(device.port, timing=FAST) as bridge:
                assert bridge.wait_connected(3.0), bridge.status()
                bridge.die_mode(DieMode.D8)
                assert bridge.sync()
                if replayed:                        # rolled while the cable was out
                    device.unplug()
                    assert wait_for(lambda b=bridge: b.status().state is LinkState.DISCONNECTED)
                for _ in range(4):
                    device.press_button()
                if replayed:
                    device.replug()
                    assert wait_for(lambda b=bridge: b.status().state is LinkState.CONNECTED)
                rolls = list(bridge.die_rolls(timeout=0.3))
                assert [r.seq for r in rolls] == [65534, 65535, 1, 2], replayed
                assert [r.value for r in rolls] == [e.b for e in device.core.events]
                assert bridge.status().lost_events == 0
