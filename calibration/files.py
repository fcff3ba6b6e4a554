"""Writing calibration files: whole or not at all, and only to a regular file or a new path."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from calibration.errors import CalibrationError


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a new temp file beside it, flushed to disk,
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
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
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
