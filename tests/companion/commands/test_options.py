"""Issue 18: "Options parse with strict types in one place: ASCII digits only, ranges checked,
finite floats" (``companion.commands.options``), and what the commands then say."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.commands.main import main
from companion.commands.options import finite, natural, path_text, positive, whole


@given(st.integers(-999_999_999, 999_999_999))
def test_whole_numbers_read_back(n: int) -> None:
    assert whole(str(n)) == n


@pytest.mark.parametrize("text", ["²", "٣", "1e3", "1.0", "", " 4", "0x10", "9" * 300, "--"])
def test_whole_numbers_are_ascii_digits_only(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        whole(text)


def test_ranges() -> None:
    assert positive("1") == 1 and natural("0") == 0
    for bad, kind in (("0", positive), ("-5", positive), ("-1", natural)):
        with pytest.raises(argparse.ArgumentTypeError, match="or more"):
            kind(bad)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "1e999", "٣", "", "1,5", "0x1"])
def test_decimals_are_finite_and_ascii(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        finite(text)


def test_decimals_read_back() -> None:
    assert finite("2.5") == 2.5 and finite("10") == 10.0 and finite(".5") == 0.5
    assert finite("1e-3") == 0.001 and finite("-3") == -3.0


def test_an_empty_path_is_refused() -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        path_text("")
    assert path_text("m.sqlite3") == "m.sqlite3"


@pytest.mark.parametrize("argv", [
    ["referee", "--source", "x", "--fps", "nan"],
    ["referee", "--source", "x", "--accept-after", "inf"],
    ["matches", "list", "--limit", "-5"],
    ["matches", "list", "--db", ""],
    ["setup", "--game", "portal-hex", "--players", "٣"],
    ["clip", "--out", "x", "--seed", "-1"],
])
def test_the_commands_refuse_them_with_exit_2(argv: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Each bad option is one error naming the option, exit 2, before any work is done."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"argument {argv[-2]}" in err


def test_unicode_digits_name_no_size_and_no_camera(capsys: pytest.CaptureFixture[str]) -> None:
    """"²".isdigit() is true in Python: a clip size or a source spelled in such digits is
    refused, or taken as the file name it is, never as a number."""
    from vision.errors import VisionError
    from vision.sources import CameraSource, open_source

    assert main(["clip", "--out", "x.mp4", "--size", "²x²"]) == 2
    assert "--size" in capsys.readouterr().err
    try:
        source = open_source("٣")
    except VisionError:
        return  # no such file: fine
    assert not isinstance(source, CameraSource)
