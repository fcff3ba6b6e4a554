"""Export and import of matches: a text form in the spirit of PGN, and JSON.

Text form: tag pairs, a blank line, then one line per committed turn (numbered, the moves in
the rules core's notation, ``--`` for a pass, the time taken and commit time in a comment),
events as comment lines before the turn they happened in, and the result::

    [Game "teleporters"]
    [South "Ann"]
    [North "Ben"]
    [Started "2026-05-09T10:00:00.000Z"]
    [Ended "2026-05-09T10:31:02.500Z"]
    [Result "south"]

    {die 2026-05-09T10:00:03.210Z 4 electronic}
    1. Pd1-d3 Vc3sw-c5 {[%emt 0:00:41.200] [%ts 2026-05-09T10:00:41.200Z]}
    {illegal 2026-05-09T10:01:02.000Z put-right h4,h1 walk-one-or-two-spaces "north Pole ..."}
    2. Pe8-f7 Ph4-h2 {[%emt 0:00:30.000] [%ts 2026-05-09T10:01:11.200Z]}
    south

Importing replays every move with the rules core (``parse_move``, ``play``): a move that is
not legal where it stands rejects the file with its line number and text. See
``docs/matchlog.md`` for the full grammar.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.matchlog.errors import MatchFormatError, MatchLogError
from companion.matchlog.model import (
    RESERVED_TAGS,
    SIDES,
    Correction,
    DieRoll,
    Event,
    EventKind,
    IllegalMove,
    Match,
    Note,
    Result,
    TurnRecord,
    event_data_from_json,
    event_data_to_json,
    iso,
    normalise_seconds,
    parse_iso,
    replay_turn,
)
from companion.rules.common import quoted
from companion.rules.errors import RulesError
from companion.rules.teleporters import GAME, Position, Variant

JSON_FORMAT = "tabletop-companion match"
JSON_VERSION = 1
UNFINISHED = "*"
PASS = "--"

Snapshots = dict[int, bytes]


# -- export ------------------------------------------------------------------------------------


def variant_flags(variant: Variant) -> str:
    """The variant as the rules core's text flags (``send_marker=either ...``), '' if default."""
    return " ".join(Position.start(variant).to_text().split()[2:])


def parse_variant_flags(flags: str) -> Variant:
    # The flags are the tail of a position in text notation: let the rules core read them.
    return Position.from_text(f"8/8/8/8/8/8/8/8 south {flags}").variant


