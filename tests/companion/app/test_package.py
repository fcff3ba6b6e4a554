"""The app package's entry points (issue 5): the CLI can ask whether a window can open without
Kivy being imported; ``run_app`` blocks and closes the session; the README's screenshots can be
regenerated. Kivy runs in subprocesses here, so this process keeps its one window for
test_app.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import display_available

ROOT = Path(__file__).resolve().parents[3]


def _run(code_or_args: list[str], env: dict[str, str], timeout: float = 90
         ) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **{k: v for k, v in env.items() if v}}
    for key in [k for k, v in env.items() if not v]:
        full.pop(key, None)
    return subprocess.run([sys.executable, *code_or_args], env=full, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize(("env", "expected"), [
    ({}, False),
    ({"DISPLAY": ":0"}, True),
    ({"DISPLAY": ":7"}, False),  # a stale DISPLAY nothing listens on (an ssh session's)
    ({"DISPLAY": "unix:0.0"}, True),
    ({"DISPLAY": "nonsense"}, False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, True),
    ({"WAYLAND_DISPLAY": "wayland-9"}, False),
    ({"SDL_VIDEODRIVER": "offscreen"}, True),
    ({"DISPLAY": ""}, False),
])
def test_display_available_says_whether_a_window_can_open(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str],
        expected: bool) -> None:
    """The CLI falls back to headless with a message when this says no. Issue 18: a DISPLAY
    no X server answers made the app open a window nobody saw, and the command hang."""
    import socket

    import companion.app as app

    for key in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "ANDROID_ARGUMENT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "platform", "linux")
    # an X server on display 0 and a Wayland compositor "wayland-0", listening here
    (tmp_path / "x11").mkdir()
    monkeypatch.setattr(app, "X11_SOCKETS", str(tmp_path / "x11"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    servers = []
    for path in (tmp_path / "x11" / "X0", tmp_path / "wayland-0"):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(path))
        server.listen(1)
        servers.append(server)
    try:
        assert display_available() is expected
    finally:
        for server in servers:
            server.close()


def test_importing_the_app_package_neither_imports_kivy_nor_prints() -> None:
    done = _run(["-c", "import sys, companion.app as a; a.display_available(); "
                       "print('kivy' in sys.modules)"], {})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False\n" and done.stderr == ""


def test_run_app_blocks_until_the_window_closes_and_closes_the_session(
        window_env: dict[str, str]) -> None:
    code = """
from companion.app import prepare_kivy_env
prepare_kivy_env(quiet=True)
from kivy.app import App
from kivy.clock import Clock
from companion.app import run_app
from companion.app.scripted import ScriptedSession

session = ScriptedSession()
waited = [0.0]
def close(dt):  # a player closing the window, once the app shows the board
    app = App.get_running_app()
    waited[0] += dt
    if app.root.board.cell <= 0 and waited[0] < 20.0:  # a loaded machine draws late
        Clock.schedule_once(close, 0.2)
        return
    print("board drawn:", app.root.board.cell > 0, "title:", app.title)
    app.stop()
Clock.schedule_once(close, 1.0)
run_app(session, title="Test table", size=(800, 500))
print("session closed:", session.closed)
"""
    done = _run(["-c", code], window_env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "board drawn: True title: Test table" in done.stdout
    assert done.stdout.rstrip().endswith("session closed: True")


def test_screenshots_script_writes_the_readme_images(window_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    done = _run(["-m", "companion.app.screenshots", str(tmp_path)], window_env)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("app-landscape.png", "app-illegal.png", "app-portrait.png"):
        path = tmp_path / name
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 300_000, name
        assert (ROOT / "docs" / "images" / name).is_file()  # the README's copies
