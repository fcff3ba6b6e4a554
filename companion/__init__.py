"""tabletop-companion: a referee for physical board games."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # Looked up when asked for, so importing the package reads no metadata; one source of
    # truth (the distribution's metadata, or pyproject.toml), not a copy that drifts.
    if name == "__version__":
        from companion.version import package_version

        return package_version()
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
