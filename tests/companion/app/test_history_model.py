"""The match history screen's logic without a window (issue 6): the list's rows, and a
replay's current step stepped through a real recorded match, within its bounds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.history_model import MatchRow, ReplayModel, match_rows, result_text
from companion.matchlog import MatchStore, Result
from companion.rules.teleporters import Side
from tests.companion.app.history_data import START, TURNS, positions, record_matches


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    path = tmp_path / "matches.db"
    record_matches(path)
    with MatchStore(path, create=False) as opened:
        yield opened


def test_rows_list_id_date_players_turns_and_result_newest_first(store: MatchStore) -> None:
    rows = match_rows(store.list_matches())
    assert [r.id for r in rows] == [2, 1]
    newest = rows[0]
    assert (newest.players, newest.turns, newest.result) == (
        "Ann (south) v Ben (north)", 3, "Abandoned")
    assert len(newest.date) == len("2026-03-01 14:05") and newest.date.startswith("2026-03-0")
    assert rows[1].result == "Unfinished" and rows[1].turns == 1
    assert newest.text.startswith("#2   ") and "3 turns" in newest.text
    assert "1 turn " in rows[1].text


def test_result_words() -> None:
    assert result_text(None) == "Unfinished"
    assert result_text(Result.SOUTH) == "South won"
    assert result_text(Result.DRAW) == "Draw"


def test_replay_steps_through_every_turn_and_stays_in_bounds(store: MatchStore) -> None:
    replay = ReplayModel(store.get_match(2))
    want = positions()
    assert replay.index == 0 and replay.at_first and replay.position == START
    assert replay.side is None and replay.moves == ()
    assert replay.caption == "Start of 3 turns · South to move"
    assert not replay.back() and not replay.first()  # already at the start
    assert replay.next() and replay.next()
    assert replay.index == 2 and replay.position == want[2]
    assert replay.side is Side.NORTH and replay.moves == TURNS[1]
    assert replay.caption == "Turn 2 of 3 · North: Pd8-d6"
    assert replay.back() and replay.position == want[1] and replay.side is Side.SOUTH
    assert replay.last() and replay.at_last and replay.position == want[3]
    assert replay.position == store.get_match(2).final_position
    assert not replay.next() and replay.index == 3  # past the end: stays
    assert replay.first() and replay.position == START


def test_replay_screen_draws_the_step_with_the_turns_spaces(store: MatchStore) -> None:
    replay = ReplayModel(store.get_match(2))
    replay.next()
    screen = replay.screen
    assert screen.position == positions()[1]
    assert screen.highlights.last_turn == ("d1", "d3")
    assert screen.banner.shown is False and screen.winner is None
    replay.first()
    assert replay.screen.highlights.last_turn == ()


def test_a_match_without_turns_has_one_step(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.db") as store:
        match_id = store.begin_match(START, {"south": "Ann"})
        replay = ReplayModel(store.get_match(match_id))
    assert replay.at_first and replay.at_last and not replay.next()
    assert replay.caption == "Start of 0 turns · South to move"
    assert MatchRow.of(store_summary := replay.match.summary()).turns == 0
    assert store_summary.players_text() == "Ann (south) v ? (north)"
