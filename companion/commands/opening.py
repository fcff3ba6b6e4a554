"""What the commands that watch a real table open, each checked before a game starts and
refused in one line (``UserError``): a mat profile, an image or empty-mat photo, a camera
(and its frame size), the LED/die board's port; and calibration from a camera's or a
recording's first still frames.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from companion.commands.camera import CameraSpec, Opener, open_camera_source
from companion.errors import UserError
from companion.live.board import BoardLink
from companion.progress import Progress
from vision.errors import VisionError
from vision.sources import CameraSource, Frame, FrameSource, SourceEvent, SourceEventKind

FIRST_FRAME_S = 5.0  # a camera that sends nothing for this long at start is refused
BOARD_ANSWER_S = 3.0  # an Uno reboots when its port opens: about 2 s
def load_profile(path: str) -> Any:
    from calibration.profile import Profile

    try:
        return Profile.load(path)
    except VisionError as exc:  # CalibrationError: missing, not JSON, damaged, too new
        message = str(exc)
        raise UserError(message if path in message else f"{path}: {message}") from None


def read_image(path: str, what: str = "") -> np.ndarray:
    """The image at ``path``, (H, W, 3) uint8 BGR. Raises :class:`UserError` naming the file
    (and ``what`` it is for)."""
    from vision.errors import SourceError
    from vision.sources import read_image_file

    why = f" ({what})" if what else ""
    if not Path(path).is_file():
        raise UserError(f"{path}: no such image{why}")
    try:
        image = read_image_file(path)
    except SourceError as exc:
        raise UserError(f"{exc}{why}") from None
    if image is None:
        raise UserError(f"{path}: not an image OpenCV can read{why}")
    return image


def load_empty(path: str) -> np.ndarray:
    """The empty-mat photo at ``path``, BGR. Raises :class:`UserError` naming the file."""
    return read_image(path, "the empty-mat photo")


def check_empty_size(empty: np.ndarray, path: str, size: tuple[int, int], what: str) -> None:
    """The empty-mat photo at ``path`` must be ``size`` (W, H), the size of ``what``.
    Checked here, not left to calibration, so the message names the file."""
    h, w = empty.shape[:2]
    if (w, h) != tuple(size):
        raise UserError(f"the empty-mat photo {path} is {w}x{h} but {what} is {size[0]}x"
                       f"{size[1]}: take both with the same camera at the same size")


CALIBRATE_STILL_S = 0.5  # the first frames still this long are the set-up to calibrate from
CALIBRATE_WITHIN_S = 30.0  # no still set-up in this much of the recording: give up
CALIBRATE_TRIES = 3  # still stretches tried before giving up
STILL_GREY = 4.0  # mean grey-level change between frames that still counts as still


# --- calibration from the first still frames (a camera or a recording) ---------------------


def _small_grey(image: np.ndarray) -> np.ndarray:
    import cv2

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, (160, 90), interpolation=cv2.INTER_AREA).astype(np.float32)


def calibrate_from(source: FrameSource | CameraSource, south_at: str = "bottom",
                   empty: np.ndarray | None = None,
                   empty_path: str | None = None,
                   progress: Progress | None = None) -> tuple[Any, float]:
    """A profile from the first still frames of ``source`` (which must show the start
    position), and the time of the frame used. ``empty``: a photo of the empty mat from the
    same camera (read from ``empty_path``, named in messages). ``progress`` counts the
    frames read. Raises :class:`UserError`."""
    from calibration.errors import CalibrationError
    from calibration.profile import calibrate, unsure_note

    last: np.ndarray | None = None
    still_since: float | None = None
    tried: list[str] = []
    sized = empty is None
    while True:
        item = source.read()
        if isinstance(item, SourceEvent):
            if item.kind is SourceEventKind.ENDED or item.t > CALIBRATE_WITHIN_S:
                break
            if item.kind is SourceEventKind.DISCONNECTED:
                time.sleep(0.05)  # a live camera away: it retries on its own
            continue
        if not sized:  # a wrong-size photo would fail every try: say so at once
            assert empty is not None
            h, w = item.image.shape[:2]
            check_empty_size(empty, empty_path or "given", (w, h), f"{source.name}'s frames")
            sized = True
        if progress is not None:
            progress.update()
        grey = _small_grey(item.image)
        if last is None or float(np.mean(np.abs(grey - last))) > STILL_GREY:
            still_since = item.t
        last = grey
        if item.t > CALIBRATE_WITHIN_S:
            break
        assert still_since is not None
        if item.t - still_since + 1e-9 < CALIBRATE_STILL_S:
            continue
        try:
            profile = calibrate(item.image, south_at, empty=empty)
        except (CalibrationError, VisionError) as exc:
            tried.append(f"t={item.t:.1f}s: {exc}")
            if len(tried) >= CALIBRATE_TRIES:
                break
            still_since = None  # wait for the next still stretch
            last = None
            continue
        if note := unsure_note(profile):
            with progress.above() if progress is not None else nullcontext():
                print(note, file=sys.stderr)
        return profile, item.t
    if not tried:
        raise UserError(f"{source.name}: no still frame in the first "
                             f"{CALIBRATE_WITHIN_S:g} s to calibrate the mat from; give "
                             "--profile PROFILE (made with companion calibrate)")
    if empty is not None:  # the photo may be what is wrong (the camera moved): no guessing
        raise UserError(f"{source.name}: the mat cannot be calibrated from the first "
                             f"still frame with the empty-mat photo {empty_path} ({tried[0]}). "
                             "Start on the set-up board, or give --profile PROFILE")
    raise UserError(f"{source.name}: the first still frame does not show the start "
                         f"position, so the mat cannot be calibrated from it ({tried[0]}). "
                         "Start on the set-up board, or give --profile PROFILE")


def open_camera(camera: CameraSpec | int, size: tuple[int, int] | None,
                opener: Opener | None = None,
                empty_path: str | None = None) -> CameraSource:
    """The camera (an index, a device path or a stream URL), checked to send frames of
    ``size``: the profile's, or with ``empty_path`` the empty-mat photo's; None: any size."""
    spec = camera if isinstance(camera, CameraSpec) else CameraSpec.numbered(camera)
    source = open_camera_source(spec, opener)
    deadline = time.monotonic() + FIRST_FRAME_S
    while time.monotonic() < deadline:
        item = source.read()
        if isinstance(item, Frame):
            h, w = item.image.shape[:2]
            if size is not None and (w, h) != tuple(size):
                source.close()
                if empty_path is not None:
                    raise UserError(f"{spec.name} sends {w}x{h} frames but the empty-mat "
                                   f"photo {empty_path} is {size[0]}x{size[1]}: take it with "
                                   "this camera at this size")
                raise UserError(f"{spec.name} sends {w}x{h} frames but the profile was "
                               f"calibrated at {size[0]}x{size[1]}: calibrate with this camera "
                               "at this size")
            return source
        if isinstance(item, SourceEvent):
            time.sleep(0.05)
    source.close()
    raise UserError(f"{spec.name} opened but sent no frames in {FIRST_FRAME_S:g} s")


def open_board(spec: str, say: Callable[[str], None]) -> BoardLink | None:
    """``none``; ``auto`` (the first board found by USB id, or none); or a port, which must
    open."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.ports import find_port

    if spec == "none":
        return None
    if spec == "auto":
        try:
            port = find_port(None)
        except BridgeError:
            say("no LED/die board found by USB id: running without one (--bridge PORT to "
                "name it)")
            return None
    else:
        port = spec
        _check_port(port)
    bridge = Bridge.open(port)
    if not bridge.wait_connected(BOARD_ANSWER_S):
        say(f"the board on {port} does not answer yet: going on; its LEDs light up when "
            "it does")
    return bridge


def _check_port(port: str) -> None:
    """A port the user named must exist and open (the bridge would only retry forever)."""
    import serial

    if not os.path.exists(port):
        raise UserError(f"cannot open the board's port {port}: no such port")
    try:
        serial.Serial(port, timeout=0).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        raise UserError(f"cannot open the board's port {port}: {exc}") from None


def calibrate_live(source: CameraSource, south_at: str = "bottom",
                   empty: np.ndarray | None = None, empty_path: str | None = None) -> Any:
    """A profile from the camera's first still frames (the start position). Raises
    :class:`UserError`."""
    return calibrate_from(source, south_at, empty, empty_path)[0]


__all__ = ["calibrate_from", "calibrate_live", "check_empty_size", "load_empty", "load_profile",
           "open_board", "open_camera", "read_image"]
