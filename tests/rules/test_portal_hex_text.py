"""Portal (hex) positions as one line of text: round trips over random and rule-breaking
positions, the start positions, and bad input (issue 7: each game's positions have a text
notation). Grammar: docs/rules/portal-hex.md, "Text notation"."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.errors import PositionError
from companion.rules.portal_hex import Colour, Kind, Position, Variant, geometry
from companion.rules.portal_hex.random_play import random_midgame, random_variant

FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
seeds = st.integers(0, 2**32 - 1)

EXAMPLE = ("blue radius=3 players=3 pawns=4 demons per_platform=2 | "
           "portal 1,-1 < 2,-2 2,-1 > 0,0 1,0; platforms 1,0 2,-2 2,-1 | "
           "1,0:demon 2,-2:red 2,-1:blue,blue | reached=red")


def _position(seed: int, plies: int, guided: bool = True) -> Position:
    """A position reached by random play (as in test_portal_hex_properties.py)."""
    rng = random.Random(seed)
    variant = random_variant(rng)
    if variant.radius > 5:  # keep the property tests quick
        variant = Variant(radius=5, players=min(variant.players, 5), pawns=variant.pawns,
                          demons=variant.demons, per_platform=variant.per_platform,
                          dice=variant.dice)
    return random_midgame(rng, plies, Position.start(variant), guided=guided)


def test_start_position_text_for_two_and_six_players() -> None:
    """The start position (CENTRUM and the STARTs only, implied by the variant; no pawns; red
    moves), given literally for 2 and 6 players: empty parts are written '-'."""
    assert Position.start().to_text() == "red | - | -"
    assert Position.from_text("red | - | -") == Position.start()
    six = Variant(players=6)
    assert Position.start(six).to_text() == "red players=6 | - | -"
    assert Position.from_text("red players=6 | - | -") == Position.start(six)
    blue = Position.start(six, Colour.BLUE)
    assert blue.to_text() == "blue players=6 | - | -"
    assert Position.from_text(blue.to_text()) == blue


@FAST
@given(seed=seeds, plies=st.integers(0, 150), guided=st.booleans())
def test_text_round_trips_for_random_midgames(seed: int, plies: int, guided: bool) -> None:
    """Text notation round-trips (issue 7): from_text(to_text(p)) == p, read strictly, for
    positions reached by random play over random variants; one line; every JSON field kept."""
    p = _position(seed, plies, guided)
    text = p.to_text()
    assert "\n" not in text
    back = Position.from_text(text)
    assert back == p
    assert back.to_json() == p.to_json()
    assert back.to_text() == text


@st.composite
def _any_board(draw: st.DrawFn) -> Position:
    """A position a camera could read with strict=False: random elements, arrows between any
    two neighbouring elements (portal-portal, platform-platform, both ways), pawns anywhere."""
    players = draw(st.integers(2, 6))
    variant = Variant(radius=draw(st.integers(2, 3)), players=players,
                      pawns=draw(st.integers(1, 6)), demons=draw(st.booleans()),
                      per_platform=draw(st.sampled_from((0, 1, 2))), dice=draw(st.booleans()))
    base = Position.start(variant)
    geo = geometry(variant.radius)
    kinds = list(base.kinds)
    for i, kind in enumerate(kinds):
        if kind is None:
            kinds[i] = draw(st.sampled_from((None, None, Kind.PLATFORM, Kind.PORTAL)))
    pairs = [(a, b) for a in range(len(kinds)) for b in geo.neighbours[a]
             if kinds[a] is not None and kinds[b] is not None]
    arrows = sorted(draw(st.sets(st.sampled_from(pairs), max_size=12)) if pairs else ())
    owners = [*variant.colours, Colour.DEMON] if variant.demons else list(variant.colours)
    pawns: list[tuple[Colour, int] | None] = [None] * len(kinds)
    for i in draw(st.sets(st.integers(0, len(kinds) - 1), max_size=5)):
        pawns[i] = (draw(st.sampled_from(owners)), draw(st.integers(1, 2)))
    reached = frozenset(draw(st.sets(st.sampled_from(variant.colours))))
    try:
        return Position(variant, tuple(kinds), tuple(arrows), tuple(pawns),
                        draw(st.sampled_from(variant.colours)), reached)
    except PositionError:  # more pawns than a player owns: not a position
        return base


@FAST
@given(_any_board())
def test_text_round_trips_any_readable_board(p: Position) -> None:
    """Text notation round-trips (issue 7) for every position from_json(strict=False) reads:
    rule-breaking arrows (portal-portal, platform-platform, both ways), portals and platforms
    without arrows, pawns on portals and empty cells, stacks, finished players."""
    assert Position.from_json(p.to_json(), strict=False) == p  # a readable position
    assert Position.from_text(p.to_text(), strict=False) == p


def test_portal_to_portal_arrow_round_trips_when_not_strict() -> None:
    """A board breaking "niedozwolone jest połączenie portalu bezpośrednio z portalem" (no
    portal-portal arrow) is written with the odd arrow in its own 'arrows' element; it reads
    back with strict=False, and strictly it is refused with the JSON form's message."""
    p = Position.from_cells(
        Variant(), {(1, 0): Kind.PORTAL, (2, 0): Kind.PORTAL, (3, 0): Kind.PLATFORM},
        [((3, 0), (2, 0)), ((2, 0), (1, 0)), ((1, 0), (0, 0))], strict=False)
    text = p.to_text()
    assert text == ("red | portal 1,0 > 0,0; portal 2,0 < 3,0; platforms 3,0; "
                    "arrows 2,0>1,0 | -")
    assert Position.from_text(text, strict=False) == p
    with pytest.raises(PositionError) as text_error:
        Position.from_text(text)
    with pytest.raises(PositionError) as json_error:
        Position.from_json(p.to_json())
    assert str(text_error.value) == str(json_error.value)
    assert "an arrow joins the portals on 2,0 and 1,0" in str(text_error.value)


