"""Solitaire Quests with the companion: a layout in, the quest's verdict out.

A player alone lays Poles (or Teleports) on the mat. :class:`QuestSession` judges every still
board the camera reports (or every position it is given) with the game's quest book
(``companion.rules.GAMES.quests()``: Teleporters'), and:

* lights the board: the conflicting pieces red, the spaces strictly between them on their
  shared line amber, a solved layout green; while nothing conflicts, the spaces where another
  Pole could still stand (quests 2-4) dim blue;
* keeps score: a solution whose symmetry class the player has not found before is stored in
  the match store (per player and quest) and announced as new;
* tells its subscribers (the text log, the tablet's Quest screen) with a :class:`QuestUpdate`.

Data flows one way, as in the referee: frames -> vision -> positions -> quest check ->
LEDs / app / store.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TextIO

from companion.matchlog import MatchLogError, MatchStore
from companion.rules import GAMES, TableGame
from firmware_bridge.colors import Color
from vision.gate import GateState
from vision.sources import Frame, FrameSource, SourceEvent, SourceEventKind

if TYPE_CHECKING:
    import numpy as np

    from companion.live.board import BoardLink
    from companion.live.sighting import Vision

log = logging.getLogger(__name__)

CONFLICT = Color.RED
BETWEEN = Color.AMBER
SOLVED = Color.GREEN
FREE = Color.DIM_BLUE


def quest_lights(report: Any, game: TableGame | None = None) -> dict[str, Color]:
    """The board's LEDs for a verdict: ``{"e4": Color.RED, ...}`` (spaces left out are off).
    Solved: every piece green. Otherwise the pieces in conflict red and the spaces between
    each pair amber; with no conflict, quests 2-4 show where another Pole could stand.
    ``game``: whose squares (None: the default table game)."""
    square_name = (game or GAMES.table()).square_name
    if report.solved:
        return {square_name(sq): SOLVED for sq in report.pieces}
    lights: dict[str, Color] = {}
    for c in report.conflicts:
        for sq in c.line.between:
            lights.setdefault(square_name(sq), BETWEEN)
    for c in report.conflicts:
        lights[square_name(c.a)] = CONFLICT
        lights[square_name(c.b)] = CONFLICT
    if not report.conflicts and report.quest.maximal:
        for sq in report.free:
            lights[square_name(sq)] = FREE
    return lights


@dataclass(frozen=True, slots=True)
class QuestUpdate:
    """What the quest screen and the text log show after a board was judged."""

    t: float
    quest: Any  # the game's own quest (``id``, ``title``)
    player: str
    report: Any | None  # the quest book's verdict; None: a hand is over the mat (nothing judged)
    lights: Mapping[str, Color]
    found: tuple[int, ...]  # class numbers this player has found, ascending
    total: int  # classes the quest has
    new_class: int | None = None  # found for the first time by this board

    @property
    def solved(self) -> bool:
        return self.report is not None and self.report.solved

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "quest": self.quest.id, "player": self.player,
                "report": None if self.report is None else self.report.to_json(),
                "lights": {k: v.name.lower() for k, v in self.lights.items()},
                "found": list(self.found), "total": self.total, "new_class": self.new_class}

    def describe(self) -> str:
        if self.report is None:
            return "a hand is over the mat"
        text = self.report.describe()
        if self.report.solved:
            text += (f" New: {len(self.found)} of {self.total} classes found."
                     if self.new_class is not None
                     else f" Found before ({len(self.found)} of {self.total} classes).")
        return text


class QuestSession:
    """One player working on one quest. ``vision`` + ``source`` for the camera (or call
    :meth:`observe` with positions), ``board`` for the LEDs, ``store`` for the score.
    ``game``: whose quests (None: the default game's; a game without them is refused with
    :class:`~companion.rules.MissingCapability`)."""

    def __init__(self, quest: Any, *, player: str = "player",
                 vision: Vision | None = None, source: FrameSource | None = None,
                 board: BoardLink | None = None, store: MatchStore | None = None,
                 game: str | None = None) -> None:
        self.book = GAMES.quests(game)
        self.game = GAMES.table(game)  # the layouts are read off the mat and lit on it
        self.quest = self.book.parse(quest)
        self.player = player.strip() or "player"
        self.total = len(self.book.solution_classes(self.quest))
        self._vision = vision
        self._source = source
        self._board = board
        self._store = store
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[QuestUpdate], None]] = []
        self._stop = threading.Event()
        self._t0 = datetime.now().astimezone()
        self.problem = ""  # why the score is not being kept, if it is not
        self._found: set[int] = set()
        if store is not None:
            try:
                self._found = {f.class_number for f in store.quest_finds(self.player,
                                                                          self.quest.id)}
            except MatchLogError as exc:
                self.problem = f"score not kept: {exc}"
        self.last: QuestUpdate | None = None
        self._lights: dict[str, Color] | None = None

    @property
    def has_source(self) -> bool:
        """Whether :meth:`run` has frames to read (a camera or the simulated table)."""
        return self._source is not None

    @property
    def found(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(sorted(self._found))

    def on_update(self, callback: Callable[[QuestUpdate], None]) -> None:
        with self._lock:
            self._subscribers.append(callback)

    # --- judging -----------------------------------------------------------------------------

    def observe(self, position: Any | Mapping[str, Any] | None, *, t: float
                ) -> QuestUpdate:
        """A still layout (None: a hand over the mat; a mapping: its JSON). Judged, lit,
        scored, told."""
        if isinstance(position, Mapping):
            position = self.game.position_from_json(position)
        with self._lock:
            if position is None:
                update = QuestUpdate(t, self.quest, self.player, None, {}, self.found,
                                     self.total)
                return self._tell(update, lights=None)
            report = self.book.check(self.quest, position)
            new = None
            if report.solved and report.class_number not in self._found:
                assert report.class_number is not None and report.solution_class is not None
                self._found.add(report.class_number)
                new = report.class_number
                self._remember(report, t)
            lights = quest_lights(report, self.game)
            update = QuestUpdate(t, self.quest, self.player, report, lights, self.found,
                                 self.total, new)
            return self._tell(update, lights)

    def process(self, image: np.ndarray, t: float) -> QuestUpdate | None:
        """One camera frame: a verdict when the gate reports a new still layout or a hand."""
        if self._vision is None:
            raise ValueError("this quest session has no vision: give it a profile's detector")
        sighting = self._vision.see(image, t)  # a frame without the mat counts as a hand
        if sighting.state is GateState.OCCLUDED:
            if self.last is not None and self.last.report is None:
                return None  # the hand is still there: said once
            return self.observe(None, t=t)
        if sighting.reported is not None:
            return self.observe(sighting.reported, t=t)
        return None

    def run(self) -> None:
        """Read the source until it ends or :meth:`close` is called."""
        if self._source is None:
            raise ValueError("this quest session has no frame source")
        while not self._stop.is_set():
            item = self._source.read()
            if isinstance(item, Frame):
                self.process(item.image, item.t)
            elif isinstance(item, SourceEvent) and item.kind is SourceEventKind.ENDED:
                return

    def close(self) -> None:
        """Stop :meth:`run` and close the source, the board and the store (once)."""
        with self._lock:
            if self._stop.is_set():
                return
            self._stop.set()
        for thing in (self._source, self._board, self._store):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # closing must get through all of them
                    log.exception("closing %r failed", thing)

    # --- inside ------------------------------------------------------------------------------

    def _remember(self, report: Any, t: float) -> None:
        if self._store is None or self.problem:
            return
        try:
            self._store.record_quest_find(self.player, self.quest.id, report.class_number or 0,
                                          report.solution_class or "",
                                          self._t0 + timedelta(seconds=t))
        except (MatchLogError, OSError) as exc:  # the quest goes on without the score
            self.problem = f"score not kept: {exc}"
            log.warning("%s", self.problem)

    def _tell(self, update: QuestUpdate, lights: dict[str, Color] | None) -> QuestUpdate:
        self.last = update
        if lights is not None and lights != self._lights and self._board is not None:
            self._lights = lights
            try:
                self._board.show(lights)
            except Exception:  # a bad LED picture must not stop the quest
                log.exception("sending the LEDs failed")
        for callback in list(self._subscribers):
            try:
                callback(update)
            except Exception:
                log.exception("a quest subscriber failed")
        return update


class QuestTextLog:
    """``session.on_update(QuestTextLog(out))``: one line per verdict, with the lights."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def __call__(self, update: QuestUpdate) -> None:
        from companion.live.textlog import describe_lights

        head = f"t={update.t:5.1f}s  "
        if update.report is None:
            print(head + "HAND      a hand is over the mat", file=self.out, flush=True)
            return
        label = "SOLVED" if update.solved else "NOT YET"
        lines = update.describe().splitlines()
        print(f"{head}{label:<9} {lines[0]} — {describe_lights(dict(update.lights))}",
              file=self.out, flush=True)
        for line in lines[1:]:
            print(f"{'':18}{line}", file=self.out, flush=True)


__all__ = ["BETWEEN", "CONFLICT", "FREE", "SOLVED", "QuestSession", "QuestTextLog",
           "QuestUpdate", "quest_lights"]
