"""Rule book, "Solitaire Quests" (the last page): the 8 Queens problem (quest 1), its 7-, 6- and
5-Pole variants (quests 2-4), and the 4 Rooks problem.

Layouts are ordinary Teleporters positions: Poles map squares to sides, a Teleport is two Ports
of one colour in opposite corners of a space. Every count the module enumerates is checked
against an independent enumeration written here (Bron-Kerbosch on the "not in line" graph).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.errors import RulesError
from companion.rules.teleporters import Corner, Placement, Position, Side, parse_square
from companion.rules.teleporters.board import square, square_file, square_name, square_rank
from companion.rules.teleporters.quests import (
    ROOK_SECTIONS,
    Line,
    LineKind,
    Quest,
    QuestError,
    check,
    class_index,
    solution_class,
    solution_classes,
    solutions,
    transform,
)
from companion.rules.teleporters.quests import _queen_sets as queen_sets

QUEENS_QUESTS = (Quest.QUEENS, Quest.QUEENS7, Quest.QUEENS6, Quest.QUEENS5)
# A classic 8 Queens solution: files a..h on ranks 1, 5, 8, 6, 3, 7, 2, 4.
CLASSIC = ("a1", "b5", "c8", "d6", "e3", "f7", "g2", "h4")


def sqs(names):
    return frozenset(parse_square(n) for n in names)


def names(squares):
    return sorted(square_name(s) for s in squares)


def poles(squares, side_of=lambda i: Side.SOUTH if i % 2 == 0 else Side.NORTH):
    """Poles on ``squares``, colours alternating (the quests ignore colour)."""
    return Position.from_pieces({s: side_of(i) for i, s in enumerate(sorted(squares))}, [])


def teleports(squares, side=Side.SOUTH):
    return Position.from_pieces({}, [Placement(s, c, side) for s in squares
                                     for c in (Corner.SW, Corner.NE)])


def in_line(a, b):
    fa, ra, fb, rb = a % 8, a // 8, b % 8, b // 8
    return a != b and (fa == fb or ra == rb or abs(fa - fb) == abs(ra - rb))


def maximal_independent_sets():
    """Every set of squares no two in line and with no square out of line with all of them,
    by Bron-Kerbosch with pivoting on the graph "not in line" (its maximal cliques)."""
    full = (1 << 64) - 1
    apart = [sum(1 << b for b in range(64) if b != a and not in_line(a, b)) for a in range(64)]
    found = []

    def bk(chosen, p, x):
        if not p and not x:
            found.append(frozenset(s for s in range(64) if chosen >> s & 1))
            return
        pivot = max((v for v in range(64) if (p | x) >> v & 1),
                    key=lambda v: (p & apart[v]).bit_count())
        cand = p & ~apart[pivot]
        while cand:
            bit = cand & -cand
            cand ^= bit
            v = bit.bit_length() - 1
            bk(chosen | bit, p & apart[v], x & apart[v])
            p &= ~bit
            x |= bit

    bk(0, full, 0)
    return found


INDEPENDENT_MAXIMAL = maximal_independent_sets()


# ----------------------------------------------------------------------------------------------
# The quests themselves


def test_quest_ids_titles_and_piece_counts():
    """"The 8 Queens problem" 1-4 and "The 4 Rooks problem": five quests, by id."""
    assert [(q.id, q.pieces) for q in Quest] == [
        ("queens", 8), ("queens7", 7), ("queens6", 6), ("queens5", 5), ("rooks", 4)]
    assert all(Quest.parse(q.id) is q for q in Quest)
    assert Quest.parse(" Queens7 ") is Quest.QUEENS7
    assert Quest.ROOKS.title == "4 Rooks" and Quest.QUEENS.title == "8 Queens"
    assert [q.maximal for q in Quest] == [False, True, True, True, False]


def test_unknown_quest_is_a_rules_error_naming_the_value():
    with pytest.raises(QuestError, match="'queens4'"):
        Quest.parse("queens4")
    with pytest.raises(RulesError):
        check("knights", Position.empty())
    assert issubclass(QuestError, ValueError)


# ----------------------------------------------------------------------------------------------
# Counts


def test_8_queens_has_92_solutions_in_12_classes():
    """Quest 1 ("no two are in the same row in any direction"): 92 solutions, 12 up to
    rotation and reflection; one class is its own half-turn image (4 members)."""
    assert len(solutions(Quest.QUEENS)) == 92
    classes = solution_classes(Quest.QUEENS)
    assert len(classes) == 12
    assert sorted(c.size for c in classes) == [4] + [8] * 11
    assert [c.number for c in classes] == list(range(1, 13))


@pytest.mark.parametrize(("quest", "count", "classes"), [
    (Quest.QUEENS7, 2456, 307), (Quest.QUEENS6, 6912, 871), (Quest.QUEENS5, 728, 91)])
def test_quests_2_to_4_counts(quest, count, classes):
    """Quests 2-4 ("no space on which an eighth one could be placed without being in the
    same row with another Pole"): the computed counts, and classes partition them."""
    assert len(solutions(quest)) == count
    assert len(solution_classes(quest)) == classes
    assert sum(c.size for c in solution_classes(quest)) == count


def test_enumeration_matches_an_independent_search():
    """Quests 1-4 together are exactly the maximal sets of Poles no two in line, which an
    unrelated algorithm (Bron-Kerbosch) finds too; their sizes are 5 to 8 and nothing else,
    so the rule book's list (8, 7, 6, 5 Poles) is complete: 4 Poles never close the board."""
    by_size = Counter(len(s) for s in INDEPENDENT_MAXIMAL)
    assert by_size == {8: 92, 7: 2456, 6: 6912, 5: 728}
    for quest in QUEENS_QUESTS:
        assert set(solutions(quest)) == {s for s in INDEPENDENT_MAXIMAL if len(s) == quest.pieces}
    assert queen_sets(4) == [] and queen_sets(9) == []


def test_4_rooks_has_24_solutions_per_section_and_7_classes():
    """"On a 4x4 section of the board ... There are 7 solutions": 4! = 24 placements in each
    section, 7 up to the section's rotations and reflections."""
    assert len(ROOK_SECTIONS) == 15
    per_section = Counter()
    for sol in solutions(Quest.ROOKS):
        (section,) = [s for s in ROOK_SECTIONS if sol <= s.squares]
        per_section[section] += 1
    assert set(per_section.values()) == {24} and len(per_section) == 15
    classes = solution_classes(Quest.ROOKS)
    assert len(classes) == 7
    assert sum(c.size for c in classes) == 24
    assert sorted(c.size for c in classes) == [2, 2, 2, 2, 4, 4, 8]


def test_rook_sections_stay_off_the_telepad_rows():
    """Ports "may never enter the Telepad rows": sections lie in ranks 2-7, every file."""
    for section in ROOK_SECTIONS:
        ranks = {square_rank(s) for s in section.squares}
        assert ranks <= set(range(1, 7)) and len(section.squares) == 16
    assert {s.name for s in ROOK_SECTIONS} >= {"a2-d5", "e4-h7", "c3-f6"}


# ----------------------------------------------------------------------------------------------
# Quest 1: 8 Queens


def test_every_8_queens_solution_is_accepted():
    """Quest 1: each of the 92 arrangements is solved and gets its class number."""
    for sol in solutions(Quest.QUEENS):
        report = check(Quest.QUEENS, poles(sol))
        assert report.solved, report.describe()
        assert report.conflicts == () and report.free == () and report.problems == ()
        assert 1 <= report.class_number <= 12 and report.class_count == 12
        assert report.class_number == class_index(Quest.QUEENS, sol)


def test_colours_do_not_matter():
    """"Arrange the 8 Poles (the colors don't matter)": all south, all north, or mixed."""
    sol = sqs(CLASSIC)
    for side_of in (lambda i: Side.SOUTH, lambda i: Side.NORTH, lambda i: Side(("south",
                                                                                "north")[i > 3])):
        assert check(Quest.QUEENS, poles(sol, side_of)).solved


def test_near_miss_names_the_pairs_and_their_lines():
    """"No two are in the same row in any direction": moving h4 to h5 puts it in row 5 with b5
    and on the anti-diagonal e8-h5 with f7."""
    layout = (sqs(CLASSIC) - sqs(["h4"])) | sqs(["h5"])
    report = check(Quest.QUEENS, poles(layout))
    assert not report.solved
    found = {frozenset(names((c.a, c.b))): c.line for c in report.conflicts}
    assert set(found) == {frozenset({"b5", "h5"}), frozenset({"f7", "h5"})}
    row, anti = found[frozenset({"b5", "h5"})], found[frozenset({"f7", "h5"})]
    assert row.kind is LineKind.ROW and row.description == "same row 5"
    assert names(row.between) == ["c5", "d5", "e5", "f5", "g5"]
    assert anti.kind is LineKind.ANTI_DIAGONAL and anti.description == "same anti-diagonal e8-h5"
    assert names(anti.between) == ["g6"]
    assert any("b5 and h5: same row 5 (c5, d5, e5, f5, g5 between)" in p
               for p in report.problems)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(solutions(Quest.QUEENS)), st.integers(0, 7), st.integers(0, 63))
