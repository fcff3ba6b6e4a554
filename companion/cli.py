"""The ``companion`` command line. Exit codes: 0 ok/legal, 1 illegal, 2 bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.rules import GAMES, RulesError
from companion.rules.teleporters import Position, Variant, explain

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2

if TYPE_CHECKING:
    import numpy as np


class BadInput(Exception):
    """A user error to report in one line with exit code 2."""


def _read_position(path: str) -> Position:
    """A position from a JSON file, a text-notation file, or ``-`` (standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not a text file") from None
    stripped = text.strip()
    if not stripped:
        raise BadInput(f"{path} is empty")
    try:
        if stripped.startswith("{"):
            return Position.from_json(stripped)
        return Position.from_text(stripped)
    except RulesError as exc:
        raise BadInput(f"{path}: {exc}") from None


def _cmd_setup(args: argparse.Namespace) -> int:
    try:
        variant = Variant.from_flags(args.variant or [])
    except RulesError as exc:
        raise BadInput(str(exc)) from None
    from companion.rules.teleporters import Side

    position = Position.start(variant, to_move=Side(args.first))
    if args.text:
        print(position.to_text())
    else:
        print(json.dumps(position.to_json(), indent=1))
    return EXIT_OK


def _cmd_judge(args: argparse.Namespace) -> int:
    start = _read_position(args.start)
    now = _read_position(args.now)
    if args.variant:
        try:
            start = start.replace(variant=Variant.from_flags(args.variant, start.variant))
        except RulesError as exc:
            raise BadInput(str(exc)) from None
    result = explain(start, now)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print(result.describe())
    return EXIT_OK if result.legal else EXIT_ILLEGAL


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="tabletop-companion: a referee for physical board games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    setup = sub.add_parser("setup", help="print a game's start position")
    setup.add_argument("--game", choices=GAMES, default="teleporters")
    setup.add_argument("--variant", action="append", metavar="KEY=VALUE",
                       help="rules variant flag, e.g. send_marker=either (repeatable)")
    setup.add_argument("--first", choices=["south", "north"], default="south",
                       help="the side that moves first (default south)")
    setup.add_argument("--text", action="store_true", help="print text notation, not JSON")
    setup.set_defaults(func=_cmd_setup)

    judge = sub.add_parser(
        "judge", help="explain the change from START to NOW as legal moves, or say why not",
        description="Exit status: 0 legal, 1 illegal, 2 bad input.")
    judge.add_argument("--game", choices=GAMES, default="teleporters")
    judge.add_argument("start", metavar="START", help="position at the start of the turn "
                       "(JSON or text notation; - for standard input)")
    judge.add_argument("now", metavar="NOW", help="position seen now")
    judge.add_argument("--variant", action="append", metavar="KEY=VALUE",
                       help="override a rules variant flag of START (repeatable)")
    judge.add_argument("--json", action="store_true", help="print the explanation as JSON")
    judge.set_defaults(func=_cmd_judge)

    mat = sub.add_parser("mat", help="draw the Teleporters mat for printing")
    mat.add_argument("--out", required=True, metavar="PATH", help="image to write (.png, .jpg)")
    mat.add_argument("--paper", choices=["A4", "A3", "A2"], default="A3")
    mat.add_argument("--dpi", type=int, default=300)
    mat.set_defaults(func=_cmd_mat)

    cal = sub.add_parser("calibrate", help="calibrate a camera from the start position")
    src = cal.add_mutually_exclusive_group(required=True)
    src.add_argument("--image", metavar="PATH", help="a photo of the start position")
    src.add_argument("--camera", type=int, metavar="N",
                     help="grab the start position from camera N")
    cal.add_argument("--out", required=True, metavar="PATH", help="profile to write (JSON)")
    cal.add_argument("--south-at", choices=["bottom", "top", "left", "right"],
                     default="bottom", help="image edge nearest south's Home row")
    cal.set_defaults(func=_cmd_calibrate)

    det = sub.add_parser("detect", help="read positions from images with a profile")
    det.add_argument("--profile", required=True, metavar="PATH")
    det.add_argument("images", nargs="+", metavar="IMAGE")
    det.add_argument("--json", action="store_true",
                     help="one JSON document per image: path, position, confidences")
    det.set_defaults(func=_cmd_detect)

    from firmware_bridge.cli import register as register_bridge

    register_bridge(sub)

    demo = sub.add_parser("demo", help="referee a scripted match, no hardware needed")
    demo.add_argument("--headless", action="store_true", help="text output only")
    demo.add_argument("--delay", type=float, default=0.0,
                      help="seconds to pause between observations (default 0)")
    demo.set_defaults(func=_cmd_demo)
    return parser


def _cmd_mat(args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.mat import write_mat

    try:
        width, height = write_mat(args.out, args.paper, args.dpi)
    except VisionError as exc:
        raise BadInput(str(exc)) from None
    print(f"wrote {args.out}: {width}x{height} px, {args.paper} at {args.dpi} dpi "
          f"({width / args.dpi * 25.4:.0f} mm square)")
    return EXIT_OK


def _read_image(path: str) -> np.ndarray:
    import cv2

    if not Path(path).is_file():
        raise BadInput(f"{path}: no such image")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise BadInput(f"{path}: not an image OpenCV can read")
    return image


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from calibration.profile import calibrate
    from vision.errors import VisionError
    from vision.sources import CameraSource, Frame

    try:
        if args.image is not None:
            image = _read_image(args.image)
        else:
            cam = CameraSource(args.camera)
            frames = [f for f in (cam.read() for _ in range(10)) if isinstance(f, Frame)]
            cam.close()
            if not frames:
                raise BadInput(f"camera {args.camera} sent no frames")
            image = frames[-1].image
        profile = calibrate(image, south_at=args.south_at)
        profile.save(args.out)
    except VisionError as exc:
        raise BadInput(str(exc)) from None
    print(f"wrote {args.out}: mat found, south at the {args.south_at}, colours learned")
    return EXIT_OK


def _cmd_detect(args: argparse.Namespace) -> int:
    from calibration.profile import Profile
    from vision.errors import VisionError

    try:
        detector = Profile.load(args.profile).detector()
    except VisionError as exc:
        raise BadInput(str(exc)) from None
    failed = 0
    for path in args.images:
        try:
            found = detector.detect(_read_image(path))
        except (BadInput, VisionError) as exc:
            print(f"companion detect: {exc if isinstance(exc, BadInput) else f'{path}: {exc}'}",
                  file=sys.stderr)
            failed += 1
            continue
        if args.json:
            doc = {"path": path, "status": found.status}
            if not found.occluded:
                doc.update(position=found.position, confidence=found.confidences_json())
            print(json.dumps(doc))
        elif found.occluded:
            print(f"{path}: occluded (a hand is over the mat)")
        else:
            print(json.dumps(found.position))
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _cmd_demo(args: argparse.Namespace) -> int:
    from companion.demo import run_demo

    if args.delay < 0:
        raise BadInput(f"--delay must be >= 0, got {args.delay}")
    return run_demo(delay=args.delay)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except BadInput as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
