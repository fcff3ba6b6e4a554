#!/usr/bin/env python3
"""Vision benchmark on the simulated table (a report, not a timed test).

For each scene (camera pose from straight down to 35 degrees, lighting, table, noise), it
calibrates once from the start position and then reads random legal mid-game positions,
counting spaces and whole positions read right. Frames with a hand over the mat must never
yield a position. Speed: detection of one frame (track + sample + classify) at 1280x720 and
1920x1080 on one core, and mat finding from scratch.

    python3 benchmarks/bench_vision.py            # 30 scenes x 10 positions = 300 frames
    python3 benchmarks/bench_vision.py --quick    # 6 scenes x 5 positions
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from calibration.profile import CalibrationError, calibrate  # noqa: E402
from companion.rules.teleporters import Position  # noqa: E402
from companion.rules.teleporters.random_play import random_midgame  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.matfind import find_mat  # noqa: E402
from vision.simtable import CameraPose, Hand, Lighting, Scene, Sensor, render  # noqa: E402

START = Position.start().to_json()
UNSURE = 0.5  # the referee's default confidence threshold (RefereeConfig.uncertain_below)


def make_scene(rng: random.Random, i: int) -> tuple[Scene, str, dict[str, str]]:
    tilt = [0, 10, 20, 28, 35][i % 5]
    azimuth = rng.choice([0, 0, 0, 15, 345, 30, 330])  # the camera mostly by south's side
    light = rng.choice(["even", "warm", "cool", "dim", "uneven"])
    lighting = {"even": Lighting(gradient=0.05), "warm": Lighting(temperature=0.8),
                "cool": Lighting(temperature=-0.8), "dim": Lighting(brightness=0.55),
                "uneven": Lighting(gradient=0.45)}[light]
    noise = rng.choice(["clean", "webcam", "noisy"])
    sensor = {"clean": Sensor(noise=1, blur=0.4, jpeg_quality=95), "webcam": Sensor(),
              "noisy": Sensor(noise=6, blur=1.0, jpeg_quality=70)}[noise]
    table = rng.choice(["wood", "cloth"])
    scene = Scene(pose=CameraPose(tilt_deg=tilt, azimuth_deg=azimuth), lighting=lighting,
                  sensor=sensor, table=table, seed=1000 + i)
    return scene, "bottom", {"tilt": f"{tilt:>2} deg", "light": light, "noise": noise,
                             "table": table}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30)
    ap.add_argument("--positions", type=int, default=10, help="per scene")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", metavar="PATH")
    ap.add_argument("--verbose", action="store_true",
                    help="name every frame read wrong, refused, or seen through a hand")
    args = ap.parse_args()
    if args.quick:
        args.scenes, args.positions = 6, 5
    cv2.setNumThreads(1)  # the target is per core
    rng = random.Random(args.seed)
    spaces = spaces_ok = frames = frames_ok = cal_failed = 0
    hands = hand_positions = false_occlusions = flagged = wrong_flagged = 0
    by: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    detect_ms: list[float] = []
    for i in range(args.scenes):
        scene, south_at, cond = make_scene(rng, i)
        try:
            profile = calibrate(render(START, scene).image, south_at=south_at)
        except CalibrationError as exc:
            cal_failed += 1
            print(f"scene {i} ({cond}): calibration failed: {exc}", file=sys.stderr)
            continue
        detector = profile.detector()
        for k in range(args.positions):
            truth = random_midgame(rng, rng.randint(6, 40))
            frame = render(truth.to_json(), scene.with_(seed=scene.seed * 1000 + k))
            t0 = time.perf_counter()
            try:
                found = detector.detect(frame.image)
            except VisionError:
                found = None
            detect_ms.append((time.perf_counter() - t0) * 1000)
            frames += 1
            if found is None or found.occluded or found.position is None:
                ok_spaces = 0
                false_occlusions += 1
                if args.verbose:
                    print(f"scene {i} frame {k} ({cond}): no hand, reported occluded",
                          file=sys.stderr)
            else:
                seen = Position.from_json(found.position)
                right = [truth.poles[q] is seen.poles[q] and truth.ports[q] == seen.ports[q]
                         for q in range(64)]
                ok_spaces = sum(right)
                # Spaces vision itself calls unsure: the referee asks for a re-look there.
                unsure = found.confidence < UNSURE
                flagged += int(unsure.sum())
                wrong_flagged += sum(1 for q in range(64) if not right[q] and unsure[q])
                if args.verbose and ok_spaces < 64:
                    wrong = [f"{'abcdefgh'[q & 7]}{(q >> 3) + 1}"
                             f"({found.confidence[q]:.2f})" for q in range(64) if not right[q]]
                    print(f"scene {i} frame {k} ({cond}): wrong {' '.join(wrong)}",
                          file=sys.stderr)
            spaces += 64
            spaces_ok += ok_spaces
            frames_ok += ok_spaces == 64
            for key, value in cond.items():
                cell = by[key][value]
                cell[0] += 64
                cell[1] += ok_spaces
                cell[2] += ok_spaces == 64
            hand = Hand(reach=(rng.uniform(1, 7), rng.uniform(1, 7)),
                        from_deg=rng.choice([0, 90, 180, 270]), height=rng.uniform(0.8, 2.5))
            hframe = render(truth.to_json(), scene.with_(seed=scene.seed * 1000 + 500 + k), hand)
            if hframe.occluded:
                hands += 1
                # The mat not followed under the hand (VisionError) is no position either.
                with contextlib.suppress(VisionError):
                    seen_through = detector.detect(hframe.image).position is not None
                    hand_positions += seen_through
                    if args.verbose and seen_through:
                        print(f"scene {i} frame {k} ({cond}): a position under {hand}",
                              file=sys.stderr)

    # Speed on one core: steady-state detection (tracking a still camera) and mat finding.
    speed: dict[str, float] = {}
    truth = random_midgame(random.Random(args.seed), 20).to_json()
    for w, h in ((1280, 720), (1920, 1080)):
        scene = Scene(pose=CameraPose(tilt_deg=20, width=w, height=h), seed=7)
        profile = calibrate(render(START, scene).image)
        det = profile.detector()
        image = render(truth, scene.with_(seed=8)).image
        det.detect(image)
        times, finds = [], []
        for _ in range(60):
            t0 = time.perf_counter()
            det.detect(image)
            times.append((time.perf_counter() - t0) * 1000)
        for _ in range(10):
            t0 = time.perf_counter()
            find_mat(image)
            finds.append((time.perf_counter() - t0) * 1000)
        speed[f"detect_{w}x{h}_ms"] = statistics.median(times)
        # The tracker refines the mat's fix every few frames; the mean counts those too.
        speed[f"detect_{w}x{h}_mean_ms"] = statistics.fmean(times)
        speed[f"find_mat_{w}x{h}_ms"] = statistics.median(finds)

    report: dict[str, Any] = {
        "frames": frames, "scenes": args.scenes, "calibration_failed": cal_failed,
        "space_accuracy": spaces_ok / spaces if spaces else 0.0,
        "position_accuracy": frames_ok / frames if frames else 0.0,
        "hand_frames": hands, "hand_frames_with_a_position": hand_positions,
        "clean_frames_reported_occluded": false_occlusions,
        "spaces_flagged_unsure": flagged, "wrong_spaces_flagged_unsure": wrong_flagged,
        "wrong_spaces": spaces - spaces_ok - 64 * false_occlusions,
        "detect_ms_median_all_frames": statistics.median(detect_ms) if detect_ms else 0.0,
        **speed,
        "by_condition": {k: {v: {"space_accuracy": c[1] / c[0], "position_accuracy":
                                 c[2] / (c[0] // 64)} for v, c in sorted(vals.items())}
                         for k, vals in by.items()},
    }
    print(f"vision benchmark: {frames} frames in {args.scenes} scenes "
          f"({cal_failed} calibrations failed), seed {args.seed}")
    print(f"  per-space accuracy      {report['space_accuracy']:.4f}   (target >= 0.999)")
    print(f"  whole-position accuracy {report['position_accuracy']:.4f}   (target >= 0.99)")
    print(f"  hand frames: {hands}, of which yielded a position: {hand_positions} (target 0)")
    print(f"  frames without a hand reported occluded: {false_occlusions}")
    print(f"  wrong spaces (in positions reported): {report['wrong_spaces']}, of which flagged "
          f"unsure (confidence < {UNSURE}): {wrong_flagged}; spaces flagged unsure: {flagged}")
    for key, vals in report["by_condition"].items():
        row = ", ".join(f"{v}: {c['space_accuracy']:.4f}/{c['position_accuracy']:.2f}"
                        for v, c in vals.items())
        print(f"  by {key} (space/position): {row}")
    for name, value in speed.items():
        print(f"  {name}: {value:.2f}")
    print("  targets: detect 1280x720 < 8 ms median on one core; find_mat < 100 ms")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
