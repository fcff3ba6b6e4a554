"""The ``companion`` command line. Exit codes: 0 ok/legal, 1 illegal, 2 bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.options import finite, natural, whole
from companion.rules import GAMES, RulesError
from companion.rules.teleporters import Position

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports it

if TYPE_CHECKING:
    import numpy as np


def _read_position(path: str) -> Position:
    """A Teleporters position from a JSON file, a text-notation file, or ``-`` (stdin)."""
    from companion.position_files import read_position

    position: Position = read_position(path)
    return position


def _cmd_setup(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    flags = list(args.variant or [])
    if args.players is not None:
        if "players" not in game.flags:
            raise UserError(f"--players is for portal-hex (2-6 players); {game.name} is for two")
        flags.append(f"players={args.players}")
    position = game.start(flags, args.first)
    if args.text:
        print(game.position_text(position))
    else:
        print(json.dumps(game.position_json(position), indent=1))
    return EXIT_OK


def _cmd_judge(args: argparse.Namespace) -> int:
    from companion.position_files import read_position

    game = GAMES[args.game]
    start, now = (read_position(path, game.id, observed)
                  for path, observed in ((args.start, False), (args.now, True)))
    roll = None if args.roll is None else game.parse_roll(args.roll)
    if args.variant:
        start = game.with_flags(start, args.variant)
    result = game.explain(start, now, roll=roll)  # a RulesError here is bad input: main says so
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
    setup.add_argument("--first", metavar="SIDE",
                       help="who moves first: south or north (teleporters, default south); a "
                       "colour for portal-hex (default the first, red)")
    setup.add_argument("--players", type=whole, metavar="N",
                       help="portal-hex: the number of players, 2-6 (default 2)")
    setup.add_argument("--text", action="store_true",
                       help="print text notation, not JSON")
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
    judge.add_argument("--roll", metavar="N",
                       help="the die roll of the turn, for games with a die: portals 1-4, telic "
                       "n, a, 2-5, portal-hex 1-8 with dice=true (omit if unknown)")
    judge.set_defaults(func=_cmd_judge)

    mat = sub.add_parser("mat", help="draw the Teleporters mat for printing")
    mat.add_argument("--out", required=True, metavar="PATH", help="image to write (.png, .jpg)")
    mat.add_argument("--paper", choices=["A4", "A3", "A2"], default="A3")
    mat.add_argument("--dpi", type=whole, default=300)
    mat.set_defaults(func=_cmd_mat)

    cal = sub.add_parser(
        "calibrate", help="calibrate the mat from the start position (or: calibrate camera)",
        description="Calibrate the mat from a photo of the start position: --image or "
        "--camera, and --out; add a photo of the empty mat (--empty PATH, or --camera N "
        "--with-empty to take both from the camera) for a mat whose print misleads. "
        "`companion calibrate camera ...` calibrates the camera's lens instead. Exit status: "
        "0 done, 2 bad input, 130 stopped at a prompt.")
    # Not required=True: `calibrate camera` (below) takes neither.
    src = cal.add_mutually_exclusive_group()
    src.add_argument("--image", metavar="PATH", help="a photo of the start position")
    src.add_argument("--camera", type=natural, metavar="N",
                     help="grab the start position from camera N")
    cal.add_argument("--empty", metavar="PATH",
                     help="a photo of the empty mat from the same camera in the same light: "
                     "the look of every space is learned from it (any mat print). With "
                     "--camera: the empty shot is this file, the start position the camera's")
    cal.add_argument("--with-empty", action="store_true",
                     help="with --camera: take the empty-mat photo from the camera too. It "
                     "asks you to clear the mat, then to set up the start position (Enter "
                     "after each), so it needs a terminal")
    cal.add_argument("--out", metavar="PATH", help="profile to write (JSON)")
    cal.add_argument("--south-at", choices=["bottom", "top", "left", "right"],
                     default="bottom", help="image edge nearest south's Home row")
    cal.add_argument("--intrinsics", metavar="PATH",
                     help="the lens calibration (from `calibrate camera --out`): frames are "
                     "undistorted before the mat is found, and the profile keeps it")
    cal.set_defaults(func=_cmd_calibrate)
    lens = cal.add_subparsers(dest="target", metavar="camera")
    _add_calibrate_camera(lens)

    det = sub.add_parser("detect", help="read positions from images with a profile")
    det.add_argument("--profile", required=True, metavar="PATH")
    det.add_argument("images", nargs="+", metavar="IMAGE")
    det.add_argument("--json", action="store_true",
                     help="one JSON document per image: path, position, confidences")
    det.set_defaults(func=_cmd_detect)

    from firmware_bridge.cli import register as register_bridge

    register_bridge(sub)

    from companion.matchlog.cli import add_db_argument
    from companion.matchlog.cli import register as register_matches

    register_matches(sub)

    demo = sub.add_parser(
        "demo", help="referee a scripted match on the simulated table, no hardware needed",
        description="The simulated table plays a scripted late-game match through the vision "
        "pipeline, the referee and a virtual LED board, shown in the app (or as text). "
        "Exit status: 0 after the win, 1 the match could not finish, 2 bad input.")
    demo.add_argument("--headless", action="store_true",
                      help="print the events as text instead of opening the app")
    demo.add_argument("--fast", action="store_true",
                      help="no real-time pacing in the app (text output is never paced)")
    add_db_argument(demo)
    demo.add_argument("--quest", action="store_true",
                      help="the 8 Queens Solitaire Quest instead: a layout with one mistake, "
                      "flagged on the LEDs, then put right")
    demo.set_defaults(func=_cmd_demo)

    quest = sub.add_parser(
        "quest", help="Teleporters Solitaire Quests: check a layout, or watch one live",
        description="Check a layout (a position file) against a quest, or with --camera and "
        "--profile watch the mat live: the LEDs light conflicting pieces red and the spaces "
        "between them amber, a solved layout green; solution classes found are kept per "
        "player. Exit status (a file): 0 solved, 1 not solved, 2 bad input.")
    quest.add_argument("position", nargs="?", metavar="POSITION",
                       help="the layout: Teleporters position JSON or text (- for stdin)")
    quest.add_argument("--quest", default="queens",
                       help="queens, queens7, queens6, queens5 or rooks (default queens)")
    quest.add_argument("--json", action="store_true", help="print the verdict as JSON")
    quest.add_argument("--player", default="player", metavar="NAME",
                       help="whose solutions are counted (default 'player')")
    quest.add_argument("--record", action="store_true",
                       help="with a POSITION: count a solved layout's class for --player")
    quest.add_argument("--scores", action="store_true",
                       help="list the solution classes each player has found")
    quest.add_argument("--classes", action="store_true",
                       help="list the quest's solution classes (computed)")
    quest.add_argument("--camera", type=natural, metavar="N", help="watch camera N live")
    quest.add_argument("--profile", metavar="PATH", help="mat profile (with --camera)")
    quest.add_argument("--bridge", default="auto", metavar="PORT|auto|none",
                       help="the LED board's serial port (with --camera; default auto)")
    add_db_argument(quest)
    quest.add_argument("--headless", action="store_true",
                       help="with --camera: print verdicts instead of opening the app")
    quest.set_defaults(func=_cmd_quest)

    run = sub.add_parser(
        "run", help="referee a real game: camera, mat profile, LED/die board, app",
        description="Without --profile the mat is calibrated from the camera's first still "
        "frames, which must show the start position. Exit status: 0 when stopped, 2 bad input "
        "(profile, empty-mat photo, camera, board port, match store, no start position to "
        "calibrate from).")
    run.add_argument("--camera", type=natural, default=0, metavar="N", help="camera index "
                     "(default 0)")
    _add_calibration_source(run, "the camera as the game starts")
    run.add_argument("--bridge", default="auto", metavar="PORT|auto|none",
                     help="the LED/die board's serial port (default auto: found by USB id)")
    add_db_argument(run)
    run.add_argument("--headless", action="store_true",
                     help="print the events as text instead of opening the app")
    run.set_defaults(func=_cmd_run)

    ref = sub.add_parser(
        "referee", help="referee a recorded match: a video file or a folder of frames",
        description="Runs the live pipeline (vision, stability gate, referee, match log) over "
        "a recording. A turn ends when the other side starts to move, the last one when the "
        "recording ends. Exit status: 0 done, 2 bad input, 130 interrupted (Ctrl-C; what was "
        "committed is kept).")
    ref.add_argument("--source", required=True, metavar="FILE|DIR",
                     help="a video OpenCV reads (mp4, avi, mkv, mov) or a folder of images "
                     "taken at a fixed rate (read in natural name order)")
    _add_calibration_source(ref, "the recording's first still frame")
    add_db_argument(ref)
    ref.add_argument("--fps", type=finite, default=10.0, metavar="N",
                     help="frame rate of a folder of images (default 10; a video has its own)")
    ref.add_argument("--json", action="store_true", help="one JSON object per line per event")
    ref.add_argument("--game", choices=GAMES, default="teleporters")
    ref.add_argument("--first", choices=["south", "north"],
                     help="the side that moves first (default south, or --start's; the referee "
                     "also notices when the other side does)")
    ref.add_argument("--start", metavar="POSITION",
                     help="the board when the recording begins, JSON or text (default the "
                     "set-up; needs --profile)")
    ref.add_argument("--accept-after", type=finite, default=15.0, metavar="SECONDS",
                     help="a board no legal move explains for this long is taken as seen, "
                     "logged as a correction (default 15)")
    ref.set_defaults(func=_cmd_referee)

    clip = sub.add_parser(
        "clip", help="record a sample match on the simulated table (to try `referee` on)",
        description="Plays a short scripted match (with a repel, a Pole Vault and an illegal "
        "move put right) on the simulated table and writes it as a video or a folder of "
        "frames. Exit status: 0 written, 2 bad input.")
    clip.add_argument("--out", required=True, metavar="FILE|DIR",
                      help="a .mp4/.avi/.mkv/.mov file, or a folder for frame_N.jpg images")
    clip.add_argument("--size", default="1280x720", metavar="WxH")
    clip.add_argument("--fps", type=finite, default=30.0, metavar="N")
    clip.add_argument("--tilt", type=finite, default=10.0, metavar="DEG",
                      help="camera angle off vertical (default 10)")
    clip.add_argument("--azimuth", type=finite, default=0.0, metavar="DEG",
                      help="side the camera leans from, 0 = south (default 0)")
    clip.add_argument("--robust", action="store_true", help="also bump the camera, rest a "
                      "hand on the mat's edge and let the light drift")
    clip.add_argument("--seed", type=natural, default=11)
    clip.set_defaults(func=_cmd_clip)
    return parser


def _add_calibration_source(parser: argparse.ArgumentParser, first: str) -> None:
    """--profile, or --empty and --south-at to calibrate from ``first`` (which must show the
    start position): for `run` and `referee`."""
    parser.add_argument("--profile", metavar="PATH",
                        help=f"mat profile from `companion calibrate` (default: calibrate "
                        f"from {first}, which must show the start position)")
    parser.add_argument("--empty", metavar="PATH",
                        help="without --profile: a photo of the empty mat from the same "
                        "camera in the same light, to calibrate with (see `calibrate --empty`)")
    parser.add_argument("--south-at", choices=["bottom", "top", "left", "right"],
                        default="bottom", help="without --profile: the image edge nearest "
                        "south's Home row (default bottom)")


def _cmd_mat(args: argparse.Namespace) -> int:
    from vision.mat import write_mat

    width, height = write_mat(args.out, args.paper, args.dpi)
    print(f"wrote {args.out}: {width}x{height} px, {args.paper} at {args.dpi} dpi "
          f"({width / args.dpi * 25.4:.0f} mm square)")
    return EXIT_OK


def _read_image(path: str) -> np.ndarray:
    from companion.run import read_image

    return read_image(path)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed, or a stand-in without a tty
        return False


def _prompt(text: str) -> None:
    """Ask on stderr and wait for Enter (stdout keeps only the result line)."""
    print(f"{text} ", end="", file=sys.stderr, flush=True)
    if not sys.stdin.readline():
        raise UserError("standard input ended at the prompt: nothing was calibrated")


def _grab(cam: Any, index: int) -> np.ndarray:
    from vision.sources import Frame

    # The last of 10 frames: the ones the driver buffered while we waited are stale.
    frames = [f for f in (cam.read() for _ in range(10)) if isinstance(f, Frame)]
    if not frames:
        raise UserError(f"camera {index} sent no frames")
    return frames[-1].image


def _camera_shots(index: int, with_empty: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """The start position from camera ``index`` and, ``with_empty``, the empty mat first;
    the camera stays open between them so its view and settings do not change."""
    from vision.sources import CameraSource

    cam = CameraSource(index)
    try:
        empty = None
        if with_empty:
            _prompt("clear the mat, then press Enter")
            empty = _grab(cam, index)
            _prompt("set up the start position, then press Enter")
        return _grab(cam, index), empty
    finally:
        cam.close()


def _check_empty_size(empty: np.ndarray, name: str, image: np.ndarray, what: str) -> None:
    from companion.run import check_empty_size

    check_empty_size(empty, name, (image.shape[1], image.shape[0]), what)


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from calibration.intrinsics import CameraIntrinsics
    from calibration.profile import calibrate, unsure_note
    from vision.errors import VisionError

    if args.image is None and args.camera is None:
        raise UserError("give --image PATH or --camera N (or `calibrate camera` for the lens)")
    if args.out is None:
        raise UserError("give --out PATH for the profile")
    if args.with_empty:
        if args.camera is None:
            raise UserError("--with-empty takes both photos from --camera N; with --image give "
                           "the empty-mat photo as --empty PATH")
        if args.empty is not None:
            raise UserError("--with-empty takes the empty-mat photo from the camera and --empty "
                           "names a file: give one of them")
        # Checked before the camera opens: with no one to press Enter it would wait forever.
        if not _is_terminal(sys.stdin):
            raise UserError("--with-empty needs a terminal to ask you to clear the mat and set "
                           "it up; or take the photos yourself and give --image START "
                           "--empty EMPTY")
    try:
        lens = None if args.intrinsics is None else CameraIntrinsics.load(args.intrinsics)
        start = None if args.image is None else _read_image(args.image)
        # Files before the camera: a bad one is said before anyone is asked to do anything.
        empty = None if args.empty is None else _read_image(args.empty)
        if start is not None:
            image, what = start, f"the start photo {args.image}"
        else:
            image, shot = _camera_shots(args.camera, args.with_empty)
            empty = shot if shot is not None else empty
            what = f"camera {args.camera}'s frames"
        if args.empty is not None and empty is not None:
            _check_empty_size(empty, args.empty, image, what)
        profile = calibrate(image, south_at=args.south_at, intrinsics=lens, empty=empty)
        profile.save(args.out)
    except VisionError as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C at a prompt: nothing written
        print("\ncompanion calibrate: stopped, nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"wrote {args.out}: mat found, south at the {args.south_at}, colours learned"
          + ("" if empty is None else ", the empty mat learned from its photo")
          + ("" if lens is None else ", frames undistorted with the lens calibration"))
    if profile.start_unsure:
        print(unsure_note(profile), file=sys.stderr)
    return EXIT_OK


def _add_calibrate_camera(lens: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cam = lens.add_parser(
        "camera", help="calibrate the camera's lens from a printed checkerboard",
        description="Print the sheet (--print-sheet), photograph it flat in 10-20 poses "
        "(--images) or show it to a live camera (--camera N), and write the lens "
        "calibration (--out) and/or add it to a mat profile (--profile). See "
        "docs/camera-calibration.md. Exit status: 0 done, 2 bad input.")
    mode = cam.add_mutually_exclusive_group(required=True)
    mode.add_argument("--print-sheet", metavar="PATH", help="draw the checkerboard to print")
    mode.add_argument("--images", nargs="+", metavar="PATH",
                      help="photos of the sheet: files, or folders of them")
    mode.add_argument("--camera", type=natural, metavar="N",
                      help="take views of the sheet from live camera N")
    cam.add_argument("--views", type=whole, default=15,
                     help="views to take with --camera (default 15)")
    cam.add_argument("--out", metavar="PATH", help="lens calibration to write (JSON)")
    cam.add_argument("--profile", metavar="PATH",
                     help="a mat profile to add the lens calibration to (rewritten)")
    cam.add_argument("--pattern", default="9x6", metavar="COLSxROWS",
                     help="inner corners of the sheet (default 9x6, as printed)")
    cam.add_argument("--paper", choices=["A4", "A3", "Letter"], default="A4",
                     help="paper for --print-sheet (default A4, landscape)")
    cam.add_argument("--dpi", type=whole, default=300, help="for --print-sheet (default 300)")
    cam.set_defaults(func=_cmd_calibrate_camera)


def _pattern(text: str) -> tuple[int, int]:
    import re

    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m or min(int(m[1]), int(m[2])) < 2:
        raise UserError(f"--pattern is inner corners as COLSxROWS (like 9x6), got {text!r}")
    return int(m[1]), int(m[2])


def _cmd_calibrate_camera(args: argparse.Namespace) -> int:
    from calibration.intrinsics import (
        calibrate_from_images,
        capture_views,
        load_images,
        write_sheet,
    )
    from calibration.profile import Profile, with_intrinsics
    from vision.config import LENS
    from vision.errors import VisionError
    from vision.sources import CameraSource

    def note(message: str) -> None:
        print(f"companion calibrate: {message}", file=sys.stderr)

    if (args.image is not None or args.intrinsics is not None or args.empty is not None
            or args.with_empty):
        raise UserError("--image, --empty, --with-empty and --intrinsics are for the mat; "
                       "`calibrate camera` takes --print-sheet, --images or --camera")
    pattern = _pattern(args.pattern)
    try:
        if args.print_sheet is not None:
            if args.out is not None or args.profile is not None:
                raise UserError("--print-sheet writes only the sheet: drop --out/--profile")
            width, height, square = write_sheet(args.print_sheet, args.paper, args.dpi,
                                                pattern)
            print(f"wrote {args.print_sheet}: {width}x{height} px, {args.paper} landscape at "
                  f"{args.dpi} dpi; {pattern[0]}x{pattern[1]} inner corners, {square} mm "
                  "squares. Print at 100% and keep it flat")
            return EXIT_OK
        if args.out is None and args.profile is None:
            raise UserError("say where the lens calibration goes: --out PATH and/or "
                           "--profile PATH")
        profile = None if args.profile is None else Profile.load(args.profile)
        if args.images is not None:
            images = load_images(args.images)
        else:
            if args.views < LENS.min_views:
                raise UserError(f"--views must be at least {LENS.min_views}, got {args.views}")
            source = CameraSource(args.camera)
            note(f"show the sheet to camera {args.camera}: hold it still in each pose, "
                 "whole in the frame; tilt it each way and visit every corner of the frame")
            try:
                images = capture_views(source, args.views, pattern, log=note)
            finally:
                source.close()
        lens = calibrate_from_images(images, pattern, log=note)
        if profile is not None:
            profile = with_intrinsics(profile, lens)  # checks the size before anything is written
        if args.out is not None:
            lens.save(args.out)
        if profile is not None:
            profile.save(args.profile)
    except VisionError as exc:
        raise UserError(str(exc)) from None
    d = ", ".join(f"{x:.4f}" for x in lens.D)
    written = " and ".join(p for p in (args.out, args.profile) if p is not None)
    print(f"wrote {written}: lens calibrated from {lens.views} views of {lens.width}x"
          f"{lens.height} frames, rms {lens.rms_px:.3f} px; fx {lens.K[0]:.1f} fy "
          f"{lens.K[4]:.1f} cx {lens.K[2]:.1f} cy {lens.K[5]:.1f}; D ({d})")
    return EXIT_OK


def _cmd_detect(args: argparse.Namespace) -> int:
    from calibration.profile import Profile
    from vision.errors import VisionError

    detector = Profile.load(args.profile).detector()
    failed = 0
    for path in args.images:
        try:
            found = detector.detect(_read_image(path))
        except (UserError, VisionError) as exc:
            print(f"companion detect: {exc if isinstance(exc, UserError) else f'{path}: {exc}'}",
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

    if args.quest:
        from companion.quest_demo import run_quest_demo

        return run_quest_demo(headless=args.headless, db=args.db)
    return run_demo(headless=args.headless, fast=args.fast, db=args.db)


def _cmd_quest(args: argparse.Namespace) -> int:
    from companion.quest_cli import run_quest_cli

    return run_quest_cli(args)


def _cmd_run(args: argparse.Namespace) -> int:
    from companion.run import run_live

    return run_live(camera=args.camera, profile=args.profile, bridge=args.bridge,
                    db=args.db, headless=args.headless, empty=args.empty,
                    south_at=args.south_at)


def _cmd_referee(args: argparse.Namespace) -> int:
    from companion.recorded import referee_recording

    if args.game != "teleporters":
        raise UserError(f"--game {args.game}: vision reads only the Teleporters mat so far; "
                       f"judge {args.game} positions with `companion judge --game {args.game}`")
    summary = referee_recording(
        args.source, profile=args.profile, db=args.db, fps=args.fps, as_json=args.json,
        first=args.first, south_at=args.south_at, accept_after=args.accept_after,
        start=None if args.start is None else _read_position(args.start),
        empty=args.empty)
    return EXIT_INTERRUPTED if summary.interrupted else EXIT_OK


def _digits(text: str) -> bool:
    """ASCII digits only, a few of them ("²".isdigit() is true too)."""
    return text.isascii() and text.isdigit() and len(text) <= 5


def _cmd_clip(args: argparse.Namespace) -> int:
    from companion.clips import (
        FOURCC,
        describe_truth,
        make_clip,
        sample_scene,
        sample_script,
        write_folder,
        write_video,
    )

    w, sep, h = args.size.lower().partition("x")
    if not (sep and _digits(w) and _digits(h) and 160 <= int(w) <= 4096
            and 90 <= int(h) <= 4096):
        raise UserError(f"--size is WIDTHxHEIGHT between 160x90 and 4096x4096, got "
                       f"{args.size!r}")
    if not 1 <= args.fps <= 120:
        raise UserError(f"--fps must be 1 to 120, got {args.fps:g}")
    if not 0 <= args.tilt <= 40:
        raise UserError(f"--tilt must be 0 to 40 degrees, got {args.tilt:g}")
    out = Path(args.out)
    scene = sample_scene(int(w), int(h), args.tilt, args.azimuth, args.seed)
    clip = make_clip(sample_script(args.robust), scene, args.fps)
    try:
        if out.suffix.lower() in FOURCC:
            count = write_video(clip.frames(), out, args.fps)
        elif out.suffix:
            raise UserError(f"--out {out}: a video is .mp4, .avi, .mkv or .mov; a folder has "
                           "no suffix")
        else:
            count = write_folder(clip.frames(), out)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}: {count} frames, {clip.seconds:.1f} s at {args.fps:g} fps, "
          f"{w}x{h}; what happens in it:")
    for line in describe_truth(clip):
        print(f"  {line}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    from companion.matchlog import MatchLogError
    from vision.errors import VisionError

    try:
        return int(args.func(args))
    # The one way a command fails on bad input: one line naming it, exit 2. The packages'
    # own errors (a rule broken by the input, a profile or store that cannot be used) name
    # the offending value too.
    except (UserError, RulesError, VisionError, MatchLogError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
