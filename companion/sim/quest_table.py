"""``companion demo --quest``: the 8 Queens quest played alone on the simulated table.

The player clears the mat, then sets down eight Poles one by one. The eighth goes on a space
in line with another Pole by mistake: the quest check flags the pair (their spaces red on the
LED board, the spaces between them amber); the player moves it to the right space and the
layout is solved (all eight green) and counted as a solution class found. Every frame goes
through the real vision and stability gate, as in ``companion demo``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from companion.rules.teleporters import Position, parse_square, square_name
from companion.rules.teleporters.quests import Quest, check, solutions
from companion.sim.clips import expose
from companion.sim.demo import SCENE, DemoError
from vision.simtable import Hand, Scene, SimFrame, render
from vision.sources import Frame, SourceEvent, SourceEventKind

FPS = 10.0
HOLD_S = 1.0  # the layout still after each Pole
MISTAKE_HOLD_S = 2.5
PLAYER = "Demo Player"


def demo_layout() -> tuple[list[str], str]:
    """The eight squares of the first 8 Queens solution in board order, and a square the
    player first puts the eighth Pole on by mistake (in line with exactly one other)."""
    solution = sorted(solutions(Quest.QUEENS)[0])
    names = [square_name(sq) for sq in solution]
    # A slip of one Pole along its rank onto a space in line with exactly one other Pole,
    # with spaces between them (so the amber line shows); that Pole is set down last.
    for k, right in enumerate(solution):
        others = [n for n in names if n != names[k]]
        for file in range(8):
            wrong = (right // 8) * 8 + file
            if wrong in solution:
                continue
            report = check(Quest.QUEENS, _position([*others, square_name(wrong)]))
            if len(report.conflicts) == 1 and report.conflicts[0].line.between:
                return [*others, names[k]], square_name(wrong)
    raise DemoError("no single-conflict mistake found for the demo layout")  # pragma: no cover


def _position(squares: list[str]) -> Position:
    poles = {sq: ("south" if i % 2 == 0 else "north") for i, sq in enumerate(squares)}
    return Position.from_json({"game": "teleporters", "to_move": "south", "poles": poles,
                               "ports": []})


class QuestTable:
    """The simulated table and a player laying out the demo layout: a frame source."""

    name = "simulated table"

    def __init__(self, scene: Scene = SCENE, fps: float = FPS) -> None:
        self.scene = scene
        self.fps = fps
        self.frames = 0
        self._gen: Iterator[Frame] | None = None
        self._cache: tuple[str, SimFrame | None] = ("", None)
        self._closed = False
        self.layout, self.mistake = demo_layout()

    def read(self) -> Frame | SourceEvent:
        if self._gen is None:
            self._gen = self._play()
        t = self.frames / self.fps
        if self._closed:
            return SourceEvent(SourceEventKind.ENDED, "closed", t)
        try:
            return next(self._gen)
        except StopIteration:
            return SourceEvent(SourceEventKind.ENDED, "the quest demo is over", t)

    def close(self) -> None:
        self._closed = True

    def _frame(self, position: Position, hand: Hand | None = None) -> Frame:
        i, t = self.frames, self.frames / self.fps
        seed = self.scene.seed * 1000 + i
        if hand is None:
            key = position.to_text()
            if self._cache[0] != key:
                clean = replace(self.scene.sensor, noise=0.0, jpeg_quality=None)
                self._cache = (key, render(position.to_json(),
                                           self.scene.with_(sensor=clean, seed=seed)))
            truth = self._cache[1]
            assert truth is not None
            image = expose(truth.image, self.scene.sensor.noise,
                           self.scene.sensor.jpeg_quality, seed)
        else:
            image = render(position.to_json(), self.scene.with_(seed=seed), hand).image
        self.frames += 1
        return Frame(image, t, i)

    def _hold(self, position: Position, seconds: float) -> Iterator[Frame]:
        for _ in range(round(seconds * self.fps)):
            yield self._frame(position)

    def _reach(self, before: Position, after: Position, square: str) -> Iterator[Frame]:
        sq = parse_square(square)
        x, y = sq % 8 + 0.5, sq // 8 + 0.5
        for k in (0.4, 0.8, 1.0, 0.95, 0.6, 0.25):
            board = before if k in (0.4, 0.8, 1.0) else after
            yield self._frame(board, Hand(reach=(x, -1.2 + (y + 1.2) * k), from_deg=270.0,
                                          height=1.4))

    def _play(self) -> Iterator[Frame]:
        placed: list[str] = []
        board = _position(placed)
        yield from self._hold(board, 1.5)
        for square in [*self.layout[:-1], self.mistake]:
            after = _position([*placed, square])
            yield from self._reach(board, after, square)
            placed.append(square)
            board = after
            yield from self._hold(board, HOLD_S if square != self.mistake else MISTAKE_HOLD_S)
        fixed = _position([*placed[:-1], self.layout[-1]])
        yield from self._reach(board, fixed, self.mistake)
        yield from self._hold(fixed, 2.0)
