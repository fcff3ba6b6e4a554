"""How `companion bridge simulate` shows its board: pure functions from LED state to text.

A terminal gets the board drawn as 24-bit colour blocks (rank 8 at the top, a1 bottom-left,
as the rule book draws it), redrawn in place; a pipe or file gets one plain line per change.
Nothing here does I/O: :class:`Screen` only builds the bytes to write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from firmware_bridge.colors import DEFAULT_PALETTE, Color
from firmware_bridge.device import LedState
from firmware_bridge.layout import FILES, LedLayout
from firmware_bridge.protocol import Effect

_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)")
_RESET = "\x1b[0m"
# marks on a lit block: a blinking or pulsing LED is drawn in its on colour with one of these
_MARKS = {int(Effect.BLINK): "**", int(Effect.PULSE): "~~"}
WIDTH = 72   # the widest line drawn, in columns
_OFF_CELL = "\x1b[2m··" + _RESET   # dim dots: the grid stays visible where nothing is lit


@dataclass(frozen=True, slots=True)
class Lit:
    """One lit LED by name: its colour's name (or #rrggbb off the default palette), effect."""

    name: str
    color: str
    rgb: tuple[int, int, int]
    effect: int


def color_name(index: int, palette: tuple[tuple[int, int, int], ...]) -> str:
    """A palette entry's name while the host has left it as the board booted, else its hex."""
    rgb = palette[index]
    if rgb == DEFAULT_PALETTE[index]:
        return Color(index).name.lower()
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def lit_leds(state: LedState, layout: LedLayout) -> list[Lit]:
    """Every LED of ``layout`` the board holds lit, in strip order. LEDs past the count the
    host announced (none before its HELLO) are not driven, so they are dark."""
    names = [*layout.spaces, *layout.status]
    out = []
    for i, name in enumerate(names[:state.led_count]):
        c = state.colors[i]
        if c and state.palette[c] != (0, 0, 0):
            out.append(Lit(name, color_name(c, state.palette), state.palette[c],
                           state.effects[i]))
    return out


def plain_line(state: LedState, layout: LedLayout) -> str:
    """``leds: a1 green, h8 red (blink)``: spaces in board order (a1, b1, ... h8), then the
    status LEDs; ``leds: none`` when all are dark."""
    lit = lit_leds(state, layout)
    order = {n: i for i, n in enumerate(sorted(layout.spaces, key=_board_order))}
    lit.sort(key=lambda x: order.get(x.name, len(order)))
    words = [f"{x.name} {x.color}" + (f" ({Effect(x.effect).name.lower()})" if x.effect
                                       else "") for x in lit]
    return "leds: " + (", ".join(words) if words else "none")


def _board_order(name: str) -> tuple[int, int, str]:
    m = _SQUARE.fullmatch(name)
    return (int(m[2]), FILES.index(m[1]), "") if m else (1 << 30, 0, name)


def _cell(lit: Lit | None) -> str:
    if lit is None:
        return _OFF_CELL
    r, g, b = lit.rgb
    ink = "30" if 0.299 * r + 0.587 * g + 0.114 * b > 128 else "97"   # readable on any colour
    return f"\x1b[48;2;{r};{g};{b}m\x1b[{ink}m{_MARKS.get(lit.effect, '  ')}{_RESET}"


def draw_board(state: LedState, layout: LedLayout) -> str:
    """The board as colour blocks, two columns a space, with file letters under and rank
    numbers beside it; status LEDs (and any space that is not a square name, as on a hex
    layout) on a line under it. Ends without a newline."""
    lit = {x.name: x for x in lit_leds(state, layout)}
    squares = {n: (FILES.index(m[1]), int(m[2]))
               for n in layout.spaces if (m := _SQUARE.fullmatch(n))}
    lines = []
    if squares:
        files = max(f for f, _ in squares.values()) + 1
        ranks = max(r for _, r in squares.values())
        width = len(str(ranks))
        for rank in range(ranks, 0, -1):          # rank 8 at the top, as the rule book
            row = "".join(_cell(lit.get(f"{FILES[f]}{rank}")) if f"{FILES[f]}{rank}" in squares
                          else "  " for f in range(files))
            lines.append(f"{rank:>{width}} {row}")
        lines.append(" " * (width + 1) + "".join(f"{FILES[f]} " for f in range(files)).rstrip())
    others = [n for n in layout.spaces if n not in squares] + list(layout.status)
    group: list[str] = []
    used = 0   # columns on the line so far
    for name in others:
        width = len(name) + 3
        # wrapped short of 80 columns: a line the terminal wraps would throw the redraw off
        if group and used + 2 + width > WIDTH:
            lines.append("  ".join(group))
            group, used = [], 0
        used += (2 if group else 0) + width
        group.append(f"{name} {_cell(lit.get(name))}")
    if group:
        lines.append("  ".join(group))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Screen:
    """What is on the terminal below the log: the board drawing, ``height`` lines tall."""

    height: int = 0

    def redraw(self, drawing: str, log: tuple[str, ...] = ()) -> tuple[str, Screen]:
        """Text that replaces the last drawing with ``log`` lines (kept above, scrolling up)
        and then ``drawing``; and the screen after it."""
        # cursor up to the drawing's first line, then clear to the end of the screen
        erase = f"\x1b[{self.height}F\x1b[J" if self.height else ""
        body = "".join(f"{line}\n" for line in log) + drawing + "\n"
        return erase + body, Screen(drawing.count("\n") + 1)
