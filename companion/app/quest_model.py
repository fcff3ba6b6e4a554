"""The Quest screen's logic (pure Python, no Kivy): QuestUpdates folded into what it shows.

``QuestScreenModel.apply(update, position=None)`` turns one
:class:`~companion.live.quest.QuestUpdate` into a :class:`QuestView`: the quest's title and player,
the board to draw (the position when one is given, else the report's pieces drawn as Poles for
the queens quests or Teleports for the rooks quest), the lit spaces in their LED colours, a
status line in plain words, the report's problems and the found-classes counter. The verdict
is the report's (:func:`companion.rules.teleporters.quests.check` via the quest session): this
module only words it. ``screen`` is a :class:`~companion.app.model.Screen` so the app's
:class:`~companion.app.board.BoardView` draws the board as it is.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.app.model import Banner, Highlights, Screen
from companion.live.api import Links
from companion.live.quest import QuestUpdate
from companion.referee import VisionState
from companion.rules.teleporters import Position, Side, Square, square_name
from companion.rules.teleporters.quests import Conflict, Quest, QuestReport, solution_classes
from firmware_bridge.colors import Color

SHOWN_CONFLICTS = 2  # conflicts named on the status line; the problems list has them all
SHOWN_FREE = 4  # free spaces named on the status line


class QuestStatus(enum.Enum):
    """What the status line says, for its colour."""

    WAITING = "waiting"  # nothing judged yet
    HAND = "hand"
    SOLVED = "solved"
    CONFLICT = "conflict"
    NOT_YET = "not_yet"  # no conflict, but not a solution (too few Poles, room for another...)

    @property
    def colour(self) -> str:
        """The key of ``theme.BANNER`` (the game screen's banner colours) for this status."""
        return {QuestStatus.HAND: "hand", QuestStatus.SOLVED: "win",
                QuestStatus.CONFLICT: "illegal"}.get(self, "info")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _names(squares: Iterable[Square]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares))


def conflict_text(conflict: Conflict) -> str:
    """``"b1 and e4 same diagonal a1-h8"``."""
    return (f"{square_name(conflict.a)} and {square_name(conflict.b)} "
            f"{conflict.line.description}")


def status_text(update: QuestUpdate | None) -> tuple[QuestStatus, str]:
    """The status line for a verdict (None: none yet), most useful news first: a hand, a
    solution, conflicts, the count of pieces, room for another Pole, else the report's first
    problem."""
    if update is None:
        return QuestStatus.WAITING, "Waiting for a still board"
    report = update.report
    if report is None:
        return QuestStatus.HAND, "A hand is over the mat"
    quest = report.quest
    if report.solved:
        news = "new" if update.new_class is not None else "found before"
        return (QuestStatus.SOLVED,
                f"Solved! class {report.class_number} of {report.class_count} — {news}")
    if report.conflicts:
        n = len(report.conflicts)
        text = f"{_plural(n, 'conflict')}: " + "; ".join(
            conflict_text(c) for c in report.conflicts[:SHOWN_CONFLICTS])
        if n > SHOWN_CONFLICTS:
            text += f"; and {n - SHOWN_CONFLICTS} more"
        return QuestStatus.CONFLICT, text
    on_mat = len(report.pieces)
    if report.missing:
        return (QuestStatus.NOT_YET,
                f"Place {_plural(quest.pieces, quest.piece_name)}: {on_mat} on the mat")
    if report.extra:
        return (QuestStatus.NOT_YET,
                f"Too many {quest.piece_name}s: {on_mat} on the mat, the quest uses "
                f"{quest.pieces}")
    if quest.maximal and report.free:
        free = sorted(report.free)
        names = _names(free[:SHOWN_FREE]) + (", …" if len(free) > SHOWN_FREE else "")
        return QuestStatus.NOT_YET, f"Room for another Pole on {names}"
    first = report.problems[0] if report.problems else "Not solved yet"
    return QuestStatus.NOT_YET, first


def counter_text(found: tuple[int, ...], total: int) -> str:
    """``"Found 4 of 12 classes"``."""
    return f"Found {len(found)} of {total} " + ("class" if total == 1 else "classes")


def found_text(found: tuple[int, ...]) -> str:
    """``"Classes found: 1, 3, 7, 9"``, or that none is yet."""
    if not found:
        return "No class found yet"
    return ("Class found: " if len(found) == 1 else "Classes found: ") + ", ".join(
        str(n) for n in found)


