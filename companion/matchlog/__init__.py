"""The match log: every match the referee sees, kept like chess players keep PGN.

``MatchStore`` (``store.py``) is the SQLite store; ``model.py`` holds the values (matches,
turns, events); ``export.py`` the text (PGN-like) and JSON forms; ``draw.py`` the pictures;
``cli.py`` the ``companion matches`` command. See ``docs/matchlog.md``.
"""

from companion.matchlog.errors import (
    MatchFormatError,
    MatchLogError,
    MatchNotFoundError,
    StoreCorruptError,
    StoreFileError,
    StoreVersionError,
)
from companion.matchlog.model import (
    TERMINATION_TAG,
    Correction,
    DieRoll,
    DieSource,
    Event,
    EventData,
    EventId,
    EventKind,
    IllegalMove,
    Match,
    MatchId,
    MatchSummary,
    Note,
    QuestFind,
    ReplayStep,
    Resolution,
    Result,
    Termination,
    TurnRecord,
    replay_turn,
)
from companion.matchlog.schema import SCHEMA_VERSION
from companion.matchlog.store import ENV_VAR, Imported, MatchStore, ResumePoint, default_db_path

__all__ = [
    "ENV_VAR", "SCHEMA_VERSION", "TERMINATION_TAG", "Correction", "DieRoll", "DieSource",
    "Event", "EventData", "EventId", "EventKind", "IllegalMove", "Imported", "Match",
    "MatchFormatError", "MatchId", "MatchLogError", "MatchNotFoundError", "MatchStore",
    "MatchSummary", "Note", "QuestFind", "ReplayStep", "Resolution", "Result", "ResumePoint",
    "StoreCorruptError", "StoreFileError", "StoreVersionError", "Termination", "TurnRecord",
    "default_db_path", "replay_turn",
]
