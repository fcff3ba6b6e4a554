"""Calibration files: read within limits (a size, UTF-8, JSON nesting Python can take), and
written whole or not at all, only to a regular file or a new path."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from calibration.errors import CalibrationError

MAX_FILE_BYTES = 64 * 2**20  # a profile is a few megabytes; a lens calibration a few kilobytes


def read_json_file(path: str | Path, what: str) -> Any:
    """The JSON document in the file at ``path`` (``what`` it is, for messages). Refused
    with a CalibrationError naming the file: a file over ``MAX_FILE_BYTES``, not UTF-8 text,
    not JSON, or nested deeper than Python's JSON reader takes (about 1,000 levels)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CalibrationError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CalibrationError(f"{what} {path} is over {MAX_FILE_BYTES // 2**20} MB: not one "
                               "this program wrote")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CalibrationError(f"{what} {path} is not a text file") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{what} {path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise CalibrationError(f"{what} {path} is nested too deep to be one") from None


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: :func:`write_atomically`."""
    write_atomically(path, text.encode("utf-8"))


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a new temp file beside it, flushed to disk,
    then renamed over it: a reader sees the old file or the new one, never half of one. A
    symbolic link, FIFO, device or folder at ``path`` is refused (CalibrationError): the
    rename would put a regular file in its place."""
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
        raise CalibrationError(f"cannot write {path}: it is {what} (give a new path or a "
                               "regular file)")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