def test_other_rule_breaking_boards_round_trip_when_not_strict() -> None:
    """Platform-platform arrows, arrows both ways between a portal and a platform, a lone
    platform, a portal with no arrow and a pawn on it round-trip with strict=False."""
    p = Position.from_cells(
        Variant(per_platform=0),
        {(1, 0): Kind.PLATFORM, (2, 0): Kind.PORTAL, (-1, 0): Kind.PORTAL,
         (0, 2): Kind.PLATFORM},
        [((1, 0), (0, 0)), ((1, 0), (2, 0)), ((2, 0), (1, 0))],
        {(-1, 0): Colour.BLUE, (1, 0): (Colour.RED, 3)}, strict=False)
    text = p.to_text()
    assert text == ("red per_platform=0 | portal -1,0; portal 2,0 < 1,0 > 1,0; "
                    "platforms 0,2 1,0; arrows 1,0>0,0 | -1,0:blue 1,0:red,red,red")
    assert Position.from_text(text, strict=False) == p


def test_every_json_field_is_in_the_text() -> None:
    """Text notation (issue 7) carries what the JSON carries: side to move, every non-default
    variant flag, portals with entrances and exits, platforms, pawns and stacks, demons, and
    the players that have reached CENTRUM."""
    p = Position.from_text(EXAMPLE)
    assert p.to_move is Colour.BLUE
    assert p.variant == Variant(radius=3, players=3, pawns=4, demons=True, per_platform=2)
    assert p.kind((1, -1)) is Kind.PORTAL
    assert sorted(p.entrances((1, -1))) == [(2, -2), (2, -1)]
    assert sorted(p.exits((1, -1))) == [(0, 0), (1, 0)]
    assert [p.kind(c) for c in ((1, 0), (2, -2), (2, -1))] == [Kind.PLATFORM] * 3
    assert p.stack((1, 0)) == (Colour.DEMON, 1)
    assert p.stack((2, -1)) == (Colour.BLUE, 2)
    assert p.stack((2, -2)) == (Colour.RED, 1)
    assert p.reached == {Colour.RED}
    assert p.to_text() == EXAMPLE
    dice = Position.start(Variant(dice=True, players=3), Colour.GREEN)
    assert dice.to_text() == "green players=3 dice | - | -"
    assert Position.from_text(dice.to_text()) == dice


def test_reading_is_lenient_about_order_and_spacing() -> None:
    """Text notation (issue 7): elements and pawns in any order, exits before entrances,
    '<' and '>' with or without spaces, spaces around '|', 'black' for a demon."""
    loose = ("blue  radius=3 per_platform=2 pawns=4 demons players=3|platforms 2,-1 2,-2 1,0;"
             "portal 1,-1 >1,0 0,0 <2,-1 2,-2| 2,-2:red 2,-1:blue,blue 1,0:black|reached=red")
    assert Position.from_text(loose) == Position.from_text(EXAMPLE)
    arrows = "red | portal 1,0; portal 2,0; arrows 2,0 > 1,0 | -"
    assert Position.from_text(arrows, strict=False).arrows == Position.from_text(
        "red | portal 1,0; portal 2,0; arrows 2,0>1,0 | -", strict=False).arrows


