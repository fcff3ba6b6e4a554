"""The match store: SQLite (standard library), WAL journal, ``synchronous=FULL``, foreign keys on.

Every write is one transaction that has reached the disk when the call returns, so the referee
confirms a turn only after :meth:`MatchStore.commit_turn` returns: killing the process at any
moment loses at most the turn in progress. Readers (the match list, replays, exports) run
alongside the writer; WAL gives each read a consistent snapshot.

The referee's calls, in order::

    store = MatchStore()                       # the user's data directory, or COMPANION_DB
    for unfinished in store.unfinished_matches():
        point = store.resume(unfinished.id)    # offer: continue from point.position
    match_id = store.begin_match(Position.start(), {"south": "Ann", "north": "Ben"})
    store.record_event(match_id, DieRoll(4, DieSource.ELECTRONIC))
    store.commit_turn(match_id, TurnRecord.played(start, moves, seconds=41.2))
    store.finish_match(match_id, Result.SOUTH)
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

from companion.matchlog.errors import (
    MatchLogError,
    MatchNotFoundError,
    StoreCorruptError,
)
from companion.matchlog.model import (
    NAME_TAG,
    TERMINATION_TAG,
    Event,
    EventData,
    EventId,
    EventKind,
    Match,
    MatchId,
    MatchSummary,
    QuestFind,
    Resolution,
    Result,
    Termination,
    TurnRecord,
    event_data_from_json,
    event_data_to_json,
    from_ms,
    normalise_name,
    normalise_players,
    normalise_tags,
    normalise_time,
    parse_enum,
    to_ms,
    utc_now,
)
from companion.matchlog.schema import open_connection
from companion.rules.errors import RulesError
from companion.rules.teleporters import Position

ENV_VAR = "COMPANION_DB"
APP_DIR = "tabletop-companion"
DB_NAME = "matches.sqlite3"
JPEG_MAGIC = b"\xff\xd8\xff"


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$COMPANION_DB``, else ``$XDG_DATA_HOME/tabletop-companion/matches.sqlite3``, else
    ``~/.local/share/tabletop-companion/matches.sqlite3``."""
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]).expanduser()
    base = env.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = env.get("HOME") or str(Path.home())
        base = os.path.join(home, ".local", "share")
    return Path(base) / APP_DIR / DB_NAME


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where an unfinished match picks up: turn ``turn`` starts from ``position``."""

    match: Match
    turn: int
    position: Position


@dataclass(frozen=True, slots=True)
class Imported:
    """What importing one match did: stored it as match ``id`` (``new``), or found the store
    already holds it as match ``id`` (the same start, start time, moves and times) and left
    that one as it was. ``differs``: what the held match has otherwise than the import
    (``players``, ``tags``, ``result``, ``events``, ``snapshots``)."""

    id: MatchId
    new: bool
    differs: tuple[str, ...] = ()


READ_ATTEMPTS = 3  # reads of one match before its file is called damaged (get_match)
_MATCH_COLUMNS = "id, game, players, start, started_at, ended_at, result, tags, turn_count"
_SUMMARY_COLUMNS = ("id, game, players, started_at, ended_at, result, turn_count, "
                    f"json_extract(tags, '$.{NAME_TAG}')")
_TURN_COLUMNS = ("side, moves, position, time_ms, committed_at, pole_markers, port_markers")


class MatchStore:
    """One store file. Thread-safe (one connection behind a lock); use one per process.

    ``snapshots``: keep the JPEG passed to :meth:`commit_turn` (off by default: a frame per
    turn grows the file by tens of kilobytes a turn). ``create``: make the file if missing.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 snapshots: bool = False, create: bool = True) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self.snapshots = snapshots
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = open_connection(self.path, create=create)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchStore({str(self.path)!r})"

    # -- transactions --------------------------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        if self._conn is None:
            raise MatchLogError(f"the match store {self.path} is closed")
        try:
            yield self._conn
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if any(w in text for w in ("malformed", "not a database", "corrupt")):
                raise StoreCorruptError(f"{self.path} is corrupt: {text}") from None
            raise MatchLogError(f"{self.path}: {text}") from None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; on disk (synchronous=FULL) when the block exits."""
        with self._lock, self._guard() as conn:
            conn.execute("BEGIN IMMEDIATE")  # take the write lock now, not at first write
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """Several reads seeing one snapshot, whatever a writer commits meanwhile."""
        with self._lock, self._guard() as conn:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")

    # -- writing -------------------------------------------------------------------------------

    def begin_match(self, start: Position, players: Mapping[str, str] | None = None, *,
                    started_at: datetime | None = None,
                    tags: Mapping[str, str] | None = None) -> MatchId:
        """A new unfinished match from ``start`` (its variant and side to move included)."""
        match = Match(start, normalise_players(players), started_at or utc_now(),
                      tags=normalise_tags(tags))
        with self._write() as conn:
            return self._insert_match(conn, match)

    def commit_turn(self, match_id: MatchId, turn: TurnRecord,
                    snapshot: bytes | None = None) -> int:
        """Store a committed turn; returns its number. Durable when this returns: only then may
        the referee confirm the turn. ``snapshot`` (JPEG) is kept when snapshots are on."""
        if not isinstance(turn, TurnRecord):
            raise MatchLogError(f"commit_turn needs a TurnRecord, got {turn!r}")
        keep = snapshot if self.snapshots else None
        if keep is not None:
            _check_jpeg(keep)
        row = _turn_row(turn)
        with self._write() as conn:
            number = self._open_match(conn, match_id) + 1
            conn.execute(f"INSERT INTO turns (match_id, turn_no, {_TURN_COLUMNS}) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (match_id, number, *row))
            conn.execute("UPDATE matches SET turn_count = ? WHERE id = ?", (number, match_id))
            if keep is not None:
                conn.execute("INSERT INTO snapshots (match_id, turn_no, jpeg) VALUES (?, ?, ?)",
                             (match_id, number, keep))
        return number

    def record_event(self, match_id: MatchId, data: EventData, *,
                     at: datetime | None = None) -> EventId:
        """Log an event of the turn in progress (durable when this returns)."""
        event = Event(1, at or utc_now(), data)  # validates; the turn is filled in below
        with self._write() as conn:
            turn = self._open_match(conn, match_id) + 1
            cur = conn.execute(
                "INSERT INTO events (match_id, turn_no, at, kind, data) VALUES (?, ?, ?, ?, ?)",
                (match_id, turn, to_ms(event.at), data.kind.value,
                 json.dumps(event_data_to_json(data))))
            return EventId(int(cur.lastrowid or 0))

    def record_quest_find(self, player: str, quest: str, class_number: int, class_id: str,
                          found_at: datetime | None = None) -> bool:
        """Keep a Solitaire Quest solution class ``player`` found; True if it is new to them
        (a class found again keeps its first time). Durable when this returns."""
        player = player.strip()
        if not player:
            raise MatchLogError("a quest find needs a player's name")
        if isinstance(class_number, bool) or not isinstance(class_number, int) \
                or class_number < 1:
            raise MatchLogError(f"a class number is 1 or more, got {class_number!r}")
        at = normalise_time(found_at or utc_now(), "found_at")
        with self._write() as conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO quest_finds (player, quest, class_number, class_id, "
                "found_at) VALUES (?, ?, ?, ?, ?)",
                (player, quest, class_number, class_id, to_ms(at)))
            return cur.rowcount == 1

    def quest_finds(self, player: str, quest: str) -> tuple[QuestFind, ...]:
        """The classes ``player`` has found in ``quest``, by class number."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT class_number, class_id, found_at FROM quest_finds WHERE player = ? "
                "AND quest = ? ORDER BY class_number", (player.strip(), quest)).fetchall()
        return tuple(QuestFind(player.strip(), quest, int(n), str(cid), from_ms(int(ms)))
                     for n, cid, ms in rows)

    def quest_players(self) -> tuple[str, ...]:
        """Everyone who has found a quest solution, by name."""
        with self._read() as conn:
            rows = conn.execute("SELECT DISTINCT player FROM quest_finds ORDER BY player")
            return tuple(str(r[0]) for r in rows.fetchall())

    def resolve_warning(self, event_id: EventId, resolution: Resolution) -> None:
        """Say how an illegal-move warning ended."""
        resolution = parse_enum(Resolution, resolution, "resolution")
        with self._write() as conn:
            row = conn.execute("SELECT kind, data FROM events WHERE id = ?",
                               (event_id,)).fetchone()
            if row is None:
                raise MatchNotFoundError(f"no event {event_id} in {self.path}")
            if row[0] != EventKind.ILLEGAL.value:
                raise MatchLogError(f"event {event_id} is a {row[0]} event, not an "
                                    "illegal-move warning")
            data = json.loads(row[1])
            data["resolution"] = resolution.value
            conn.execute("UPDATE events SET data = ? WHERE id = ?",
                         (json.dumps(data), event_id))

    def finish_match(self, match_id: MatchId, result: Result, *,
                     ended_at: datetime | None = None,
                     how: Termination | None = None) -> None:
        """End an unfinished match with ``result``; ``how`` it ended (a win by the rules, a
        resignation, an agreed draw) is kept as its ``Termination`` tag. One transaction."""
        result = parse_enum(Result, result, "result")
        ended = normalise_time(ended_at or utc_now(), "ended_at")
        term = None if how is None else parse_enum(Termination, how, "termination")
        with self._write() as conn:
            self._open_match(conn, match_id)
            conn.execute("UPDATE matches SET ended_at = ?, result = ? WHERE id = ?",
                         (to_ms(ended), result.value, match_id))
            if term is not None:
                self._set_tag(conn, match_id, TERMINATION_TAG, term.value)

    def reopen_match(self, match_id: MatchId) -> None:
        """Make a finished match unfinished again (a winning turn undone at the table): no
        end time, no result, no ``Termination`` tag. Its turns and events stay."""
        with self._write() as conn:
            row = conn.execute("SELECT ended_at FROM matches WHERE id = ?",
                               (_checked_id(match_id),)).fetchone()
            if row is None:
                raise MatchNotFoundError(f"no match {match_id!r} in {self.path}")
            conn.execute("UPDATE matches SET ended_at = NULL, result = NULL WHERE id = ?",
                         (match_id,))
            self._set_tag(conn, match_id, TERMINATION_TAG, None)

    def _set_tag(self, conn: sqlite3.Connection, match_id: MatchId, name: str,
                 value: str | None) -> None:
        """Set (``None``: remove) one tag of a match, in the caller's transaction."""
        row = conn.execute("SELECT tags FROM matches WHERE id = ?", (match_id,)).fetchone()
        try:
            tags = json.loads(row[0])
            if value is None:
                tags.pop(name, None)
            else:
                tags[name] = value
        except (ValueError, TypeError, AttributeError) as exc:
            raise StoreCorruptError(f"{self.path}: the tags of match {match_id} cannot be "
                                    f"read: {exc}") from None
        conn.execute("UPDATE matches SET tags = ? WHERE id = ?", (json.dumps(tags), match_id))

    def add_match(self, match: Match, snapshots: Mapping[int, bytes] | None = None) -> MatchId:
        """Store a whole match (an import) in one transaction; returns its new id."""
        return self.add_matches([(match, snapshots or {})])[0]

    def add_matches(self, matches: Iterable[Match | tuple[Match, Mapping[int, bytes]]]
                    ) -> list[MatchId]:
        """Store whole matches, all or none, in one transaction."""
        items = _checked(matches)
        with self._write() as conn:
            return [self._insert_whole(conn, match, snaps) for match, snaps in items]

    def import_matches(self, matches: Iterable[Match | tuple[Match, Mapping[int, bytes]]]
                       ) -> list[Imported]:
        """As :meth:`add_matches`, but a match the store already holds (the same game,
        start, start time, and turns: moves, positions, times) is not stored again; the held
        one is left exactly as it was. All in one transaction, so an export holding the same
        match twice stores it once."""
        items = _checked(matches)
        done = []
        with self._write() as conn:
            for match, snaps in items:
                held = self._held(conn, match)
                if held is None:
                    done.append(Imported(self._insert_whole(conn, match, snaps), True))
                else:
                    done.append(Imported(held, False,
                                         self._differences(conn, held, match, snaps)))
        return done

    def rename_match(self, match_id: MatchId, name: str) -> str:
        """Give match ``match_id`` the name ``name`` (its ``Name`` tag; any other tag is kept);
        returns the name as kept (stripped). Durable when this returns."""
        name = normalise_name(name)
        with self._write() as conn:
            row = conn.execute("SELECT tags FROM matches WHERE id = ?",
                               (_checked_id(match_id),)).fetchone()
            if row is None:
                raise MatchNotFoundError(f"no match {match_id!r} in {self.path}")
            try:
                tags = json.loads(row[0])
                tags[NAME_TAG] = name
            except (ValueError, TypeError) as exc:
                raise StoreCorruptError(f"{self.path}: the tags of match {match_id} cannot be "
                                        f"read: {exc}") from None
            conn.execute("UPDATE matches SET tags = ? WHERE id = ?",
                         (json.dumps(tags), match_id))
        return name

    def delete_match(self, match_id: MatchId) -> None:
        """Delete match ``match_id``, with its turns, events and snapshots, and nothing else,
        in one transaction: all of it or, on any error, none. Raises
        :class:`MatchNotFoundError` when there is no such match."""
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM matches WHERE id = ?",
                            (_checked_id(match_id),)).fetchone() is None:
                raise MatchNotFoundError(f"no match {match_id!r} in {self.path}")
            # Explicitly, children first: not left to ON DELETE CASCADE, which a connection
            # without foreign keys on would skip.
            for table in ("snapshots", "events", "turns", "matches"):
                column = "id" if table == "matches" else "match_id"
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (match_id,))

    def _insert_whole(self, conn: sqlite3.Connection, match: Match,
                      snaps: Mapping[int, bytes]) -> MatchId:
        match_id = self._insert_match(conn, match)
        conn.executemany(
            f"INSERT INTO turns (match_id, turn_no, {_TURN_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(match_id, n, *_turn_row(t)) for n, t in enumerate(match.turns, 1)])
        conn.executemany(
            "INSERT INTO events (match_id, turn_no, at, kind, data) "
            "VALUES (?, ?, ?, ?, ?)",
            [(match_id, e.turn, to_ms(e.at), e.data.kind.value,
              json.dumps(event_data_to_json(e.data))) for e in match.events])
        conn.executemany(
            "INSERT INTO snapshots (match_id, turn_no, jpeg) VALUES (?, ?, ?)",
            [(match_id, n, jpeg) for n, jpeg in sorted(snaps.items())])
        return match_id

    def _held(self, conn: sqlite3.Connection, match: Match) -> MatchId | None:
        """The first stored match with ``match``'s game, start, start time and turns."""
        want = [_turn_row(t) for t in match.turns]
        candidates = conn.execute(
            "SELECT id FROM matches WHERE game = ? AND start = ? AND started_at = ? "
            "AND turn_count = ? ORDER BY id",
            (match.game, match.start.to_text(), to_ms(match.started_at), len(want))).fetchall()
        for (candidate,) in candidates:
            rows = conn.execute(f"SELECT {_TURN_COLUMNS} FROM turns WHERE match_id = ? "
                                "ORDER BY turn_no", (candidate,)).fetchall()
            if [tuple(r) for r in rows] == want:
                return MatchId(int(candidate))
        return None

    def _differences(self, conn: sqlite3.Connection, held: MatchId, match: Match,
                     snaps: Mapping[int, bytes]) -> tuple[str, ...]:
        stored = self._load_match(conn, held)
        kept = {n: bytes(j) for n, j in conn.execute(
            "SELECT turn_no, jpeg FROM snapshots WHERE match_id = ?", (held,)).fetchall()}
        found = [("players", stored.players != match.players),
                 ("tags", stored.tags != match.tags),
                 ("result", (stored.result, stored.ended_at) != (match.result, match.ended_at)),
                 ("events", stored.events != match.events),
                 ("snapshots", any(kept.get(n) != bytes(j) for n, j in snaps.items()))]
        return tuple(what for what, differs in found if differs)

    def _insert_match(self, conn: sqlite3.Connection, match: Match) -> MatchId:
        cur = conn.execute(
            "INSERT INTO matches (game, variant, players, start, started_at, ended_at, result, "
            "tags, turn_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match.game, json.dumps(match.start.variant.to_json()),
             json.dumps(dict(match.players)), match.start.to_text(),
             to_ms(match.started_at),
             None if match.ended_at is None else to_ms(match.ended_at),
             None if match.result is None else match.result.value,
             json.dumps(dict(match.tags)), len(match.turns)))
        return MatchId(int(cur.lastrowid or 0))

    def _open_match(self, conn: sqlite3.Connection, match_id: MatchId) -> int:
        """The number of committed turns of an unfinished match (else an error)."""
        row = conn.execute("SELECT ended_at, turn_count FROM matches WHERE id = ?",
                           (match_id,)).fetchone()
        if row is None:
            raise MatchNotFoundError(f"no match {match_id!r} in {self.path}")
        if row[0] is not None:
            raise MatchLogError(f"match {match_id} is finished: nothing more can be recorded")
        return int(row[1])

    # -- reading -------------------------------------------------------------------------------

    def list_matches(self, *, unfinished: bool = False, limit: int | None = None
                     ) -> list[MatchSummary]:
        """Matches, oldest first (with ``limit``: the newest ``limit`` of them)."""
        where = "WHERE ended_at IS NULL" if unfinished else ""
        sql = f"SELECT {_SUMMARY_COLUMNS} FROM matches {where} ORDER BY id DESC"
        params: tuple[int, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (max(0, limit),)
        with self._read() as conn:
            rows = conn.execute(sql, params).fetchall()
        try:
            return [_summary(*row) for row in reversed(rows)]
        except (ValueError, TypeError, KeyError) as exc:
            raise StoreCorruptError(f"{self.path}: the match list cannot be read: {exc}") \
                from None

    def unfinished_matches(self) -> list[MatchSummary]:
        """Matches still open (e.g. when the battery died): offer to resume them."""
        return self.list_matches(unfinished=True)

    def get_match(self, match_id: MatchId) -> Match:
        # A snapshot that reads inconsistent once (a reader beside a busy writer, SQLite
        # 3.40's WAL: an event of a turn past the turns read, in one read transaction) is
        # read again; a damaged file reads the same every time, and says so.
        for _ in range(READ_ATTEMPTS - 1):
            try:
                with self._read() as conn:
                    return self._load_match(conn, match_id)
            except StoreCorruptError:
                continue
        with self._read() as conn:
            return self._load_match(conn, match_id)

    def _load_match(self, conn: sqlite3.Connection, match_id: MatchId) -> Match:
        row = conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?",
                           (match_id,)).fetchone()
        if row is None:
            raise MatchNotFoundError(f"no match {match_id!r} in {self.path}")
        turns = conn.execute(f"SELECT {_TURN_COLUMNS} FROM turns WHERE match_id = ? "
                             "ORDER BY turn_no", (match_id,)).fetchall()
        events = conn.execute("SELECT id, turn_no, at, kind, data FROM events "
                              "WHERE match_id = ? ORDER BY id", (match_id,)).fetchall()
        try:
            return Match(
                _position(row[3]), json.loads(row[2]), from_ms(row[4]),
                tuple(_turn(t) for t in turns),
                tuple(Event(e[1], from_ms(e[2]), event_data_from_json(e[3], json.loads(e[4])),
                            EventId(e[0])) for e in events),
                None if row[5] is None else from_ms(row[5]),
                None if row[6] is None else Result.parse(row[6]),
                json.loads(row[7]), row[1], MatchId(row[0]))
        except (MatchLogError, RulesError, ValueError) as exc:
            raise StoreCorruptError(f"{self.path}: match {match_id} cannot be read: "
                                    f"{exc}") from None

    def resume(self, match_id: MatchId) -> ResumePoint:
        """Where the unfinished match ``match_id`` picks up after a restart."""
        match = self.get_match(match_id)
        if match.finished:
            result = match.result.value if match.result else "?"
            raise MatchLogError(f"match {match_id} is finished ({result}): there is nothing "
                                "to resume")
        return ResumePoint(match, len(match.turns) + 1, match.resume_position())

    def snapshot(self, match_id: MatchId, turn: int) -> bytes | None:
        """The JPEG kept for a turn, if any."""
        with self._read() as conn:
            row = conn.execute("SELECT jpeg FROM snapshots WHERE match_id = ? AND turn_no = ?",
                               (match_id, turn)).fetchone()
        return None if row is None else bytes(row[0])

    def snapshots_of(self, match_id: MatchId) -> dict[int, bytes]:
        with self._read() as conn:
            rows = conn.execute("SELECT turn_no, jpeg FROM snapshots WHERE match_id = ? "
                                "ORDER BY turn_no", (match_id,)).fetchall()
        return {n: bytes(j) for n, j in rows}

    def integrity_check(self) -> list[str]:
        """SQLite's full check of the file: ``[]`` when it is sound, else the problems."""
        with self._read() as conn:
            rows = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
            rows += [f"foreign key: {r}" for r in conn.execute("PRAGMA foreign_key_check")]
        return [] if rows == ["ok"] else [r for r in rows if r != "ok"]