def _emt(seconds: float) -> str:
    ms = round(seconds * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    return f"{h}:{m:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _tag(name: str, value: str) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def _event_line(event: Event) -> str:
    d, at = event.data, iso(event.at)
    if isinstance(d, DieRoll):
        return f"{{die {at} {d.value} {d.source.value}}}"
    if isinstance(d, IllegalMove):
        resolution = d.resolution.value if d.resolution else "unresolved"
        squares = ",".join(d.squares) or "-"
        return (f"{{illegal {at} {resolution} {squares} {d.rule or '-'} "
                f"{json.dumps(d.message, ensure_ascii=False)}}}")
    if isinstance(d, Correction):
        return (f"{{correction {at} {json.dumps(d.position.to_text())} "
                f"{json.dumps(d.note, ensure_ascii=False)}}}")
    return f"{{note {at} {json.dumps(d.text, ensure_ascii=False)}}}"


def export_text(match: Match) -> str:
    """One match as text (ends with a newline)."""
    lines = [_tag("Game", match.game)]
    flags = variant_flags(match.start.variant)
    if flags:
        lines.append(_tag("Variant", flags))
    lines += [_tag(side.capitalize(), match.players[side]) for side in SIDES
              if side in match.players]
    lines.append(_tag("Started", iso(match.started_at)))
    if match.ended_at is not None:
        lines.append(_tag("Ended", iso(match.ended_at)))
    lines.append(_tag("Result", match.result.value if match.result else UNFINISHED))
    if match.start != Position.start(match.start.variant):
        lines.append(_tag("Start", match.start.to_text()))
    lines += [_tag(name, value) for name, value in match.tags.items()]
    lines.append("")
    events = list(match.events)
    for n, turn in enumerate(match.turns, 1):
        while events and events[0].turn == n:
            lines.append(_event_line(events.pop(0)))
        lines.append(f"{n}. {' '.join(turn.moves) or PASS} "
                     f"{{[%emt {_emt(turn.seconds)}] [%ts {iso(turn.committed_at)}]}}")
    lines += [_event_line(e) for e in events]
    lines.append(match.result.value if match.result else UNFINISHED)
    return "\n".join(lines) + "\n"


def export_json(match: Match, snapshots: Mapping[int, bytes] | None = None) -> dict[str, Any]:
    """One match as a JSON document; ``snapshots`` (turn -> JPEG) are included base64."""
    snapshots = snapshots or {}
    turns = []
    for n, t in enumerate(match.turns, 1):
        doc: dict[str, Any] = {
            "side": t.side.value, "moves": list(t.moves),
            "markers": {"pole": t.pole_markers, "port": t.port_markers},
            "position": t.position.to_json(), "seconds": t.seconds,
            "committed_at": iso(t.committed_at)}
        if n in snapshots:
            doc["snapshot"] = base64.b64encode(snapshots[n]).decode("ascii")
        turns.append(doc)
    return {
        "format": JSON_FORMAT, "version": JSON_VERSION, "game": match.game,
        "start": match.start.to_json(), "players": dict(match.players),
        "tags": dict(match.tags), "started_at": iso(match.started_at),
        "ended_at": None if match.ended_at is None else iso(match.ended_at),
        "result": match.result.value if match.result else None,
        "turns": turns,
        "events": [{"turn": e.turn, "at": iso(e.at), "kind": e.data.kind.value,
                    **event_data_to_json(e.data, position_json=True)} for e in match.events],
    }


def export_json_text(match: Match, snapshots: Mapping[int, bytes] | None = None) -> str:
    """The JSON document with one turn or event per line (diffable, still plain JSON)."""
    doc = export_json(match, snapshots)

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in doc.items():
        if key in ("turns", "events") and value:
            items = ",\n".join(f"  {one(v)}" for v in value)
            lines.append(f" {one(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# -- checking a match by replaying it (both import formats) ---------------------------------------


@dataclass(frozen=True, slots=True)
class _Header:
    where: str
    start: Position
    players: dict[str, str]
    started_at: datetime
    ended_at: datetime | None
    result: Result | None
    result_where: str
    tags: dict[str, str]


@dataclass(frozen=True, slots=True)
class _RawTurn:
    """A turn as read, before replaying; the JSON form also declares what replay must give."""

    where: str
    number: int
    moves: tuple[str, ...]
    seconds: float
    committed_at: datetime | None
    declared: Mapping[str, Any] | None = None


def _build(header: _Header, items: Sequence[_RawTurn | tuple[str, Event]]) -> Match:
    """Replay every turn from the start with the rules core; the checked match."""
    pos = header.start
    last_time = header.started_at
    turns: list[TurnRecord] = []
    events: list[Event] = []
    for item in items:
        if isinstance(item, tuple):
            where, event = item
            if event.turn != len(turns) + 1:
                raise MatchFormatError(where, f"event of turn {event.turn} after "
                                       f"{len(turns)} turns (expected turn {len(turns) + 1})")
            if isinstance(event.data, Correction):
                if event.data.position.variant != header.start.variant:
                    raise MatchFormatError(where, "the corrected position has other variant "
                                           "flags than the match")
                pos = event.data.position
            events.append(event)
            continue
        t = item
        if t.number != len(turns) + 1:
            raise MatchFormatError(t.where, f"turn {t.number} where turn {len(turns) + 1} "
                                   "was expected")
        winner = pos.winner()
        if turns and winner is not None:
            raise MatchFormatError(t.where, f"turn {t.number}: {winner.value} already won "
                                   f"after turn {len(turns)}")
        try:
            after, side, pole, port = replay_turn(pos, t.moves)
        except MatchLogError as exc:
            raise MatchFormatError(t.where, f"turn {t.number} ({pos.to_move.value}): "
                                   f"{exc}") from None
        committed = t.committed_at or last_time
        last_time = committed
        record = TurnRecord(side, t.moves, after, t.seconds, committed, pole, port)
        if t.declared is not None:
            _check_declared(t.where, record, t.declared)
        turns.append(record)
        pos = after
    winner = pos.winner() if turns else None
    if winner is not None and header.result not in (None, Result.win(winner)):
        raise MatchFormatError(header.result_where, f"result {header.result.value!r}, but "
                               f"{winner.value} won on the board after turn {len(turns)}")
    try:
        return Match(header.start, header.players, header.started_at, tuple(turns),
                     tuple(events), header.ended_at, header.result, header.tags)
    except MatchLogError as exc:
        raise MatchFormatError(header.where, str(exc)) from None


def _check_declared(where: str, record: TurnRecord, doc: Mapping[str, Any]) -> None:
    if "side" in doc and doc["side"] != record.side.value:
        raise MatchFormatError(f"{where}.side", f"{doc['side']!r}, but {record.side.value} "
                               "was to move")
    markers = doc.get("markers")
    if markers is not None and markers != {"pole": record.pole_markers,
                                           "port": record.port_markers}:
        raise MatchFormatError(f"{where}.markers", f"{markers!r}, but the moves use "
                               f"{record.pole_markers} Pole and {record.port_markers} Port")
    if "position" in doc:
        try:
            declared = Position.from_json(doc["position"])
        except RulesError as exc:
            raise MatchFormatError(f"{where}.position", str(exc)) from None
        if declared != record.position:
            raise MatchFormatError(f"{where}.position", f"{declared.to_text()!r} is not where "
                                   f"the moves lead ({record.position.to_text()!r})")


# -- text import -------------------------------------------------------------------------------

_TAG_LINE = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*)\s+(\".*\")\]")
_TURN_LINE = re.compile(r"(\d+)\.(?:\s+(.*))?")
_COMMAND = re.compile(r"\[%(\w+)\s+([^\]]*)\]")
_EMT = re.compile(r"(\d+):([0-5]\d):([0-5]\d(?:\.\d{1,3})?)")
_RESULTS = {r.value: r for r in Result} | {UNFINISHED: None}


def import_text(text: str, source: str = "<text>") -> list[Match]:
    """Every match in a text export (one or more, each ending with its result line)."""
    lines = text.removeprefix("\ufeff").split("\n")
    matches: list[Match] = []
    i = 0
    while True:
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i == len(lines):
            break
        match, i = _read_match(lines, i, source)
        matches.append(match)
    if not matches:
        raise MatchFormatError(source, "no match in it (a match starts with [Game \"...\"])")
    return matches


def _where(source: str, i: int) -> str:
    return f"{source}: line {i + 1}"


def _read_match(lines: list[str], i: int, source: str) -> tuple[Match, int]:
    first = i
    tags: dict[str, tuple[str, int]] = {}
    while i < len(lines) and lines[i].strip():
        line = lines[i].strip()
        m = _TAG_LINE.fullmatch(line)
        if not m:
            raise MatchFormatError(_where(source, i), f"expected a tag pair like "
                                   f"[Game \"teleporters\"], got {quoted(line)}")
        try:
            value = json.loads(m[2])
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, str):
            raise MatchFormatError(_where(source, i), f"bad tag value {m[2]!r} (a quoted "
                                   "string)")
        if m[1] in tags:
            raise MatchFormatError(_where(source, i), f"tag {m[1]!r} given twice")
        tags[m[1]] = (value, i)
        i += 1
    header = _text_header(tags, source, first)
    items: list[_RawTurn | tuple[str, Event]] = []
    while True:
        if i == len(lines):
            raise MatchFormatError(_where(source, i - 1), "the match has no result line "
                                   "(south, north, draw, abandoned or *) at its end")
        line = lines[i].strip()
        where = _where(source, i)
        if not line:
            pass
        elif line in _RESULTS:
            if _RESULTS[line] != header.result:
                raise MatchFormatError(where, f"result {line!r} differs from the Result tag "
                                       f"{header.result.value if header.result else '*'!r}")
            return _build(header, items), i + 1
        elif line.startswith("{"):
            turn = 1 + sum(1 for it in items if isinstance(it, _RawTurn))
            items.append((where, _text_event(line, turn, where)))
        elif m := _TURN_LINE.fullmatch(line):
            items.append(_text_turn(int(m[1]), m[2] or "", where))
        else:
            raise MatchFormatError(where, f"expected a numbered turn (\"3. Pc1-c3 ...\"), an "
                                   f"event {{...}} or the result, got {quoted(line)}")
        i += 1


