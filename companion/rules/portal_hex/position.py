"""A Portal position: the elements on the cells, the arrows, the pawns, who has reached
CENTRUM, and whose turn it is.

JSON form (docs/rules/portal-hex.md)::

    {"game": "portal-hex", "to_move": "red",
     "variant": {"players": 3, "demons": true},          # only non-default flags
     "cells": {"2,-1": "platform", "1,-1": "portal"},    # CENTRUM and STARTs are implied
     "arrows": [["2,-1", "1,-1"]],                       # [from, to]
     "pawns": {"2,-1": "red", "3,-2": ["red", "red"], "1,0": "demon"},
     "reached": ["blue"]}

Two checks: every Position is something that can stand on the table (cells on the board,
arrows between neighbouring elements, each pair joined once in one direction, one owner per
platform, no more pawns than a player owns). :meth:`Position.from_json` by default also
checks the building rules (``strict``); ``strict=False`` reads what a camera might see on a
board where someone broke a rule, so that ``explain`` can name the rule.

Text form (one line, :meth:`Position.to_text` / :meth:`Position.from_text`; grammar in
docs/rules/portal-hex.md, "Text notation")::

    red players=3 demons | portal 1,-1 < 2,-1 > 1,0; platforms 1,0 2,-1 | 2,-1:red | reached=blue

the side to move and the non-default variant flags; the elements (each portal with its
entrances ``<`` and exits ``>``, the platforms, and ``arrows a>b`` for arrows joining two
portals or two platforms); the pawns; ``reached=`` when not empty. ``-`` is an empty part.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.common import position_object, quoted
from companion.rules.errors import PositionError, VariantError
from companion.rules.portal_hex.board import (
    DEFAULT_VARIANT,
    Cell,
    Colour,
    Geometry,
    Kind,
    Variant,
    cell_name,
    parse_cell,
)

Stack = tuple[Colour, int]  # the owner of the pawns on a platform and how many


@dataclass(frozen=True, slots=True)
class Links:
    """Arrows per cell: ``ins[i]`` cells pointing into cell i, ``outs[i]`` cells it points to.
    For a portal these are its entrances and exits."""

    ins: tuple[tuple[int, ...], ...]
    outs: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Position:
    """Cells are numbered by :class:`Geometry` (``variant.geometry``).

    ``kinds[i]`` the element on cell i (None: empty), ``arrows`` sorted ``(from, to)`` cell
    numbers, ``pawns[i]`` ``(owner, count)`` or None, ``reached`` the colours that have taken
    a pawn off CENTRUM (the first half of winning).
    """

    variant: Variant
    kinds: tuple[Kind | None, ...]
    arrows: tuple[tuple[int, int], ...]
    pawns: tuple[Stack | None, ...]
    to_move: Colour
    reached: frozenset[Colour] = frozenset()
    _links: Links | None = field(default=None, init=False, repr=False, compare=False,
                                 hash=False)

    def __post_init__(self) -> None:
        geo = self.variant.geometry
        n = len(geo.cells)
        if len(self.kinds) != n or len(self.pawns) != n:
            raise PositionError(f"a radius-{geo.radius} board has {n} cells, got "
                                f"{len(self.kinds)} elements and {len(self.pawns)} pawn cells")
        if self.to_move not in self.variant.colours:
            raise PositionError(f"to_move {self.to_move.value!r} is not playing: players are "
                                f"{', '.join(c.value for c in self.variant.colours)}")
        for c in self.reached:
            if c not in self.variant.colours:
                raise PositionError(f"reached: {c.value!r} is not playing")
        starts = {geo.index[self.variant.start_cell(c)] for c in self.variant.colours}
        for i, kind in enumerate(self.kinds):
            fixed = (Kind.CENTRUM if i == geo.centre else Kind.START if i in starts else None)
            if fixed is not None and kind is not fixed:
                raise PositionError(f"cell {geo.name(i)} holds the "
                                    f"{fixed.value.upper()}, not {_what(kind)}")
            if fixed is None and kind in (Kind.CENTRUM, Kind.START):
                raise PositionError(f"cell {geo.name(i)} cannot hold a {kind.value.upper()}: "
                                    "CENTRUM is 0,0 and the STARTs are the corners the "
                                    "variant gives")
        seen: set[tuple[int, int]] = set()
        for a, b in self.arrows:
            if not (0 <= a < n and 0 <= b < n):
                raise PositionError(f"arrow {a}->{b} leaves the board")
            what = f"arrow {geo.name(a)} -> {geo.name(b)}"
            if self.kinds[a] is None or self.kinds[b] is None:
                empty = geo.name(a) if self.kinds[a] is None else geo.name(b)
                raise PositionError(f"{what}: cell {empty} is empty; arrows join elements")
            if b not in geo.neighbours[a]:
                raise PositionError(f"{what}: the cells are not neighbours")
            if (a, b) in seen:
                raise PositionError(f"{what} is listed twice")
            seen.add((a, b))
        totals: dict[Colour, int] = {}
        for i, stack in enumerate(self.pawns):
            if stack is None:
                continue
            owner, count = stack
            if count < 1:
                raise PositionError(f"cell {geo.name(i)}: {count} pawns")
            if owner is Colour.DEMON:
                if not self.variant.demons:
                    raise PositionError(f"a demon on {geo.name(i)}, but the game is played "
                                        "without demons")
            elif owner not in self.variant.colours:
                raise PositionError(f"a {owner.value} pawn on {geo.name(i)}, but "
                                    f"{owner.value} is not playing")
            totals[owner] = totals.get(owner, 0) + count
        for owner, total in totals.items():
            if owner is not Colour.DEMON and total > self.variant.pawns:
                raise PositionError(f"{owner.value} has {total} pawns on the board but owns "
                                    f"only {self.variant.pawns}")

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant = DEFAULT_VARIANT, first: Colour | None = None) -> Position:
        """CENTRUM and the STARTs, no pawns; ``first`` (default the first colour) moves."""
        geo = variant.geometry
        kinds: list[Kind | None] = [None] * len(geo.cells)
        kinds[geo.centre] = Kind.CENTRUM
        for c in variant.colours:
            kinds[geo.index[variant.start_cell(c)]] = Kind.START
        return cls(variant, tuple(kinds), (), (None,) * len(geo.cells),
                   first or variant.colours[0])

    def replace(self, **changes: Any) -> Position:
        return dataclasses.replace(self, **changes)

    # -- queries -------------------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        return self.variant.geometry

    def links(self) -> Links:
        if self._links is None:
            n = len(self.kinds)
            ins: list[list[int]] = [[] for _ in range(n)]
            outs: list[list[int]] = [[] for _ in range(n)]
            for a, b in self.arrows:
                outs[a].append(b)
                ins[b].append(a)
            object.__setattr__(self, "_links", Links(tuple(map(tuple, ins)),
                                                     tuple(map(tuple, outs))))
        return self._links  # type: ignore[return-value]

    def index(self, cell: Cell) -> int:
        try:
            return self.geometry.index[cell]
        except KeyError:
            raise PositionError(f"cell {cell_name(cell)} is off the radius-"
                                f"{self.variant.radius} board") from None

    def kind(self, cell: Cell) -> Kind | None:
        return self.kinds[self.index(cell)]

    def stack(self, cell: Cell) -> Stack | None:
        return self.pawns[self.index(cell)]

    def entrances(self, cell: Cell) -> tuple[Cell, ...]:
        cells = self.geometry.cells
        return tuple(cells[i] for i in self.links().ins[self.index(cell)])

    def exits(self, cell: Cell) -> tuple[Cell, ...]:
        cells = self.geometry.cells
        return tuple(cells[i] for i in self.links().outs[self.index(cell)])

    def start_owner(self, i: int) -> Colour | None:
        if self.kinds[i] is not Kind.START:
            return None
        cell = self.geometry.cells[i]
        return next(c for c in self.variant.colours if self.variant.start_cell(c) == cell)

    def on_board(self, colour: Colour) -> int:
        return sum(s[1] for s in self.pawns if s is not None and s[0] is colour)

    def pool(self, colour: Colour) -> int:
        """Pawns of ``colour`` not on the board (the book's "pula")."""
        return self.variant.pawns - self.on_board(colour)

    def finished(self) -> list[Colour]:
        on = {s[0] for s in self.pawns if s is not None}
        return [c for c in self.variant.colours if c in self.reached and c not in on]

    def winner(self) -> Colour | None:
        """The player who has reached CENTRUM and has no pawn left on the board."""
        done = self.finished()
        return done[0] if done else None

    def board_key(self) -> tuple[Any, ...]:
        """What a camera sees: elements, arrows, pawns (not the turn or ``reached``)."""
        return (self.variant, self.kinds, self.arrows, self.pawns)

    def same_board(self, other: Position) -> bool:
        return self.board_key() == other.board_key()

    # -- JSON ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        geo = self.geometry
        doc: dict[str, Any] = {"game": "portal-hex", "to_move": self.to_move.value}
        if self.variant != DEFAULT_VARIANT:
            doc["variant"] = self.variant.to_json()
        doc["cells"] = {geo.name(i): k.value for i, k in enumerate(self.kinds)
                        if k in (Kind.PLATFORM, Kind.PORTAL)}
        doc["arrows"] = [[geo.name(a), geo.name(b)] for a, b in self.arrows]
        doc["pawns"] = {geo.name(i): (s[0].value if s[1] == 1 else [s[0].value] * s[1])
                        for i, s in enumerate(self.pawns) if s is not None}
        if self.reached:
            doc["reached"] = [c.value for c in self.variant.colours if c in self.reached]
        return doc

    def to_json_text(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def from_json(cls, doc: object, strict: bool = True) -> Position:
        """Read a position; ``strict`` also refuses boards that break a building rule."""
        doc = position_object(doc, "portal-hex", ("variant", "cells", "arrows", "pawns", "reached"))
        try:
            variant = Variant.from_json(doc.get("variant"))
        except (VariantError, TypeError) as exc:
            raise PositionError(f"bad variant {doc.get('variant')!r}: {exc}") from None
        base = cls.start(variant)
        geo = variant.geometry
        radius = variant.radius
        kinds = list(base.kinds)
        raw_cells = _expect(doc, "cells", dict, {})
        for name, value in raw_cells.items():
            i = geo.index[parse_cell(name, radius)]
            kind = _parse_kind(name, value, base, i)
            kinds[i] = kind
        arrows: list[tuple[int, int]] = []
        for pair in _expect(doc, "arrows", list, []):
            if not isinstance(pair, list) or len(pair) != 2:
                raise PositionError(f"an arrow is [from, to], got {pair!r}")
            arrows.append((geo.index[parse_cell(pair[0], radius)],
                           geo.index[parse_cell(pair[1], radius)]))
        if len(set(arrows)) != len(arrows):
            dup = next(a for a in arrows if arrows.count(a) > 1)
            raise PositionError(f"arrow {geo.name(dup[0])} -> {geo.name(dup[1])} is listed "
                                "twice")
        pawns: list[Stack | None] = [None] * len(geo.cells)
        for name, value in _expect(doc, "pawns", dict, {}).items():
            i = geo.index[parse_cell(name, radius)]
            pawns[i] = _parse_stack(name, value)
        reached = _expect(doc, "reached", list, [])
        to_move = Colour.parse(doc.get("to_move", variant.colours[0].value))
        pos = cls(variant, tuple(kinds), tuple(sorted(arrows)), tuple(pawns), to_move,
                  frozenset(Colour.parse(c) for c in reached))
        if strict:
            faults = board_faults(pos)
            if faults:
                raise PositionError(faults[0][2])
        return pos

    # -- text ----------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The one-line text form (docs/rules/portal-hex.md, "Text notation");
        ``from_text(p.to_text(), strict=False) == p`` for every position, and with the default
        ``strict`` for every position a legal game reaches."""
        geo = self.geometry
        head = [self.to_move.value]
        for name, value in self.variant.to_json().items():
            head.append(name if value is True else f"{name}={value}")
        links = self.links()
        items: list[str] = []
        for i, kind in enumerate(self.kinds):
            if kind is not Kind.PORTAL:
                continue
            item = ["portal", geo.name(i)]
            for mark, ends in (("<", links.ins[i]), (">", links.outs[i])):
                platforms = [geo.name(j) for j in sorted(ends)
                             if self.kinds[j] is not Kind.PORTAL]
                if platforms:
                    item += [mark, *platforms]
            items.append(" ".join(item))
        platforms = [geo.name(i) for i, k in enumerate(self.kinds) if k is Kind.PLATFORM]
        if platforms:
            items.append("platforms " + " ".join(platforms))
        odd = [f"{geo.name(a)}>{geo.name(b)}" for a, b in self.arrows
               if (self.kinds[a] is Kind.PORTAL) == (self.kinds[b] is Kind.PORTAL)]
        if odd:
            items.append("arrows " + " ".join(odd))
        pawns = [f"{geo.name(i)}:{','.join([s[0].value] * s[1])}"
                 for i, s in enumerate(self.pawns) if s is not None]
        parts = [" ".join(head), "; ".join(items) or "-", " ".join(pawns) or "-"]
        if self.reached:
            parts.append("reached=" + ",".join(c.value for c in self.variant.colours
                                               if c in self.reached))
        return " | ".join(parts)

    @classmethod
    def from_text(cls, text: str, strict: bool = True) -> Position:
        """Parse :meth:`to_text`'s form. Raises :class:`PositionError` naming the bad part.
        The text becomes a JSON document read by :meth:`from_json` (with ``strict``), so
        everything the JSON form refuses is refused here too, with the same message."""
        if not isinstance(text, str):
            raise PositionError(f"position text must be a string, got {type(text).__name__}")
        parts = [part.strip() for part in text.split("|")]
        if len(parts) not in (3, 4):
            raise PositionError(f"position text {quoted(text)} has {len(parts)} part(s) separated "
                                "by '|': it needs the side to move, the elements, the pawns "
                                "and optionally reached=...")
        doc: dict[str, Any] = {"game": "portal-hex"}
        _read_head(parts[0], doc)
        doc["cells"], doc["arrows"] = _read_elements(parts[1])
        doc["pawns"] = _read_pawns(parts[2])
        if len(parts) == 4:
            key, sep, value = parts[3].partition("=")
            if key.strip() != "reached" or not sep or not value.strip():
                raise PositionError(f"the fourth part {parts[3]!r} should be reached=colour,... "
                                    "(leave it out when nobody has reached CENTRUM)")
            doc["reached"] = [c.strip() for c in value.split(",")]
            if len(set(doc["reached"])) != len(doc["reached"]):
                raise PositionError(f"a colour is given twice in {parts[3]!r}")
        return cls.from_json(doc, strict)

    @classmethod
    def from_cells(cls, variant: Variant, elements: Mapping[Cell, Kind] | None = None,
                   arrows: Iterable[tuple[Cell, Cell]] = (),
                   pawns: Mapping[Cell, Colour | tuple[Colour, int]] | None = None,
                   to_move: Colour | None = None, reached: Iterable[Colour] = (),
                   strict: bool = True) -> Position:
        """A position from cell coordinates (tests and tools)."""
        doc: dict[str, Any] = {"variant": variant.to_json(), "cells": {}, "arrows": [],
                               "pawns": {}, "reached": [c.value for c in reached]}
        for cell, kind in (elements or {}).items():
            doc["cells"][cell_name(cell)] = kind.value
        doc["arrows"] = [[cell_name(a), cell_name(b)] for a, b in arrows]
        for cell, owner in (pawns or {}).items():
            colour, count = owner if isinstance(owner, tuple) else (owner, 1)
            doc["pawns"][cell_name(cell)] = [colour.value] * count
        if to_move is not None:
            doc["to_move"] = to_move.value
        return cls.from_json(doc, strict=strict)

    def __str__(self) -> str:
        return self.to_json_text()


_INT_FLAGS = ("radius", "players", "pawns", "per_platform")
_BOOL_FLAGS = ("demons", "dice")
_NUMBER = re.compile(r"[0-9]+")


def _read_head(head: str, doc: dict[str, Any]) -> None:
    """The side to move and the variant flags (``radius=5``, ``demons``) into ``doc``."""
    words = head.split()
    if not words:
        raise PositionError("the first part of a position text names the side to move, "
                            "e.g. 'red', and is empty")
    doc["to_move"] = words[0]
    variant: dict[str, Any] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if sep and key in _INT_FLAGS:
            if not _NUMBER.fullmatch(value):
                raise PositionError(f"variant flag {word!r}: {key} takes a whole number")
            parsed: Any = int(value)
        elif not sep and key in _BOOL_FLAGS:
            parsed = True
        else:
            raise PositionError(f"unknown variant flag {word!r} after the side to move: flags "
                                "are radius=N, players=N, pawns=N, per_platform=N, demons "
                                "and dice")
        if key in variant:
            raise PositionError(f"variant flag {key!r} is given twice in {head!r}")
        variant[key] = parsed
    if variant:
        doc["variant"] = variant


def _text_cell(name: str, where: str) -> str:
    """A cell of the text, checked for form (the board's radius is checked by from_json)."""
    try:
        return cell_name(parse_cell(name))
    except PositionError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _read_elements(part: str) -> tuple[dict[str, str], list[list[str]]]:
    """``portal C < ins > outs; platforms ...; arrows a>b ...`` -> JSON cells and arrows."""
    cells: dict[str, str] = {}
    arrows: list[list[str]] = []
    if part == "-":
        return cells, arrows

    def put(cell: str, kind: str, item: str) -> None:
        if cell in cells:
            raise PositionError(f"cell {cell} is given twice in the elements ({item!r})")
        cells[cell] = kind

    for item in (i.strip() for i in part.split(";")):
        words = item.replace("<", " < ").replace(">", " > ").split()
        if not words:
            raise PositionError(f"an empty element in {part!r} (elements are separated by "
                                "';'; write '-' for none)")
        if words[0] == "portal":
            if len(words) < 2 or words[1] in ("<", ">"):
                raise PositionError(f"element {item!r} should name the portal's cell: "
                                    "portal q,r < entrances > exits")
            portal = _text_cell(words[1], f"element {item!r}")
            put(portal, "portal", item)
            mark = ""
            marks: set[str] = set()
            for word in words[2:]:
                if word in ("<", ">"):
                    if word in marks:
                        raise PositionError(f"element {item!r} has two '{word}' lists")
                    mark = word
                    marks.add(word)
                elif not mark:
                    raise PositionError(f"element {item!r}: {word!r} comes before '<' "
                                        "(entrances) or '>' (exits)")
                else:
                    other = _text_cell(word, f"element {item!r}")
                    arrows.append([other, portal] if mark == "<" else [portal, other])
        elif words[0] == "platforms":
            if len(words) < 2:
                raise PositionError(f"element {item!r} lists no cells")
            for word in words[1:]:
                put(_text_cell(word, f"element {item!r}"), "platform", item)
        elif words[0] == "arrows":
            rest = words[1:]
            if not rest or len(rest) % 3 or any(rest[k] != ">" for k in range(1, len(rest), 3)):
                raise PositionError(f"element {item!r} should list arrows from>to, such as "
                                    "'arrows 1,-1>2,-1'")
            for k in range(0, len(rest), 3):
                arrows.append([_text_cell(rest[k], f"element {item!r}"),
                               _text_cell(rest[k + 2], f"element {item!r}")])
        else:
            raise PositionError(f"unknown element {item!r}: elements are 'portal q,r < "
                                "entrances > exits', 'platforms q,r ...' and 'arrows a>b ...'")
    return cells, arrows


def _read_pawns(part: str) -> dict[str, list[str]]:
    """``2,-1:red 3,-2:red,red 1,0:demon`` -> the JSON pawns object."""
    pawns: dict[str, list[str]] = {}
    if part == "-":
        return pawns
    for entry in part.split():
        name, sep, owners = entry.partition(":")
        if not sep or not owners:
            raise PositionError(f"pawn entry {entry!r} should look like 2,-1:red or "
                                "3,-2:red,red (cell, colon, the pawns)")
        cell = _text_cell(name, f"pawn entry {entry!r}")
        if cell in pawns:
            raise PositionError(f"cell {cell} is given twice in the pawns")
        items = owners.split(",")
        if "" in items:
            raise PositionError(f"pawn entry {entry!r} has an empty colour")
        pawns[cell] = items
    return pawns


def _what(kind: Kind | None) -> str:
    return "nothing" if kind is None else f"a {kind.value}"


def _expect(doc: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = doc.get(key, default)
    if not isinstance(value, kind):
        raise PositionError(f"{key!r} must be a JSON {'object' if kind is dict else 'list'}, "
                            f"got {value!r}")
    return value


def _parse_kind(name: str, value: object, base: Position, i: int) -> Kind:
    fixed = base.kinds[i]
    if isinstance(value, dict):
        if set(value) != {"start"}:
            raise PositionError(f"cell {name}: {value!r} is not an element; a START is "
                                "written {\"start\": colour}")
        owner = Colour.parse(value["start"])
        if fixed is not Kind.START or base.start_owner(i) is not owner:
            where = (cell_name(base.variant.start_cell(owner))
                     if owner in base.variant.colours else None)
            raise PositionError(f"cell {name}: {owner.value}'s START is "
                                + (f"on {where}" if where else "not in this game"))
        return Kind.START
    try:
        kind = Kind(value)
    except ValueError:
        raise PositionError(f"cell {name}: unknown element {value!r}: elements are "
                            "'platform', 'portal', 'centrum' and {\"start\": colour}") from None
    if kind is Kind.START:
        raise PositionError(f"cell {name}: write a START as {{\"start\": colour}}")
    if (kind is Kind.CENTRUM) != (fixed is Kind.CENTRUM):
        raise PositionError(f"cell {name}: CENTRUM is 0,0" if kind is Kind.CENTRUM
                            else f"cell {name} is the CENTRUM, not a {kind.value}")
    start_of = base.start_owner(i)
    if fixed is Kind.START and start_of is not None:
        raise PositionError(f"cell {name} is {start_of.value}'s START, not a {kind.value}")
    return kind


def _parse_stack(name: str, value: object) -> Stack:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise PositionError(f"cell {name}: an empty pawn list; leave the cell out")
    owners = {Colour.parse(v) for v in items}
    if len(owners) > 1:
        raise PositionError(f"cell {name} holds pawns of different owners "
                            f"({', '.join(sorted(o.value for o in owners))}): pawns of "
                            "different players block each other, they never share a platform")
    return (owners.pop(), len(items))


Fault = tuple[str, tuple[int, ...], str]  # (rule id, cell numbers, message)


def board_faults(pos: Position, only: Iterable[int] | None = None) -> list[Fault]:
    """Building and standing rules a board breaks (a legal game never does); restricted to
    faults touching the cells ``only`` when given. Rule ids match ``explain.Rule``."""
    geo = pos.geometry
    kinds, links = pos.kinds, pos.links()
    cells = range(len(kinds)) if only is None else sorted(set(only))
    out: list[Fault] = []
    for i in cells:
        kind = kinds[i]
        name = geo.name(i)
        pawn = pos.pawns[i]
        if kind is None:
            if pawn is not None:
                out.append(("pawns-stand-on-platforms", (i,),
                            f"a {pawn[0].value} pawn stands on the empty cell {name}: "
                            "pawns stand only on platforms"))
            continue
        for j in links.outs[i]:
            if j in links.ins[i]:
                out.append(("one-arrow-per-pair", (i, j),
                            f"{name} and {geo.name(j)} are joined by arrows both ways: a "
                            "platform is joined to a portal by at most one arrow"))
            if kinds[j] is Kind.PORTAL and kind is Kind.PORTAL:
                out.append(("no-portal-to-portal", (i, j),
                            f"an arrow joins the portals on {name} and {geo.name(j)}: a portal "
                            "is never joined directly to a portal"))
            elif (there := kinds[j]) is not None and there.is_platform and kind.is_platform:
                out.append(("no-platform-to-platform", (i, j),
                            f"an arrow joins the platforms on {name} and {geo.name(j)}: pawns "
                            "go from platform to platform only through a portal"))
        if kind is Kind.PORTAL:
            if not links.ins[i] and not links.outs[i]:
                out.append(("portal-needs-a-platform", (i,),
                            f"the portal on {name} is joined to no platform: a portal is "
                            "joined to 1 to 6 neighbouring platforms"))
            if pawn is not None:
                out.append(("pawns-stand-on-platforms", (i,),
                            f"a {pawn[0].value} pawn stands on the portal {name}: "
                            "pawns stand only on platforms"))
        elif kind is Kind.PLATFORM and not any(kinds[j] is Kind.PORTAL
                                               for j in links.ins[i] + links.outs[i]):
            out.append(("platform-needs-a-portal", (i,),
                        f"the platform on {name} is joined to no portal: every platform but "
                        "START and CENTRUM is joined to at least one portal"))
        stack = pos.pawns[i]
        if stack is not None and kind.is_platform and not pos.variant.limit_allows(
                stack[1] - 1):
            out.append(("one-pawn-per-platform", (i,),
                        f"{stack[1]} {stack[0].value} pawns stand on {name}: at most "
                        f"{pos.variant.per_platform} on a platform"))
    if only is None and len(pos.finished()) > 1:
        done = pos.finished()
        out.append(("game-over", (), f"{' and '.join(c.value for c in done)} have all "
                    "finished, but the game ends when the first player finishes"))
    return out
