"""Command-line option types, strict and in one place.

``argparse``'s ``int`` takes Unicode digits ("²", "٣") and numbers hundreds of digits long,
and ``float`` takes "nan" and "inf"; each then fails somewhere deeper, or not at all. These
types take ASCII digits only, bounded, and finite decimals; argparse turns their refusal
into one line naming the option, and exit 2.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat

from companion.commands.camera import CameraSpec, CameraSpecError
from companion.errors import UserError

WHOLE_DIGITS = 9  # digits a whole-number option takes at most
_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{WHOLE_DIGITS}}}")
_COUNT = re.compile(rf"[0-9]{{1,{WHOLE_DIGITS}}}")
_DECIMAL = re.compile(r"[+-]?([0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12})([eE][+-]?[0-9]{1,3})?")


def whole(text: str) -> int:
    """A whole number written in ASCII digits (a sign allowed), at most ``WHOLE_DIGITS``."""
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number (digits 0-9, at most {WHOLE_DIGITS})")
    return int(text)


def count_option(option: str, text: str | None, least: int) -> int:
    """A whole-number option checked in the command, not by argparse (a bad value is then
    one line, not a usage block): at least ``least``, ASCII digits, no sign."""
    if text is None:
        raise UserError(f"{option} N is needed: a whole number of at least {least}")
    if not _COUNT.fullmatch(text.strip()) or int(text) < least:
        raise UserError(f"{option} {text!r}: give a whole number of at least {least}")
    return int(text)


def positive(text: str) -> int:
    """A whole number of at least 1."""
    n = whole(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return n


def natural(text: str) -> int:
    """A whole number of at least 0."""
    n = whole(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
    return n


def finite(text: str) -> float:
    """A decimal number written in ASCII (such as 10, 2.5 or 1e-3): not NaN, not infinite."""
    if not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (such as 10 or 2.5)")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is too large")
    return value


def path_text(text: str) -> str:
    """A path that is not empty (an empty one would quietly mean the current folder or a
    default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path names no file")
    return text


MAX_PLAYER_NAME = 100  # characters: a name is printed in lists and prompts


def player_name(text: str) -> str:
    """A player's name: stripped, 1 to ``MAX_PLAYER_NAME`` characters, none of them a
    control character (a name reaches the terminal and the match log's exports)."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError("a player's name needs a character that is not a space")
    if len(name) > MAX_PLAYER_NAME:
        raise argparse.ArgumentTypeError(
            f"{name[:20]!r}...: a player's name has at most {MAX_PLAYER_NAME} characters")
    if not name.isprintable():
        raise argparse.ArgumentTypeError(f"{name!r}: a player's name cannot hold control "
                                         "characters")
    return name


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _output(text: str, folder_too: bool) -> str:
    path_text(text)
    try:
        mode = os.lstat(text).st_mode
    except FileNotFoundError:
        return text  # a new file: written whole, through a temp file and a rename
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(mode):
        raise argparse.ArgumentTypeError(
            f"{text} is a symbolic link: give the file it points to, or a new path")
    if stat.S_ISREG(mode) or (folder_too and stat.S_ISDIR(mode)):
        return text
    raise argparse.ArgumentTypeError(
        f"{text} is {_kind(mode)}: give a new path or a regular file to replace")


def output_file(text: str) -> str:
    """A file to write: a new path, or a regular file there (replaced whole). A symbolic
    link, a FIFO, a device or a folder is refused: writing through a temp file and a rename
    would put a regular file in its place (and a FIFO would hang a plain write)."""
    return _output(text, folder_too=False)


def output_file_or_folder(text: str) -> str:
    """As :func:`output_file`, or a folder there already (to write files into)."""
    return _output(text, folder_too=True)


def camera(text: str) -> CameraSpec:
    """``--camera``: an index, a device path or a stream URL (see
    :mod:`companion.commands.camera`)."""
    try:
        return CameraSpec.parse(text)
    except CameraSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
