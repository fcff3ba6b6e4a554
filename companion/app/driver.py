"""Run the app one frame at a time in this process's Kivy window: tests and screenshots.

Kivy keeps one window per process, so a driver is started once per process. It steps Kivy's
event loop by hand instead of ``App.run()``, so a script or a test can feed the session, let a
few frames pass (the first frame's clock is stale), then read the window's pixels or tap a
button with a real touch event.

With ``SDL_VIDEODRIVER=offscreen`` the window renders through EGL into a surface whose size is
fixed when it opens, so the driver opens it square at the largest side it will need and then
sets the window size: a resize (landscape to portrait) stays inside the surface.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.app import configure_window

if TYPE_CHECKING:
    from companion.app.main import CompanionApp
    from companion.live.api import SessionLike


class AppDriver:
    def __init__(self, session: SessionLike, *, size: tuple[int, int] = (1280, 800),
                 surface: int = 1280, antialias: bool = True,
                 store_path: Path | None = None) -> None:
        self.session = session
        self.store_path = store_path
        self.antialias = antialias
        self.size = size
        self.surface = max(surface, *size)
        self.app: CompanionApp | None = None

    def start(self) -> CompanionApp:
        configure_window((self.surface, self.surface),
                         multisamples=None if self.antialias else 0)
        from kivy.core.window import Window

        from companion.app.main import CompanionApp

        self.app = CompanionApp(self.session, store_path=self.store_path)
        self.app._run_prepare()  # App.run() without its loop: build, open, on_start
        Window.size = self.size
        self.frames(6)
        return self.app

    @property
    def root(self) -> Any:
        assert self.app is not None, "start() first"
        return self.app.root

    def frames(self, n: int = 4) -> None:
        """Let ``n`` frames pass: queued updates applied, layout done, drawn."""
        from kivy.base import EventLoop

        for _ in range(n):
            EventLoop.idle()

    def wait(self, seconds: float) -> None:
        """Let real time pass frame by frame (animations, the flash, popups opening)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.frames(1)

    def resize(self, width: int, height: int) -> None:
        from kivy.core.window import Window

        assert max(width, height) <= self.surface, "the offscreen surface cannot grow"
        Window.size = (width, height)
        self.frames(6)

    def pixels(self, x: int = 0, y: int = 0, width: int | None = None,
               height: int | None = None) -> np.ndarray:
        """The window as last drawn, or the part from window point (x, y) (Kivy's
        coordinates, origin bottom-left): (height, width, 3) uint8 RGB, top row first."""
        from kivy.core.window import Window
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        w = int(Window.size[0]) - x if width is None else width
        h = int(Window.size[1]) - y if height is None else height
        data = glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
        return np.frombuffer(data, np.uint8).reshape(h, w, 4)[::-1, :, :3].copy()

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        """The colour at window point (x, y), Kivy's coordinates (origin bottom-left)."""
        r, g, b = self.pixels(round(x), round(y), 1, 1)[0, 0]
        return int(r), int(g), int(b)

    def widget_pixels(self, widget: Any) -> np.ndarray:
        """The part of the window a widget covers, as :meth:`pixels`."""
        x, y = widget.to_window(widget.x, widget.y)
        return self.pixels(round(x), round(y), max(1, round(widget.width)),
                           max(1, round(widget.height)))

    def save_png(self, path: str | Path, *, scale: float = 1.0) -> Path:
        """A screenshot of the window, optionally scaled down (docs images stay small)."""
        import cv2

        img = self.pixels()
        if scale != 1.0:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(path), img[:, :, ::-1], [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            raise OSError(f"could not write {path}")
        return path

    def tap(self, target: Any) -> None:
        """A finger's tap (touch down, up) at a widget's centre or at window point (x, y)."""
        from kivy.tests.common import UnitTestTouch

        if isinstance(target, tuple):
            x, y = target
        else:
            x, y = target.to_window(*target.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(2)
        touch.touch_up()
        self.frames(3)

    def stop(self) -> None:
        if self.app is not None:
            self.app.dispatch("on_stop")
            self.app = None
