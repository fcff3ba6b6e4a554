"""Colours and sizes shared by the Python drawing and the .kv files (no Kivy import here).

The mat and piece colours follow the printed mat and the simulated table (``vision/mat.py``,
``vision/simtable.py``), so the tablet looks like the table. Space highlights mean what the
board's LEDs mean (``companion/live/lights.py``): green the moves, red illegal, amber restore, blue
unsure.
"""

from __future__ import annotations

from companion.rules.teleporters import Side

RGBA = tuple[float, float, float, float]


def rgb(r: int, g: int, b: int, a: float = 1.0) -> RGBA:
    return (r / 255, g / 255, b / 255, a)


# --- the mat ---------------------------------------------------------------------------------
MAT = rgb(214, 206, 188)
MAT_BORDER = rgb(60, 68, 74)
GRID_LINE = rgb(70, 70, 70)
CENTRE = rgb(168, 160, 150)  # a Quadrant's small centre square, where a Pole stands
PAD: dict[Side, RGBA] = {Side.SOUTH: rgb(170, 70, 60), Side.NORTH: rgb(40, 100, 150)}
PAD_TINT_ALPHA = 0.30  # a Telepad's square; its round spot is opaque
STRIPE_ALPHA = 0.55  # a Portpad's stripe: the footprint of a Port in its start corner

# --- pieces ----------------------------------------------------------------------------------
PIECE: dict[Side, RGBA] = {Side.SOUTH: rgb(205, 45, 40), Side.NORTH: rgb(30, 110, 200)}
PIECE_EDGE = rgb(25, 25, 30)
TELEPORT_FILL_ALPHA = 0.28
POLE_DIAMETER = 0.46  # of a space
WALL = 0.12  # a Port's wall thickness, of a space
STRIPE = 0.16

# --- highlights (what the LEDs mean, on screen) ----------------------------------------------
MOVE_FROM = rgb(120, 200, 120, 0.55)
MOVE_TO = rgb(40, 170, 60, 0.75)
LAST_TURN = rgb(230, 200, 70, 0.45)  # the previous turn's moves, while this one is untouched
ILLEGAL = rgb(235, 20, 20)
ILLEGAL_ALPHA = (0.95, 0.45)  # the flash: bright, dim
FLASH_PERIOD = 0.4  # seconds per phase
RESTORE = rgb(245, 160, 0, 0.8)
UNSURE = rgb(60, 120, 255, 0.65)
WIN = rgb(40, 170, 60, 0.7)

# --- panels ----------------------------------------------------------------------------------
BACKGROUND = rgb(36, 38, 44)
PANEL = rgb(50, 53, 61)
TEXT = rgb(240, 240, 240)
TEXT_DIM = rgb(170, 174, 184)
MARKER_FREE = rgb(70, 190, 90)  # an unused marker: ready to slide across
MARKER_USED = rgb(110, 112, 120)
BANNER: dict[str, RGBA] = {
    "none": rgb(0, 0, 0, 0),
    "illegal": rgb(180, 30, 30),
    "hand": rgb(190, 120, 20),
    "unsure": rgb(40, 90, 190),
    "win": rgb(30, 140, 60),
    "info": rgb(60, 100, 130),
}
LINK: dict[str, RGBA] = {
    "none": rgb(110, 112, 120),
    "connecting": rgb(230, 170, 30),
    "ok": rgb(60, 200, 90),
    "lost": rgb(230, 50, 50),
    "simulated": rgb(90, 160, 240),
}

# --- sizes (dp / sp) -------------------------------------------------------------------------
TOUCH = 56  # dp: buttons, comfortably above the ~48 dp a fingertip needs
FONT = 18  # sp: body text
FONT_SMALL = 15
FONT_TITLE = 21
PANEL_MIN_WIDTH = 340  # dp: the side panel in landscape; the board takes the rest
PANEL_MIN_HEIGHT = 380  # dp: the panels under the board in portrait
