"""Finding the board's serial port by USB id, with an explicit port always taking precedence."""

from __future__ import annotations

from serial.tools import list_ports

from firmware_bridge.errors import BridgeError

# (vendor, product): Arduino Uno/Nano/Mega 16U2 and clones' USB-serial chips.
KNOWN_USB_IDS: dict[tuple[int, int], str] = {
    (0x2341, 0x0043): "Arduino Uno R3",
    (0x2341, 0x0001): "Arduino Uno",
    (0x2341, 0x0042): "Arduino Mega 2560",
    (0x2A03, 0x0043): "Arduino Uno (arduino.org)",
    (0x1A86, 0x7523): "CH340 (Nano clone)",
    (0x0403, 0x6001): "FTDI FT232R (Nano)",
    (0x10C4, 0xEA60): "CP2102",
}


def candidate_ports() -> list[tuple[str, str]]:
    """(device, description) of every port with a known USB id, Arduino's own ids first."""
    found = []
    for port in list_ports.comports():
        key = (port.vid or 0, port.pid or 0)
        if key in KNOWN_USB_IDS:
            found.append((port.vid != 0x2341, port.device, KNOWN_USB_IDS[key]))
    return [(dev, desc) for _, dev, desc in sorted(found)]


def find_port(port: str | None = None) -> str:
    """The explicit ``port`` if given, else the first board found by USB id."""
    if port:
        return port
    found = candidate_ports()
    if not found:
        raise BridgeError("no LED/die board found by USB id; give the port, e.g. --port "
                          "/dev/ttyACM0")
    return found[0][0]
