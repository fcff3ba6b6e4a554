"""Reading a Teleporters position a user gives on the command line: a file (JSON or text
notation, told apart by the first character) or ``-`` for standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.errors import UserError
from companion.rules.errors import RulesError
from companion.rules.teleporters import Position


def read_position(path: str) -> Position:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a text file") from None
    stripped = text.strip()
    if not stripped:
        raise UserError(f"{path} is empty")
    try:
        if stripped.startswith("{"):
            return Position.from_json(stripped)
        return Position.from_text(stripped)
    except RulesError as exc:
        raise UserError(f"{path}: {exc}") from None
