"""docs/real-table.md: its commands run as written. The fenced blocks marked ``doc-test``
(```` ```sh doc-test ````) are taken from the page and run, in order, in a clean copy of the
checkout (the install into a throwaway virtual environment), from the install to a calibrated
overlay on the simulated table's recording: doc and test cannot drift apart."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "real-table.md"
MARKED = re.compile(r"^```sh doc-test\n(.*?)^```", re.M | re.S)
INSTALL = "python3 -m pip install -e ."
MAX_PICTURE_BYTES = 150 * 1024


def marked_commands(text: str) -> list[str]:
    """The commands of the ``doc-test`` blocks of ``text``, in order (comments and blank
    lines left out)."""
    lines = [line.strip() for block in MARKED.findall(text) for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_marked_blocks_are_found() -> None:
    """Issue 21: the marker picks the guide's block, and only marked blocks."""
    text = "```sh doc-test\ncompanion a\n# note\n\ncompanion b\n```\n```sh\ncompanion c\n```\n"
    assert marked_commands(text) == ["companion a", "companion b"]
    assert marked_commands(GUIDE.read_text(encoding="utf-8"))[0] == INSTALL


def _clean_clone(dest: Path) -> None:
    """The checkout's files as a clone of it holds them (what git tracks or would add), with
    no build outputs, caches or installs of its own."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is not there
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _throwaway_venv(venv: Path) -> Path:
    """A virtual environment that sees the packages this Python has (the dependencies are
    installed already: the install then fetches only its build backend), so that installing
    into it leaves this Python's own install alone. Returns its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    if sys.prefix != sys.base_prefix:  # run from a venv: --system-site-packages misses it
        site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
        ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
        (site / "outer-environment.pth").write_text("\n".join(sorted(ours)) + "\n")
    return venv / "bin"


def test_the_guide_commands_run_from_install_to_a_calibrated_overlay(tmp_path: Path) -> None:
    """Issue 21: "from a clean clone, a new user following only the README and
    docs/real-table.md can go from install to a calibrated overlay on the simulated table's
    recording. A test runs those exact commands." Every command of the guide's block runs
    as written, in order, in a clean copy of the checkout, and exits 0: the install line
    (the README's own) into a throwaway virtual environment, whose `companion` entry point
    the later commands then run; the profile, its overlay and the last overlay are there,
    the overlay showing pieces read sure."""
    commands = marked_commands(GUIDE.read_text(encoding="utf-8"))
    assert commands[0] == INSTALL
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{INSTALL} && companion demo" in readme  # the quick start installs the same way
    clone = tmp_path / "tabletop-companion"
    _clean_clone(clone)
    bin_dir = _throwaway_venv(tmp_path / "venv")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "VIRTUAL_ENV": str(bin_dir.parent), "COMPANION_DB": str(tmp_path / "m.sqlite3")}
    for name in ("PYTHONPATH", "DISPLAY", "WAYLAND_DISPLAY"):  # the installed code runs,
        env.pop(name, None)                                   # with no window
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=clone, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        if command == INSTALL:  # the command it installed is the one run from here on
            assert shutil.which("companion", path=env["PATH"]) == str(bin_dir / "companion")
    from calibration.profile import Profile
    from vision.overlay import OUTLINE, SURE

    Profile.load(clone / "table.json")

    def count(name: str, colour: tuple[int, int, int]) -> int:
        image = cv2.imread(str(clone / name))
        assert image is not None, name
        return int((np.abs(image.astype(int) - np.array(colour)).max(axis=-1) <= 30).sum())

    assert count("table.overlay.png", SURE) > 200
    assert count("overlay.png", OUTLINE) > 500 and count("overlay.png", SURE) > 200
    assert count("mat-only.png", OUTLINE) > 500 and count("mat-only.png", SURE) < 20


def test_the_guide_is_on_the_readme_first_screen_and_its_pictures_are_there() -> None:
    """Issue 21: docs/real-table.md is linked from the README's first screen, and every
    picture it shows is in the repository, small (under 150 KB)."""
    first_screen = "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:25])
    assert "(docs/real-table.md)" in first_screen
    pictures = re.findall(r"!\[[^\]]*\]\((images/[^)]+)\)", GUIDE.read_text(encoding="utf-8"))
    assert len(pictures) >= 4
    for picture in pictures:
        path = ROOT / "docs" / picture
        assert path.is_file() and path.stat().st_size < MAX_PICTURE_BYTES, picture


@pytest.mark.parametrize("link", re.findall(r"\]\(([a-z][^)#:]*\.md)", (
    ROOT / "docs" / "real-table.md").read_text(encoding="utf-8")))
def test_the_guide_links_to_pages_that_exist(link: str) -> None:
    """Issue 21: every page the guide sends the reader to is there."""
    assert (ROOT / "docs" / link).is_file(), link
