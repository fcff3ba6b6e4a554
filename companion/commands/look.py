"""``companion look``: what the camera sees, drawn over its frame. The found mat outline and
grid; with a profile, each space's reading, sure or unsure, and the hand mask. From a live
camera in a window (or one frame written as an image where no window can open), or from a
photo written as an image."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.commands.camera import CameraSpec, open_camera_source
from companion.commands.common import EXIT_BAD_INPUT, EXIT_OK
from companion.commands.options import camera as camera_option
from companion.commands.options import output_file, path_text
from companion.errors import UserError

DEFAULT_OUT = "overlay.png"
WINDOW = "companion look"
QUIT_KEYS = (ord("q"), ord("Q"), 27)  # q or Esc
WARM_UP_FRAMES = 10  # a camera's first frames are stale or still adjusting its exposure


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion look`` to the ``companion`` command's subparsers."""
    look = sub.add_parser(
        "look", help="show what the camera sees: the mat, the grid and each space's reading",
        description="Draw what vision sees over a frame: the found mat outline and the 8x8 "
        "grid; with --profile, each space's reading (S/N a Pole, s/n a Port in its corner) "
        "in green where sure and orange where unsure, and in magenta the colours foreign to "
        "the mat (a hand). With --camera it shows a live window (q or Esc to stop), or writes "
        "one frame to --out where no window can open; with --image it writes --out. Exit "
        "status: 0 done, 2 bad input (or no mat found in the image).")
    src = look.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=camera_option, metavar="N|DEVICE|URL",
                     help="a live camera: an index, a device path (/dev/video2) or a stream "
                     "URL (http://, https://, rtsp://)")
    src.add_argument("--image", type=path_text, metavar="PATH", help="a photo of the mat")
    look.add_argument("--profile", type=path_text, metavar="PATH",
                      help="mat profile from `companion calibrate`: read the pieces too "
                      "(without it: the outline and grid mat finding sees)")
    look.add_argument("--out", type=output_file, metavar="PATH", default=None,
                      help=f"image to write, .png or .jpg (default {DEFAULT_OUT}; with "
                      "--camera and a window: the last frame shown, when given)")
    look.set_defaults(func=_cmd_look)


Looker = Callable[[np.ndarray], Any]  # a frame -> calibration.overlay.Look


def _looker(profile_path: str | None) -> Looker:
    """Reads a frame with the profile's detector (kept: it follows the mat frame to frame),
    or with mat finding alone."""
    from calibration.overlay import look_with, look_without_profile
    from companion.commands.opening import load_profile

    if profile_path is None:
        return look_without_profile
    detector = load_profile(profile_path).detector()
    return lambda frame: look_with(detector, frame)


def _write(path: str, image: np.ndarray) -> None:
    from calibration.overlay import write_overlay

    write_overlay(path, image)  # a CalibrationError names the path: one line, exit 2


def _look_at_image(args: argparse.Namespace, look: Looker) -> int:
    from companion.commands.opening import read_image
    from vision.errors import VisionError
    from vision.overlay import draw_caption

    frame = read_image(args.image)
    out = args.out or DEFAULT_OUT
    try:
        seen = look(frame)
    except VisionError as exc:  # another frame size than the profile's, a mat not found
        why = str(exc)
        image, found = draw_caption(frame, (why,)), False
    else:
        why, image, found = seen.summary, seen.image, seen.mat_found
    _write(out, image)
    if not found:  # the image is written all the same: it shows what the camera saw
        print(f"companion look: {args.image}: {why}; wrote {out} (the image as it was seen)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {out}: {seen.summary}")
    return EXIT_OK


class Window:
    """An OpenCV window: ``show`` draws a frame and says whether to go on (no quit key, the
    window still open)."""

    def __init__(self, cv2: Any) -> None:
        self._cv2 = cv2
        cv2.namedWindow(WINDOW, cv2.WINDOW_NORMAL)

    def show(self, image: np.ndarray) -> bool:
        cv2 = self._cv2
        cv2.imshow(WINDOW, image)
        key = cv2.waitKey(1) & 0xFF
        return key not in QUIT_KEYS and cv2.getWindowProperty(WINDOW, cv2.WND_PROP_VISIBLE) >= 1

    def close(self) -> None:
        self._cv2.destroyWindow(WINDOW)


def open_window() -> tuple[Window | None, str]:
    """A window to show frames in, or (None, why not): no display here, or an OpenCV built
    without windows (the opencv-python-headless package this project installs)."""
    from companion.commands.front_end import find_app

    _, why = find_app()
    if why.startswith("no display"):
        return None, "no display found"
    import cv2

    try:
        return Window(cv2), ""
    except cv2.error:
        return None, "this OpenCV cannot open windows (opencv-python-headless)"


def _frames(cam: Any, spec: CameraSpec) -> Any:
    """The camera's frames, as they come; a camera that stops sending is said in one line."""
    from vision.sources import Frame

    misses = 0
    while True:
        item = cam.read()
        if isinstance(item, Frame):
            misses = 0
            yield item.image
            continue
        misses += 1
        if misses > 50:  # about the camera's reopen tries for a few seconds
            raise UserError(f"{spec.name} sent no frames")


def _look_at_camera(args: argparse.Namespace, look: Looker) -> int:
    from vision.errors import VisionError

    cam = open_camera_source(args.camera)
    try:
        window, why = open_window()  # after the camera: one that fails leaves no window
        frames = _frames(cam, args.camera)
        if window is None:
            # One frame, after the camera has settled: what the window would have shown
            for _ in range(WARM_UP_FRAMES - 1):
                next(frames)
            frame = next(frames)
            try:
                seen = look(frame)
            except VisionError as exc:
                raise UserError(f"{args.camera.name}: {exc}") from None
            out = args.out or DEFAULT_OUT
            _write(out, seen.image)
            print(f"{why}: wrote {out} from one frame of {args.camera.name} instead of a "
                  f"window: {seen.summary}")
            return EXIT_OK
        print(f"showing {args.camera.name}: q or Esc in the window to stop", file=sys.stderr)
        last = None
        try:
            for frame in frames:
                try:
                    last = look(frame).image
                except VisionError as exc:  # the mat out of view for now: say it on the frame
                    from vision.overlay import draw_caption

                    last = draw_caption(frame, (str(exc),))
                if not window.show(last):
                    break
        except KeyboardInterrupt:
            pass  # Ctrl-C ends the look as q does
        finally:
            window.close()
        if args.out is not None and last is not None:
            _write(args.out, last)
            print(f"wrote {args.out}: the last frame shown")
        return EXIT_OK
    finally:
        cam.close()


def _cmd_look(args: argparse.Namespace) -> int:
    from calibration.overlay import overlay_format

    overlay_format(args.out or DEFAULT_OUT)  # a wrong suffix said before anything is read
    look = _looker(args.profile)
    if args.image is not None:
        return _look_at_image(args, look)
    return _look_at_camera(args, look)
