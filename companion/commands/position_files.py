"""Reading a position a user gives on the command line: a file (JSON or text notation, told
apart by the first character) or ``-`` for standard input, in any game of the registry."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.rules import GAMES
from companion.rules.errors import RulesError


def read_text(path: str) -> str:
    """A file's text, or standard input's for ``-``."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a text file") from None


def read_position(path: str, game: str = "teleporters", observed: bool = False) -> Any:
    """The ``game`` position in the file at ``path`` (``observed``: what the camera saw,
    which may break a rule that ``explain`` then names)."""
    try:
        return GAMES[game].read_position(read_text(path), observed=observed)
    except RulesError as exc:
        raise UserError(f"{path}: {exc}") from None
