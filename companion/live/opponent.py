"""The companion as a player at the table: on its side's turns it chooses a whole turn
(``companion.ai``) from the board the referee holds at the turn's start, says it, notes it in
the match log and hands it to the session as a :class:`Guide`, which the LEDs light move by
move. Subscribe it with ``session.on_update(opponent)``.

It is one more consumer of the referee's events: the player carries the moves out, the camera
sees them and the referee judges them like any others; the companion's choice only lights
LEDs, and a board that leaves it is said once and lit red.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.ai import choose
from companion.ai.player import level_settings
from companion.live.api import Update
from companion.live.guide import Guide
from companion.rules import TableGame


class _Table(Protocol):
    """What the companion needs of the session (``companion.live.session.Session``)."""

    @property
    def game(self) -> TableGame: ...

    def set_guide(self, guide: Guide | None) -> None: ...

    def note(self, text: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One turn the companion chose, and the seconds it thought."""

    guide: Guide
    level: int
    seconds: float


class Opponent:
    """The companion playing ``side`` at ``level`` (1-5; an unknown level raises
    ``ValueError`` here, before any game). ``say``: one line for each turn chosen and each
    board that leaves it. The same boards and ``seed`` give the same turns."""

    def __init__(self, table: _Table, *, side: Any, level: int, seed: int = 0,
                 say: Callable[[str], None] | None = None) -> None:
        level_settings(level)
        self.side = side
        self.level = level
        self.seed = seed
        self.choices: list[Choice] = []
        self._table = table
        self._say = say or (lambda _: None)
        self._off_said: tuple[int, tuple[str, ...]] | None = None

    @property
    def name(self) -> str:
        return f"the companion ({self.side.value}, level {self.level})"

    def __call__(self, update: Update) -> None:
        state = update.state
        current = self.choices[-1].guide if self.choices else None
        if state.over or state.to_move is not self.side:
            if current is not None and update.guide is current:
                self._table.set_guide(None)  # its turn is over
            return
        if (current is not None and current.turn_number == state.turn_number
                and current.boards[0].same_board(state.turn_start)):
            off = current.off_course(state)
            if off and not state.illegal and self._off_said != (state.turn_number, off):
                self._off_said = (state.turn_number, off)
                self._say(f"{self.name}: that is not the move shown ({', '.join(off)}); "
                          f"the turn chosen is {current.notation()}")
            return
        # A new turn of ours (or a turn reopened from another board): choose from the board
        # the referee holds, which the camera confirmed, not from the last turn we chose.
        began = time.perf_counter()
        turn = choose(state.turn_start, self.level, self.seed * 1_000_003 + state.turn_number)
        seconds = time.perf_counter() - began
        guide = Guide.plan(state.turn_start, state.turn_number, turn.moves, self._table.game)
        self.choices.append(Choice(guide, self.level, seconds))
        self._table.set_guide(guide)
        self._say(f"{self.name} plays {guide.notation()} ({seconds:.2f} s)")
        self._table.note(f"companion level {self.level} chose {guide.notation()} "
                         f"in {seconds:.2f} s")


__all__ = ["Choice", "Opponent"]
