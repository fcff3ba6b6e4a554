"""``companion run``: the real thing. A camera, a mat profile, the LED/die board and the app.

Everything that can be checked before the game starts is, and reported in one line (exit 2):
a missing or damaged profile, a camera that cannot be opened or whose frames are not the size
the profile was calibrated at, a board port that cannot be opened, a match store that cannot
be used. Once running, a camera or board that goes away is shown on the status line and picked
up again when it is back.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from companion.matchlog import MatchLogError, MatchStore
from companion.session import BoardLink, Session, TextLog, app_unless_headless, open_store
from vision.errors import VisionError
from vision.sources import CameraSource, Frame, SourceEvent

FIRST_FRAME_S = 5.0  # a camera that sends nothing for this long at start is refused
BOARD_ANSWER_S = 3.0  # an Uno reboots when its port opens: about 2 s


class RunError(ValueError):
    """Something ``companion run`` needs cannot be used; the message names it."""


def load_profile(path: str) -> Any:
    from calibration.profile import Profile

    try:
        return Profile.load(path)
    except VisionError as exc:  # CalibrationError: missing, not JSON, damaged, too new
        message = str(exc)
        raise RunError(message if path in message else f"{path}: {message}") from None


def open_camera(index: int, size: tuple[int, int],
                opener: Callable[[int], Any] | None = None) -> CameraSource:
    """Camera ``index``, checked to send frames of ``size`` (the profile's)."""
    try:
        camera = (CameraSource(index) if opener is None
                  else CameraSource(index, opener=opener))
    except VisionError as exc:
        raise RunError(str(exc)) from None
    deadline = time.monotonic() + FIRST_FRAME_S
    while time.monotonic() < deadline:
        item = camera.read()
        if isinstance(item, Frame):
            h, w = item.image.shape[:2]
            if (w, h) != tuple(size):
                camera.close()
                raise RunError(f"camera {index} sends {w}x{h} frames but the profile was "
                               f"calibrated at {size[0]}x{size[1]}: calibrate with this camera "
                               "at this size")
            return camera
        if isinstance(item, SourceEvent):
            time.sleep(0.05)
    camera.close()
    raise RunError(f"camera {index} opened but sent no frames in {FIRST_FRAME_S:g} s")


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
        raise RunError(f"cannot open the board's port {port}: no such port")
    try:
        serial.Serial(port, timeout=0).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        raise RunError(f"cannot open the board's port {port}: {exc}") from None


def run_live(*, camera: int, profile: str, bridge: str = "auto", db: str | None = None,
             headless: bool = False, out: TextIO | None = None,
             opener: Callable[[int], Any] | None = None) -> int:
    """Referee a real game until the window is closed (or Ctrl-C, headless); 0 then.
    Raises :class:`RunError` for what cannot be used."""
    out = out or sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    prof = load_profile(profile)
    app = app_unless_headless(headless, say)
    try:
        store: MatchStore | None = open_store(db, say)
    except MatchLogError as exc:
        raise RunError(str(exc)) from None
    board: BoardLink | None = None
    try:
        board = open_board(bridge, say)
        source = open_camera(camera, prof.image_size, opener)
    except BaseException:
        for thing in (board, store):
            if thing is not None:
                thing.close()
        raise
    session = Session.from_profile(prof, source=source, board=board, store=store,
                                   log_note="" if store is not None else "not recording")
    try:
        if app is not None:
            session.start()
            app.run_app(session)
            return 0
        say(f"refereeing from camera {camera} with {profile}; Ctrl-C stops")
        session.on_update(TextLog(out))
        try:
            session.run()
        except KeyboardInterrupt:
            say("stopped")
        return 0
    finally:
        session.close()


__all__ = ["RunError", "load_profile", "open_board", "open_camera", "run_live"]