def _text_header(tags: dict[str, tuple[str, int]], source: str, first: int) -> _Header:
    def where(name: str) -> str:
        return _where(source, tags[name][1]) if name in tags else _where(source, first)

    def need(name: str) -> str:
        if name not in tags:
            raise MatchFormatError(_where(source, first), f"the tag [{name} \"...\"] is missing")
        return tags[name][0]

    game = need("Game")
    if game != GAME:
        raise MatchFormatError(where("Game"), f"game {game!r}: only {GAME!r} is known")
    try:
        variant = parse_variant_flags(tags["Variant"][0]) if "Variant" in tags else None
    except RulesError as exc:
        raise MatchFormatError(where("Variant"), f"{tags['Variant'][0]!r}: {exc}") from None
    try:
        start = (Position.from_text(tags["Start"][0]) if "Start" in tags
                 else Position.start(variant or Position.start().variant))
    except RulesError as exc:
        raise MatchFormatError(where("Start"), f"{tags['Start'][0]!r}: {exc}") from None
    if variant is not None and start.variant != variant:
        raise MatchFormatError(where("Start"), "the Start position's variant flags differ "
                               f"from the Variant tag {tags['Variant'][0]!r}")
    times: dict[str, datetime | None] = {}
    for name in ("Started", "Ended"):
        try:
            times[name] = parse_iso(tags[name][0]) if name in tags else None
        except MatchLogError as exc:
            raise MatchFormatError(where(name), str(exc)) from None
    started = times["Started"]
    if started is None:
        need("Started")
    result_text = need("Result")
    if result_text not in _RESULTS:
        raise MatchFormatError(where("Result"), f"result {result_text!r}: one of "
                               f"{', '.join(_RESULTS)}")
    result = _RESULTS[result_text]
    if (result is None) != (times["Ended"] is None):
        raise MatchFormatError(where("Result"), "a finished match needs an Ended tag and an "
                               "unfinished one (Result \"*\") none")
    players = {s: tags[s.capitalize()][0] for s in SIDES if s.capitalize() in tags}
    extra = {k: v for k, (v, _) in tags.items() if k not in RESERVED_TAGS}
    assert started is not None
    return _Header(where("Game"), start, players, started, times["Ended"], result,
                   where("Result"), extra)