def test_moving_one_pole_of_a_solution_is_rejected(sol, which, target):
    """"No two are in the same row in any direction": a solution with one Pole moved has
    exactly the conflicts of the moved Pole with those it now shares a line with."""
    moved = sorted(sol)[which]
    if target in sol:
        return
    layout = (sol - {moved}) | {target}
    report = check(Quest.QUEENS, poles(layout))
    assert not report.solved
    expected = {frozenset((target, o)) for o in layout - {target} if in_line(target, o)}
    assert expected, "two solutions never share seven Poles"
    assert {frozenset((c.a, c.b)) for c in report.conflicts} == expected
    for c in report.conflicts:
        fa, ra, fb, rb = square_file(c.a), square_rank(c.a), square_file(c.b), square_rank(c.b)
        kind = (LineKind.ROW if ra == rb else LineKind.COLUMN if fa == fb
                else LineKind.DIAGONAL if fb - fa == rb - ra else LineKind.ANTI_DIAGONAL)
        assert c.line.kind is kind
        assert len(c.line.between) == max(abs(fa - fb), abs(ra - rb)) - 1


def test_line_descriptions():
    """The four directions of "the same row in any direction", in plain words."""
    d4 = parse_square("d4")
    cases = {"g4": ("same row 4", ["e4", "f4"]), "d8": ("same column d", ["d5", "d6", "d7"]),
             "f6": ("same diagonal a1-h8", ["e5"]), "a7": ("same anti-diagonal a7-g1", ["c5",
                                                                                      "b6"])}
    for other, (text, between) in cases.items():
        line = Line.of(d4, parse_square(other))
        assert line.description == text and sorted(names(line.between)) == sorted(between)
    assert Line.of(d4, parse_square("e6")) is None and Line.of(d4, d4) is None


