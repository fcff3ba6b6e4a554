"""Reading a position a user gives on the command line: a file (JSON or text notation, told
apart by the first character) or ``-`` for standard input, in any game of the registry."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.rules import GAMES
from companion.rules.errors import RulesError

MAX_POSITION_BYTES = 2**20  # a position is a few hundred bytes, even with every piece on
MAX_IMPORT_BYTES = 256 * 2**20  # a match export: about 2 KB a match


def read_text(path: str, limit: int = MAX_POSITION_BYTES, what: str = "a position") -> str:
    """A file's text, or standard input's for ``-``: UTF-8, at most ``limit`` bytes (``what``
    the file holds, for the message). Read no further than that, whatever the input."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)  # None: a text stand-in (tests)
            raw = (stream.read(limit + 1) if stream is not None
                   else sys.stdin.read(limit + 1).encode("utf-8"))
        else:
            with Path(path).open("rb") as f:
                raw = f.read(limit + 1)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise UserError(f"{path} is over {limit // 2**20} MB: too large for {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a text file") from None


def read_position(path: str, game: str | None = None, observed: bool = False) -> Any:
    """The ``game`` position (None: the default game's) in the file at ``path``
    (``observed``: what the camera saw, which may break a rule that ``explain`` then
    names)."""
    try:
        return GAMES[game or GAMES.default].read_position(read_text(path), observed=observed)
    except RulesError as exc:
        raise UserError(f"{path}: {exc}") from None
