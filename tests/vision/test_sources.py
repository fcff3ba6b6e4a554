"""Frame sources (issue 3: "a camera index, a video file, a folder of images, and a simulated
table ... A source that fails or stops is reported as such, and the live source reconnects")."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import SourceError
from vision.simtable import CameraPose, Hand, Scene
from vision.sources import (
    CameraSource,
    FolderSource,
    Frame,
    Shot,
    SimulatedSource,
    SourceEvent,
    SourceEventKind,
    VideoSource,
    frames,
    open_source,
)


def image(value: int) -> np.ndarray:
    return np.full((24, 32, 3), value, np.uint8)


def test_folder_reads_in_natural_order_at_the_given_fps(tmp_path: Path) -> None:
    for i in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame_{i}.png"), image(i))
    out = list(frames(FolderSource(tmp_path, fps=4)))
    got = [(int(f.image[0, 0, 0]), f.t) for f in out if isinstance(f, Frame)]
    assert got == [(1, 0.0), (2, 0.25), (10, 0.5)]
    assert isinstance(out[-1], SourceEvent) and out[-1].kind is SourceEventKind.ENDED


def test_folder_reports_a_corrupt_image_and_goes_on(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a1.png"), image(5))
    (tmp_path / "a2.png").write_bytes(b"not a png")
    cv2.imwrite(str(tmp_path / "a3.png"), image(7))
    kinds = [f.kind if isinstance(f, SourceEvent) else "frame"
             for f in frames(FolderSource(tmp_path))]
    assert kinds == ["frame", SourceEventKind.CORRUPT, "frame", SourceEventKind.ENDED]


@pytest.mark.parametrize("make, words", [
    (lambda p: p / "missing", "not a folder"),
    (lambda p: p, "no images"),
])
def test_folder_bad_input(tmp_path: Path, make, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SourceError, match=words):
        FolderSource(make(tmp_path))


def test_video_file_frames_then_end(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for i in range(5):
        writer.write(image(40 * i))
    writer.release()
    out = list(frames(VideoSource(path)))
    assert sum(isinstance(f, Frame) for f in out) == 5
    assert out[-1].kind is SourceEventKind.ENDED  # type: ignore[union-attr]
    assert [f.t for f in out if isinstance(f, Frame)][1] == pytest.approx(0.1)


def test_video_bad_input(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such"):
        VideoSource(tmp_path / "none.mp4")
    (tmp_path / "junk.mp4").write_bytes(b"\x00" * 100)
    with pytest.raises(SourceError, match="cannot open"):
        VideoSource(tmp_path / "junk.mp4")


class FakeCapture:
    """A camera that sends ``frames`` frames, then fails (unplugged)."""

    def __init__(self, frames: int, opens: bool = True) -> None:
        self.left, self.opens = frames, opens

    def isOpened(self) -> bool:
        return self.opens

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, image(1)

    def release(self) -> None:
        pass


def test_camera_unplugged_is_reported_and_reconnects() -> None:
    now = [0.0]
    caps = iter([FakeCapture(2), FakeCapture(0, opens=False), FakeCapture(1)])
    cam = CameraSource(0, retry_s=1.0, opener=lambda i: next(caps), clock=lambda: now[0])
    seen = []
    for _ in range(3):
        seen.append(cam.read())
    assert [type(s).__name__ for s in seen] == ["Frame", "Frame", "SourceEvent"]
    assert seen[2].kind is SourceEventKind.DISCONNECTED  # type: ignore[union-attr]
    assert cam.read().kind is SourceEventKind.DISCONNECTED  # type: ignore[union-attr]
    now[0] = 1.5
    assert cam.read().kind is SourceEventKind.DISCONNECTED  # type: ignore[union-attr]
    now[0] = 3.0
    assert cam.read().kind is SourceEventKind.RECONNECTED  # type: ignore[union-attr]
    assert isinstance(cam.read(), Frame)


def test_camera_that_cannot_open_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match="camera 3"):
        CameraSource(3, opener=lambda i: FakeCapture(0, opens=False))


def test_simulated_source_plays_its_script_with_truth() -> None:
    pos = {"poles": {"d4": "south"}, "ports": []}
    scene = Scene(pose=CameraPose(width=160, height=90))
    src = SimulatedSource([Shot(pos, 0.3), Shot(pos, 0.2, Hand())], scene, fps=10)
    out = [f for f in frames(src) if isinstance(f, Frame)]
    assert len(out) == 5 and out[0].truth is not None
    assert [f.truth.occluded for f in out] == [False, False, False, True, True]  # type: ignore
    assert out[4].t == pytest.approx(0.4)


def test_open_source_rejects_nonsense(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not a camera index"):
        open_source(str(tmp_path / "nothing-here"))


def test_a_path_named_like_a_camera_index_is_read_not_the_camera(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: `--source 0` opened camera 0 even where a folder or file named 0 was in the
    working folder. The path the user named wins; where there is none, 0 is camera 0."""
    import vision.sources

    cameras: list[int] = []  # no device is opened: the camera is a stand-in
    monkeypatch.setattr(vision.sources, "CameraSource", lambda index: cameras.append(index))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "0").mkdir()
    cv2.imwrite(str(tmp_path / "0" / "frame_1.png"), image(3))
    source = open_source("0")
    assert isinstance(source, FolderSource) and cameras == []
    source.close()
    open_source("1")  # no such path: camera 1
    assert cameras == [1]