def _checked(matches: Iterable[Match | tuple[Match, Mapping[int, bytes]]]
             ) -> list[tuple[Match, Mapping[int, bytes]]]:
    """Whole matches to store, each with its snapshots (checked: JPEG, of a turn it has)."""
    items: list[tuple[Match, Mapping[int, bytes]]] = [
        (m, {}) if isinstance(m, Match) else m for m in matches]
    for match, snaps in items:
        for n, jpeg in snaps.items():
            if not 1 <= n <= len(match.turns):
                raise MatchLogError(f"snapshot of turn {n}: the match has "
                                    f"{len(match.turns)} turns")
            _check_jpeg(jpeg)
    return items


def _checked_id(match_id: object) -> int:
    """A match id is a whole number: SQLite would compare "3" or 3.0 equal to 3."""
    if isinstance(match_id, bool) or not isinstance(match_id, int):
        raise MatchLogError(f"a match id is a whole number, got {match_id!r}")
    return match_id


def _check_jpeg(data: bytes) -> None:
    if not isinstance(data, bytes | bytearray | memoryview) or bytes(data[:3]) != JPEG_MAGIC:
        head = bytes(data[:8]) if isinstance(data, bytes | bytearray | memoryview) else data
        raise MatchLogError(f"a snapshot must be JPEG data, got {head!r}...")


