"""Issue 18, "One way to fail": readers refuse over-deep nesting, files over a documented size
(docs/errors.md) and images over a pixel limit, checked before decoding; each as one line
naming the file, exit 2, never a traceback or a hang."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.commands.main import main
from companion.commands.position_files import MAX_POSITION_BYTES
from companion.rules import GAMES
from vision.sources import MAX_IMAGE_PIXELS, FolderSource, Frame, frames, image_dimensions


def deep_json(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def png_claiming(width: int, height: int) -> bytes:
    """A few hundred bytes of PNG whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))


def one_error_line(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


@pytest.mark.parametrize("game", list(GAMES))
def test_a_position_nested_ten_thousand_deep_is_one_line(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text(deep_json(10_000))
    assert main(["judge", "--game", game, str(path), str(path)]) == 2
    one_error_line(capsys, "deep.json", "nested")


def test_a_position_file_over_the_limit_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_POSITION_BYTES + 1))
    assert main(["judge", str(path), str(path)]) == 2
    one_error_line(capsys, "big.json", "too large for a position")


@pytest.mark.parametrize(("content", "words"), [
    (deep_json(10_000).encode(), "nested too deep"),
    (b"\xff\xfe\x00 not text", "not a text file"),
    (b"{", "not valid JSON"),
])
def test_a_damaged_profile_is_one_line(content: bytes, words: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "profile.json"
    profile.write_bytes(content)
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((36, 64, 3), np.uint8))
    assert main(["detect", "--profile", str(profile), str(image)]) == 2
    one_error_line(capsys, "profile.json", words)


def test_a_match_import_nested_too_deep_is_one_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "export.json"
    path.write_text(deep_json(10_000))
    assert main(["matches", "import", str(path), "--db", str(tmp_path / "m.db")]) == 2
    one_error_line(capsys, "export.json", "nested")


@pytest.mark.parametrize("args", [
    ["calibrate", "--image", "{img}", "--out", "{tmp}/p.json"],
    ["calibrate", "camera", "--images", "{img}", "--out", "{tmp}/lens.json"],
])
def test_an_image_claiming_sixty_thousand_squared_pixels_is_refused_before_decoding(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = tmp_path / "huge.png"
    img.write_bytes(png_claiming(60_000, 60_000))
    assert main([a.format(img=img, tmp=tmp_path) for a in args]) == 2
    one_error_line(capsys, "huge.png", "60000x60000 pixels")


def test_image_headers_are_read_for_their_size(tmp_path: Path) -> None:
    for (w, h), suffix in (((640, 360), ".png"), ((1280, 720), ".jpg")):
        path = tmp_path / f"frame{suffix}"
        cv2.imwrite(str(path), np.zeros((h, w, 3), np.uint8))
        assert image_dimensions(path.read_bytes()[:65536]) == (w, h)
    assert image_dimensions(png_claiming(60_000, 60_000)) == (60_000, 60_000)
    assert 60_000 * 60_000 > MAX_IMAGE_PIXELS >= 7680 * 4320  # 8K frames still read
    assert image_dimensions(b"GIF89a") is None


def test_a_fifo_among_a_recordings_frames_is_not_read(tmp_path: Path) -> None:
    """"A FIFO given as a frame hangs the referee": only regular files are frames."""
    cv2.imwrite(str(tmp_path / "frame_0.png"), np.zeros((24, 32, 3), np.uint8))
    os.mkfifo(tmp_path / "frame_1.png")
    got = [f.index for f in frames(FolderSource(tmp_path)) if isinstance(f, Frame)]
    assert got == [0]


def test_json_round_trips_are_unaffected() -> None:
    """The limits are far above anything the program writes (a sanity check of the test)."""
    assert len(json.dumps(GAMES["teleporters"].position_json(
        GAMES["teleporters"].start()))) < MAX_POSITION_BYTES // 100
