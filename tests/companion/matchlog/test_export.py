"""Text (PGN-like) and JSON export and import (issue 6): round trips, and bad files rejected
with the line number and the offending text."""

from __future__ import annotations

import json
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.matchlog import (
    DieRoll,
    DieSource,
    Event,
    IllegalMove,
    Match,
    MatchFormatError,
    MatchStore,
    Resolution,
    Result,
    TurnRecord,
)
from companion.matchlog.export import (
    detect_format,
    export_json,
    export_json_text,
    export_text,
    import_json,
    import_text,
    load_matches,
)
from companion.matchlog.model import RESERVED_TAGS, TAG_NAME
from companion.rules.teleporters import Position, Variant
from tests.companion.matchlog.helpers import EPOCH, random_match, record


def small_match() -> Match:
    start = Position.start()
    t1 = TurnRecord.played(start, ["Pd1-d3", "Vc3sw-c5"], 41.2, EPOCH + timedelta(seconds=41.2))
    t2 = TurnRecord.played(t1.position, ["Pd8-d6"], 30, EPOCH + timedelta(seconds=71.2))
    t3 = TurnRecord.played(t2.position, [], 2.5, EPOCH + timedelta(seconds=80))
    events = (Event(1, EPOCH + timedelta(seconds=3.21), DieRoll(4, DieSource.ELECTRONIC)),
              Event(2, EPOCH + timedelta(seconds=62), IllegalMove(
                  "north Pole d8 to d5: a Pole walks one or two spaces, this is 3",
                  ("d8", "d5"), "walk-one-or-two-spaces", Resolution.PUT_RIGHT)))
    return Match(start, {"south": "Ann", "north": "Ben"}, EPOCH, (t1, t2, t3), events,
                 EPOCH + timedelta(minutes=31), Result.DRAW, {"Event": "club night"})


SAMPLE = """\
[Game "teleporters"]
[South "Ann"]
[North "Ben"]
[Started "2026-05-09T10:00:00.000Z"]
[Ended "2026-05-09T10:31:00.000Z"]
[Result "draw"]
[Event "club night"]

{die 2026-05-09T10:00:03.210Z 4 electronic}
1. Pd1-d3 Vc3sw-c5 {[%emt 0:00:41.200] [%ts 2026-05-09T10:00:41.200Z]}
{illegal 2026-05-09T10:01:02.000Z put-right d8,d5 walk-one-or-two-spaces "north Pole d8 to d5: \
a Pole walks one or two spaces, this is 3"}
2. Pd8-d6 {[%emt 0:00:30.000] [%ts 2026-05-09T10:01:11.200Z]}
3. -- {[%emt 0:00:02.500] [%ts 2026-05-09T10:01:20.000Z]}
draw
"""


def test_text_export_is_tag_pairs_and_numbered_turns_in_rules_notation() -> None:
    assert export_text(small_match()) == SAMPLE
    assert import_text(SAMPLE) == [small_match()]


def test_text_export_writes_variant_and_start_only_when_not_the_default() -> None:
    variant = Variant.from_flags(["send_marker=either", "wrap_rows=quadrants"])
    demo = Position.from_text("2P5/1[nw]1P2P1/[SE]3P2[nw]/1[SE]3[pSW]2/4[SW][sw]1p/2[ne]5/"
                              "2p5/4p3 south").replace(variant=variant)
    match = Match(demo, {}, EPOCH)
    text = export_text(match)
    assert '[Variant "send_marker=either wrap_rows=quadrants"]' in text
    assert f'[Start "{demo.to_text()}"]' in text
    assert import_text(text) == [match]
    plain = export_text(Match(Position.start(variant), {}, EPOCH))
    assert '[Start "' not in plain and "[Variant" in plain