def test_too_few_and_too_many_poles():
    """Quest 1 places all 8 Poles: 7 of a solution are "1 Pole missing", a solution checked as
    quest 2 (7 Poles) has "1 Pole too many"."""
    seven = sqs(CLASSIC[:-1])
    short = check(Quest.QUEENS, poles(seven))
    assert (short.solved, short.missing, short.extra) == (False, 1, 0)
    assert short.free == (parse_square("h4"),)  # where the eighth goes: a hint, not a fault
    assert any("1 Pole missing" in p for p in short.problems)
    over = check(Quest.QUEENS7, poles(sqs(CLASSIC)))
    assert (over.solved, over.missing, over.extra) == (False, 0, 1)


# ----------------------------------------------------------------------------------------------
# Quests 2-4: no room for another Pole


def test_known_examples_of_quests_2_to_4_are_accepted():
    """Quests 2-4: a known layout of 5, 6 and 7 Poles each is solved (the 5-Pole one is the
    textbook a1 b3 c5 d2 e4: four knight's-move steps from the corner)."""
    examples = {
        Quest.QUEENS5: ("a1", "b3", "c5", "d2", "e4"),
        Quest.QUEENS6: ("a1", "b6", "d5", "e2", "f4", "h3"),
        Quest.QUEENS7: ("a1", "b5", "c7", "d2", "e6", "f3", "h4"),
    }
    for quest, layout in examples.items():
        report = check(quest, poles(sqs(layout)))
        assert report.solved, report.describe()
        assert report.class_number == class_index(quest, sqs(layout))


