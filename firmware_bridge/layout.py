"""Where each board space's LED sits on the strip: the mapping is data, not code.

A strip is laid under the mat in rows (straight or serpentine, from any corner, the mat at any
rotation); the status LEDs (turn, vision, markers left, ...) follow the board's LEDs on the same
strip. ``LedLayout.grid`` builds the common square case; any other board (the hex Portal mat)
is a plain list of space names in strip order, loadable from JSON.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_bridge.colors import Color
from firmware_bridge.errors import BridgeError
from firmware_bridge.protocol import MAX_LEDS

DEFAULT_STATUS = ("turn_1", "turn_2", "vision", "marker_1", "marker_2", "marker_3", "marker_4")
FILES = "abcdefghijklmnopqrstuvwxyz"


class Rotation(enum.Enum):
    """How the mat is turned relative to the strip's rows (degrees, counter-clockwise)."""

    R0 = 0
    R90 = 90
    R180 = 180
    R270 = 270


def square_name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank + 1}"


@dataclass(frozen=True, slots=True)
class LedLayout:
    """Strip index -> space name for the board LEDs, then the status LEDs by name."""

    spaces: tuple[str, ...]
    status: tuple[str, ...] = DEFAULT_STATUS
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [*self.spaces, *self.status]
        if not self.spaces:
            raise BridgeError("a layout needs at least one space")
        if len(names) > MAX_LEDS:
            raise BridgeError(f"{len(names)} LEDs; the board drives at most {MAX_LEDS}")
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise BridgeError(f"names used twice in the layout: {', '.join(dupes)}")
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(names)})

    @property
    def led_count(self) -> int:
        return len(self.spaces) + len(self.status)

    @property
    def status_base(self) -> int:
        return len(self.spaces)

    def index_of(self, space: str) -> int:
        """Strip index of a board space or status LED; BridgeError names an unknown one."""
        try:
            return self._index[space]
        except KeyError:
            raise BridgeError(f"no LED for {space!r} in this layout") from None

    def indices(self, spaces: Iterable[str]) -> list[int]:
        return [self.index_of(s) for s in spaces]

    @classmethod
    def grid(cls, files: int = 8, ranks: int = 8, *, serpentine: bool = True,
             rotation: Rotation = Rotation.R0, status: tuple[str, ...] = DEFAULT_STATUS
             ) -> LedLayout:
        """A files x ranks board; the strip starts under a1 (before rotation) and runs along
        rank 1, then rank 2 (back the other way if ``serpentine``), and so on."""
        if not (1 <= files <= len(FILES) and ranks >= 1):
            raise BridgeError(f"bad grid size {files}x{ranks}")
        if rotation in (Rotation.R90, Rotation.R270) and files != ranks:
            raise BridgeError(f"a {files}x{ranks} grid cannot be turned {rotation.value} degrees")
        order: list[str] = []
        for y in range(ranks):
            xs = range(files - 1, -1, -1) if serpentine and y % 2 else range(files)
            for x in xs:
                f, r = {Rotation.R0: (x, y), Rotation.R90: (y, files - 1 - x),
                        Rotation.R180: (files - 1 - x, ranks - 1 - y),
                        Rotation.R270: (ranks - 1 - y, x)}[rotation]
                order.append(square_name(f, r))
        return cls(tuple(order), status)

    def to_json(self) -> dict[str, list[str]]:
        return {"spaces": list(self.spaces), "status": list(self.status)}

    @classmethod
    def from_json(cls, data: str | dict) -> LedLayout:
        try:
            obj = json.loads(data) if isinstance(data, str) else data
            spaces, status = obj["spaces"], obj.get("status", list(DEFAULT_STATUS))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BridgeError(f"bad layout JSON: {exc}") from None
        if not all(isinstance(s, str) for s in [*spaces, *status]):
            raise BridgeError("layout names must be strings")
        return cls(tuple(spaces), tuple(status))


@dataclass(frozen=True, slots=True)
class TestStep:
    """One picture of the test pattern: what the builder should see, and the LED colours."""

    __test__ = False  # not a pytest class
    description: str          # empty for the quick steps of the chase
    colors: dict[int, Color]
    seconds: float = 1.0


def test_pattern(layout: LedLayout) -> list[TestStep]:
    """Solid colours (every LED and its three channels work), orientation (the first space
    white, the strip's first row green, the second blue), a chase in strip order, then each
    status LED amber in turn."""
    board = range(layout.status_base)
    allof = range(layout.led_count)
    steps = [TestStep(f"all {c.name.lower()}", dict.fromkeys(allof, c))
             for c in (Color.RED, Color.GREEN, Color.BLUE)]
    first = layout.spaces[0]
    row = max(1, round(layout.status_base ** 0.5))
    orient = {i: Color.GREEN for i in board if i < row}
    orient |= {i: Color.BLUE for i in board if row <= i < 2 * row}
    orient[0] = Color.WHITE
    steps.append(TestStep(f"{first} white, the strip's first row green, second row blue",
                          orient))
    steps.append(TestStep(f"chase: every space in strip order, {first} to "
                          f"{layout.spaces[-1]}", {0: Color.WHITE}, 0.1))
    steps += [TestStep("", {i: Color.WHITE}, 0.1) for i in range(1, layout.status_base)]
    for i, name in enumerate(layout.status):
        steps.append(TestStep(f"status LED {name} amber",
                              {layout.status_base + i: Color.AMBER}))
    steps.append(TestStep("all off", {}))
    return steps
