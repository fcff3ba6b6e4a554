"""``companion mat``, ``companion calibrate`` (the mat, and ``calibrate camera``: the lens) and
``companion detect``: printing the mat, learning the table, reading photos."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from companion.commands.camera import CameraSpec, open_camera_source
from companion.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
)
from companion.commands.options import camera as camera_option
from companion.commands.options import output_file, whole
from companion.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion mat``, ``calibrate`` and ``detect`` to the ``companion`` command's
    subparsers."""
    mat = sub.add_parser("mat", help="draw the Teleporters mat for printing")
    mat.add_argument("--out", required=True, type=output_file, metavar="PATH",
                     help="image to write (.png, .jpg)")
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
    src.add_argument("--camera", type=camera_option, metavar="N|DEVICE|URL",
                     help="grab the start position from this camera: an index, a device "
                     "path (/dev/video2) or a stream URL (http://, https://, rtsp://)")
    cal.add_argument("--empty", metavar="PATH",
                     help="a photo of the empty mat from the same camera in the same light: "
                     "the look of every space is learned from it (any mat print). With "
                     "--camera: the empty shot is this file, the start position the camera's")
    cal.add_argument("--with-empty", action="store_true",
                     help="with --camera: take the empty-mat photo from the camera too. It "
                     "asks you to clear the mat, then to set up the start position (Enter "
                     "after each), so it needs a terminal")
    cal.add_argument("--out", type=output_file, metavar="PATH", help="profile to write (JSON)")
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
    det.add_argument("--overlay", type=output_file, metavar="PNG",
                     help="with one IMAGE: also draw what was read over it into this image "
                     "(.png or .jpg; see `companion look`)")
    det.set_defaults(func=_cmd_detect)

def _cmd_mat(args: argparse.Namespace) -> int:
    from vision.mat import write_mat

    width, height = write_mat(args.out, args.paper, args.dpi)
    print(f"wrote {args.out}: {width}x{height} px, {args.paper} at {args.dpi} dpi "
          f"({width / args.dpi * 25.4:.0f} mm square)")
    return EXIT_OK


def _read_image(path: str) -> np.ndarray:
    from companion.commands.opening import read_image

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


def _grab(cam: Any, spec: CameraSpec) -> np.ndarray:
    from vision.sources import Frame

    # The last of 10 frames: the ones the driver buffered while we waited are stale.
    frames = [f for f in (cam.read() for _ in range(10)) if isinstance(f, Frame)]
    if not frames:
        raise UserError(f"{spec.name} sent no frames")
    return frames[-1].image


def _camera_shots(spec: CameraSpec, with_empty: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """The start position from the camera and, ``with_empty``, the empty mat first; the
    camera stays open between them so its view and settings do not change."""
    cam = open_camera_source(spec)
    try:
        empty = None
        if with_empty:
            _prompt("clear the mat, then press Enter")
            empty = _grab(cam, spec)
            _prompt("set up the start position, then press Enter")
        return _grab(cam, spec), empty
    finally:
        cam.close()


def _check_empty_size(empty: np.ndarray, name: str, image: np.ndarray, what: str) -> None:
    from companion.commands.opening import check_empty_size

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
            what = f"{args.camera.name}'s frames"
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
    _write_calibration_overlay(args.out, profile, image)
    if note := unsure_note(profile):
        print(note, file=sys.stderr)
    return EXIT_OK


def _write_calibration_overlay(out: str, profile: Any, image: np.ndarray) -> None:
    """The overlay of what the new profile reads in its start photo, beside the profile: the
    first thing to look at when a game is misread. The profile is written already, so a
    failure here is a note, not an error."""
    from calibration.overlay import look_with, overlay_path_for, write_overlay
    from vision.errors import VisionError

    path = overlay_path_for(out)
    try:
        write_overlay(path, look_with(profile.detector(), image, track=False).image)
    except VisionError as exc:
        print(f"companion calibrate: note: no overlay written ({exc})", file=sys.stderr)
        return
    print(f"wrote {path}: what the profile reads in the start photo (the mat outline, the "
          "grid, each space's reading; see `companion look`)")


def _add_calibrate_camera(lens: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cam = lens.add_parser(
        "camera", help="calibrate the camera's lens from a printed checkerboard",
        description="Print the sheet (--print-sheet), photograph it flat in 10-20 poses "
        "(--images) or show it to a live camera (--camera N), and write the lens "
        "calibration (--out) and/or add it to a mat profile (--profile). See "
        "docs/camera-calibration.md. Exit status: 0 done, 2 bad input.")
    mode = cam.add_mutually_exclusive_group(required=True)
    mode.add_argument("--print-sheet", type=output_file, metavar="PATH",
                      help="draw the checkerboard to print")
    mode.add_argument("--images", nargs="+", metavar="PATH",
                      help="photos of the sheet: files, or folders of them")
    mode.add_argument("--camera", type=camera_option, metavar="N|DEVICE|URL",
                      help="take views of the sheet from this live camera: an index, a "
                      "device path (/dev/video2) or a stream URL")
    cam.add_argument("--views", type=whole, default=15,
                     help="views to take with --camera (default 15)")
    cam.add_argument("--out", type=output_file, metavar="PATH",
                     help="lens calibration to write (JSON)")
    cam.add_argument("--profile", type=output_file, metavar="PATH",
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
            source = open_camera_source(args.camera)
            note(f"show the sheet to {args.camera.name}: hold it still in each pose, "
                 "whole in the frame; tilt it each way and visit every corner of the frame")
            try:
                images = capture_views(source, args.views, pattern, log=note)
            finally:
                source.close()
        from companion.progress import Progress

        # finding the sheet takes about a second a photo: a dozen is a wait worth showing
        with Progress("finding the sheet", total=len(images), unit="image") as bar:
            def noted(message: str) -> None:
                with bar.above():
                    note(message)

            lens = calibrate_from_images(images, pattern, log=noted, step=bar.update)
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

    if args.overlay is not None:
        from calibration.overlay import overlay_format

        if len(args.images) != 1:
            raise UserError(f"--overlay draws one image, and {len(args.images)} were given: "
                            "give one IMAGE, or use `companion look` for each")
        overlay_format(args.overlay)  # a wrong suffix said before any work
    detector = Profile.load(args.profile).detector()
    failed = 0
    for path in args.images:
        try:
            found = _detect(detector, _read_image(path), args.overlay)
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
    if args.overlay is not None and not failed:
        print(f"wrote {args.overlay}: what was read, drawn over the image", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _detect(detector: Any, image: np.ndarray, overlay: str | None) -> Any:
    """``detector``'s reading of ``image``; with ``overlay``, also drawn into that file."""
    if overlay is None:
        return detector.detect(image)
    from calibration.overlay import look_with, write_overlay

    seen = look_with(detector, image)
    write_overlay(overlay, seen.image)
    return seen.detection
