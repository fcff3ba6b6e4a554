"""The one error a command reports as bad input: a ``ValueError`` whose message says, in
one line, what was wrong, which file or option, and what to do. ``companion`` prints it and
exits 2 (exit 1 is for verdicts such as "illegal")."""

from __future__ import annotations


class UserError(ValueError):
    """Bad input to a command, or a file or device it cannot use; the message names it."""