def layout_position(report: QuestReport) -> Position:
    """A board holding only the report's pieces: Poles for the queens quests, Teleports (two
    Ports boxing the space, south-west and north-east) for the rooks quest."""
    names = [square_name(s) for s in report.pieces]
    doc: dict[str, object] = {"game": "teleporters", "to_move": Side.SOUTH.value}
    if report.quest.is_queens:
        doc["poles"] = {name: Side.NORTH.value for name in names}
        doc["ports"] = []
    else:
        doc["poles"] = {}
        doc["ports"] = [{"square": name, "side": Side.NORTH.value, "corner": corner}
                        for name in names for corner in ("sw", "ne")]
    return Position.from_json(doc)


def empty_position() -> Position:
    return Position.from_json({"game": "teleporters", "to_move": Side.SOUTH.value,
                               "poles": {}, "ports": []})


def board_screen(position: Position) -> Screen:
    """The position as a Screen for BoardView (which reads the position and highlights only;
    the quest's lights are drawn by the Quest screen's board)."""
    return Screen(
        position=position, to_move=position.to_move, turn_number=1, markers=(),
        highlights=Highlights(), banner=Banner(), notice="", notice_serial=0, turns=(),
        links=Links(), die=None, die_sides=6, vision=VisionState.CLEAR, can_undo=False,
        winner=None)


@dataclass(frozen=True, slots=True)
class QuestView:
    """Everything the Quest screen shows, as plain values."""

    title: str  # "8 Queens"
    player: str
    screen: Screen  # the board to draw
    lights: Mapping[str, Color]  # lit spaces by name, in their LED colours
    status: str
    status_kind: QuestStatus
    problems: tuple[str, ...]
    found: tuple[int, ...]
    total: int
    note: str = ""  # the session's own trouble (the score not kept), "" for none
    solved: bool = False
    new_class: int | None = None
    pieces: tuple[str, ...] = ()  # the quest's pieces on the mat, by name

    @property
    def counter(self) -> str:
        return counter_text(self.found, self.total)

    @property
    def found_text(self) -> str:
        return found_text(self.found)

    @property
    def progress(self) -> float:
        """Found classes as a fraction of all (0..1), for the progress bar."""
        return len(self.found) / self.total if self.total else 0.0

    @property
    def problems_text(self) -> str:
        return "\n".join(f"• {p}" for p in self.problems)


class QuestScreenModel:
    """Folds a quest session's updates into :class:`QuestView`s. A hand over the mat keeps
    the last board, its lights and its problems (the mat's LEDs keep showing them too)."""

    def __init__(self, quest: Quest | str = Quest.QUEENS, *, player: str = "player",
                 found: Iterable[int] = (), total: int | None = None) -> None:
        self.quest = Quest.parse(quest)
        self.player = player
        self.found = tuple(sorted(found))
        self.total = len(solution_classes(self.quest)) if total is None else total
        self.note = ""
        self.last: QuestUpdate | None = None
        self.position = empty_position()
        self.lights: dict[str, Color] = {}
        self.problems: tuple[str, ...] = ()
        self.view = self._view()

    def apply(self, update: QuestUpdate, position: Position | None = None) -> QuestView:
        """Show one verdict. ``position``: the layout judged, when the caller has it (the
        update does not carry it); else the report's pieces are drawn."""
        self.quest, self.player = update.quest, update.player
        self.found, self.total = tuple(update.found), update.total
        self.last = update
        if update.report is not None:
            self.position = position if position is not None else layout_position(
                update.report)
            self.lights = dict(update.lights)
            self.problems = tuple(update.report.problems)
        elif position is not None:
            self.position = position
        self.view = self._view()
        return self.view

    def say(self, note: str) -> QuestView:
        """The session's own trouble (``QuestSession.problem``), shown under the status."""
        if note != self.note:
            self.note = note
            self.view = self._view()
        return self.view

    def _view(self) -> QuestView:
        kind, status = status_text(self.last)
        if self.last is None:
            status = f"Lay {_plural(self.quest.pieces, self.quest.piece_name)} on the mat"
        report = self.last.report if self.last is not None else None
        pieces = tuple(square_name(s) for s in report.pieces) if report is not None else ()
        return QuestView(
            title=self.quest.title, player=self.player, screen=board_screen(self.position),
            lights=dict(self.lights), status=status, status_kind=kind, problems=self.problems,
            found=self.found, total=self.total, note=self.note,
            solved=self.last is not None and self.last.solved,
            new_class=self.last.new_class if self.last is not None else None, pieces=pieces)


__all__ = ["QuestScreenModel", "QuestStatus", "QuestView", "board_screen", "conflict_text",
           "counter_text", "found_text", "layout_position", "status_text"]
