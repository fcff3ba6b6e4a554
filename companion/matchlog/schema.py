"""The match store's SQLite schema, its versions and forward migrations, and opening a file.

The schema version lives in ``PRAGMA user_version`` and the file is marked as a match store by
``PRAGMA application_id``. A new store is version 1 plus every migration, so a fresh file and
a migrated one are built by the same statements. Opening never rewrites a file it refuses:
the header is checked from the bytes, then the version through a read-only connection, and only
a file that passes both is opened for writing (and migrated in one transaction).
"""

from __future__ import annotations

import sqlite3
import struct
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.matchlog.errors import MatchLogError, StoreCorruptError, StoreVersionError

APPLICATION_ID = 0x54434D4C  # "TCML": tabletop-companion match log
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000

# Version 1: matches and their committed turns, nothing else.
SCHEMA_V1: tuple[str, ...] = (
    f"PRAGMA application_id = {APPLICATION_ID}",
    """CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,          -- JSON: the flags that differ from the default rules
        players TEXT NOT NULL,          -- JSON: {"south": name, "north": name}
        start TEXT NOT NULL,            -- start position, rules-core text notation
        started_at INTEGER NOT NULL,    -- ms since 1970-01-01 UTC
        ended_at INTEGER,               -- NULL while the match is unfinished
        result TEXT                     -- south | north | draw | abandoned; NULL: unfinished
    )""",
    """CREATE TABLE turns (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        turn_no INTEGER NOT NULL,       -- 1, 2, ... within the match
        moves TEXT NOT NULL,            -- notation, space separated; '' is a pass
        position TEXT NOT NULL,         -- after the turn, handed over: text notation
        time_ms INTEGER NOT NULL,       -- time the turn took
        committed_at INTEGER NOT NULL,  -- ms since 1970-01-01 UTC
        PRIMARY KEY (match_id, turn_no)
    ) WITHOUT ROWID""",
)


