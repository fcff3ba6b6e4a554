"""Errors of the rules core: every one is a ``ValueError`` naming the offending value."""

from __future__ import annotations


class RulesError(ValueError):
    """Bad input to the rules core: malformed, or physically impossible on a real mat."""


class PositionError(RulesError):
    """A position (JSON or text) that cannot stand on a real mat."""


class MoveError(RulesError):
    """A move in notation that cannot be parsed, or that is not legal where it is played."""


class VariantError(RulesError):
    """An unknown variant flag or a flag value out of range."""
