"""The companion at the table (``companion.live.opponent``, ``guide``, the guide's lights):
"The LEDs light each of its moves in order: the piece to lift, then where it goes", and
"the camera checks that the player carried the move out as shown"; the referee still judges
what it sees. Boards come in through ``Session.observe`` (no camera): fast."""

from __future__ import annotations

import pytest

from companion.ai import choose
from companion.live.board import RecordingBoard
from companion.live.guide import Guide
from companion.live.lights import DEFAULT_SCHEME, guide_lights
from companion.live.opponent import Opponent
from companion.live.session import Session
from companion.referee import TurnCommitted
from companion.rules.teleporters import Position, Side, legal_moves, play
from companion.sim.ai_table import AI_START
from firmware_bridge.colors import Color

START = Position.from_text(AI_START)  # north (the companion) to move


def _table(level: int = 3) -> tuple[Session, RecordingBoard, Opponent, list[str]]:
    board = RecordingBoard()
    session = Session(board=board, start=START)
    said: list[str] = []
    opponent = Opponent(session, side=Side.NORTH, level=level, seed=0, say=said.append)
    session.on_update(opponent)
    session.begin()
    return session, board, opponent, said


def test_the_companion_chooses_from_the_referees_board_and_lights_its_moves_in_order() -> None:
    session, board, opponent, said = _table()
    (choice,) = opponent.choices
    guide = choice.guide
    assert guide.boards[0].same_board(START) and guide.turn_number == 1
    assert guide.moves == choose(START, 3, 1).moves  # the seed's turn for turn 1
    assert len(guide.moves) >= 2
    assert said[0].startswith(f"the companion (north, level 3) plays {guide.notation()} (")
    session.observe(START, t=0.0)
    for k, move in enumerate(guide.moves):
        lit = board.board
        assert lit == guide_lights(move), (k, lit)  # this move only: lift, then where to
        assert Color.YELLOW in lit.values() and Color.CYAN in lit.values()
        session.observe(guide.boards[k + 1], t=k + 1.0)  # the camera sees it made
    # All made: the turn's moves as any tentative ones, waiting for End turn.
    assert set(board.board.values()) <= {DEFAULT_SCHEME.move_from, DEFAULT_SCHEME.move_to}
    session.end_turn()
    assert session.guide is None and board.board == {}
    assert session.state.to_move is Side.SOUTH and len(opponent.choices) == 1


def test_a_board_off_the_chosen_turn_is_lit_red_said_once_and_still_refereed() -> None:
    """The companion's choice is no rule: a different legal move is flagged on the LEDs and
    said, and End turn commits what the camera saw, not what the companion chose."""
    session, board, opponent, said = _table()
    guide = opponent.choices[0].guide
    session.observe(START, t=0.0)
    other = next(m for m in legal_moves(START) if m not in guide.moves
                 and not play(START, m)[0].same_board(guide.boards[1]))
    off, _ = play(START, other)
    session.observe(off, t=1.0)
    assert set(board.board.values()) == {Color.RED}
    changed = {name for name, _ in board.board.items()}
    assert changed == set(guide.off_course(session.state))
    session.observe(off, t=2.0)
    mismatch = [line for line in said if "not the move shown" in line]
    assert len(mismatch) == 1 and guide.notation() in mismatch[0]
    session.observe(START, t=3.0)  # put back: the chosen move is lit again
    assert board.board == guide_lights(guide.moves[0])
    session.observe(off, t=4.0)
    commits: list[TurnCommitted] = []
    session.on_update(lambda u: commits.extend(e for e in u.events
                                               if isinstance(e, TurnCommitted)))
    session.end_turn()
    assert [m.notation() for m in commits[0].moves] == [other.notation()]


def test_the_guide_follows_the_board_not_the_order_of_reports() -> None:
    guide = Guide.plan(START, 1, choose(START, 3, 1).moves)
    session, _, _, _ = _table()
    session.observe(guide.boards[2], t=1.0)  # two moves seen at once
    assert guide.done(session.state) == 2
    assert guide.next_move(session.state) == guide.moves[2]


def test_an_unknown_level_is_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="level 9 is not one of 1, 2, 3, 4, 5"):
        Opponent(Session(start=START), side=Side.NORTH, level=9)
