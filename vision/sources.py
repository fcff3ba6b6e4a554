"""Frame sources behind one interface: a camera, a video file, a folder of images, the
simulated table.

``source.read()`` returns a :class:`Frame`, or a :class:`SourceEvent` saying what happened
instead (a corrupt frame skipped, the camera lost or back, the end of the input); iterating a
source yields both until the end. A live camera that fails keeps being reopened, every
``retry_s`` seconds, so unplugging and replugging it needs nothing from the user.
"""

from __future__ import annotations

import enum
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import SourceError
from vision.simtable import Hand, Scene, SimFrame, render

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# An image file is refused before it is decoded when its header claims more pixels than this
# (a 60000x60000 PNG of zeros is a few kilobytes and 10 GB decoded); 8K video is 33 MP.
MAX_IMAGE_PIXELS = 50_000_000
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_dimensions(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a PNG or JPEG file (up to its first frame
    header), None for other formats or a header it cannot find."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 <= len(head):
        if head[i] != 0xFF:
            return None
        marker = head[i + 1]
        if marker in _JPEG_SOF:
            return (int.from_bytes(head[i + 7:i + 9], "big"),
                    int.from_bytes(head[i + 5:i + 7], "big"))
        i += 2 + int.from_bytes(head[i + 2:i + 4], "big")
    return None


def read_image_file(path: str | Path) -> np.ndarray | None:
    """The image in the regular file at ``path``, (H, W, 3) uint8 BGR; None when it cannot
    be decoded. Raises SourceError for what is no regular file (a FIFO would hang the read)
    and for an image over ``MAX_IMAGE_PIXELS``, checked in its header before decoding."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{path}: not a regular file")
    try:
        with path.open("rb") as f:
            head = f.read(65536)
    except OSError as exc:
        raise SourceError(f"{path}: {exc.strerror or exc}") from None
    size = image_dimensions(head)
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise SourceError(f"{path}: {size[0]}x{size[1]} pixels, more than an image may have "
                          f"here ({MAX_IMAGE_PIXELS // 1_000_000} megapixels)")
    try:
        return cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:  # OpenCV's own limits (other formats), or a header it refuses
        raise SourceError(f"{path}: too large or damaged to decode") from None


@dataclass(frozen=True, slots=True)
class Frame:
    image: np.ndarray  # (H, W, 3) uint8 BGR
    t: float  # seconds since the source started (recording time for files)
    index: int
    truth: SimFrame | None = None  # ground truth, simulated frames only


class SourceEventKind(enum.Enum):
    CORRUPT = "corrupt"  # a frame could not be decoded and was skipped
    DISCONNECTED = "disconnected"
    RECONNECTED = "reconnected"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class SourceEvent:
    kind: SourceEventKind
    detail: str
    t: float


class FrameSource(Protocol):
    name: str

    def read(self) -> Frame | SourceEvent: ...

    def close(self) -> None: ...


def frames(source: FrameSource) -> Iterator[Frame | SourceEvent]:
    """Everything a source produces, up to and including its ENDED event."""
    while True:
        item = source.read()
        yield item
        if isinstance(item, SourceEvent) and item.kind is SourceEventKind.ENDED:
            return


def natural_key(name: str) -> list[Any]:
    """``frame_2.jpg`` before ``frame_10.jpg``."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


class FolderSource:
    """Still images from a folder, in natural name order, timed as if taken at ``fps``."""

    def __init__(self, folder: str | Path, fps: float = 10.0) -> None:
        self.folder = Path(folder)
        if fps <= 0:
            raise SourceError(f"fps must be positive, got {fps}")
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder} is not a folder")
        self.files = sorted((p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()),
                            key=lambda p: natural_key(p.name))
        if not self.files:
            raise SourceError(f"{self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = fps
        self.name = str(self.folder)
        self._next = 0

    def read(self) -> Frame | SourceEvent:
        i = self._next
        t = i / self.fps
        if i >= len(self.files):
            return SourceEvent(SourceEventKind.ENDED, f"{len(self.files)} images read", t)
        self._next += 1
        try:
            image = read_image_file(self.files[i])
        except SourceError as exc:  # too large, or no longer a regular file
            return SourceEvent(SourceEventKind.CORRUPT, str(exc), t)
        if image is None:
            return SourceEvent(SourceEventKind.CORRUPT, f"cannot decode {self.files[i].name}", t)
        return Frame(image, t, i)

    def close(self) -> None:
        self._next = len(self.files)


class VideoSource:
    """A video file OpenCV can read (mp4, avi, mkv, mov); time is the recording's.

    A frame that cannot be decoded is reported (CORRUPT) and skipped, however many come in a
    row, as long as the file says it holds more frames: the decoder is moved on past it, so a
    damaged stretch in the middle of a match never ends the recording early (its later turns
    would silently go unrefereed). Only a file that does not say how many frames it holds
    ends at its first unreadable one, as a stream's end looks just the same."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        self.cap = cv2.VideoCapture(str(self.path))
        if not self.cap.isOpened():
            raise SourceError(f"{self.path}: OpenCV cannot open this video")
        fps = self.cap.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else 30.0
        self.name = str(self.path)
        self._index = 0
        self._ended = False

    def read(self) -> Frame | SourceEvent:
        t = self._index / self.fps
        if self._ended:
            return SourceEvent(SourceEventKind.ENDED, "end of file", t)
        ok, image = self.cap.read()
        self._index += 1
        if ok and image is not None:
            return Frame(image, t, self._index - 1)
        total = self.cap.get(cv2.CAP_PROP_FRAME_COUNT)
        if total and self._index < total:
            # past the bad frame, so the decoder does not stay stuck on it
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, self._index)
            return SourceEvent(SourceEventKind.CORRUPT, f"frame {self._index - 1} unreadable", t)
        self._ended = True
        self.cap.release()
        return SourceEvent(SourceEventKind.ENDED, f"end of file after {self._index - 1} "
                           "frames", t)

    def close(self) -> None:
        self._ended = True
        self.cap.release()


class CameraSource:
    """A live camera by index. When it fails it reports DISCONNECTED, then keeps reopening."""

    def __init__(self, index: int, retry_s: float = 1.0,
                 opener: Callable[[int], Any] = cv2.VideoCapture,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if index < 0:
            raise SourceError(f"camera index must be 0 or more, got {index}")
        self.index = index
        self.retry_s = retry_s
        self.name = f"camera {index}"
        self._open = opener
        self._clock = clock
        self._t0 = clock()
        self._count = 0
        self._cap = opener(index)
        if not self._cap.isOpened():
            raise SourceError(f"camera {index} cannot be opened (is it plugged in?)")
        self._connected = True
        self._last_try = self._t0
        self._closed = False

    def read(self) -> Frame | SourceEvent:
        now = self._clock()
        t = now - self._t0
        if self._closed:
            return SourceEvent(SourceEventKind.ENDED, "closed", t)
        if not self._connected:
            if now - self._last_try < self.retry_s:
                return SourceEvent(SourceEventKind.DISCONNECTED, "waiting to retry", t)
            self._last_try = now
            self._cap = self._open(self.index)
            if not self._cap.isOpened():
                return SourceEvent(SourceEventKind.DISCONNECTED, "still unavailable", t)
            self._connected = True
            return SourceEvent(SourceEventKind.RECONNECTED, f"{self.name} is back", t)
        ok, image = self._cap.read()
        if not ok or image is None:
            self._connected = False
            self._last_try = now
            self._cap.release()
            return SourceEvent(SourceEventKind.DISCONNECTED, f"{self.name} stopped sending", t)
        self._count += 1
        return Frame(image, t, self._count - 1)

    def close(self) -> None:
        self._closed = True
        self._cap.release()


@dataclass(frozen=True, slots=True)
class Shot:
    """A stretch of a simulated session: a position held for ``seconds``, a hand if any."""

    position: dict[str, Any]
    seconds: float
    hand: Hand | None = None


class SimulatedSource:
    """The simulated table playing a script of shots at ``fps``, each frame with its truth."""

    def __init__(self, script: Sequence[Shot], scene: Scene | None = None,
                 fps: float = 10.0) -> None:
        if fps <= 0:
            raise SourceError(f"fps must be positive, got {fps}")
        self.scene = scene or Scene()
        self.fps = fps
        self.name = "simulated table"
        self._frames: list[tuple[float, Shot]] = []
        t = 0.0
        for shot in script:
            n = max(1, round(shot.seconds * fps))
            for _ in range(n):
                self._frames.append((t, shot))
                t += 1 / fps
        self._next = 0

    def read(self) -> Frame | SourceEvent:
        if self._next >= len(self._frames):
            t = len(self._frames) / self.fps
            return SourceEvent(SourceEventKind.ENDED, "script finished", t)
        t, shot = self._frames[self._next]
        i = self._next
        self._next += 1
        truth = render(shot.position, self.scene.with_(seed=self.scene.seed * 100003 + i),
                       shot.hand)
        return Frame(truth.image, t, i, truth)

    def close(self) -> None:
        self._next = len(self._frames)


def open_source(spec: str, fps: float = 10.0) -> FrameSource:
    """A folder of images, a video file, or a camera index (``"0"``). A path that exists
    wins: a file or folder named ``0`` in the working folder is read, not camera 0 (the user
    named it; a camera is still reached by its index wherever no such path is)."""
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, fps)
    if path.is_file():
        return VideoSource(path)
    if path.exists():  # a FIFO or a device named "0" is no camera index either
        raise SourceError(f"{spec}: not a folder or a video file")
    if spec.isascii() and spec.isdigit() and len(spec) <= 4:  # ASCII: "٣" is a file name
        return CameraSource(int(spec))
    raise SourceError(f"{spec}: not a camera index, a folder or a video file")
