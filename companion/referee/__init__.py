"""The referee loop: still boards from vision (or any position stream) in, events out.

Pure logic: no camera, no Kivy, no serial port. ``Referee`` judges; ``companion.live.lights`` turns
its state into what the board's LEDs show.
"""

from companion.referee.core import (
    Referee,
    RefereeConfig,
    RefereeError,
    RefereeState,
    UncertainScope,
    VisionState,
    describe_space,
)
from companion.referee.events import (
    EVENT_TYPES,
    SCHEMA,
    BoardSettled,
    CommitBy,
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    DrawAgreed,
    Ending,
    Event,
    FirstMoverChosen,
    Fix,
    GameResigned,
    GameStarted,
    GameWon,
    IllegalChange,
    Occluded,
    RecoveryOffered,
    Refused,
    RestoreShown,
    TentativeMoves,
    TurnCommitted,
    Uncertain,
    WarningCleared,
)

__all__ = [
    "EVENT_TYPES", "SCHEMA", "BoardSettled", "CommitBy", "CommitUndone", "CorrectionAccepted",
    "DieRolled", "DrawAgreed", "Ending", "Event", "FirstMoverChosen", "Fix", "GameResigned",
    "GameStarted", "GameWon", "IllegalChange", "Occluded", "RecoveryOffered", "Referee",
    "RefereeConfig", "RefereeError", "RefereeState", "Refused", "RestoreShown",
    "TentativeMoves", "TurnCommitted", "Uncertain", "UncertainScope", "VisionState",
    "WarningCleared", "describe_space",
]
