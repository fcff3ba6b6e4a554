"""Issue 18: calibration files are written whole, and only to a regular file or a new path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from calibration.errors import CalibrationError
from calibration.files import write_text_atomically


def test_a_new_file_and_a_replaced_one_are_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "profile.json"
    write_text_atomically(path, "one")
    write_text_atomically(path, "two")
    assert path.read_text(encoding="utf-8") == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["profile.json"]  # no temp file left


def test_a_link_a_fifo_and_a_folder_are_refused_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "theirs.txt"
    target.write_text("kept", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, words in ((link, "symbolic link"), (fifo, "not a regular file"),
                        (tmp_path, "not a regular file")):
        with pytest.raises(CalibrationError, match=words):
            write_text_atomically(path, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "kept"


def test_a_planted_temp_name_is_not_followed(tmp_path: Path) -> None:
    """The old writer used PATH.tmp, a name anyone could plant a link at beforehand."""
    target = tmp_path / "theirs.txt"
    target.write_text("kept", encoding="utf-8")
    (tmp_path / "profile.json.tmp").symlink_to(target)
    write_text_atomically(tmp_path / "profile.json", "mine")
    assert target.read_text(encoding="utf-8") == "kept"
    assert (tmp_path / "profile.json").read_text(encoding="utf-8") == "mine"


def test_an_unwritable_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot write"):
        write_text_atomically(tmp_path / "no" / "such" / "folder.json", "x")
