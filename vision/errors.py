"""Errors of the vision package: each a ``ValueError`` naming the offending value."""

from __future__ import annotations


class VisionError(ValueError):
    """Bad input to vision: an unreadable image, no mat found, a bad profile or parameter."""


class SourceError(VisionError):
    """A frame source that cannot be opened or has failed."""


class GridNotFitted(VisionError):
    """A mat's outline was found in an image, but not its grid lines."""