@pytest.mark.parametrize(("text", "words"), [
    ("red | -", "has 2 part(s)"),
    ("red | - | - | reached=blue | -", "has 5 part(s)"),
    (" | - | -", "names the side to move"),
    ("purple | - | -", "unknown colour 'purple'"),
    ("green | - | -", "to_move 'green' is not playing"),
    ("red radius=x | - | -", "variant flag 'radius=x': radius takes a whole number"),
    ("red radius=9 | - | -", "radius must be a whole number 2..8, got 9"),
    ("red size=5 | - | -", "unknown variant flag 'size=5'"),
    ("red demons=true | - | -", "unknown variant flag 'demons=true'"),
    ("red players=3 players=4 | - | -", "'players' is given twice"),
    ("red | tower 1,0 | -", "unknown element 'tower 1,0'"),
    ("red | portal | -", "should name the portal's cell"),
    ("red | portal 1,0 0,0 | -", "'0,0' comes before '<'"),
    ("red | portal 1,0 > 0,0 > 2,0 | -", "has two '>' lists"),
    ("red | portal 1;0 | -", "element 'portal 1': unknown cell '1'"),
    ("red | portal 1,x > 0,0 | -", "element 'portal 1,x > 0,0': unknown cell '1,x'"),
    ("red | portal 1,0 > 0,0;; platforms 2,0 | -", "an empty element"),
    ("red | platforms | -", "lists no cells"),
    ("red | arrows 1,0 | -", "should list arrows from>to"),
    ("red | portal 1,0 > 0,0; platforms 1,0 | -", "cell 1,0 is given twice in the elements"),
    ("red | portal 5,0 > 4,0 | -", "cell 5,0 is off the board"),
    ("red | portal 1,0 > 2,0 | -", "cell 2,0 is empty; arrows join elements"),
    ("red | portal 2,0 > 0,0 | -", "the cells are not neighbours"),
    ("red | portal 1,0 > 0,0; arrows 1,0>0,0 | -", "arrow 1,0 -> 0,0 is listed twice"),
    ("red | platforms 0,0 | -", "cell 0,0 is the CENTRUM, not a platform"),
    ("red | portal 4,0 | -", "cell 4,0 is red's START, not a portal"),
    ("red | platforms 1,0 | -", "the platform on 1,0 is joined to no portal"),
    ("red | portal 1,0 | -", "the portal on 1,0 is joined to no platform"),
    ("red | - | 4,0", "pawn entry '4,0' should look like 2,-1:red"),
    ("red | - | 4,0:", "pawn entry '4,0:' should look like 2,-1:red"),
    ("red | - | 4,0:red,", "pawn entry '4,0:red,' has an empty colour"),
    ("red | - | 4,0:red 4,0:red", "cell 4,0 is given twice in the pawns"),
    ("red | - | x:red", "pawn entry 'x:red': unknown cell 'x'"),
    ("red | - | 4,0:pink", "unknown colour 'pink'"),
    ("red | - | 4,0:green", "a green pawn on 4,0, but green is not playing"),
    ("red | - | 4,0:demon", "a demon on 4,0, but the game is played without demons"),
    ("red per_platform=2 | - | 4,0:red,blue", "holds pawns of different owners"),
    ("red | - | 4,0:red,red", "2 red pawns stand on 4,0: at most 1"),
    ("red pawns=1 | - | 4,0:red -4,0:red", "red has 2 pawns on the board but owns only 1"),
    ("red | - | 1,0:red", "a red pawn stands on the empty cell 1,0"),
    ("red | - | - | blue", "the fourth part 'blue' should be reached=colour"),
    ("red | - | - | reached=", "should be reached=colour"),
    ("red | - | - | reached=blue,blue", "a colour is given twice in 'reached=blue,blue'"),
    ("red | - | - | reached=green", "reached: 'green' is not playing"),
    ("red | - | - | reached=red,blue", "red and blue have all finished"),
])
def test_bad_text_is_a_clear_error(text: str, words: str) -> None:
    """Bad text notation (issue 7) raises PositionError naming the bad part; what the JSON
    form refuses is refused with the JSON form's message (the text is read by from_json)."""
    with pytest.raises(PositionError) as error:
        Position.from_text(text)
    assert words in str(error.value), str(error.value)


def test_text_that_is_not_a_string_is_refused() -> None:
    """Text notation (issue 7): only a string is a position text."""
    with pytest.raises(PositionError, match="must be a string"):
        Position.from_text(None)  # type: ignore[arg-type]
