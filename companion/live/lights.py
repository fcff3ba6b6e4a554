"""What the mat's LEDs show for a referee state: pure, so the app only has to send it.

``lights_for(state)`` is exactly what ``firmware_bridge.Bridge.show`` takes (space name ->
``Color``; spaces left out are off), and ``status_for(state)`` gives the status LEDs by the
names of ``firmware_bridge.layout.DEFAULT_STATUS``, for ``Bridge.set_status``. A later app:

    frame_for(referee.state).send(bridge)

Board: the spaces of the tentative moves (from: dim green, to and side effects: green); an
illegal change's spaces red until the board is legal again; the spaces to restore amber once
'show me what to restore' was asked; spaces vision is unsure of blue; after a win the winner's
Goal Telepads green. On a turn the companion chose (a :class:`Guide`), the move it asks the
player to make next: the piece to lift yellow, where it goes (and what it moves along) cyan;
once all are made, its moves as any tentative ones; a board off the chosen turn red on the
spaces that differ. Status: the side to move (``turn_1`` south, ``turn_2`` north), vision
(green clear, amber hand over the mat, blue unsure, red the board disagrees with the rules,
off nothing seen yet), and the markers left (``marker_1``/``marker_2`` the round Pole markers,
``marker_3``/``marker_4`` the angled Port markers: lit while unused).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion.live.guide import Guide, lift_and_place
from companion.referee import RefereeState, VisionState
from companion.rules import GAMES, TableGame
from firmware_bridge.colors import Color


def side_leds(game: TableGame) -> dict[Any, str]:
    """Each side's status LED, in the game's order of sides: ``turn_1``, ``turn_2``, ..."""
    return {side: f"turn_{k}" for k, side in enumerate(game.sides, 1)}


SIDE_LEDS: Mapping[Any, str] = side_leds(GAMES.table())  # the default game's (south, north)
VISION_LED = "vision"
POLE_MARKER_LEDS = ("marker_1", "marker_2")
PORT_MARKER_LEDS = ("marker_3", "marker_4")


@dataclass(frozen=True, slots=True)
class Scheme:
    """Which colour means what; the defaults suit WS2812s under a printed mat."""

    move_from: Color = Color.DIM_GREEN
    move_to: Color = Color.GREEN
    illegal: Color = Color.RED
    restore: Color = Color.AMBER
    uncertain: Color = Color.BLUE
    win: Color = Color.GREEN
    to_move: Color = Color.WHITE
    # the side to move's LED while turns wait for the match log (it cannot be written)
    unrecorded: Color = Color.MAGENTA
    marker_left: Color = Color.GREEN
    vision_clear: Color = Color.GREEN
    vision_occluded: Color = Color.AMBER
    vision_uncertain: Color = Color.BLUE
    vision_disagrees: Color = Color.RED
    # the companion's move to make: apart from the green of the moves made
    guide_lift: Color = Color.YELLOW
    guide_place: Color = Color.CYAN


DEFAULT_SCHEME = Scheme()


class _Lights(Protocol):
    """The part of ``firmware_bridge.Bridge`` a frame needs (a fake in tests)."""

    def show(self, board_colors: Mapping[str, Color]) -> None: ...

    def set_status(self, name: str, color: Color) -> None: ...


@dataclass(frozen=True, slots=True)
class LightFrame:
    board: dict[str, Color]  # Bridge.show: the listed spaces, every other one off
    status: dict[str, Color]  # Bridge.set_status, one call per LED

    def send(self, bridge: _Lights) -> None:
        bridge.show(self.board)
        for name, color in self.status.items():
            bridge.set_status(name, color)


def lights_for(state: RefereeState, scheme: Scheme = DEFAULT_SCHEME,
               guide: Guide | None = None, game: TableGame | None = None) -> dict[str, Color]:
    """The board's space LEDs for ``state`` (the input of ``Bridge.show``); ``guide``: the
    companion's chosen turn, lit where it applies to the turn in play; ``game``: None for
    the default table game."""
    game = game or GAMES.table()
    square_name = game.square_name
    board: dict[str, Color] = {}
    if state.over:  # the winner's Goal Telepads (a resignation too); a draw lights nothing
        if state.winner is not None:
            for sq in game.goal_squares(state.expected, state.winner):
                board[square_name(sq)] = scheme.win
        return board
    verdict = state.verdict
    if verdict is not None and not verdict.legal:
        for sq in verdict.squares:
            board[square_name(sq)] = scheme.illegal
        for fix in state.restore:  # the fix-list says more than the red of the clause
            board[fix.square] = scheme.restore
    elif guide is not None and guide.applies(state) and guide.done(state) is None:
        for name in guide.off_course(state):
            board[name] = scheme.illegal
    elif (guide is not None and guide.applies(state)
          and (move := guide.next_move(state)) is not None):
        board.update(guide_lights(move, scheme, game))
    else:
        for move in state.tentative:
            frm, *rest = game.move_squares(move)
            board.setdefault(square_name(frm), scheme.move_from)
            for sq in rest:  # a later move's origin may be an earlier one's landing
                board[square_name(sq)] = scheme.move_to
    if state.vision is VisionState.UNCERTAIN:
        for name in state.uncertain:
            board[name] = scheme.uncertain
    return board


def guide_lights(move: Any, scheme: Scheme = DEFAULT_SCHEME,
                 game: TableGame | None = None) -> dict[str, Color]:
    """The spaces lit for the companion's next move: the piece to lift, where it goes."""
    lift, places = lift_and_place(move, game)
    board = {lift: scheme.guide_lift}
    for name in places:  # a spin lifts and places on one space
        board[name] = scheme.guide_place
    return board