def test_every_solution_of_quests_2_to_4_is_accepted():
    for quest in (Quest.QUEENS7, Quest.QUEENS6, Quest.QUEENS5):
        for sol in solutions(quest)[::7]:
            assert check(quest, poles(sol)).solved


def test_independent_but_not_closed_lists_the_free_spaces():
    """Quest 2 ("no space on which an eighth one could be placed"): 7 Poles of an 8 Queens
    solution are in line with no other, but the eighth's space is still free."""
    for sol in solutions(Quest.QUEENS)[::5]:
        for removed in sol:
            report = check(Quest.QUEENS7, poles(sol - {removed}))
            assert not report.solved and report.conflicts == ()
            assert report.free == (removed,)
            assert any(square_name(removed) in p and "could still stand" in p
                       for p in report.problems)


def test_independent_five_with_free_spaces():
    """Quest 4: a1 b3 c5 d2 with g4 instead of e4: none in line, but h7 and e8 stay free."""
    layout = sqs(["a1", "b3", "c5", "d2", "g4"])
    report = check(Quest.QUEENS5, poles(layout))
    assert not report.solved and report.conflicts == ()
    expected = [s for s in range(64) if s not in layout
                and not any(in_line(s, p) for p in layout)]
    assert list(report.free) == expected == [parse_square("h7"), parse_square("e8")]
    assert any("could still stand on h7, e8" in p for p in report.problems)


def test_closed_but_with_a_conflict_is_rejected():
    """Quests 2-4 also forbid two in line: a quest 4 solution plus a sixth Pole closes the board
    (no free space) but the sixth is in line with some Pole."""
    base = solutions(Quest.QUEENS5)[0]
    extra = next(s for s in range(64) if s not in base)
    report = check(Quest.QUEENS6, poles(base | {extra}))
    assert not report.solved and report.free == () and report.missing == report.extra == 0
    assert report.conflicts and all(extra in (c.a, c.b) for c in report.conflicts)


# ----------------------------------------------------------------------------------------------
# Symmetry classes


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(QUEENS_QUESTS), st.data(), st.integers(0, 7))
def test_symmetric_images_share_a_class(quest, data, symmetry):
    """"Can you find them all?" counts solutions up to rotation and reflection: each of the
    board's 8 symmetries maps a solution to a solution of the same class."""
    sol = data.draw(st.sampled_from(solutions(quest)))
    image = frozenset(square(f, r) for f, r in
                      transform(((square_file(s), square_rank(s)) for s in sol), symmetry))
    assert check(quest, poles(image)).solved
    assert class_index(quest, image) == class_index(quest, sol)
    assert solution_class(quest, image) == solution_class(quest, sol)


def test_classes_are_whole_orbits():
    """Members of different classes are never images of each other."""
    for quest in (Quest.QUEENS, Quest.QUEENS5):
        seen = {}
        for sol in solutions(quest):
            cells = [(square_file(s), square_rank(s)) for s in sol]
            orbit = {frozenset(square(f, r) for f, r in transform(cells, i)) for i in range(8)}
            number = class_index(quest, sol)
            assert {class_index(quest, o) for o in orbit} == {number}
            seen.setdefault(number, set()).update(orbit)
        assert sum(len(v) for v in seen.values()) == len(solutions(quest))


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(4)), st.integers(0, 7), st.sampled_from(ROOK_SECTIONS),
       st.sampled_from(ROOK_SECTIONS))
