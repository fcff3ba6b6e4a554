"""The default palette: named colours for the board, as 4-bit palette indices."""

from __future__ import annotations

import enum


class Color(enum.Enum):
    """Palette index of each named colour; the board starts with DEFAULT_PALETTE loaded."""

    OFF = 0
    WHITE = 1
    RED = 2
    AMBER = 3
    GREEN = 4
    BLUE = 5
    CYAN = 6
    MAGENTA = 7
    YELLOW = 8
    ORANGE = 9
    PURPLE = 10
    DIM_WHITE = 11
    DIM_RED = 12
    DIM_GREEN = 13
    DIM_BLUE = 14
    PINK = 15


# Chosen for WS2812s under a mat: amber and yellow are apart enough to tell at a glance.
DEFAULT_PALETTE: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0), (255, 255, 255), (255, 0, 0), (255, 120, 0),
    (0, 255, 0), (0, 0, 255), (0, 255, 255), (255, 0, 255),
    (255, 255, 0), (255, 60, 0), (128, 0, 255), (40, 40, 40),
    (60, 0, 0), (0, 60, 0), (0, 0, 60), (255, 80, 160),
)
