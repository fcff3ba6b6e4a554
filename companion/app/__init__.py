"""The tablet app: Kivy, over a ``companion.live.api.SessionLike``.

Importing this package does not import Kivy (Kivy logs and reads its config on import, and
opening a window needs a display): ``display_available()`` lets the CLI fall back to headless
with a message, and ``run_app`` imports Kivy only when it runs.

    from companion.app import display_available, run_app
    if display_available():
        run_app(session)          # blocks until the window closes; closes the session
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from companion.live.api import SessionLike
    from companion.live.quest import QuestSession

DEFAULT_TITLE = "Teleporters companion"
X11_SOCKETS = "/tmp/.X11-unix"  # where a local X server listens
DEFAULT_SIZE = (1280, 800)  # a 10-inch tablet in landscape; a desktop window may be resized


def display_available() -> bool:
    """Whether a window can be opened: a desktop session (X11 or Wayland) that answers, a
    platform with a window system of its own, or an SDL video driver chosen explicitly
    (``offscreen`` renders through EGL without any display, ``kmsdrm`` straight to a screen).
    A ``DISPLAY`` or ``WAYLAND_DISPLAY`` nothing listens on (a stale one from an ssh session)
    is no display: SDL would fall back to a window nobody sees, and the command would wait
    for it to be closed."""
    if sys.platform in ("win32", "darwin") or "ANDROID_ARGUMENT" in os.environ:
        return True
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    wayland = os.environ.get("WAYLAND_DISPLAY", "")
    if wayland and _listens(os.path.join(os.environ.get("XDG_RUNTIME_DIR", ""), wayland)):
        return True
    return _x_display_answers(os.environ.get("DISPLAY", ""))


def _listens(address: str | tuple[str, int]) -> bool:
    """Whether something accepts a connection at a Unix socket path or a TCP address."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect(address)
        return True
    except OSError:
        return False


def _x_display_answers(display: str) -> bool:
    """Whether the X server named by ``display`` (":0", "host:10.0", "unix:1") listens."""
    host, colon, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not colon or not number.isascii() or not number.isdigit():
        return False
    if host in ("", "unix"):
        return _listens(os.path.join(X11_SOCKETS, f"X{number}"))
    return _listens((host, 6000 + int(number)))


def prepare_kivy_env(*, home: str | None = None, quiet: bool = False,
                     offscreen: bool = False) -> None:
    """Environment Kivy reads once, at import: call before anything imports ``kivy``.

    Kivy must not parse the companion's command line (``KIVY_NO_ARGS``), nor take over
    ``sys.stderr`` and the root logger (its default ``KIVY`` log mode does both): ``MIXED``
    keeps its log to itself, ``quiet`` (tests, the screenshots script) sends it through
    Python's logging only. Values already set by the user win.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON" if quiet else "MIXED")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        # No handler at all would print Kivy's warnings through logging's last resort.
        logging.getLogger("kivy").addHandler(logging.NullHandler())
    if home is not None:
        os.environ.setdefault("KIVY_HOME", home)  # config.ini and logs, not in ~/.kivy
    if offscreen:
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")


def configure_window(size: tuple[int, int], *, fullscreen: bool = False,
                     multisamples: int | None = None) -> None:
    """Window settings, before the window exists (it opens on first use). ``multisamples``
    0 turns antialiasing off: Mesa's software renderer draws twice as fast without it."""
    from kivy.config import Config

    if multisamples is not None:
        Config.set("graphics", "multisamples", str(multisamples))
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
    Config.set("kivy", "exit_on_escape", "0")  # a stray Esc must not end a game


def run_app(session: SessionLike, *, title: str = DEFAULT_TITLE,
            size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False,
            store_path: Path | None = None) -> None:
    """Open the app's window over ``session`` and block until it is closed; the session is
    closed on the way out, whatever happened. ``store_path``: the match log the Matches
    button shows (opened read only when pressed); None leaves the button off."""
    try:
        prepare_kivy_env()
        configure_window(size, fullscreen=fullscreen)
        from companion.app.main import CompanionApp

        CompanionApp(session, title=title, store_path=store_path).run()
    finally:
        session.close()


def run_quest_app(session: QuestSession, **kwargs: Any) -> None:
    """Open the Quest screen over a Solitaire Quest ``session`` and block until the window is
    closed (see :func:`companion.app.quest.run_quest_app`). Kivy is imported only here."""
    prepare_kivy_env()
    from companion.app.quest import run_quest_app as run

    run(session, **kwargs)


__all__ = ["DEFAULT_SIZE", "DEFAULT_TITLE", "configure_window", "display_available",
           "prepare_kivy_env", "run_app", "run_quest_app"]
