"""The package's version: what ``companion --version`` prints."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "tabletop-companion"
# A source checkout that was never installed (``PYTHONPATH=. python3 -m companion``) has no
# metadata; pyproject.toml beside the package is then the one place the version is written.
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
UNKNOWN = "unknown"


def pyproject_version(path: Path = PYPROJECT) -> str:
    """``project.version`` from the pyproject.toml at ``path``; ``UNKNOWN`` when the file
    is missing, damaged or names no version."""
    try:
        with path.open("rb") as f:
            version = tomllib.load(f).get("project", {}).get("version")
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        return UNKNOWN
    return version if isinstance(version, str) and version else UNKNOWN


def package_version() -> str:
    """The installed distribution's version, else the source checkout's pyproject.toml's."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return pyproject_version()
