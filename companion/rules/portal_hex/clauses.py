"""The rule-book clauses a move or a change can break, and a broken clause with its cells."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.common import Clause, violation_json
from companion.rules.portal_hex.board import Cell, cell_name


class Rule(Clause):
    """``(id, rule-book heading)``; the headings are the Polish book's own."""

    GAME_OVER = ("game-over", "Cel gry / Zdjęcie pionka z CENTRUM")
    ELEMENTS_NEVER_MOVE = ("elements-never-move", "Budowanie drogi")
    ONE_ACTION = ("one-action-per-turn", "Przebieg rozgrywki")
    ARROWS_WITH_NEW_ELEMENT = ("arrows-only-with-new-element", "Budowanie drogi")
    BUILD_ON_EMPTY = ("build-on-an-empty-cell", "Budowanie drogi")
    ARROW_NEIGHBOURS = ("arrows-join-neighbouring-elements", "Budowanie drogi")
    NO_PORTAL_TO_PORTAL = ("no-portal-to-portal", "Budowanie drogi")
    NO_PLATFORM_TO_PLATFORM = ("no-platform-to-platform", "Budowanie drogi")
    ONE_ARROW_PER_PAIR = ("one-arrow-per-pair", "Budowanie drogi")
    PORTAL_NEEDS_PLATFORM = ("portal-needs-a-platform", "Budowanie drogi")
    PLATFORM_NEEDS_PORTAL = ("platform-needs-a-portal", "Budowanie drogi")
    START_OWNER_ONLY = ("start-owner-only", "Budowanie drogi")
    NOT_A_PORTAL = ("only-portals-fire", "Przemieszczanie pionków")
    PORTAL_NOT_ACTIVE = ("portal-not-active", "Aktywacja portalu")
    POOL_TOO_SMALL = ("pool-too-small", "Zmniejszenie i zwiększenie liczby pionków")
    DEMONS_EXIT_FIRST = ("demons-exit-first", "Demony")
    DEMONS_LEAVE_EXITLESS = ("demons-leave-only-through-exitless-portal", "Demony")
    PAWNS_ON_PLATFORMS = ("pawns-stand-on-platforms", "Przemieszczanie pionków")
    PLATFORM_LIMIT = ("one-pawn-per-platform", "Przemieszczanie pionków")
    THROUGH_PORTALS = ("pawns-move-only-through-portals", "Przemieszczanie pionków")
    PORTAL_RESULT = ("portal-moves-pawns-entrances-to-exits", "Przemieszczanie pionków")
    ONLY_OWN_PAWNS = ("only-your-own-pawns-move", "Aktywacja portalu")
    OWN_START_ONLY = ("own-start-only", "Wprowadzenie pionka na START")
    START_MUST_BE_FREE = ("start-must-be-free", "Wprowadzenie pionka na START")
    CENTRUM_FIRST = ("centrum-first", "Zdjęcie pionka z CENTRUM")
    CENTRUM_OWN_PAWN = ("centrum-own-pawn-only", "Zdjęcie pionka z CENTRUM")
    DEMONS_STAY = ("demons-stay-on-centrum", "Demony")
    MUST_MOVE = ("must-move", "Przebieg rozgrywki")
    ROLL_BUILD = ("roll-says-build", "Gra sterowana rzutem kością")
    ROLL_FIRE = ("roll-says-fire", "Gra sterowana rzutem kością")
    ROLL_START = ("roll-says-start", "Gra sterowana rzutem kością")
    ROLL_CENTRUM = ("roll-says-centrum", "Gra sterowana rzutem kością")
    UNEXPLAINED = ("no-legal-move", "Przebieg rozgrywki")

    @classmethod
    def by_id(cls, rule_id: str) -> Rule:
        for rule in cls:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken clause: the rule, the cells involved, and a plain-words message."""

    rule: Rule
    cells: tuple[Cell, ...]
    message: str

    @property
    def squares(self) -> tuple[Cell, ...]:  # the name the referee uses for every game
        return self.cells

    def to_json(self) -> dict[str, Any]:
        return violation_json(self, "cells", self.cells, cell_name)