def status_for(state: RefereeState, scheme: Scheme = DEFAULT_SCHEME,
               unrecorded: bool = False, game: TableGame | None = None) -> dict[str, Color]:
    """The status LEDs: side to move (or the winner), vision, markers left. ``unrecorded``:
    turns wait for a match log that cannot be written, shown on the side to move's LED."""
    turn_leds = SIDE_LEDS if game is None else side_leds(game)
    status: dict[str, Color] = {}
    lit_side = state.winner if state.winner is not None else state.to_move
    lit = (scheme.win if state.over
           else scheme.unrecorded if unrecorded else scheme.to_move)
    for side, name in turn_leds.items():
        # a draw: both sides' LEDs, as neither won
        drawn = state.over and state.winner is None
        status[name] = lit if side is lit_side or drawn else Color.OFF
    status[VISION_LED] = {
        VisionState.NONE: Color.OFF,
        VisionState.OCCLUDED: scheme.vision_occluded,
        VisionState.UNCERTAIN: scheme.vision_uncertain,
        VisionState.CLEAR: scheme.vision_disagrees if state.illegal else scheme.vision_clear,
    }[state.vision]
    over = state.over
    for leds, left in ((POLE_MARKER_LEDS, state.pole_markers_left),
                       (PORT_MARKER_LEDS, state.port_markers_left)):
        for i, name in enumerate(leds):
            status[name] = scheme.marker_left if i < left and not over else Color.OFF
    return status


def frame_for(state: RefereeState, scheme: Scheme = DEFAULT_SCHEME,
              unrecorded: bool = False, guide: Guide | None = None,
              game: TableGame | None = None) -> LightFrame:
    return LightFrame(lights_for(state, scheme, guide, game),
                      status_for(state, scheme, unrecorded, game))


__all__ = ["DEFAULT_SCHEME", "POLE_MARKER_LEDS", "PORT_MARKER_LEDS", "SIDE_LEDS", "VISION_LED",
           "LightFrame", "Scheme", "frame_for", "guide_lights", "lights_for", "side_leds",
           "status_for"]
