"""Pictures for ``companion matches show`` (issue 6): the final position as an 8x8 board with
Poles as circles and Ports as corner wedges in the side colours; time per turn for both sides."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.matchlog import Match, MatchLogError, TurnRecord
from companion.matchlog.draw import SIDE_BGR, draw_position, draw_timeline, write_image
from companion.rules.teleporters import Position, Side, parse_square
from tests.companion.matchlog.helpers import EPOCH

CELL = 72


def pixel(img: np.ndarray, name: str, fx: float, fy: float) -> tuple[int, int, int]:
    """The colour at (fx, fy) of a square's cell, (0, 0) its top-left corner on screen."""
    sq = parse_square(name)
    margin = max(24, CELL // 3)
    x = margin + (sq % 8) * CELL + int(fx * CELL)
    y = margin + (7 - sq // 8) * CELL + int(fy * CELL)
    b, g, r = img[y, x]
    return int(b), int(g), int(r)


def near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_position_shows_poles_as_circles_and_ports_as_corner_wedges() -> None:
    img = draw_position(Position.start(), cell=CELL)
    assert img.shape == (2 * 24 + 8 * CELL, 2 * 24 + 8 * CELL, 3) and img.dtype == np.uint8
    assert near(pixel(img, "d1", 0.62, 0.62), SIDE_BGR[Side.SOUTH])  # Pole, off the highlight
    assert near(pixel(img, "e8", 0.62, 0.62), SIDE_BGR[Side.NORTH])
    assert not near(pixel(img, "d1", 0.03, 0.5), SIDE_BGR[Side.SOUTH])  # circle, not square
    # South's Port at b2 stands in the sw corner (bottom-left on screen), north's at g7 ne.
    assert near(pixel(img, "b2", 0.12, 0.88), SIDE_BGR[Side.SOUTH])
    assert not near(pixel(img, "b2", 0.88, 0.12), SIDE_BGR[Side.SOUTH])
    assert near(pixel(img, "g7", 0.88, 0.12), SIDE_BGR[Side.NORTH])
    assert not near(pixel(img, "d4", 0.5, 0.5), SIDE_BGR[Side.SOUTH])  # an empty space


def test_teleport_draws_both_wedges() -> None:
    pos = Position.from_text("8/8/8/8/3[PSWNE]4/8/8/8 south")
    img = draw_position(pos, cell=CELL)
    assert near(pixel(img, "d4", 0.12, 0.88), SIDE_BGR[Side.SOUTH])
    assert near(pixel(img, "d4", 0.88, 0.12), SIDE_BGR[Side.SOUTH])


def test_timeline_has_a_bar_per_turn_in_the_movers_colour(tmp_path: Path) -> None:
    start = Position.start()
    t1 = TurnRecord.played(start, ["Pd1-d3"], 60, EPOCH)
    t2 = TurnRecord.played(t1.position, ["Pd8-d6"], 15, EPOCH + timedelta(seconds=75))
    img = draw_timeline(Match(start, {}, EPOCH, (t1, t2)))
    assert img.shape == (420, 960, 3)
    # Plot area x from 64 to 940: turn 1 fills the left half, turn 2 the right.
    bottom = 420 - 48 - 3
    assert near(tuple(int(c) for c in img[bottom, 64 + 219]), SIDE_BGR[Side.SOUTH])
    assert near(tuple(int(c) for c in img[bottom, 64 + 657]), SIDE_BGR[Side.NORTH])
    # The 60 s bar is four times as tall as the 15 s one.
    south = np.count_nonzero((img[:, 64 + 219] == SIDE_BGR[Side.SOUTH]).all(axis=1))
    north = np.count_nonzero((img[:, 64 + 657] == SIDE_BGR[Side.NORTH]).all(axis=1))
    assert abs(south / north - 4) < 0.2
    path = tmp_path / "t.png"
    write_image(path, img)
    assert cv2.imread(str(path)).shape == img.shape


def test_timeline_of_a_match_without_turns() -> None:
    assert draw_timeline(Match(Position.start(), {}, EPOCH)).shape == (420, 960, 3)


def test_unwritable_image_is_a_clear_error(tmp_path: Path) -> None:
    img = draw_position(Position.start(), cell=32)
    with pytest.raises(MatchLogError, match="cannot write"):
        write_image(tmp_path / "missing" / "x.png", img)
    with pytest.raises(MatchLogError, match="cannot write"):
        write_image(tmp_path / "x.unknown", img)
