"""The package's one error type."""

from __future__ import annotations


class BridgeError(ValueError):
    """Bad input to the bridge: a malformed frame or message, an unknown space, a bad port."""
