"""The serial protocol to the LED/die board, host bridge, virtual device and firmware.

Public API: ``Bridge.open(port)`` then ``show``, ``flash``, ``set_status``, ``die_mode``,
``die_rolls``, ``status``; ``LedLayout`` maps board spaces to strip LEDs; ``VirtualDevice`` is
a board on a pseudo-terminal. The wire format is in docs/protocol.md.
"""

from firmware_bridge.bridge import Bridge, BridgeStatus, ButtonPress, DieRoll, LinkState, Timing
from firmware_bridge.colors import DEFAULT_PALETTE, Color
from firmware_bridge.errors import BridgeError
from firmware_bridge.layout import LedLayout, Rotation
from firmware_bridge.ports import find_port
from firmware_bridge.protocol import BAUD, PROTOCOL_VERSION, DieMode, Effect
from firmware_bridge.virtual_device import VirtualDevice

__all__ = [
    "BAUD",
    "DEFAULT_PALETTE",
    "PROTOCOL_VERSION",
    "Bridge",
    "BridgeError",
    "BridgeStatus",
    "ButtonPress",
    "Color",
    "DieMode",
    "DieRoll",
    "Effect",
    "LedLayout",
    "LinkState",
    "Rotation",
    "Timing",
    "VirtualDevice",
    "find_port",
]