@st.composite
def matches(draw: st.DrawFn) -> Match:
    names = st.text(max_size=12)
    tag_names = st.from_regex(TAG_NAME, fullmatch=True).filter(
        lambda n: len(n) < 12 and n not in RESERVED_TAGS)
    return random_match(
        draw(st.integers(0, 2**32)), draw(st.integers(0, 9)),
        players=draw(st.fixed_dictionaries({}, optional={"south": names, "north": names})),
        tags=draw(st.dictionaries(tag_names, st.text(max_size=20), max_size=3)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_round_trip_store_export_import_gives_the_same_match(match: Match) -> None:
    """store -> export (text and JSON) -> import -> store: the same match, every field."""
    with tempfile.TemporaryDirectory() as tmp:
        a = MatchStore(Path(tmp) / "a.sqlite3")
        b = MatchStore(Path(tmp) / "b.sqlite3")
        stored = a.get_match(record(a, match))
        assert stored == match
        text = export_text(stored)
        (from_text,) = import_text(text)
        assert from_text == stored
        assert export_text(from_text) == text
        ((from_json, snaps),) = import_json(export_json_text(stored))
        assert from_json == stored and snaps == {}
        (b_id,) = b.add_matches([from_text])
        assert b.get_match(b_id) == stored
        a.close()
        b.close()


def test_json_export_round_trips_snapshots(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite3", snapshots=True)
    match = random_match(5, 4, events=False)
    match_id = store.begin_match(match.start, started_at=match.started_at)
    jpegs = {n: b"\xff\xd8\xff" + bytes([n]) * 100 for n in (1, 3)}
    for n, turn in enumerate(match.turns, 1):
        store.commit_turn(match_id, turn, jpegs.get(n))
    doc = export_json(store.get_match(match_id), store.snapshots_of(match_id))
    ((again, snaps),) = import_json(json.dumps(doc))
    assert snaps == jpegs and again == store.get_match(match_id)
    new_id = store.add_match(again, snaps)
    assert store.snapshots_of(new_id) == jpegs


def test_import_reads_several_matches_and_hand_written_turns() -> None:
    hand = ('[Game "teleporters"]\n[Started "2026-05-09T10:00:00Z"]\n[Result "*"]\n\n'
            "1. Pd1-d3\n2. Pd8-d6 Pc8-c7\n*\n")
    both = import_text(SAMPLE + "\n" + hand)
    assert both[0] == small_match()
    assert [t.moves for t in both[1].turns] == [("Pd1-d3",), ("Pd8-d6", "Pc8-c7")]
    assert both[1].turns[1].committed_at == EPOCH and both[1].turns[1].seconds == 0


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_import_rejects_an_illegal_move_with_its_line_and_text() -> None:
    bad = SAMPLE.replace("2. Pd8-d6", "2. Pd8-d5")
    with pytest.raises(MatchFormatError) as info:
        import_text(bad, "club.txt")
    message = str(info.value)
    assert message.startswith(f"club.txt: line {line_of(bad, '2. Pd8-d5')}: turn 2 (north)")
    assert "Pd8-d5 is not legal for north" in message


@pytest.mark.parametrize(("change", "needle", "expected"), [
    (("1. Pd1-d3", "1. Pd1-d3 Qx9"), "1. Pd1-d3", "'Qx9' is not a Teleporters move"),
    (("2. Pd8-d6", "4. Pd8-d6"), "4. Pd8-d6", "turn 4 where turn 2 was expected"),
    (("[%emt 0:00:30.000]", "[%emt half a minute]"), "2. Pd8-d6", "'half a minute'"),
    (("[%emt 0:00:30.000]", "[%clk 1:00:00]"), "2. Pd8-d6", "unknown command [%clk"),
    (("Pd8-d6 {", "Pd8-d6 {good move} {"), "2. Pd8-d6", "good move"),
    (("{die 2026-05-09T10:00:03.210Z 4 electronic}", "{die 2026-05-09T10:00:03.210Z 4 dice}"),
     "{die", "unknown die source 'dice'"),
    (("{die 2026", "{roll 2026"), "{roll", "is not an event"),
    (("put-right d8,d5", "put-right d8,d9"), "{illegal", "'d9' is not a square"),
    (('[Result "draw"]', '[Result "south"]'), "draw",
     "result 'draw' differs from the Result tag 'south'"),
    (('[Result "draw"]', '[Result "won"]'), "[Result", "result 'won'"),
    (('[Started "2026-05-09T10:00:00.000Z"]', '[Started "yesterday"]'), "[Started",
     "'yesterday' is not a UTC time"),
    (('[Game "teleporters"]', '[Game "chess"]'), "[Game", "game 'chess'"),
    (('[South "Ann"]', '[South Ann]'), "[South", "expected a tag pair"),
    (('[South "Ann"]', '[South "Ann\\q"]'), "[South", "bad tag value"),
    (('[North "Ben"]', '[South "Ben"]'), '[South "Ben"]', "tag 'South' given twice"),
    (("3. --", "3. -- Pd1-d2"), "3. --", "unexpected '--'"),
    (("\ndraw\n", "\nPd1-d2\n"), "Pd1-d2", "expected a numbered turn"),
])
def test_import_rejects_a_bad_line_with_its_number_and_text(
        change: tuple[str, str], needle: str, expected: str) -> None:
    bad = SAMPLE.replace(*change)
    assert bad != SAMPLE
    with pytest.raises(MatchFormatError) as info:
        import_text(bad, "m.txt")
    message = str(info.value)
    assert message.startswith(f"m.txt: line {line_of(bad, needle)}: "), message
    assert expected in message


def test_import_rejects_missing_tags_and_missing_result_line() -> None:
    with pytest.raises(MatchFormatError, match=r'line 1: the tag \[Started "..."\] is missing'):
        import_text('[Game "teleporters"]\n[Result "*"]\n\n*\n')
    with pytest.raises(MatchFormatError, match="no result line"):
        import_text(SAMPLE.replace("draw\n", ""))
    with pytest.raises(MatchFormatError, match="no match in it"):
        import_text("\n\n")


def test_import_rejects_turns_after_a_win_and_a_result_the_board_contradicts() -> None:
    won = Position.from_text("2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/8/2[SW]2[SE]2/1[SW]4[SE]1/"
                             "2PPPP2 south").replace(
        poles=tuple(None for _ in range(64)))  # an empty board, then Poles on the Goal
    poles = list(won.poles)
    for sq in won.variant.goal(won.to_move):
        poles[sq] = won.to_move
    for sq in (0, 1, 6, 7):
        poles[sq] = won.to_move.opponent
    won = won.replace(poles=tuple(poles))
    text = (f'[Game "teleporters"]\n[Started "2026-05-09T10:00:00Z"]\n'
            f'[Ended "2026-05-09T10:10:00Z"]\n[Result "north"]\n[Start "{won.to_text()}"]\n\n'
            "1. Pa1-a2\nnorth\n")
    with pytest.raises(MatchFormatError, match="line 8: turn 2: south already won after turn 1"):
        import_text(text.replace("1. Pa1-a2", "1. --\n2. Pa1-a2"))
    with pytest.raises(MatchFormatError, match="result 'north', but south won"):
        import_text(text.replace("1. Pa1-a2", "1. --"))


def test_json_import_checks_what_each_turn_declares() -> None:
    doc = export_json(small_match())
    doc["turns"][1]["position"] = Position.start().to_json()
    with pytest.raises(MatchFormatError, match=r"m.json: \$.turns\[1\].position: "):
        import_json(json.dumps(doc), "m.json")
    doc = export_json(small_match())
    doc["turns"][0]["markers"] = {"pole": 2, "port": 0}
    with pytest.raises(MatchFormatError, match=r"turns\[0\].markers"):
        import_json(doc, "m.json")
    doc = export_json(small_match())
    doc["turns"][0]["moves"] = ["Pd1-d3", "Pd3-d6"]
    with pytest.raises(MatchFormatError, match=r"turns\[0\]: turn 1 \(south\): Pd3-d6"):
        import_json(doc, "m.json")
    with pytest.raises(MatchFormatError, match="line 1: not valid JSON"):
        import_json("{oops", "m.json")
    with pytest.raises(MatchFormatError, match=r"\$.format"):
        import_json({"format": "pgn"}, "m.json")


def test_format_is_detected_from_the_first_characters() -> None:
    assert detect_format(SAMPLE) == "text"
    assert detect_format(export_json_text(small_match())) == "json"
    assert detect_format("[\n {") == "json"
    listed = "[" + export_json_text(small_match()) + "," + export_json_text(small_match()) + "]"
    assert [m for m, _ in load_matches(listed)] == [small_match(), small_match()]


def test_a_match_that_ended_before_it_started_is_refused() -> None:
    """Issue 18: "`matches import` accepts a match that ended before it started": its JSON
    export with the end moved before the start is refused, naming both times."""
    from companion.matchlog.errors import MatchLogError
    from tests.companion.matchlog.helpers import random_match

    doc = export_json(random_match(4, 3))
    doc["started_at"], doc["ended_at"] = "2026-05-01T12:00:00Z", "2026-05-01T11:00:00Z"
    doc["result"] = doc["result"] or "draw"
    with pytest.raises(MatchLogError, match="before it started"):
        import_json(json.dumps(doc))
