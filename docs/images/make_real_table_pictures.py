#!/usr/bin/env python3
"""Draw the pictures of docs/real-table.md (fixed seeds, so they come out the same):

    python3 docs/images/make_real_table_pictures.py

The camera diagram is drawn with OpenCV. The overlays are written by the real commands
(`companion clip`, `calibrate` and `look`, as the guide gives them) on the simulated table's
sample recording; `look` writes JPEG here to keep them small.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from companion.commands.main import main  # noqa: E402

BGR = tuple[int, int, int]
INK: BGR = (40, 40, 40)
GOOD: BGR = (60, 150, 40)
BAD: BGR = (40, 40, 200)
LIGHT: BGR = (60, 200, 235)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _text(img: np.ndarray, text: str, at: tuple[int, int], colour: BGR = INK,
          scale: float = 0.5) -> None:
    cv2.putText(img, text, at, FONT, scale, colour, 1, cv2.LINE_AA)


def _arrow(img: np.ndarray, a: tuple[int, int], b: tuple[int, int], colour: BGR) -> None:
    cv2.arrowedLine(img, a, b, colour, 2, cv2.LINE_AA, tipLength=0.04)


def _tag(img: np.ndarray, n: int, at: tuple[int, int], colour: BGR) -> None:
    """A numbered callout: the legend under the table says what it marks."""
    cv2.circle(img, at, 11, colour, -1)
    _text(img, str(n), (at[0] - 5, at[1] + 5), (255, 255, 255), 0.45)


LEGEND = (
    (GOOD, "camera: the whole mat in view, straight down to 40 deg off vertical"),
    (INK, "height: 60-90 cm over an A3 mat with a typical webcam (the mat fills most of "
          "the picture)"),
    (GOOD, "good: soft light from above"),
    (BAD, "avoid: a low light from the side (long shadows over the next spaces)"),
    (BAD, "avoid: glare (a lamp or window mirrored by the mat into the lens)"),
)


def camera_diagram() -> np.ndarray:
    """Side view: the table and mat, the camera over the mat up to 40 degrees off vertical
    and its height, a soft light from above, and what to avoid: a low side light's long
    shadows and a light mirrored into the lens. Numbered callouts, a legend below."""
    w, h = 900, 520
    img = np.full((h, w, 3), 250, np.uint8)
    table_y, mat = 330, (300, 600)  # the table's top and the mat's two ends, in pixels
    cv2.rectangle(img, (30, table_y), (w - 30, table_y + 14), (120, 150, 180), -1)
    cv2.rectangle(img, (mat[0], table_y - 6), (mat[1], table_y), (225, 235, 240), -1)
    cv2.rectangle(img, (mat[0], table_y - 6), (mat[1], table_y), INK, 1)
    centre = ((mat[0] + mat[1]) // 2, table_y - 6)
    top = 40
    # the cone of good camera places: straight down to 40 degrees off vertical
    for deg in (0, 25, 40):
        r = centre[1] - top
        end = (int(centre[0] - r * math.sin(math.radians(deg))),
               int(centre[1] - r * math.cos(math.radians(deg))))
        cv2.line(img, centre, end, GOOD, 1, cv2.LINE_AA)
        _text(img, f"{deg} deg", (end[0] - 58, end[1] + 4), GOOD, 0.45)
    cam = (centre[0], top + 30)
    cv2.rectangle(img, (cam[0] - 22, cam[1] - 14), (cam[0] + 22, cam[1] + 14), INK, -1)
    cv2.circle(img, (cam[0], cam[1] + 16), 7, INK, -1)
    _tag(img, 1, (cam[0] + 40, cam[1]), GOOD)
    x = mat[1] + 40  # the height, beside the mat
    _arrow(img, (x, (cam[1] + table_y) // 2), (x, cam[1]), INK)
    _arrow(img, (x, (cam[1] + table_y) // 2), (x, table_y - 6), INK)
    _tag(img, 2, (x + 22, (cam[1] + table_y) // 2), INK)
    lamp = (mat[0] - 110, 40)  # good light: high, soft, from above
    cv2.circle(img, lamp, 16, LIGHT, -1)
    cv2.circle(img, lamp, 16, INK, 1)
    for k in range(-1, 2):
        _arrow(img, (lamp[0] + 10 * k, lamp[1] + 20), (mat[0] + 60 + 40 * k, table_y - 40),
               LIGHT)
    _tag(img, 3, (lamp[0] - 34, lamp[1]), GOOD)
    low = (80, table_y - 50)  # bad: a low light from the side
    cv2.circle(img, low, 14, LIGHT, -1)
    cv2.circle(img, low, 14, INK, 1)
    pole = (mat[0] + 30, table_y - 6)
    cv2.rectangle(img, (pole[0] - 6, pole[1] - 40), (pole[0] + 6, pole[1]), BAD, -1)
    cv2.line(img, low, (pole[0] - 6, pole[1] - 40), LIGHT, 1, cv2.LINE_AA)
    cv2.rectangle(img, (pole[0] + 6, table_y - 4), (pole[0] + 160, table_y - 1), (90, 90, 90),
                  -1)
    _tag(img, 4, (low[0], low[1] - 30), BAD)
    glare = (w - 90, 120)  # bad: a light mirrored into the lens
    cv2.circle(img, glare, 14, LIGHT, -1)
    cv2.circle(img, glare, 14, INK, 1)
    hit = (centre[0] + 60, table_y - 6)
    cv2.line(img, glare, hit, BAD, 1, cv2.LINE_AA)
    _arrow(img, hit, (cam[0] + 8, cam[1] + 22), BAD)
    _tag(img, 5, (glare[0], glare[1] - 30), BAD)
    _text(img, "mat", (mat[0] + 135, table_y + 34))
    for i, (colour, words) in enumerate(LEGEND):
        y = table_y + 70 + 26 * i
        _tag(img, i + 1, (44, y - 5), colour)
        _text(img, words, (64, y), colour)
    return img


def run(argv: list[str], where: Path) -> None:
    """One `companion` command, run in ``where``; it must succeed."""
    import os

    before = Path.cwd()
    os.chdir(where)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0, argv
    finally:
        os.chdir(before)


def overlays(out: Path) -> None:
    """The guide's own commands on the sample recording (seed 11, 640x360 at 2 fps)."""
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        run(["clip", "--out", "sample", "--size", "640x360", "--fps", "2"], where)
        run(["look", "--image", "sample/frame_0.jpg", "--out", "mat-only.jpg"], where)
        run(["calibrate", "--image", "sample/frame_0.jpg", "--out", "table.json"], where)
        run(["look", "--image", "sample/frame_16.jpg", "--profile", "table.json", "--out",
             "overlay.jpg"], where)
        run(["look", "--image", "sample/frame_3.jpg", "--profile", "table.json", "--out",
             "hand.jpg"], where)
        for name, to in (("mat-only.jpg", "real-table-look-mat.jpg"),
                         ("overlay.jpg", "real-table-look.jpg"),
                         ("hand.jpg", "real-table-look-hand.jpg")):
            (out / to).write_bytes((where / name).read_bytes())


def main_() -> None:
    cv2.imwrite(str(HERE / "real-table-camera.png"), camera_diagram(),
                [cv2.IMWRITE_PNG_COMPRESSION, 9])
    overlays(HERE)
    for name in ("real-table-camera.png", "real-table-look-mat.jpg", "real-table-look.jpg",
                 "real-table-look-hand.jpg"):
        print(f"wrote docs/images/{name}: {(HERE / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main_()
