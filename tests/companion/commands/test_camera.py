"""Issue 21, cameras: "`--camera` accepts an index, a device path or a stream URL, everywhere
a camera is taken" (many players use a phone's streaming app as the overhead camera). One
parser and one opener for every command; a bad value is one line and exit 2."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.commands.camera import (
    MAX_INDEX,
    CameraKind,
    CameraSpec,
    CameraSpecError,
    open_camera_source,
)
from companion.commands.main import main
from companion.errors import UserError
from vision.sources import Frame, SourceEvent, SourceEventKind


@pytest.mark.parametrize(("text", "kind", "target", "name"), [
    ("0", CameraKind.INDEX, 0, "camera 0"),
    ("2", CameraKind.INDEX, 2, "camera 2"),
    ("007", CameraKind.INDEX, 7, "camera 7"),
    (str(MAX_INDEX), CameraKind.INDEX, MAX_INDEX, f"camera {MAX_INDEX}"),
    ("/dev/video2", CameraKind.DEVICE, "/dev/video2", "camera /dev/video2"),
    ("/dev/v4l/by-id/usb-Cam_123-video-index0", CameraKind.DEVICE,
     "/dev/v4l/by-id/usb-Cam_123-video-index0", "camera /dev/v4l/by-id/usb-Cam_123-video-index0"),
    ("http://192.168.1.20:8080/video", CameraKind.STREAM, "http://192.168.1.20:8080/video",
     "camera stream http://192.168.1.20:8080/video"),
    ("https://cam.local/stream.mjpg", CameraKind.STREAM, "https://cam.local/stream.mjpg",
     "camera stream https://cam.local/stream.mjpg"),
    ("RTSP://[fe80::1]:554/h264", CameraKind.STREAM, "RTSP://[fe80::1]:554/h264",
     "camera stream RTSP://[fe80::1]:554/h264"),
    # a password is kept to open the stream, and never printed
    ("rtsp://ann:s3cret@10.0.0.2:554/live", CameraKind.STREAM,
     "rtsp://ann:s3cret@10.0.0.2:554/live", "camera stream rtsp://ann:***@10.0.0.2:554/live"),
])
def test_a_camera_is_an_index_a_device_path_or_a_stream_url(
        text: str, kind: CameraKind, target: int | str, name: str) -> None:
    spec = CameraSpec.parse(text)
    assert (spec.kind, spec.target, spec.name) == (kind, target, name)


@pytest.mark.parametrize(("text", "says"), [
    ("", "is not an index"),
    ("-1", "is not an index"),
    ("100", "an index is 0 to 99"),        # OpenCV would read it as backend 100's camera 0
    ("2024", "an index is 0 to 99"),
    ("9" * 300, "an index is 0 to 99"),
    ("²", "is not an index"),              # "²".isdigit() is true in Python
    ("٣", "is not an index"),
    (" 0", "spaces"),
    ("1.5", "is not an index"),
    ("video2", "is not an index"),
    ("/tmp/match.mp4", "is not an index"),  # a recording is `referee --source`'s
    ("/dev/", "a device path names a device"),
    ("/dev/v4l/", "a device path names a device"),
    ("ftp://cam.local/x", "starts with http://, https:// or rtsp://"),
    ("file:///dev/video0", "starts with http://, https:// or rtsp://"),
    ("udp://239.0.0.1:1234", "starts with http://, https:// or rtsp://"),
    ("http://", "names no host"),
    ("http:///video", "names no host"),
    ("rtsp://:554/live", "names no host"),
    ("http://cam.local:99999/video", "Port out of range"),
    ("http://cam.local:80a/video", "Port could not be cast"),
    ("http://[::1/video", "Invalid IPv6 URL"),
    ("http://cam.local/my video", "spaces"),
    ("http://cam.local/\x1b[2J", "control characters"),
])
def test_anything_else_is_refused_naming_it(text: str, says: str) -> None:
    with pytest.raises(CameraSpecError, match="camera ") as refused:
        CameraSpec.parse(text)
    assert says in str(refused.value) and "\n" not in str(refused.value)
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize("text", ["ftp://ann:s3cret@cam/x", "http://ann:s3cret@cam:99999/x",
                                  "http://ann:s3cret@[::1/x", "rtsp://ann:s3cret@cam /x"])
def test_a_refused_url_never_prints_its_password(text: str) -> None:
    with pytest.raises(CameraSpecError) as refused:
        CameraSpec.parse(text)
    assert "s3cret" not in str(refused.value)


# Every command that takes a camera, with what else it needs to get as far as opening it.
COMMANDS = [
    ["run", "--bridge", "none", "--headless", "--db", "{db}"],
    ["quest", "--profile", "{profile}", "--bridge", "none", "--headless", "--db", "{db}"],
    ["calibrate", "--out", "{out}"],
    ["calibrate", "camera", "--out", "{out}"],
    ["look"],
]


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    from tests.memo import demo_table_profile

    path = tmp_path_factory.mktemp("camera") / "profile.json"
    demo_table_profile().save(path)
    return str(path)


def argv_for(command: list[str], camera: str, tmp_path: Path, profile: str) -> list[str]:
    fill = {"{db}": str(tmp_path / "m.sqlite3"), "{profile}": profile,
            "{out}": str(tmp_path / "out.json")}
    return [fill.get(a, a) for a in command] + ["--camera", camera]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("camera", ["-1", "100", "video2", "ftp://cam/x", "http://"])
def test_every_command_refuses_a_bad_camera_in_one_error_and_exit_2(
        command: list[str], camera: str, tmp_path: Path, profile_path: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv_for(command, camera, tmp_path, profile_path))
    assert done.value.code == 2
    err = capsys.readouterr().err
    with pytest.raises(CameraSpecError) as refused:
        CameraSpec.parse(camera)
    assert "Traceback" not in err
    assert err.splitlines()[-1].endswith(f": error: argument --camera: {refused.value}")
    assert not (tmp_path / "out.json").exists()


@pytest.fixture
def refused_url() -> Iterator[str]:
    """A stream URL on this machine that refuses connections: a port bound but not
    listening (no other address is ever contacted)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/video"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_stream_that_cannot_be_opened_is_one_line_and_exit_2(
        command: list[str], refused_url: str, tmp_path: Path, profile_path: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: every command opens the URL (the phone's app not running: refused), and
    says so in one line naming it; nothing written."""
    assert main(argv_for(command, refused_url, tmp_path, profile_path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"companion {command[0]}: ")
    assert f"camera stream {refused_url} cannot be opened" in err
    assert "streaming app" in err
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize(("device", "says"), [
    ("/dev/no-such-video", "camera /dev/no-such-video: no such device"),
    ("/dev/shm", "camera /dev/shm is not a camera device"),
    ("/dev/null", "camera /dev/null cannot be opened (is it a camera"),  # a character device
])
def test_a_device_path_that_is_no_camera_is_one_line_and_exit_2(
        device: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path(device).exists() and device != "/dev/no-such-video":
        pytest.skip(f"{device} is not on this machine")
    assert main(["calibrate", "--camera", device, "--out", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


class FakeCapture:
    """A ``cv2.VideoCapture`` that sends ``frames`` frames, then fails (the phone's Wi-Fi
    drops)."""

    def __init__(self, frames: int) -> None:
        self.frames = frames
        self.opened = True

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((36, 64, 3), np.uint8)

    def release(self) -> None:
        self.opened = False


def test_a_stream_is_opened_and_reopened_by_its_url() -> None:
    """Issue 21: the URL (its password too) is what is opened, and opened again when the
    stream comes back; messages name it without the password."""
    spec = CameraSpec.parse("rtsp://ann:s3cret@10.0.0.2:554/live")
    asked: list[CameraSpec] = []

    def opener(camera: CameraSpec) -> Any:
        asked.append(camera)
        return FakeCapture(1)

    source = open_camera_source(spec, opener)
    source.retry_s = 0.0  # retry at once
    assert isinstance(source.read(), Frame)
    lost = source.read()
    assert isinstance(lost, SourceEvent) and lost.kind is SourceEventKind.DISCONNECTED
    assert lost.detail == "camera stream rtsp://ann:***@10.0.0.2:554/live stopped sending"
    back = source.read()
    assert isinstance(back, SourceEvent) and back.kind is SourceEventKind.RECONNECTED
    assert asked == [spec, spec] and source.name == spec.name
    source.close()


def test_a_stream_that_does_not_open_says_so_without_its_password() -> None:
    spec = CameraSpec.parse("http://ann:s3cret@10.0.0.2:8080/video")

    class Closed(FakeCapture):
        def isOpened(self) -> bool:
            return False

    with pytest.raises(UserError) as refused:
        open_camera_source(spec, lambda _: Closed(0))
    assert "s3cret" not in str(refused.value)
    assert str(refused.value).startswith(
        "camera stream http://ann:***@10.0.0.2:8080/video cannot be opened (is the streaming")


def test_run_takes_the_stream_as_its_camera(tmp_path: Path) -> None:
    """Issue 21: `run --camera URL` reaches the live loop with the stream, named by it."""
    import io

    from companion.commands.run import run_live

    out = io.StringIO()
    spec = CameraSpec.parse("http://192.168.1.20:8080/video")
    seen: list[CameraSpec] = []

    def opener(camera: CameraSpec) -> Any:
        seen.append(camera)
        raise KeyboardInterrupt  # the user stops as it opens: nothing else to set up

    assert run_live(camera=spec, bridge="none", db=str(tmp_path / "m.sqlite3"),
                    headless=True, out=out, opener=opener) == 130
    assert seen == [spec]


def test_a_referee_source_that_names_a_camera_says_to_use_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A recording is a file or a folder: a stream URL or a device given to `referee
    --source` is pointed at `companion run`, not read as a missing file."""
    for source in ("http://192.168.1.20:8080/video", "/dev/video2"):
        assert main(["referee", "--source", source, "--db", str(tmp_path / "m.sqlite3")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"camera {'stream ' * ('://' in source)}{source}" in err
        assert "use companion run --camera" in err
