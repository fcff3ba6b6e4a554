"""The one interface every game's rules core offers, and the registry that finds them.

Code above the rules cores (the command line, the referee, the match log, the app) reaches a
game only through :class:`Game`: a fifth game is a new folder with a ``game.py`` that
implements it, and one line in :data:`companion.rules.GAMES`. The model is python-chess's
``find_variant``: one object per game, parse/print pairs that round-trip, and a
``ValueError`` subclass naming the offending value for every bad input.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from companion.rules.common import quoted
from companion.rules.errors import PositionError, RulesError, VariantError


class MissingCapability(RulesError):
    """A game asked for what it cannot do yet (be read by the camera, set quests): the
    message names the game (``game``, its id) and says which games can (``reason``)."""

    def __init__(self, game: str, reason: str) -> None:
        super().__init__(f"{game}: {reason}")
        self.game = game
        self.reason = reason


class Die(enum.Enum):
    """The die a game needs at the table."""

    NONE = "none"
    D4 = "d4"  # Portals: a tetrahedral die, 1-4
    PIECEPACK = "piecepack d6"  # Telic: faces n, a, 2-5
    D8 = "d8"  # Portal (hex): the K8 die, 1-8, in the dice variant


@runtime_checkable
class Explained(Protocol):
    """What ``explain`` returns in every game."""

    @property
    def legal(self) -> bool: ...

    def describe(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class Game(Protocol):
    """One game's rules core. Positions, moves and rolls are the game's own values; every
    method raises a :class:`~companion.rules.errors.RulesError` (a ``ValueError``) naming
    the offending value on bad input."""

    @property
    def id(self) -> str: ...  # as on the command line: "teleporters", "portal-hex"

    @property
    def name(self) -> str: ...  # in words: "Teleporters", "Portal (hex board)"

    @property
    def die(self) -> Die: ...

    @property
    def flags(self) -> tuple[str, ...]: ...  # the variant flags it knows

    def start(self, flags: Sequence[str] = (), first: str | None = None) -> Any:
        """The start position under variant ``flags`` (``KEY=VALUE``), ``first`` to move
        (a side or colour; None: the rule book's)."""
        ...

    def read_position(self, text: str, observed: bool = False) -> Any:
        """A position from JSON (strict: duplicate keys and unknown fields are refused) or
        from the game's text notation, told apart by the first character. ``observed``:
        what the camera saw, which may break a rule that ``explain`` then names."""
        ...

    def with_flags(self, position: Any, flags: Sequence[str]) -> Any:
        """``position`` with variant ``flags`` (``KEY=VALUE``) set on top of its own."""
        ...

    def position_json(self, position: Any) -> dict[str, Any]: ...

    def position_text(self, position: Any) -> str: ...

    def parse_move(self, text: str) -> Any: ...

    def notation(self, move: Any) -> str: ...

    def legal_moves(self, position: Any, roll: Any = None) -> list[Any]: ...

    def explain(self, start: Any, observed: Any, roll: Any = None) -> Explained:
        """How ``observed`` follows from ``start`` in one turn (with ``roll``, where the
        game has a die and it is known)."""
        ...

    def winner(self, position: Any) -> Any | None: ...

    def parse_roll(self, text: str) -> Any:
        """A die roll as typed (``--roll``); a game without a die refuses any."""
        ...


@runtime_checkable
class TableGame(Game, Protocol):
    """A game played at the table with the camera, the LEDs and the live referee: what the
    live pipeline (``companion.live``) needs besides :class:`Game`. Only games vision can
    read provide it (today Teleporters); ask :meth:`Registry.table` for one, which refuses
    the others by name rather than hand out stubs. Squares are the game's own numbers, named
    by :meth:`square_name` as the LEDs and the app name them."""

    @property
    def sides(self) -> tuple[Any, ...]:
        """The sides, in the order of their status LEDs: enum members whose ``value`` is the
        side's name as typed and as the match log keeps it (``"south"``)."""
        ...

    def parse_side(self, text: str) -> Any:
        """A side as typed (``--first north``)."""
        ...

    def square_name(self, square: int) -> str: ...

    def position_from_json(self, doc: Mapping[str, Any]) -> Any:
        """A position from a decoded JSON object (as ``position_json`` writes it)."""
        ...

    def play(self, position: Any, move: Any, turn: Any = None) -> tuple[Any, Any]:
        """``move`` made (checked legal) from ``position`` with ``turn`` (what this turn has
        used so far; None: the turn's first move): the position after it, and the turn's
        state after it, to pass to the next move."""
        ...

    def end_turn(self, position: Any) -> Any:
        """``position`` with the move handed to the next side."""
        ...

    def with_to_move(self, position: Any, side: Any) -> Any:
        """``position`` with ``side`` to move (``--first``)."""
        ...

    def move_squares(self, move: Any) -> tuple[int, ...]:
        """The square a move lifts its piece from, then where it (and what it moves along)
        goes: the LEDs light them."""
        ...

    def goal_squares(self, position: Any, side: Any) -> tuple[int, ...]:
        """The squares ``side`` wins by reaching (lit for the winner)."""
        ...

    def board_difference(self, a: Any, b: Any) -> list[int]:
        """The squares whose pieces differ between two boards, in square order (the side to
        move aside)."""
        ...


@runtime_checkable
class QuestBook(Protocol):
    """Solitaire Quests: layouts of pieces on the mat, judged on their own (today
    Teleporters' Poles and Teleports). A game offers them as its ``quests`` attribute;
    ask :meth:`Registry.quests` for them."""

    @property
    def all(self) -> tuple[Any, ...]: ...  # every quest, in the book's order

    def parse(self, text: object) -> Any:
        """A quest by id (``"queens7"``), or the quest itself."""
        ...

    def check(self, quest: Any, position: Any) -> Any:
        """The verdict on a layout (``solved``, ``describe()``, ``to_json()``)."""
        ...

    def solution_classes(self, quest: Any) -> tuple[Any, ...]: ...


class RulesCore:
    """What the four games' adapters share: a ``Position`` type with ``from_json`` (strict)
    / ``to_json`` and ``from_text`` / ``to_text``, moves with ``notation()``, and the
    core's own functions (set as ``staticmethod`` attributes by each game)."""

    position_type: Any
    _parse_move: Any
    _legal_moves: Any
    _explain: Any

    def read_position(self, text: str, observed: bool = False) -> Any:
        stripped = text.strip()
        if not stripped:
            raise PositionError("the position is empty")
        return self._read(stripped, observed)

    def _read(self, stripped: str, observed: bool) -> Any:
        if stripped.startswith("{"):
            return self.position_type.from_json(stripped)
        return self.position_type.from_text(stripped)

    def position_json(self, position: Any) -> dict[str, Any]:
        return dict(position.to_json())

    def position_text(self, position: Any) -> str:
        return str(position.to_text())

    def parse_move(self, text: str) -> Any:
        return self._parse_move(text)

    def notation(self, move: Any) -> str:
        return str(move.notation())

    def legal_moves(self, position: Any, roll: Any = None) -> list[Any]:
        return list(self._legal_moves(position, roll))

    def explain(self, start: Any, observed: Any, roll: Any = None) -> Explained:
        result: Explained = self._explain(start, observed, roll)
        return result

    def winner(self, position: Any) -> Any | None:
        return position.winner()


def parse_flags(flags: Sequence[str]) -> dict[str, object]:
    """Variant flags ``KEY=VALUE`` as a JSON-like object: true/false (yes/no, on/off) are
    booleans, ASCII digits (up to 6, an optional minus) integers, anything else the text.
    A flag without ``=`` or without a key raises :class:`VariantError`."""
    out: dict[str, object] = {}
    for flag in flags:
        key, sep, value = flag.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise VariantError(f"a variant flag is KEY=VALUE, got {flag!r}")
        low = value.strip().lower()
        digits = low[1:] if low.startswith("-") else low
        if low in ("true", "yes", "on"):
            out[key] = True
        elif low in ("false", "no", "off"):
            out[key] = False
        elif digits and len(digits) <= 6 and all(c in "0123456789" for c in digits):
            out[key] = int(low)
        else:
            out[key] = value.strip()
    return out


def parse_number_roll(text: str, game: str, die: str, highest: int) -> int:
    """A numbered die's roll as typed: ASCII digits from 1 to ``highest``."""
    t = text.strip()
    if not (t and len(t) <= 3 and all(c in "0123456789" for c in t) and 1 <= int(t) <= highest):
        raise RulesError(f"--roll for {game}: {die} shows 1-{highest}, got {quoted(text)}")
    return int(t)


class Registry(Mapping[str, Game]):
    """The games by id, each loaded when first asked for (argparse's ``choices`` only
    needs the ids)."""

    def __init__(self, modules: Mapping[str, str], default: str | None = None) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, Game] = {}
        self._tables: dict[str, TableGame] = {}
        self.default = default or next(iter(self._modules))  # the command line's --game
        if self.default not in self._modules:
            raise RulesError(f"default game {self.default!r} is not one of the games")

    def __getitem__(self, game_id: str) -> Game:
        if game_id not in self._modules:
            raise RulesError(f"unknown game {game_id!r}: games are {', '.join(self._modules)}")
        if game_id not in self._loaded:
            game = importlib.import_module(self._modules[game_id]).GAME_RULES
            if not isinstance(game, Game) or game.id != game_id:
                raise TypeError(f"{self._modules[game_id]}.GAME_RULES is not game {game_id!r}")
            self._loaded[game_id] = game
        return self._loaded[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._modules

    def table(self, game_id: str | None = None) -> TableGame:
        """Game ``game_id`` (None: the default) as played at the table with the camera;
        :class:`MissingCapability` for a game vision cannot read yet."""
        game = self[game_id or self.default]
        if game.id in self._tables:  # the live pipeline asks once per frame: no Protocol check
            return self._tables[game.id]
        if isinstance(game, TableGame):
            self._tables[game.id] = game
            return game
        raise MissingCapability(game.id,
                                f"vision reads only the {self._names(TableGame)} mat so far")

    def quests(self, game_id: str | None = None) -> QuestBook:
        """Game ``game_id``'s Solitaire Quests (None: the default game's);
        :class:`MissingCapability` for a game without them."""
        game = self[game_id or self.default]
        book = getattr(game, "quests", None)
        if isinstance(book, QuestBook):
            return book
        raise MissingCapability(game.id, f"no Solitaire Quests ({self._names(QuestBook)} "
                                "has them)")

    def _names(self, capability: type) -> str:
        """The names of the games with ``capability`` (loading every game: a refusal only)."""
        def has(game: Game) -> bool:
            part = getattr(game, "quests", None) if capability is QuestBook else game
            return isinstance(part, capability)

        return " and ".join(g.name for g in self.values() if has(g))