def test_rook_classes_ignore_where_the_section_is(perm, symmetry, here, there):
    """The 4 Rooks' "7 solutions": a placement turned or mirrored within its section, or moved
    to another 4x4 section, is the same solution."""
    cells = [(f, r) for f, r in enumerate(perm)]
    a = frozenset(square(here.file + f, here.rank + r) for f, r in cells)
    b = frozenset(square(there.file + f, there.rank + r) for f, r in transform(cells, symmetry, 4))
    ra, rb = check(Quest.ROOKS, teleports(a)), check(Quest.ROOKS, teleports(b))
    assert ra.solved and rb.solved
    assert ra.section == here and rb.section == there
    assert ra.class_number == rb.class_number == class_index(Quest.ROOKS, b)


def test_class_index_refuses_a_non_solution():
    with pytest.raises(QuestError, match="a1"):
        class_index(Quest.QUEENS, sqs(["a1", "b2"]))
    assert class_index(Quest.QUEENS, list(CLASSIC)) == class_index(Quest.QUEENS, sqs(CLASSIC))


# ----------------------------------------------------------------------------------------------
# Quest 5: 4 Rooks


@pytest.mark.parametrize("layout", [("a2", "b4", "c3", "d5"), ("e4", "f7", "g5", "h6"),
                                    ("c3", "d4", "e5", "f6")])
def test_rooks_in_different_sections_are_accepted(layout):
    """"On a 4x4 section of the board, arrange 4 Teleports so that no two are in the same row,
    horizontally or vertically": any section of ranks 2-7; diagonals do not matter."""
    report = check(Quest.ROOKS, teleports(sqs(layout)))
    assert report.solved, report.describe()
    assert report.section is not None and sqs(layout) <= report.section.squares
    assert "class" in report.describe() and report.class_count == 7


def test_every_rooks_solution_is_accepted_with_mixed_colours():
    for sol in solutions(Quest.ROOKS):
        south, north = sorted(sol)[:2], sorted(sol)[2:]
        layout = Position.from_pieces({}, [
            Placement(s, c, side) for group, side in ((south, Side.SOUTH), (north, Side.NORTH))
            for s in group for c in ((Corner.SW, Corner.NE) if s % 2 else (Corner.NW, Corner.SE))
        ])
        assert check(Quest.ROOKS, layout).solved


def test_rooks_in_the_same_row_or_column_are_rejected():
    report = check(Quest.ROOKS, teleports(sqs(["a2", "b2", "c4", "d5"])))
    assert not report.solved
    (conflict,) = report.conflicts
    assert (names((conflict.a, conflict.b)), conflict.line.description) == (["a2", "b2"],
                                                                          "same row 2")


def test_rooks_outside_one_section_are_rejected():
    """"On a 4x4 section": four Teleports out of line but spread over five files are not."""
    report = check(Quest.ROOKS, teleports(sqs(["a2", "b4", "c3", "e5"])))
    assert not report.solved and report.conflicts == () and report.section is None
    assert any("4x4 section" in p and "files a-e" in p for p in report.problems)


def test_rooks_in_a_telepad_row_are_rejected():
    """Ports "may never enter the Telepad rows" (1 and 8), so no section reaches them."""
    report = check(Quest.ROOKS, teleports(sqs(["a1", "b3", "c2", "d4"])))
    assert not report.solved
    assert any("Telepad rows" in p and "a1" in p for p in report.problems)


# ----------------------------------------------------------------------------------------------
# Wrong pieces: layouts a mat can hold that are not quest layouts


def test_teleports_and_ports_in_a_queens_quest():
    """The 8 Queens quests use Poles only: a Teleport or a loose Port is named, not solved."""
    sol = sqs(CLASSIC)
    layout = Position.from_pieces({s: Side.SOUTH for s in sol}, [
        Placement(parse_square("d4"), Corner.SW, Side.NORTH),
        Placement(parse_square("d4"), Corner.NE, Side.NORTH),
        Placement(parse_square("e5"), Corner.NW, Side.SOUTH),
    ])
    report = check(Quest.QUEENS, layout)
    assert not report.solved and report.conflicts == () and report.missing == 0
    assert any("Teleports are not used" in p and "d4" in p for p in report.problems)
    assert any("Ports are not used" in p and "e5 nw" in p for p in report.problems)


