"""Issue 21: "OpenCV prints libavdevice warnings on every command that opens video" / "No
command prints OpenCV warnings": a camera, stream or video that cannot be opened leaves one
line on stderr, the command's own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from companion.commands.main import FFMPEG_LOG_FATAL, quiet_opencv

ROOT = Path(__file__).resolve().parents[3]


def companion(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command in a fresh process: OpenCV and FFmpeg write to the stderr file
    descriptor itself, and read their log levels once, so only a new process shows them."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENCV_LOG_LEVEL", "OPENCV_FFMPEG_LOGLEVEL")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "companion", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("argv", "says"), [
    # OpenCV's V4L2 "can't open camera by index" and FFmpeg's "configured with libavdevice"
    (["calibrate", "--camera", "97", "--out", "p.json"], "camera 97 cannot be opened"),
    (["calibrate", "camera", "--camera", "97", "--out", "l.json"],
     "camera 97 cannot be opened"),
    # FFmpeg's own "[mov,mp4,...] moov atom not found"
    (["referee", "--source", "bad.mp4", "--db", "m.sqlite3"], "OpenCV cannot open this video"),
    # FFmpeg's "[tcp @ 0x...] Connection to tcp://127.0.0.1:N failed: Connection refused"
    (["calibrate", "--camera", "http://{refused}/video", "--out", "p.json"],
     "camera stream http://{refused}/video cannot be opened"),
    (["calibrate", "--camera", "rtsp://{refused}/live", "--out", "p.json"],
     "camera stream rtsp://{refused}/live cannot be opened"),
    # OpenCV's "VIDEOIO(V4L2): backend is generally available but can't be used"
    (["calibrate", "--camera", "/dev/null", "--out", "p.json"],
     "camera /dev/null cannot be opened"),
])
def test_what_cannot_be_opened_is_our_one_line_and_no_opencv_warning(
        tmp_path: Path, argv: list[str], says: str) -> None:
    (tmp_path / "bad.mp4").write_bytes(b"not a video " * 100)
    with socket.socket() as sock:  # bound, not listening: connections to it are refused
        sock.bind(("127.0.0.1", 0))
        refused = f"127.0.0.1:{sock.getsockname()[1]}"
        argv = [a.replace("{refused}", refused) for a in argv]
        says = says.replace("{refused}", refused)
        done = companion(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"companion {argv[0]}: ") and says in done.stderr


def test_the_user_and_debug_keep_their_own_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: errors only by default; `--debug`, or a level the user set in the
    environment, is left alone (to see why a camera does not open)."""
    before = cv2.utils.logging.getLogLevel()
    try:
        monkeypatch.delenv("OPENCV_LOG_LEVEL", raising=False)
        monkeypatch.delenv("OPENCV_FFMPEG_LOGLEVEL", raising=False)
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_INFO)
        quiet_opencv(debug=True)
        assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_INFO
        assert "OPENCV_FFMPEG_LOGLEVEL" not in os.environ
        monkeypatch.setenv("OPENCV_LOG_LEVEL", "DEBUG")
        monkeypatch.setenv("OPENCV_FFMPEG_LOGLEVEL", "48")
        quiet_opencv(debug=False)
        assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_INFO
        assert os.environ["OPENCV_FFMPEG_LOGLEVEL"] == "48"
        monkeypatch.delenv("OPENCV_LOG_LEVEL")
        monkeypatch.delenv("OPENCV_FFMPEG_LOGLEVEL")
        quiet_opencv(debug=False)
        assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_ERROR
        assert os.environ["OPENCV_FFMPEG_LOGLEVEL"] == FFMPEG_LOG_FATAL
    finally:
        cv2.utils.logging.setLogLevel(before)
