"""A real Kivy window for the app's tests, with no X server needed.

Kivy keeps one window per process, so one session-wide ``driver`` runs the app for every test
in this folder (each test starts with a new game). The window opens with SDL's ``offscreen``
driver, which renders through Mesa's EGL (Debian: libegl1, libegl-mesa0, libgl1-mesa-dri,
listed in .ci/run); if that fails and ``Xvfb`` is installed, under a private Xvfb display. A
subprocess tries first, because a Kivy that finds no window provider may end the whole
process. The tests skip, saying why, only when no window can be opened at all.

The environment is changed only while the window opens (SDL and Kivy read it then and at
import), so no other test sees ``SDL_VIDEODRIVER`` and friends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.scripted import SIMULATED
from tests.companion.app.fakes import FakeSession

ROOT = Path(__file__).resolve().parents[3]
PROBE = ("from kivy.core.window import Window\n"
         "import sys\n"
         "sys.exit(0 if Window is not None and Window.size[0] > 0 else 3)\n")


def _kivy_env(home: str) -> dict[str, str]:
    return {"KIVY_HOME": home, "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON",
            "KIVY_NO_CONSOLELOG": "1",
            "KIVY_WINDOW": "sdl2"}  # only SDL: Kivy's x11 fallback exits the process


def _probe(env: dict[str, str]) -> str | None:
    """None if a window opens under ``env``, else why not."""
    full = {**os.environ, **env}
    for key in [k for k, v in env.items() if v == ""]:
        full.pop(key, None)
    try:
        done = subprocess.run([sys.executable, "-c", PROBE], env=full, cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "opening a window timed out"
    if done.returncode == 0:
        return None
    # Kivy names each provider's failure on one line ("sdl2 - RuntimeError: ..."); the
    # traceback's lines are indented.
    lines = [line for line in (done.stderr + done.stdout).splitlines()
             if line.strip() and not line.startswith(" ")]
    errors = [line for line in lines if "Error" in line] or lines
    return f"exit {done.returncode}: {errors[-1] if errors else 'no output'}"


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str] | None:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    display = f":{90 + os.getpid() % 100}"
    proc = subprocess.Popen([xvfb, display, "-screen", "0", "1024x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return proc, display


@pytest.fixture(scope="session")
def window_env() -> Iterator[dict[str, str]]:
    """The environment under which this machine opens a window (for in-process Kivy and for
    subprocesses such as the screenshots script)."""
    home = tempfile.mkdtemp(prefix="kivy-test-home-")
    env = {**_kivy_env(home), "SDL_VIDEODRIVER": "offscreen"}
    why = _probe(env)
    xvfb = None
    if why is not None:
        xvfb = _start_xvfb()
        if xvfb is not None:
            env = {**_kivy_env(home), "SDL_VIDEODRIVER": "", "DISPLAY": xvfb[1]}
            why_x = _probe(env)
            why = None if why_x is None else f"offscreen: {why}; Xvfb: {why_x}"
    if why is not None:
        if xvfb is not None:
            xvfb[0].terminate()
        shutil.rmtree(home, ignore_errors=True)
        pytest.skip(f"no window can be opened on this machine ({why}); install Mesa's EGL "
                    "(libegl1 libegl-mesa0 libgl1-mesa-dri) or xvfb")
    yield env
    if xvfb is not None:
        xvfb[0].terminate()
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def app_driver(window_env: dict[str, str]) -> Iterator[object]:
    """The app in this process's one window, over a :class:`FakeSession`."""
    saved = {k: os.environ.get(k) for k in window_env}
    for key, value in window_env.items():
        if value:
            os.environ[key] = value
        else:
            os.environ.pop(key, None)
    try:
        from companion.app.driver import AppDriver

        driver = AppDriver(FakeSession(links=SIMULATED), size=(960, 600), surface=960,
                           antialias=False)  # twice as fast on Mesa's llvmpipe
        driver.start()
    finally:  # SDL and Kivy have read it: no other test sees it
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
    yield driver
    driver.stop()
