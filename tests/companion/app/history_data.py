"""A real match log for the history screen's tests: recorded with MatchStore the way the
referee records (begin, commit each turn, finish), turns played with the rules core."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.matchlog import MatchId, MatchStore, Result, TurnRecord
from companion.rules.teleporters import Position, TurnState, end_turn, parse_move, play

START = Position.start()
T0 = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)
# Three turns: south walks a Pole, north walks one, south moves a Port.
TURNS: tuple[tuple[str, ...], ...] = (("Pd1-d3",), ("Pd8-d6",), ("Vc3sw-c5",))


def played(start: Position, moves: tuple[str, ...]) -> Position:
    """The position handed over after ``moves`` (checked with the rules core directly)."""
    pos, turn = start, TurnState()
    for text in moves:
        pos, turn = play(pos, parse_move(text), turn)
    return end_turn(pos)


def positions() -> list[Position]:
    """The start, then the position after each turn of TURNS."""
    out = [START]
    for moves in TURNS:
        out.append(played(out[-1], moves))
    return out


def record_matches(path: Path) -> tuple[MatchId, MatchId]:
    """Two matches: an unfinished one-turn match, then the three turns of TURNS, abandoned."""
    with MatchStore(path) as store:
        short = store.begin_match(START, {"south": "Cat", "north": "Dan"},
                                  started_at=T0 - timedelta(days=1))
        store.commit_turn(short, TurnRecord.played(START, [parse_move("Pd1-d3")], 12.0, T0))
        match_id = store.begin_match(START, {"south": "Ann", "north": "Ben"}, started_at=T0)
        pos, clock = START, T0
        for moves in TURNS:
            clock += timedelta(seconds=30)
            record = TurnRecord.played(pos, [parse_move(m) for m in moves], 30.0, clock)
            store.commit_turn(match_id, record)
            pos = record.position
        store.finish_match(match_id, Result.ABANDONED, ended_at=clock + timedelta(seconds=5))
    return short, match_id
