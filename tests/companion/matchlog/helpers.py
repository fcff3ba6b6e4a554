"""Random legal matches (via the rules core's random play) and store helpers for the tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.matchlog import (
    Correction,
    DieRoll,
    DieSource,
    Event,
    IllegalMove,
    Match,
    MatchId,
    MatchStore,
    Note,
    Resolution,
    Result,
    TurnRecord,
)
from companion.rules.teleporters import Position, Side, Variant
from companion.rules.teleporters.random_play import random_turn

EPOCH = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
VARIANTS = ((), ("send_marker=either",), ("wrap_rows=quadrants", "carry=always"),
            ("send_marker=port",))


def _event_data(rng: random.Random) -> DieRoll | IllegalMove | Note:
    kind = rng.randrange(3)
    if kind == 0:
        return DieRoll(rng.randint(1, 6), rng.choice(list(DieSource)))
    if kind == 1:
        squares = tuple(rng.choice("abcdefgh") + rng.choice("12345678")
                        for _ in range(rng.randrange(3)))
        return IllegalMove(f"a Pole walks one or two spaces, this is {rng.randint(3, 7)}",
                           squares, rng.choice(["walk-one-or-two-spaces", "", "repel"]),
                           rng.choice([None, *Resolution]))
    return Note(rng.choice(["tea break", "lights dimmed", 'said "check"', "{braces} \\ ok"]))


def _knock(position: Position, rng: random.Random) -> Position:
    """The board with one Pole moved to a random empty space (a knocked piece)."""
    poles = list(position.poles)
    frm = rng.choice([sq for sq, s in enumerate(poles) if s is not None])
    to = rng.choice([sq for sq, s in enumerate(poles) if s is None])
    poles[to], poles[frm] = poles[frm], None
    return position.replace(poles=tuple(poles))


def random_match(seed: int, n_turns: int, *, players: Mapping[str, str] | None = None,
                 tags: Mapping[str, str] | None = None, events: bool = True) -> Match:
    """A legal match of up to ``n_turns`` random turns (passes and short turns included),
    with random events, the odd correction, and a result that fits the board."""
    rng = random.Random(seed)
    variant = Variant.from_flags(rng.choice(VARIANTS))
    start = Position.start(variant, to_move=rng.choice(list(Side)))
    clock = EPOCH + timedelta(milliseconds=rng.randrange(10**9))
    started = clock
    pos = start
    turns: list[TurnRecord] = []
    log: list[Event] = []
    for n in range(1, n_turns + 1):
        if pos.winner() is not None:
            break
        if events and rng.random() < 0.3:
            clock += timedelta(milliseconds=rng.randrange(1, 5000))
            log.append(Event(n, clock, _event_data(rng)))
        if events and rng.random() < 0.06:
            pos = _knock(pos, rng)
            log.append(Event(n, clock, Correction(pos, rng.choice(["", "knocked a Pole"]))))
        moves, _, _ = random_turn(pos, rng, rng.choice([0, 1, 2, 4, 4, 4]))
        seconds = rng.randrange(0, 600_000) / 1000
        clock += timedelta(seconds=seconds)
        record = TurnRecord.played(pos, moves, seconds, clock)
        turns.append(record)
        pos = record.position
    if events and rng.random() < 0.3:
        log.append(Event(len(turns) + 1, clock, _event_data(rng)))
    winner = pos.winner() if turns else None
    result = Result.win(winner) if winner else rng.choice([None, Result.DRAW, Result.ABANDONED])
    ended = clock + timedelta(seconds=5) if result else None
    return Match(start, dict(players if players is not None else {"south": "Ann", "north": "Ben"}),
                 started, tuple(turns), tuple(log), ended, result, dict(tags or {}))


def record(store: MatchStore, match: Match) -> MatchId:
    """Record ``match`` the way the referee does: begin, events and turns as they come, finish."""
    match_id = store.begin_match(match.start, match.players, started_at=match.started_at,
                                 tags=match.tags)
    events = list(match.events)
    for n, turn in enumerate(match.turns, 1):
        while events and events[0].turn == n:
            e = events.pop(0)
            store.record_event(match_id, e.data, at=e.at)
        assert store.commit_turn(match_id, turn) == n
    for e in events:
        store.record_event(match_id, e.data, at=e.at)
    if match.result is not None:
        store.finish_match(match_id, match.result, ended_at=match.ended_at)
    return match_id


def file_state(path: Path) -> tuple[bytes, int]:
    """The bytes and modification time of a file: "left untouched" means both unchanged."""
    return path.read_bytes(), path.stat().st_mtime_ns