@dataclass(frozen=True, slots=True)
class Migration:
    """Statements that take a store from version ``to - 1`` to version ``to``."""

    to: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(2, "events, snapshots, tags, side and markers per turn, turn counts", (
        "ALTER TABLE matches ADD COLUMN tags TEXT NOT NULL DEFAULT '{}'",
        # Kept with every commit so listing 10,000 matches never counts turns.
        "ALTER TABLE matches ADD COLUMN turn_count INTEGER NOT NULL DEFAULT 0",
        "UPDATE matches SET turn_count = "
        "(SELECT count(*) FROM turns WHERE turns.match_id = matches.id)",
        "CREATE INDEX matches_unfinished ON matches(id) WHERE ended_at IS NULL",
        "ALTER TABLE turns ADD COLUMN side TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE turns ADD COLUMN pole_markers INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE turns ADD COLUMN port_markers INTEGER NOT NULL DEFAULT 0",
        # Version 1 turns: the mover is the side not to move afterwards (the second field of
        # the position text), and a move costs a Pole marker exactly when its notation starts
        # with P (Pc1-c3, Pc1*e1, Pd4!c1), a Port marker otherwise (V..., T...).
        """UPDATE turns SET
            side = CASE substr(position, instr(position, ' ') + 1, 5)
                   WHEN 'south' THEN 'north' ELSE 'south' END,
            pole_markers = (length(' ' || moves) - length(replace(' ' || moves, ' P', ''))) / 2,
            port_markers = CASE moves WHEN '' THEN 0
                   ELSE length(moves) - length(replace(moves, ' ', '')) + 1 END
                 - (length(' ' || moves) - length(replace(' ' || moves, ' P', ''))) / 2""",
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
            turn_no INTEGER NOT NULL,   -- the turn in progress: committed turns + 1
            at INTEGER NOT NULL,        -- ms since 1970-01-01 UTC
            kind TEXT NOT NULL CHECK (kind IN ('illegal', 'correction', 'die', 'note')),
            data TEXT NOT NULL          -- JSON, fields per kind
        )""",
        "CREATE INDEX events_by_match ON events(match_id, id)",
        """CREATE TABLE snapshots (
            match_id INTEGER NOT NULL,
            turn_no INTEGER NOT NULL,
            jpeg BLOB NOT NULL,         -- the stable camera frame the turn was judged on
            PRIMARY KEY (match_id, turn_no),
            FOREIGN KEY (match_id, turn_no) REFERENCES turns(match_id, turn_no)
                ON DELETE CASCADE
        ) WITHOUT ROWID""",
    )),
    Migration(3, "Solitaire Quests: the solution classes each player has found", (
        """CREATE TABLE quest_finds (
            player TEXT NOT NULL,
            quest TEXT NOT NULL,          -- queens, queens7, queens6, queens5, rooks
            class_number INTEGER NOT NULL,  -- 1-based, in the quest's fixed class order
            class_id TEXT NOT NULL,       -- the class's canonical squares, e.g. a1-b3-c5
            found_at INTEGER NOT NULL,    -- ms since 1970-01-01 UTC
            PRIMARY KEY (player, quest, class_number)
        ) WITHOUT ROWID""",
    )),
)

SCHEMA_VERSION = 1 + len(MIGRATIONS)
assert all(m.to == i + 2 for i, m in enumerate(MIGRATIONS)), "migrations must be in order"


# -- checking a file before SQLite writes to it --------------------------------------------------


def check_header(path: Path) -> None:
    """Refuse, from the bytes alone, a file that is not SQLite or has lost pages."""
    size = path.stat().st_size
    if size == 0:
        return  # SQLite's own empty database: nothing to lose, it becomes a new store
    with path.open("rb") as f:
        header = f.read(100)
    if len(header) < 100 and SQLITE_MAGIC.startswith(header[:16]):
        raise StoreCorruptError(f"{path} is truncated: {size} bytes, not even an SQLite "
                                "header (100 bytes)")
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise StoreCorruptError(f"{path} is not a match store: not an SQLite database "
                                f"(starts with {header[:16]!r})")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    change_counter, pages = struct.unpack(">II", header[24:32])
    valid_for = struct.unpack(">I", header[92:96])[0]
    if page_size < 512 or page_size & (page_size - 1):
        raise StoreCorruptError(f"{path} is corrupt: page size {page_size} in its header")
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        # A crash during a checkpoint may leave the header ahead of the pages; the write-ahead
        # log still holds them and SQLite finishes the checkpoint. Trust SQLite here.
        return
    if size % page_size or (change_counter == valid_for and size < pages * page_size):
        raise StoreCorruptError(f"{path} is truncated: {size} bytes, its header says "
                                f"{pages} pages of {page_size} bytes")


def _probe(path: Path) -> tuple[int, int, int]:
    """(user_version, application_id, number of schema objects), read-only: a refused file is
    never written, not even by a checkpoint on close. A file already in WAL mode whose log a
    killed writer left to be recovered cannot be read read-only (the recovery writes the
    log's index): it is read as any reader would, which changes nothing of its content."""
    try:
        return _read_ids(f"file:{quote(str(path.resolve()))}?mode=ro", path)
    except StoreCorruptError as exc:
        with path.open("rb") as f:
            header = f.read(20)
        if "readonly" not in str(exc) or header[18:20] != b"\x02\x02":  # WAL both ways
            raise
        return _read_ids(f"file:{quote(str(path.resolve()))}", path)


def _read_ids(uri: str, path: Path) -> tuple[int, int, int]:
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise StoreCorruptError(f"cannot open {path}: {exc}") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        return version, app, objects
    except sqlite3.DatabaseError as exc:
        raise StoreCorruptError(f"{path} is corrupt or not a match store: {exc}") from None
    finally:
        conn.close()


def open_connection(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """A connection to the store at ``path``, created or migrated to :data:`SCHEMA_VERSION`.

    WAL journal, ``synchronous=FULL`` (a commit is on disk when COMMIT returns), foreign keys
    on. Raises :class:`StoreCorruptError` / :class:`StoreVersionError` naming the file, which
    is left untouched.
    """
    if not path.exists():
        if not create:
            raise MatchLogError(f"no match store at {path}")
        path.parent.mkdir(parents=True, exist_ok=True)
    elif path.is_dir():
        raise StoreCorruptError(f"{path} is a directory, not a match store")
    else:
        check_header(path)
        if path.stat().st_size:
            version, app, objects = _probe(path)
            _check_version(path, version, app, objects)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                               timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise StoreCorruptError(f"cannot open {path}: {exc}") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise MatchLogError(f"{path}: SQLite refused WAL mode (journal_mode={mode}); "
                                "the store needs a local file system")
        conn.execute("PRAGMA synchronous = FULL")
        _migrate(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "readonly" in str(exc):  # a sound store this user or disk may not write
            raise MatchLogError(f"{path} is read-only here ({exc}): the match log writes to "
                                "it; check its and its folder's permissions, or give --db a "
                                "writable path") from None
        raise StoreCorruptError(f"{path} is corrupt or not a match store: {exc}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _check_version(path: Path, version: int, app: int, objects: int) -> None:
    if version == 0 and objects == 0:
        return  # an empty database (or a store whose creation never committed)
    if app != APPLICATION_ID:
        raise StoreCorruptError(f"{path} is an SQLite database but not a match store "
                                f"(application_id {app:#x}, user_version {version})")
    if version > SCHEMA_VERSION:
        raise StoreVersionError(
            f"{path} is a match store of schema version {version}, newer than this "
            f"companion understands ({SCHEMA_VERSION}): upgrade tabletop-companion "
            "(the file was not changed)")
    if version < 1:
        raise StoreCorruptError(f"{path}: match store with schema version {version}")


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # one transaction: a crash leaves the old version whole
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may
        app = conn.execute("PRAGMA application_id").fetchone()[0]  # have migrated meanwhile
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        _check_version(path, version, app, objects)
        if version == 0:
            for statement in SCHEMA_V1:
                conn.execute(statement)
            version = 1
        for migration in MIGRATIONS:
            if migration.to > version:
                for statement in migration.statements:
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
