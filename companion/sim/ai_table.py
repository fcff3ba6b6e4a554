"""``companion demo --ai``: a short game against the companion on the simulated table.

One player sits at the mat, south; the companion plays north. On the companion's turns the
player waits for the LEDs, then carries out each move as lit (the piece to lift, where it
goes) and presses the board's button when they are all made; on its own turns it plays a
level-1 turn (legal moves with a light preference) and presses End turn on the tablet. Every
change goes through the camera, the vision and the referee as in ``companion demo``.

Once (``slip``: the companion's first move), the player slips: it moves the lit piece to
another space, a legal move but not the one shown. The referee accepts the board (it is legal),
the LEDs light the spaces that differ red and the companion says so; the player puts the piece
where the LEDs said, and the next move is lit.

The game starts from a late-game position, so that it is short: from :data:`AI_START` with
the default seed the companion at level 3 wins on its third turn.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from companion.ai import choose
from companion.live.guide import Guide
from companion.live.lights import guide_lights
from companion.live.textlog import describe_lights
from companion.rules.teleporters import (
    Move,
    Position,
    Side,
    TurnState,
    end_turn,
    play,
    successors,
)
from companion.sim.demo import DemoError, DemoTable
from firmware_bridge.colors import Color
from vision.sources import Frame

# North (the companion) to move; both sides near their Goals, north a turn ahead.
AI_START = "2P1P3/2[PSWNE]5/2P[SENW]4/8/5p2/3p4/4[pswne][swne]2/2p5 north"
COMPANION = Side.NORTH
PLAYER_LEVEL = 1  # the simulated player: legal moves with a light preference
DEFAULT_SEED = 0
DEFAULT_TURNS = 10


@dataclass(frozen=True, slots=True)
class Carried:
    """One of the companion's moves as the player carried it out, and the spaces the LED
    board lit for it just before (as the board itself held them)."""

    turn_number: int
    move: str
    lit: dict[str, Color]


def _apart(a: int, b: int) -> int:
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


@dataclass(frozen=True, slots=True)
class Slip:
    """The player's slip: the move it made instead of the one lit, and the spaces the LED
    board then lit red."""

    turn_number: int
    made: str
    shown: str
    red: tuple[str, ...]


class CompanionTable(DemoTable):
    """The simulated table with one player against the companion: a frame source.
    The player reads the companion's chosen turn where the session shows it (``guide``),
    and the LED board's spaces as lit (``leds``). At most ``max_turns`` turns (both
    sides') are played."""

    def __init__(self, *, leds: Callable[[], dict[str, Color]],
                 press_button: Callable[[], None],
                 narrate: Callable[[str], None] | None = None, paced: bool = False,
                 seed: int = DEFAULT_SEED, max_turns: int = DEFAULT_TURNS,
                 start: str = AI_START, slip: bool = True) -> None:
        super().__init__(paced=paced, press_button=press_button, narrate=narrate,
                         script=(), start=start)
        self.seed = seed
        self.max_turns = max_turns
        self.carried: list[Carried] = []  # the companion's moves, in order
        self.played: list[tuple[int, str]] = []  # the player's own turns: number, notation
        self.slips: list[Slip] = []
        self._slip = slip
        self._leds = leds

    def _play(self) -> Iterator[Frame]:
        session = self._need_session()
        board = self.start
        yield from self._hold(board)
        for _ in range(self.max_turns):
            state = session.state
            if state.over:
                break
            number = state.turn_number
            if board.to_move is COMPANION:
                board = yield from self._carry_out(board, number)
                self._narrate("  # all the companion's moves made: the player presses the "
                              "board's button")
                yield from self._end_turn(board, button=True)
            else:
                moves = choose(board, PLAYER_LEVEL, self.seed * 1_000_003 + number).moves
                text = " ".join(m.notation() for m in moves) or "(no move)"
                self.played.append((number, text))
                self._narrate(f"  # the player ({board.to_move.value}) plays {text}, then "
                              "presses End turn on the tablet")
                board, _ = yield from self._make(board, moves)
                yield from self._end_turn(board, button=False)
            board = end_turn(board)
        yield from self._pause(board)

    def _carry_out(self, board: Position, number: int) -> Generator[Frame, None, Position]:
        """The companion's turn, move by move as the LED board lights it: the player reads
        the lit spaces before each move, and stops (DemoError) if they are not that move's."""
        guide = self._need_session().guide
        if guide is None or guide.turn_number != number:
            raise DemoError(f"the companion chose no move for turn {number}")
        turn: TurnState | None = None
        for move in guide.moves:
            want = guide_lights(move)
            lit = self._leds()
            shown = {name: lit.get(name, Color.OFF) for name in want}
            if shown != want:
                raise DemoError(f"turn {number}: the LED board should light {move.notation()} "
                                f"({describe_lights(want)}) but shows {describe_lights(lit)}")
            self.carried.append(Carried(number, move.notation(), shown))
            wrong = self._wrong(board, move, turn, guide) if self._slip else None
            if wrong is None:
                self._narrate(f"  # the LED board shows {describe_lights(shown)}: the player "
                              f"makes {move.notation()}")
                board, turn = yield from self._make(board, (move,), turn)
                continue
            self._slip = False  # once
            self._narrate(f"  # the LED board shows {describe_lights(shown)}, but the player "
                          f"slips: {wrong.notation()}")
            off, _ = yield from self._make(board, (wrong,), turn)
            lit = self._leds()
            red = tuple(name for name, color in lit.items() if color is Color.RED)
            if not red:
                raise DemoError(f"turn {number}: {wrong.notation()} instead of "
                                f"{move.notation()} was not flagged: {describe_lights(lit)}")
            self.slips.append(Slip(number, wrong.notation(), move.notation(), red))
            self._narrate(f"  # the LED board shows {describe_lights(lit)}: the player puts "
                          "the piece where it was lit")
            right, turn = play(board, move, turn)
            yield from self._reach(off, right, wrong.squares()[-1])
            yield from self._hold(right)
            board = right
        return board

    @staticmethod
    def _wrong(board: Position, move: Move, turn: TurnState | None,
               guide: Guide) -> Move | None:
        """A slip for ``move``: the same piece to another space, legal, and on no step of
        the companion's turn, as near the lit space as can be (None: there is none)."""
        lift, *places = move.squares()
        aim = places[0] if places else lift
        near = [other for other, after, _ in successors(board, turn or TurnState())
                if type(other) is type(move) and other.squares()[0] == lift
                and not any(after.same_board(b) for b in guide.boards)]
        return min(near, key=lambda m: _apart(m.squares()[-1], aim), default=None)

    def _make(self, board: Position, moves: tuple[Move, ...], turn: TurnState | None = None
              ) -> Generator[Frame, None, tuple[Position, TurnState | None]]:
        """Make ``moves`` on the mat one by one, holding still after each; the board and
        the turn's markers after them."""
        for move in moves:
            after, turn = play(board, move, turn)
            yield from self._reach(board, after, move.squares()[0])
            yield from self._hold(after)
            board = after
        return board, turn