def test_poles_and_loose_ports_in_the_rooks_quest():
    """The 4 Rooks quest uses whole Teleports: Poles are named, and so are Ports not boxed into
    a Teleport (a single Port, or two colours in one space)."""
    good = sqs(["a2", "b4", "c3", "d5"])
    with_poles = Position.from_pieces(
        {parse_square("a2"): Side.SOUTH, parse_square("h8"): Side.NORTH},
        [Placement(s, c, Side.SOUTH) for s in good for c in (Corner.SW, Corner.NE)])
    report = check(Quest.ROOKS, with_poles)
    assert not report.solved and report.pieces == tuple(sorted(good))
    assert any("Poles are not used" in p and "a2, h8" in p for p in report.problems)

    split = Position.from_pieces({}, [
        *(Placement(s, c, Side.SOUTH) for s in sorted(good)[:3] for c in (Corner.SW, Corner.NE)),
        Placement(parse_square("d5"), Corner.SW, Side.NORTH),
        Placement(parse_square("d5"), Corner.NE, Side.SOUTH),
    ])
    report = check(Quest.ROOKS, split)
    assert not report.solved and report.missing == 1 and len(report.pieces) == 3
    assert any("Loose Ports" in p and "north Port at d5 sw" in p for p in report.problems)


def test_empty_mat_is_no_solution():
    for quest in Quest:
        report = check(quest, Position.empty())
        assert not report.solved and report.missing == quest.pieces


def test_a_non_position_is_an_error():
    with pytest.raises(QuestError, match="Position"):
        check(Quest.QUEENS, {"poles": {}})


# ----------------------------------------------------------------------------------------------
# JSON


def test_layout_from_json_and_report_json():
    """A layout comes in as Teleporters position JSON; the report goes out as JSON."""
    doc = {"game": "teleporters", "poles": {n: "south" if i < 4 else "north"
                                            for i, n in enumerate(CLASSIC)}}
    report = check("queens", Position.from_json(json.dumps(doc)))
    out = report.to_json()
    assert json.loads(json.dumps(out)) == out
    assert out["quest"] == "queens" and out["solved"] is True
    assert out["pieces"] == sorted(CLASSIC, key=parse_square)
    assert out["solution_class"] == solution_class(Quest.QUEENS, sqs(CLASSIC))
    assert out["class_count"] == 12 and 1 <= out["class_number"] <= 12
    assert (out["conflicts"], out["free"], out["problems"], out["section"]) == ([], [], [], None)
    assert f"class {out['class_number']} of 12" in report.describe()


def test_failed_report_json():
    layout = (sqs(CLASSIC) - sqs(["h4"])) | sqs(["h5"])
    out = check(Quest.QUEENS, poles(layout)).to_json()
    assert out["solved"] is False and out["solution_class"] is None
    assert out["class_number"] is None
    assert out["conflicts"][0] == {
        "squares": ["b5", "h5"],
        "line": {"kind": "row", "name": "5", "between": ["c5", "d5", "e5", "f5", "g5"],
                 "description": "same row 5"},
        "description": "b5 and h5: same row 5 (c5, d5, e5, f5, g5 between)",
    }
    rooks = check(Quest.ROOKS, teleports(sqs(["c3", "d4", "e5", "f6"]))).to_json()
    assert rooks["section"] == "c3-f6" and rooks["solution_class"] == "a1-b2-c3-d4"


def test_solution_class_json():
    first = solution_classes(Quest.QUEENS)[0].to_json()
    assert set(first) == {"quest", "number", "id", "size", "example"}
    assert first["number"] == 1
    assert first["id"] == "-".join(sorted(first["example"])) == "a1-b5-c8-d6-e3-f7-g2-h4"


def test_pairs_helper_is_exhaustive():
    """Sanity of the test's own helper: 8 Queens solutions have no pair in line."""
    for sol in solutions(Quest.QUEENS):
        assert not any(in_line(a, b) for a, b in itertools.combinations(sol, 2))
