"""Shared builders and checks for the Portal (portal-hex) rule-book tests (no tests of its own;
named test_portal_hex_* only to keep the Portal tests in one file pattern).

Boards are written with cell names: ``board({"3,0": "portal"}, ["4,0>3,0"], {"4,0": "red"})``.
Default variant: radius 4, two players, red START on 4,0 (east corner), blue START on -4,0.

Every legal check goes both ways: the move is among ``legal_moves``, ``play`` makes it and
``explain`` accepts the board it leads to with that move. Every illegal check asserts the move
is not generated, ``play`` refuses it, and (for observed boards) ``explain`` names the clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from companion.rules.errors import MoveError
from companion.rules.portal_hex import (
    Explanation,
    Position,
    Rule,
    Variant,
    cell_name,
    check_move,
    explain,
    legal_moves,
    parse_move,
    play,
)

PawnSpec = str | list[str] | None


def board(cells: Mapping[str, str] | None = None, arrows: Iterable[str] = (),
          pawns: Mapping[str, PawnSpec] | None = None, *, to_move: str = "red",
          reached: Iterable[str] = (), variant: Variant | None = None,
          strict: bool = True) -> Position:
    """A position from cell names; arrows as ``"from>to"``."""
    doc: dict[str, Any] = {
        "game": "portal-hex", "to_move": to_move,
        "variant": (variant or Variant()).to_json(),
        "cells": dict(cells or {}),
        "arrows": [a.replace(" ", "").split(">") for a in arrows],
        "pawns": {k: v for k, v in (pawns or {}).items() if v is not None},
        "reached": list(reached),
    }
    return Position.from_json(doc, strict=strict)


def edit(p: Position, cells: Mapping[str, str] | None = None, arrows: Iterable[str] = (),
         pawns: Mapping[str, PawnSpec] | None = None, remove_arrows: Iterable[str] = (),
         remove_cells: Iterable[str] = ()) -> Position:
    """What a camera might see after the turn: ``p`` with elements, arrows and pawns changed
    by hand (``pawns={"2,0": None}`` empties a cell). No rule is checked (``strict=False``)."""
    doc = p.to_json()
    doc["cells"].update(cells or {})
    for name in remove_cells:
        doc["cells"].pop(name, None)
    gone = [a.replace(" ", "").split(">") for a in remove_arrows]
    doc["arrows"] = [a for a in doc["arrows"] if a not in gone]
    doc["arrows"] += [a.replace(" ", "").split(">") for a in arrows]
    for name, spec in (pawns or {}).items():
        if spec is None:
            doc["pawns"].pop(name, None)
        else:
            doc["pawns"][name] = spec
    return Position.from_json(doc, strict=False)


def moves(p: Position, roll: int | None = None) -> set[str]:
    return {m.notation() for m in legal_moves(p, roll)}


def assert_legal(p: Position, notation: str, roll: int | None = None) -> Position:
    move = parse_move(notation)
    assert move in legal_moves(p, roll), f"{notation} missing from {sorted(moves(p, roll))}"
    assert check_move(p, move, roll) is None
    after = play(p, move, roll)
    ex = explain(p, after, roll)
    assert ex.legal, ex.describe()
    assert move in ex.moves + ex.alternatives, ex.describe()
    return after


def assert_not_legal(p: Position, notation: str, rule: Rule | None = None,
                     roll: int | None = None, cells: Iterable[str] = ()) -> None:
    move = parse_move(notation)
    assert move not in legal_moves(p, roll), f"{notation} should not be legal"
    with pytest.raises(MoveError):
        play(p, move, roll)
    problem = check_move(p, move, roll)
    assert problem is not None
    if rule is not None:
        assert problem.rule is rule, f"expected {rule}, got {problem}"
    missing = set(cells) - {cell_name(c) for c in problem.cells}
    assert not missing, f"should name {sorted(missing)}: {problem}"


def assert_rejected(p: Position, observed: Position, rule: Rule, cells: Iterable[str] = (),
                    roll: int | None = None) -> Explanation:
    ex = explain(p, observed, roll)
    assert not ex.legal, f"expected illegal, got: {ex.describe()}"
    assert ex.reason is not None
    assert ex.reason.rule is rule, f"expected {rule.id}, got: {ex.reason}"
    missing = set(cells) - {cell_name(c) for c in ex.reason.cells}
    assert not missing, f"reason should name {sorted(missing)}: {ex.reason}"
    assert ex.reason.message and ex.to_json()["reason"]["rule"] == rule.id
    return ex


# Red's straight road from its START (4,0) to CENTRUM: portal 3,0, platform 2,0, portal 1,0.
ROAD_CELLS = {"3,0": "portal", "2,0": "platform", "1,0": "portal"}
ROAD_ARROWS = ["4,0>3,0", "3,0>2,0", "2,0>1,0", "1,0>0,0"]


def road(pawns: Mapping[str, PawnSpec] | None = None, **kw: Any) -> Position:
    """Red's road START 4,0 -> portal 3,0 -> platform 2,0 -> portal 1,0 -> CENTRUM."""
    return board(ROAD_CELLS, ROAD_ARROWS, pawns, **kw)
