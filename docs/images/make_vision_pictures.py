#!/usr/bin/env python3
"""Draw the pictures of docs/vision.md from the simulated table (fixed seeds):

    python3 docs/images/make_vision_pictures.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from calibration.profile import calibrate  # noqa: E402
from companion.rules.teleporters import Position  # noqa: E402
from companion.rules.teleporters.random_play import random_midgame  # noqa: E402
from vision.classify import bare_mat_distance, colour_features  # noqa: E402
from vision.matfind import project  # noqa: E402
from vision.shapes import line_layout, pole_axes  # noqa: E402
from vision.simtable import (  # noqa: E402
    CREAM_PAPER,
    CameraPose,
    Lighting,
    PieceStyle,
    Scene,
    render,
    vary_look,
)

EMPTY = {"game": "teleporters", "to_move": "south", "poles": {}, "ports": []}


def grid(image: np.ndarray, H: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    out = image.copy()
    for i in range(9):
        for a, b in (((i, 0), (i, 8)), ((0, i), (8, i))):
            p = project(H, np.array([a, b], float)).astype(int)
            cv2.line(out, tuple(p[0]), tuple(p[1]), colour, 1, cv2.LINE_AA)
    return out


def label(image: np.ndarray, text: str) -> np.ndarray:
    out = image.copy()
    cv2.rectangle(out, (0, 0), (out.shape[1], 26), (0, 0, 0), -1)
    cv2.putText(out, text, (8, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def main() -> None:
    scene = vary_look(Scene(pose=CameraPose(tilt_deg=22, azimuth_deg=15, width=960,
                                            height=540), seed=5))
    empty = render(EMPTY, scene.with_(seed=1)).image
    start = render(Position.start().to_json(), scene.with_(seed=2)).image
    now = render(random_midgame(random.Random(5), 14).to_json(), scene.with_(seed=3)).image
    profile = calibrate(start, empty=empty)
    H = profile.homography
    # 1. The two calibration photos, with the grid found in them.
    pair = np.hstack([label(grid(empty, H, (0, 200, 255)), "1. the empty mat (--empty)"),
                      label(grid(start, H, (0, 200, 255)), "2. the start position")])
    cv2.imwrite(str(HERE / "calibration-photos.jpg"), cv2.resize(pair, None, fx=0.5, fy=0.5,
                                                                  interpolation=cv2.INTER_AREA))
    # 2. Where one neighbourhood is sampled: Pole tops, footprints, walls.
    det = profile.detector()
    _, fix = det.prepare(now, track=False)
    _, layout, uv = det.camera(fix)
    shown = now.copy()
    kinds = ((layout.top, (0, 255, 255)), (layout.foot, (255, 0, 255)),
             (layout.wall, (0, 255, 0)))
    squares = [q for q in range(64) if 2 <= (q & 7) <= 4 and 2 <= (q >> 3) <= 4]
    for sl, colour in kinds:
        for q in squares:
            for u, v in uv[q, sl]:
                cv2.circle(shown, (round(u), round(v)), 1, colour, -1)
    c = project(H, np.array([[3.5, 3.5]]))[0].astype(int)
    crop = shown[max(0, c[1] - 110):c[1] + 110, max(0, c[0] - 160):c[0] + 160]
    cv2.imwrite(str(HERE / "calibration-samples.jpg"),
                label(cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST),
                      "samples: Pole tops (yellow), footprints (magenta), walls (green)"))
    # 3. How unlike the bare mat each pixel is (shade allowed, a change of colour not).
    f_now = colour_features(now.reshape(-1, 3))
    f_empty = colour_features(empty.reshape(-1, 3))
    d = bare_mat_distance(f_now, f_empty).reshape(now.shape[:2])
    heat = cv2.applyColorMap(np.clip(d * 32, 0, 255).astype(np.uint8), cv2.COLORMAP_INFERNO)
    pair = np.hstack([label(now, "a mid-game frame"),
                      label(heat, "unlike the bare mat (black: as the empty photo)")])
    cv2.imwrite(str(HERE / "bare-mat-distance.jpg"), cv2.resize(pair, None, fx=0.5, fy=0.5,
                                                                 interpolation=cv2.INTER_AREA))

    shapes()


def shapes() -> None:
    """4. White pieces on cream paper: where their shapes are read, and what changed."""
    scene = Scene(pose=CameraPose(tilt_deg=30, azimuth_deg=20, width=960, height=540),
                  lighting=Lighting(brightness=0.6),
                  style=PieceStyle(colours={"south": (232, 232, 232), "north": (34, 34, 36)},
                                   gloss=0.3), mat=CREAM_PAPER, seed=7)
    empty = render(EMPTY, scene.with_(seed=1)).image
    profile = calibrate(render(Position.start().to_json(), scene.with_(seed=2)).image,
                        empty=empty)
    pos = {"game": "teleporters", "to_move": "south", "poles": {"d4": "south", "e5": "north"},
           "ports": [{"square": "c4", "side": "south", "corner": "ne"},
                     {"square": "e4", "side": "south", "corner": "sw"}]}
    now = render(pos, scene.with_(seed=3)).image
    det = profile.detector()
    _, fix = det.prepare(now, track=False)
    cam, _, _ = det.camera(fix)
    lines, axes = line_layout(cam), pole_axes(cam)
    shown = now.copy()
    for q in (26, 27, 28):  # c4, d4, e4
        for across in lines.points[q].reshape(-1, lines.points.shape[-2], 2):
            if np.isnan(across).any():
                continue
            p = cam.image_points(across)
            cv2.polylines(shown, [p.astype(np.int32)], False, (0, 200, 0), 1, cv2.LINE_AA)
        p = cam.image_points(axes.points[q].reshape(-1, 2), axes.heights[q].reshape(-1))
        for k, (u, v) in enumerate(p):
            cv2.circle(shown, (round(u), round(v)), 2, (0, 0, 255) if k % 3 == 0
                       else (255, 128, 0), -1)
    light = cv2.cvtColor(now, cv2.COLOR_BGR2GRAY).astype(np.float32) + 4
    bare = cv2.cvtColor(empty, cv2.COLOR_BGR2GRAY).astype(np.float32) + 4
    change = np.log(light / bare)
    heat = cv2.applyColorMap(np.clip(128 + change * 400, 0, 255).astype(np.uint8),
                             cv2.COLORMAP_TWILIGHT_SHIFTED)
    c = project(profile.homography, np.array([[4.0, 4.0]]))[0].astype(int)
    y0, x0 = max(0, c[1] - 90), max(0, c[0] - 150)
    pair = np.hstack([
        label(cv2.resize(shown[y0:y0 + 180, x0:x0 + 300], None, fx=2, fy=2,
                         interpolation=cv2.INTER_NEAREST),
              "profiles across edges (green), Pole axes (red) and beside (blue)"),
        label(cv2.resize(heat[y0:y0 + 180, x0:x0 + 300], None, fx=2, fy=2,
                         interpolation=cv2.INTER_NEAREST),
              "change in lightness from the empty mat (dark: darker)")])
    cv2.imwrite(str(HERE / "shapes.jpg"), pair)


if __name__ == "__main__":
    main()
