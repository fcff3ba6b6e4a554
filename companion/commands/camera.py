"""``--camera``, as every command that takes a camera reads it and opens it: an index (``0``),
a device path (``/dev/video2``) or a stream URL (``http://``, ``https://``, ``rtsp://``: a
phone's streaming app as the overhead camera).

:meth:`CameraSpec.parse` refuses anything else in one line naming it; :func:`open_camera_source`
opens the camera as a :class:`vision.sources.CameraSource` (which reopens it when it goes
away), or says in one line why it cannot.
"""

from __future__ import annotations

import enum
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from companion.errors import UserError

if TYPE_CHECKING:
    from vision.sources import CameraSource

# OpenCV reads index N >= 100 as backend N // 100 * 100, camera N % 100 (200: V4L2's 0):
# a larger index would quietly open another camera. /dev/videoN names any N.
MAX_INDEX = 99
DEVICE_PREFIX = "/dev/"
STREAM_SCHEMES = ("http", "https", "rtsp")
# A stream that does not answer (a phone asleep, a wrong address) is given up on after this
# long, when it is opened and each time it is reopened; OpenCV's own default is 30 s.
STREAM_OPEN_S = 5.0
STREAM_READ_S = 5.0
KINDS_TEXT = ("an index (0 to 99), a device path (/dev/video2) or a stream URL (http://, "
              "https:// or rtsp://)")


class CameraKind(enum.Enum):
    INDEX = "index"
    DEVICE = "device"
    STREAM = "stream"


class CameraSpecError(UserError):
    """A ``--camera`` value that names no camera; the message quotes it."""


def _redacted(url: str) -> str:
    """``url`` with any password replaced by ``***``: names are printed and logged."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{parts.username}:***@{host}").geturl()


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """A camera as the user named it. ``target`` is what OpenCV opens: the index (INDEX)
    or the text (DEVICE, STREAM)."""

    kind: CameraKind
    target: int | str

    @staticmethod
    def parse(text: str) -> CameraSpec:
        """The camera ``text`` names; raises :class:`CameraSpecError` quoting it."""
        if text.isascii() and text.isdigit():  # ASCII: "٣".isdigit() is true too
            index = int(text) if len(text) <= 3 else MAX_INDEX + 1
            if index > MAX_INDEX:
                raise CameraSpecError(f"camera {text!r}: an index is 0 to {MAX_INDEX} (name a "
                                      "higher one by its device path, like /dev/video100)")
            return CameraSpec(CameraKind.INDEX, index)
        shown = _redacted_or_raw(text)  # a password in a URL is never printed
        if not text.isprintable() or any(c.isspace() for c in text):
            raise CameraSpecError(f"camera {shown!r}: spaces or control characters; give "
                                  f"{KINDS_TEXT}")
        if text.startswith(DEVICE_PREFIX):
            if len(text) == len(DEVICE_PREFIX) or text.endswith("/"):
                raise CameraSpecError(f"camera {shown!r}: a device path names a device, like "
                                      "/dev/video2")
            return CameraSpec(CameraKind.DEVICE, text)
        scheme, sep, _ = text.partition("://")
        if not sep:
            raise CameraSpecError(f"camera {shown!r} is not {KINDS_TEXT}")
        if scheme.lower() not in STREAM_SCHEMES:
            raise CameraSpecError(f"camera {shown!r}: a stream URL starts with http://, "
                                  "https:// or rtsp://")
        try:
            parts = urlsplit(text)
            _ = parts.port  # read for its check: a port that is no number, or too big
        except ValueError as exc:
            raise CameraSpecError(f"camera {shown!r}: {exc}") from None
        if not parts.hostname:
            raise CameraSpecError(f"camera {shown!r}: the URL names no host, like "
                                  "http://192.168.1.20:8080/video")
        return CameraSpec(CameraKind.STREAM, text)

    @staticmethod
    def numbered(n: int) -> CameraSpec:
        """Camera number ``n``, as ``--camera N`` gives it."""
        return CameraSpec.parse(str(n))

    @property
    def name(self) -> str:
        """How messages name it: ``camera 0``, ``camera /dev/video2``, ``camera stream
        rtsp://user:***@host/...`` (a password never printed)."""
        if self.kind is CameraKind.STREAM:
            return f"camera stream {_redacted(str(self.target))}"
        return f"camera {self.target}"

    def why_not_opened(self) -> str:
        """The one line for a camera that does not open."""
        if self.kind is CameraKind.INDEX:
            return f"{self.name} cannot be opened (is it plugged in?)"
        if self.kind is CameraKind.DEVICE:
            return (f"{self.name} cannot be opened (is it a camera, plugged in, and not in use "
                    "by another program?)")
        return (f"{self.name} cannot be opened (is the streaming app running, on the same "
                "network, and the address right?)")

    def capture(self) -> Any:
        """A new ``cv2.VideoCapture`` on it (opened or not: ask ``isOpened()``)."""
        import cv2

        if self.kind is CameraKind.INDEX:
            return cv2.VideoCapture(self.target)
        if self.kind is CameraKind.DEVICE:
            # V4L2 is the backend that opens /dev/video*: no trying FFmpeg on it first
            return cv2.VideoCapture(self.target, cv2.CAP_V4L2)
        return cv2.VideoCapture(self.target, cv2.CAP_FFMPEG, [
            cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, round(STREAM_OPEN_S * 1000),
            cv2.CAP_PROP_READ_TIMEOUT_MSEC, round(STREAM_READ_S * 1000)])


def _redacted_or_raw(text: str) -> str:
    try:
        return _redacted(text)
    except ValueError:  # too malformed to find a password in: say nothing of it
        return text.partition("://")[0] + "://..."


def _check_device(spec: CameraSpec) -> None:
    """A device path must be there and be a character device: said plainly, before OpenCV
    is asked (which would only say it cannot open it)."""
    path = str(spec.target)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UserError(f"{spec.name}: no such device") from None
    except OSError as exc:
        raise UserError(f"{spec.name}: {exc.strerror or exc}") from None
    if not stat.S_ISCHR(mode):
        raise UserError(f"{spec.name} is not a camera device (a camera is a character "
                        "device, like /dev/video0)")


Opener = Callable[[CameraSpec], Any]


def open_camera_source(spec: CameraSpec, opener: Opener | None = None) -> CameraSource:
    """The camera ``spec`` names, opened; ``opener`` (for tests) stands in for
    :meth:`CameraSpec.capture`. Raises :class:`UserError` in one line when it cannot be
    opened."""
    from vision import sources  # looked up now, so a test can stand in for CameraSource
    from vision.errors import VisionError

    if spec.kind is CameraKind.DEVICE and opener is None:
        _check_device(spec)
    open_capture = opener or CameraSpec.capture
    number = spec.target if isinstance(spec.target, int) else 0  # only its opener uses it
    try:
        # The opener is asked again each time the camera comes back: the same spec
        source = sources.CameraSource(number, opener=lambda _number: open_capture(spec))
    except VisionError:
        raise UserError(spec.why_not_opened()) from None
    source.name = spec.name
    return source


__all__ = ["CameraKind", "CameraSpec", "CameraSpecError", "open_camera_source"]