def _text_turn(number: int, rest: str, where: str) -> _RawTurn:
    moves_text, brace, comment = rest.partition("{")
    tokens = moves_text.split()
    if tokens == [PASS]:
        tokens = []
    elif not tokens:
        raise MatchFormatError(where, f"turn {number} has no moves (write {PASS} for a pass)")
    seconds, committed = 0.0, None
    if brace:
        if not comment.rstrip().endswith("}"):
            raise MatchFormatError(where, f"unclosed comment {{{comment!r}")
        body = comment.rstrip()[:-1]
        leftover = _COMMAND.sub("", body).strip()
        if leftover:
            raise MatchFormatError(where, f"{leftover!r}: a turn's comment holds only "
                                   "[%emt H:MM:SS.mmm] and [%ts TIME] (notes go on an event "
                                   "line: {note TIME \"...\"})")
        for cmd, arg in _COMMAND.findall(body):
            arg = arg.strip()
            if cmd == "emt":
                m = _EMT.fullmatch(arg)
                if not m:
                    raise MatchFormatError(where, f"time taken {arg!r}: write H:MM:SS.mmm")
                seconds = normalise_seconds(int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3]))
            elif cmd == "ts":
                try:
                    committed = parse_iso(arg)
                except MatchLogError as exc:
                    raise MatchFormatError(where, str(exc)) from None
            else:
                raise MatchFormatError(where, f"unknown command [%{cmd} ...] (known: emt, ts)")
    for token in tokens:
        if token.startswith(("{", "}")) or token == PASS:
            raise MatchFormatError(where, f"unexpected {token!r} among the moves")
    return _RawTurn(where, number, tuple(tokens), seconds, committed)


def _tokens(body: str, where: str) -> list[tuple[bool, str]]:
    """Bare words and JSON-quoted strings: (quoted?, text)."""
    out: list[tuple[bool, str]] = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(body):
        if body[i].isspace():
            i += 1
        elif body[i] == '"':
            try:
                value, i = decoder.raw_decode(body, i)
            except json.JSONDecodeError:
                raise MatchFormatError(where, f"bad quoted text at {body[i:i + 20]!r}") from None
            out.append((True, value))
        else:
            j = i
            while j < len(body) and not body[j].isspace() and body[j] != '"':
                j += 1
            out.append((False, body[i:j]))
            i = j
    return out


_EVENT_SHAPES = {  # kind -> which arguments are quoted
    "die": (False, False), "illegal": (False, False, False, True),
    "correction": (True, True), "note": (True,),
}


