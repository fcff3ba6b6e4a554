"""Issue 21: "`companion --version`": the package's version, from its installed metadata or,
in a checkout that was never installed, from pyproject.toml; exit 0."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import companion
from companion.commands.main import main
from companion.version import PYPROJECT, UNKNOWN, package_version, pyproject_version

ROOT = Path(__file__).resolve().parents[3]


def written_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        version = tomllib.load(f)["project"]["version"]
    assert isinstance(version, str)
    return version


def test_version_prints_the_package_version_and_exits_0(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: `companion --version` prints "companion VERSION" on stdout, exit 0."""
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out, err = capsys.readouterr()
    assert out == f"companion {package_version()}\n" and err == ""
    assert package_version() == companion.__version__ != UNKNOWN


def test_version_falls_back_to_pyproject_when_not_installed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: with no installed metadata the version is the one pyproject.toml writes."""
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert PYPROJECT == ROOT / "pyproject.toml"
    assert package_version() == written_version()
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"companion {written_version()}\n"


@pytest.mark.parametrize(("content", "version"), [
    (None, UNKNOWN),                                      # no file
    ("[project\nname = 'x'", UNKNOWN),                    # not TOML
    ("[project]\nname = 'x'\n", UNKNOWN),                 # no version
    ("project = 3\n", UNKNOWN),                           # no table
    ("[project]\nversion = 7\n", UNKNOWN),                # not a string
    ("[project]\nversion = '2.3.4'\n", "2.3.4"),
])
def test_pyproject_version_never_fails(tmp_path: Path, content: str | None,
                                       version: str) -> None:
    """Issue 21: `--version` answers even from a damaged checkout (no traceback)."""
    path = tmp_path / "pyproject.toml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert pyproject_version(path) == version


def test_the_real_command_prints_its_version() -> None:
    """Issue 21: `python3 -m companion --version`, as a user runs it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "companion", "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"companion {package_version()}\n",
                                                           "")
