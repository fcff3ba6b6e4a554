"""Which front end a command shows: the tablet app where it can open a window, else the
terminal. The command chooses; the live pipeline (``companion.live.session``) never imports the
app, so the app may use the pipeline without an import cycle."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any


def find_app() -> tuple[Any | None, str]:
    """The tablet app (``companion.app``) if it can show a window here, else (None, why not).
    Imported only when wanted: a headless run never loads Kivy."""
    try:
        app: Any = importlib.import_module("companion.app")
    except ImportError:
        app = None
    shown = app.display_available() if app is not None else _env_display()
    if not shown:
        return None, "no display found: running headless"
    if app is None:
        return None, "the tablet app is not part of this build: running headless"
    return app, ""


def app_unless_headless(headless: bool, say: Callable[[str], None]) -> Any | None:
    """The tablet app, or None when ``headless`` or when it cannot show here (said why)."""
    if headless:
        return None
    app, why = find_app()
    if app is None:
        say(why)
    return app


def _env_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY"))