def _text_event(line: str, turn: int, where: str) -> Event:
    if not line.endswith("}"):
        raise MatchFormatError(where, f"unclosed event {line!r}")
    tokens = _tokens(line[1:-1], where)
    if len(tokens) < 2 or tokens[0][0] or tokens[0][1] not in _EVENT_SHAPES:
        raise MatchFormatError(where, f"{line!r} is not an event (die, illegal, correction, "
                               "note: {KIND TIME ...})")
    kind = tokens[0][1]
    shape = _EVENT_SHAPES[kind]
    args = tokens[2:]
    if tokens[1][0] or tuple(q for q, _ in args) != shape:
        raise MatchFormatError(where, f"{line!r}: a {kind} event is {_EVENT_HELP[kind]}")
    values = [v for _, v in args]
    try:
        at = parse_iso(tokens[1][1])
        if kind == "die":
            if not (values[0].isascii() and values[0].isdigit() and len(values[0]) <= 3):
                raise MatchLogError(f"die value {values[0]!r} is not a number")
            data: Any = DieRoll(int(values[0]), values[1])  # type: ignore[arg-type]
        elif kind == "illegal":
            data = IllegalMove(values[3], () if values[1] == "-" else tuple(values[1].split(",")),
                               "" if values[2] == "-" else values[2],
                               None if values[0] == "unresolved" else values[0])  # type: ignore[arg-type]
        elif kind == "correction":
            data = Correction(Position.from_text(values[0]), values[1])
        else:
            data = Note(values[0])
        return Event(turn, at, data)
    except (MatchLogError, RulesError) as exc:
        raise MatchFormatError(where, f"{exc} (in {line!r})") from None


_EVENT_HELP = {
    "die": "{die TIME VALUE electronic|camera|typed}",
    "illegal": "{illegal TIME put-right|accepted|misread|unresolved SQUARES|- RULE|- "
               "\"message\"}",
    "correction": "{correction TIME \"position text\" \"note\"}",
    "note": "{note TIME \"text\"}",
}


# -- JSON import -------------------------------------------------------------------------------

_MATCH_KEYS = {"format", "version", "game", "start", "players", "tags", "started_at",
               "ended_at", "result", "turns", "events"}
_TURN_KEYS = {"side", "moves", "markers", "position", "seconds", "committed_at", "snapshot"}


def import_json(doc: object, source: str = "<json>") -> list[tuple[Match, Snapshots]]:
    """Every match in a JSON export: one match document, or a list of them."""
    if isinstance(doc, str | bytes):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise MatchFormatError(f"{source}: line {exc.lineno}", f"not valid JSON: "
                                   f"{exc.msg}") from None
        except RecursionError:  # Python's JSON reader stops at about 1,000 levels
            raise MatchFormatError(source, "nested far deeper than a match export is") from None
    docs = doc if isinstance(doc, list) else [doc]
    if not docs:
        raise MatchFormatError(source, "no match in it")
    # Places in the document are written like JSONPath: "match.json: $.turns[3].moves".
    return [_json_match(d, f"{source}: $[{k}]" if isinstance(doc, list) else f"{source}: $")
            for k, d in enumerate(docs)]


