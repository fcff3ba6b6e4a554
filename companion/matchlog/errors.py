"""Errors of the match log: every one is a ``ValueError`` naming the offending value or file."""

from __future__ import annotations


class MatchLogError(ValueError):
    """Bad input to the match log, or a store that cannot be used as asked."""


class StoreFileError(MatchLogError):
    """The store file itself cannot be used: it was left exactly as it was found."""


class StoreVersionError(StoreFileError):
    """The store was written by a newer companion (a schema version this one does not know)."""


class StoreCorruptError(StoreFileError):
    """The file is not a match store, or is a damaged (corrupt or truncated) one."""


class MatchNotFoundError(MatchLogError):
    """No match (or event) with that id in the store."""


class MatchFormatError(MatchLogError):
    """An export (text or JSON) that cannot be imported: ``where`` says where (line N, or a
    JSON path), and the message quotes the offending text."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
