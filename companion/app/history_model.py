"""The match history screen's logic (pure Python, no Kivy): the list's rows, and a replay's
current step with its bounds.

``MatchRow.of(summary)`` is one line of the list (ID, date, players, turns, result).
``ReplayModel(match)`` steps through ``match.replay()``: step 0 is the start, step N the
position after turn N. ``screen`` is a :class:`~companion.app.model.Screen` for the app's
:class:`~companion.app.board.BoardView` (the position, and the turn's moves highlighted), so
the board widget is reused as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.model import Banner, Highlights, Screen
from companion.live.api import Links
from companion.matchlog import Match, MatchSummary, ReplayStep, Result
from companion.referee import VisionState
from companion.rules.teleporters import Position, Side, parse_move, square_name

_RESULT_WORDS = {Result.SOUTH: "South won", Result.NORTH: "North won", Result.DRAW: "Draw",
                 Result.ABANDONED: "Abandoned"}


def result_text(result: Result | None) -> str:
    return "Unfinished" if result is None else _RESULT_WORDS[result]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match in the list, as the screen shows it."""

    id: int
    date: str  # local time, minutes: "2026-03-01 14:05"
    players: str
    turns: int
    result: str

    @classmethod
    def of(cls, summary: MatchSummary) -> MatchRow:
        started = summary.started_at.astimezone()
        return cls(int(summary.id), started.strftime("%Y-%m-%d %H:%M"),
                   summary.players_text(), summary.turns, result_text(summary.result))

    @property
    def text(self) -> str:
        turns = f"{self.turns} turn" + ("" if self.turns == 1 else "s")
        return f"#{self.id}   {self.date}   {self.players}   {turns}   {self.result}"


def match_rows(summaries: list[MatchSummary]) -> list[MatchRow]:
    """The list's rows, newest match first."""
    return [MatchRow.of(s) for s in reversed(summaries)]


class ReplayModel:
    """The current step of one match's replay, kept within bounds (0 .. number of turns)."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.steps: tuple[ReplayStep, ...] = tuple(match.replay())
        self.index = 0

    # --- stepping (each returns whether the step changed) -----------------------------------

    def _go(self, index: int) -> bool:
        index = max(0, min(self.last_index, index))
        moved, self.index = index != self.index, index
        return moved

    def first(self) -> bool:
        return self._go(0)

    def back(self) -> bool:
        return self._go(self.index - 1)

    def next(self) -> bool:
        return self._go(self.index + 1)

    def last(self) -> bool:
        return self._go(self.last_index)

    @property
    def last_index(self) -> int:
        return len(self.steps) - 1

    @property
    def at_first(self) -> bool:
        return self.index == 0

    @property
    def at_last(self) -> bool:
        return self.index == self.last_index

    # --- what the current step shows ---------------------------------------------------------

    @property
    def step(self) -> ReplayStep:
        return self.steps[self.index]

    @property
    def position(self) -> Position:
        return self.step.position

    @property
    def side(self) -> Side | None:
        """Who played the current turn (None at the start)."""
        record = self.step.record
        return None if record is None else record.side

    @property
    def moves(self) -> tuple[str, ...]:
        record = self.step.record
        return () if record is None else record.moves

    @property
    def caption(self) -> str:
        """E.g. "Turn 2 of 5 · North: Pd8-d6 Vc6nw-c4", or "Start · South to move"."""
        total = self.last_index
        if self.step.record is None:
            return f"Start of {total} turn{'s' if total != 1 else ''} · " \
                   f"{self.match.start.to_move.value.capitalize()} to move"
        assert self.side is not None
        moves = " ".join(self.moves) or "pass"
        return f"Turn {self.index} of {total} · {self.side.value.capitalize()}: {moves}"

    @property
    def touched(self) -> tuple[str, ...]:
        """The spaces the current turn's moves touched (highlighted like the last turn)."""
        out: list[str] = []
        for text in self.moves:
            out += [n for n in (square_name(s) for s in parse_move(text).squares())
                    if n not in out]
        return tuple(out)

    @property
    def screen(self) -> Screen:
        """The current step as a Screen for BoardView (which reads the position and the
        highlights only)."""
        position = self.position
        winner = position.winner()
        return Screen(
            position=position, to_move=position.to_move, turn_number=self.index + 1,
            markers=(), highlights=Highlights(last_turn=self.touched), banner=Banner(),
            notice="", notice_serial=0, turns=(), links=Links(), die=None, die_sides=6,
            vision=VisionState.CLEAR, can_undo=False, winner=winner)


__all__ = ["MatchRow", "ReplayModel", "match_rows", "result_text"]