def _turn_row(t: TurnRecord) -> tuple[object, ...]:
    return (t.side.value, " ".join(t.moves), t.position.to_text(), round(t.seconds * 1000),
            to_ms(t.committed_at), t.pole_markers, t.port_markers)


def _turn(row: tuple[object, ...]) -> TurnRecord:
    side, moves, position, time_ms, committed, pole, port = row
    assert isinstance(moves, str) and isinstance(position, str)
    assert isinstance(time_ms, int) and isinstance(committed, int)
    return TurnRecord(side, tuple(moves.split()), _position(position),  # type: ignore[arg-type]
                      time_ms / 1000, from_ms(committed), pole, port)  # type: ignore[arg-type]


def _summary(match_id: int, game: str, players: str, started: int, ended: int | None,
             result: str | None, turns: int, name: str | None) -> MatchSummary:
    # Kept lean: listing 10,000 matches builds 10,000 of these.
    return MatchSummary(MatchId(match_id), game, _players(players), from_ms(started),
                        None if ended is None else from_ms(ended),
                        None if result is None else _RESULTS[result], turns, name)


_RESULTS = {r.value: r for r in Result}  # a dict lookup: a third of Result(value)'s cost


@functools.lru_cache(maxsize=4096)
def _players(text: str) -> Mapping[str, str]:
    # The same few names come back match after match: parse each spelling once, and share it
    # read-only between the summaries.
    return MappingProxyType(json.loads(text))


def _position(text: str) -> Position:
    return Position.from_text(text)