def _json_match(doc: object, where: str) -> tuple[Match, Snapshots]:
    if not isinstance(doc, dict):
        raise MatchFormatError(where, f"a match must be a JSON object, got {quoted(doc)}")
    if doc.get("format") != JSON_FORMAT:
        raise MatchFormatError(f"{where}.format", f"{doc.get('format')!r}: this is not a "
                               f"match export ({JSON_FORMAT!r})")
    if doc.get("version") != JSON_VERSION:
        raise MatchFormatError(f"{where}.version", f"version {doc.get('version')!r}: this "
                               f"companion reads version {JSON_VERSION}")
    unknown = set(doc) - _MATCH_KEYS
    if unknown:
        raise MatchFormatError(where, f"unknown field(s) {sorted(unknown)}")
    if doc.get("game", GAME) != GAME:
        raise MatchFormatError(f"{where}.game", f"game {doc.get('game')!r}: only {GAME!r}")

    def field(name: str, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except (MatchLogError, RulesError, TypeError, ValueError) as exc:
            raise MatchFormatError(f"{where}.{name}", str(exc)) from None

    start = field("start", Position.from_json, doc.get("start"))
    started = field("started_at", parse_iso, _text(doc.get("started_at"), "started_at"))
    ended = None if doc.get("ended_at") is None else field(
        "ended_at", parse_iso, _text(doc.get("ended_at"), "ended_at"))
    result = None if doc.get("result") is None else field("result", Result.parse,
                                                          doc.get("result"))
    players = doc.get("players", {})
    tags = doc.get("tags", {})
    for name, value in (("players", players), ("tags", tags)):
        if not isinstance(value, dict):
            raise MatchFormatError(f"{where}.{name}", f"must be an object, got {quoted(value)}")
    header = _Header(where, start, players, started, ended, result, f"{where}.result", tags)
    items: list[_RawTurn | tuple[str, Event]] = []
    snapshots: Snapshots = {}
    raw_turns, raw_events = doc.get("turns", []), doc.get("events", [])
    for name, value in (("turns", raw_turns), ("events", raw_events)):
        if not isinstance(value, list):
            raise MatchFormatError(f"{where}.{name}", f"must be a list, got {quoted(value)}")
    events = [_json_event(e, f"{where}.events[{k}]") for k, e in enumerate(raw_events)]
    for n, t in enumerate(raw_turns, 1):
        tw = f"{where}.turns[{n - 1}]"
        while events and events[0][1].turn <= n:
            items.append(events.pop(0))
        items.append(_json_turn(t, n, tw))
        if isinstance(t, dict) and t.get("snapshot") is not None:
            try:
                snapshots[n] = base64.b64decode(_text(t["snapshot"], "snapshot"), validate=True)
            except (binascii.Error, MatchLogError) as exc:
                raise MatchFormatError(f"{tw}.snapshot", f"not base64: {exc}") from None
    items += events
    return _build(header, items), snapshots


def _json_turn(doc: object, number: int, where: str) -> _RawTurn:
    if not isinstance(doc, dict):
        raise MatchFormatError(where, f"a turn must be an object, got {quoted(doc)}")
    unknown = set(doc) - _TURN_KEYS
    if unknown:
        raise MatchFormatError(where, f"unknown field(s) {sorted(unknown)}")
    moves = doc.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise MatchFormatError(f"{where}.moves", f"must be a list of moves in notation, got "
                               f"{quoted(moves)}")
    try:
        seconds = normalise_seconds(doc.get("seconds", 0))
        committed = (None if doc.get("committed_at") is None
                     else parse_iso(_text(doc["committed_at"], "committed_at")))
    except MatchLogError as exc:
        raise MatchFormatError(where, str(exc)) from None
    return _RawTurn(where, number, tuple(moves), seconds, committed, doc)


def _json_event(doc: object, where: str) -> tuple[str, Event]:
    if not isinstance(doc, dict):
        raise MatchFormatError(where, f"an event must be an object, got {quoted(doc)}")
    fields = {k: v for k, v in doc.items() if k not in ("turn", "at", "kind")}
    try:
        kind = EventKind(doc.get("kind"))
    except ValueError:
        raise MatchFormatError(f"{where}.kind", f"unknown event kind {doc.get('kind')!r}: "
                               f"one of {', '.join(k.value for k in EventKind)}") from None
    try:
        data = event_data_from_json(kind, fields)
        turn = doc.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise MatchFormatError(f"{where}.turn", f"a turn number, got {quoted(turn)}")
        return where, Event(turn, parse_iso(_text(doc.get("at"), "at")), data)
    except (MatchLogError, RulesError) as exc:
        raise MatchFormatError(where, str(exc)) from None


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise MatchLogError(f"{what} must be a string, got {quoted(value)}")
    return value


# -- either format -----------------------------------------------------------------------------


def detect_format(text: str) -> str:
    """'json' or 'text', from the first characters."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{") or (head.startswith("[") and head[1:].lstrip()[:1] in ("{", "]")):
        return "json"
    return "text"


def load_matches(text: str, source: str = "<input>", fmt: str = "auto"
                 ) -> list[tuple[Match, Snapshots]]:
    """Every match in an export, checked move by move: (match, snapshots) pairs."""
    fmt = detect_format(text) if fmt == "auto" else fmt
    if fmt == "json":
        return import_json(text, source)
    if fmt == "text":
        return [(m, {}) for m in import_text(text, source)]
    raise MatchLogError(f"unknown format {fmt!r}: text, json or auto")