class _DamagedCapture:
    """A stand-in for cv2.VideoCapture over a 100-frame file whose frames 30..69 cannot be
    decoded: its decoder stays stuck on a bad frame until it is moved on (as FFmpeg's can)."""

    def __init__(self, path: str) -> None:
        self.pos = 0
        self.stuck = False

    def isOpened(self) -> bool:
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: 10.0, cv2.CAP_PROP_FRAME_COUNT: 100.0,
                cv2.CAP_PROP_POS_FRAMES: float(self.pos)}.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_POS_FRAMES:
            self.pos, self.stuck = int(value), False
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.stuck or self.pos >= 100 or 30 <= self.pos < 70:
            self.stuck = self.pos < 100
            return False, None
        self.pos += 1
        return True, image(self.pos - 1)

    def release(self) -> None:
        pass


def test_a_damaged_stretch_of_video_is_skipped_not_taken_for_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, data loss: 30 or more unreadable frames in a row in the middle of a video
    ended the source there, and the turns after them were never refereed, with exit 0. Every
    unreadable frame is reported and skipped; the frames after the damage are read."""
    path = tmp_path / "match.avi"
    path.write_bytes(b"not read: the capture is a stand-in")
    monkeypatch.setattr(cv2, "VideoCapture", _DamagedCapture)
    out = list(frames(VideoSource(path)))
    read = [f.index for f in out if isinstance(f, Frame)]
    skipped = [e for e in out if isinstance(e, SourceEvent)
               and e.kind is SourceEventKind.CORRUPT]
    assert read == [*range(30), *range(70, 100)]
    assert len(skipped) == 40 and skipped[0].detail == "frame 30 unreadable"
    assert out[-1].kind is SourceEventKind.ENDED  # type: ignore[union-attr]


def test_thirty_unreadable_frames_in_a_row_in_a_folder_are_skipped_not_the_end(
        tmp_path: Path) -> None:
    """Issue 18, data loss: "30 unreadable frames in a row in the middle" of a folder
    recording: each is reported and skipped, and the frames after them are read."""
    for i in range(50):
        path = tmp_path / f"frame_{i}.png"
        if 10 <= i < 40:
            path.write_bytes(b"not an image")
        else:
            cv2.imwrite(str(path), image(i))
    out = list(frames(FolderSource(tmp_path, fps=10)))
    assert [f.index for f in out if isinstance(f, Frame)] == [*range(10), *range(40, 50)]
    corrupt = [e for e in out if isinstance(e, SourceEvent) and e.kind is SourceEventKind.CORRUPT]
    assert len(corrupt) == 30 and out[-1].kind is SourceEventKind.ENDED  # type: ignore[union-attr]
