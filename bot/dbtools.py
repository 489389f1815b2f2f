"""Database commands for operators: ``python -m bot backup [PATH]``, ``python -m bot migrate-db --to URL``,
and the check that runs before the bot starts (a database from a newer release is refused).

Every message is translated (``data/locales/storage``); the commands return an exit status.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import TextIO

from bot import i18n
from bot.config import redact_url
from bot.storage import TABLES, SchemaTooNew, SQLiteStore, is_postgres_url, open_store
from bot.storage.faults import unwritable


# --- the check before start ------------------------------------------------------------
async def _check(url: str) -> None:
    store = open_store(url)
    await store.open()  # migrates (after an automatic backup of an existing SQLite file)
    try:
        # a read-only file or server, a full disk: refused now, not at the first move (issue 36)
        await store.set_meta("start:writable", str(time.time()))
        # once, after the upgrade to schema 4: ended games of older releases are archived (lean storage)
        while await store.archive_ended(500):
            pass
    finally:
        await store.close()


def check_database(url: str, lang: str, err: TextIO | None = None) -> int:
    """Open (and migrate) the database once; 0, or 2 with a translated reason (no traceback)."""
    err = err or sys.stderr
    try:
        asyncio.run(_check(url))
    except SchemaTooNew as exc:
        print(i18n.t(exc.key, lang, path=redact_url(url), **exc.params), file=err)
        return 2
    except Exception as exc:
        reason = unwritable(exc)  # a read-only file or server, a full disk: said as such
        if reason is not None:
            print(i18n.t("storage.error.unwritable", lang, path=redact_url(url), reason=reason), file=err)
        elif isinstance(exc, OSError | sqlite3.Error | ImportError):
            print(i18n.t("storage.error.open", lang, path=redact_url(url), error=exc), file=err)
        else:  # a driver's own errors (refused login, unknown database…)
            print(i18n.t("storage.error.open", lang, path=redact_url(url), error=f"{type(exc).__name__}: {exc}"),
                  file=err)
        return 2
    return 0


# --- backup ------------------------------------------------------------------------------
def backup_sqlite(path: str, target: str) -> str:
    """A consistent copy of a SQLite database with SQLite's online backup API (safe while the bot runs)."""
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tmp = f"{target}.part"
    Path(tmp).unlink(missing_ok=True)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(tmp, target)
    return target


def backup(url: str, target: str | None, lang: str, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if is_postgres_url(url):
        print(i18n.t("storage.backup.postgres", lang, url=redact_url(url)), file=out)
        return 0
    if not Path(url).is_file():
        print(i18n.t("storage.backup.missing", lang, path=url), file=err)
        return 2
    target = target or f"{url}.backup-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        backup_sqlite(url, target)
    except (OSError, sqlite3.Error) as exc:
        print(i18n.t("storage.error.open", lang, path=url, error=exc), file=err)
        return 2
    print(i18n.t("storage.backup.done", lang, path=target, source=url), file=out)
    return 0


# --- migrate-db --------------------------------------------------------------------------
class MigrationError(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def _checksum(text: str | None, packed: bytes | None) -> str:
    """A game's state as stored: its JSON text, or its archive once the game has ended."""
    return hashlib.sha256((text or "").encode() + bytes(packed or b"")).hexdigest()


async def copy_sqlite_to_postgres(src_path: str, dest_url: str) -> dict[str, int]:
    """Copy every table of the SQLite database into an empty PostgreSQL one, in one transaction, and verify
    row counts and each game's state checksum. Returns ``{table: rows}``.

    The rows go in with binary ``COPY`` (psycopg's ``cursor.copy()``), typed by the destination's columns."""
    import psycopg

    src = SQLiteStore(src_path)
    await src.open()  # the source at the newest schema first (its automatic backup is made if it moves)
    dest = open_store(dest_url)
    await dest.open()
    try:
        # one transaction (psycopg's default: no autocommit), committed only after the checks below
        con = await psycopg.AsyncConnection.connect(dest_url)
        try:
            cur = con.cursor()

            async def rows_of(sql: str, params: tuple = ()) -> list[tuple]:
                await cur.execute(sql, params)
                return await cur.fetchall()

            if (await rows_of("SELECT EXISTS (SELECT 1 FROM games)"))[0][0]:
                raise MigrationError("storage.migrate.not_empty", url=redact_url(dest_url))
            counts: dict[str, int] = {}
            for table in TABLES:
                src_cols = [r[1] for r in await src.execute(f"PRAGMA table_info({table})")]
                types = dict(await rows_of(
                    "SELECT column_name, udt_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = %s", (table,)))
                cols = [c for c in src_cols if c in types]
                floats = [types[c] == "float8" for c in cols]
                rows = [tuple(float(v) if f and v is not None else v for v, f in zip(r, floats, strict=True))
                        for r in await src.execute(f"SELECT {', '.join(cols)} FROM {table}")]
                await cur.execute(f"DELETE FROM {table}")  # meta rows a fresh database may hold
                if rows:
                    async with cur.copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN (FORMAT BINARY)") as copy:
                        copy.set_types([types[c] for c in cols])
                        for row in rows:
                            await copy.write_row(row)
                counts[table] = len(rows)
            for table, column in (("games", "id"), ("events", "id"), ("tournaments", "id"), ("queue_matches", "id")):
                await cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                                  f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
            # verify inside the transaction: a mismatch rolls it back and leaves the destination empty
            for table, n in counts.items():
                got = (await rows_of(f"SELECT COUNT(*) FROM {table}"))[0][0]
                if got != n:
                    raise MigrationError("storage.migrate.count_mismatch", table=table, source=n, copied=got)
            sql = ("SELECT g.id, g.version, g.state, a.state AS packed FROM games g "
                   "LEFT JOIN archives a ON a.game_id = g.id")
            want = {r[0]: (r[1], _checksum(r[2], r[3])) for r in await src.execute(sql)}
            got_sums = {r[0]: (r[1], _checksum(r[2], r[3])) for r in await rows_of(sql)}
            bad = sorted(i for i in want if got_sums.get(i) != want[i])
            if bad or len(got_sums) != len(want):
                raise MigrationError("storage.migrate.checksum_mismatch", games=", ".join(map(str, bad[:20])))
            await con.commit()
        finally:
            await con.close()  # without a commit, the transaction is rolled back
        return counts
    finally:
        await dest.close()
        await src.close()


def migrate_db(src: str, argv: list[str], lang: str, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    dest = None
    if len(argv) == 2 and argv[0] == "--to":
        dest = argv[1]
    elif len(argv) == 1 and argv[0].startswith("--to="):
        dest = argv[0].split("=", 1)[1]
    if not dest or not is_postgres_url(dest):
        print(i18n.t("storage.migrate.usage", lang), file=err)
        return 2
    if is_postgres_url(src) or not Path(src).is_file():
        print(i18n.t("storage.migrate.not_sqlite", lang, path=redact_url(src)), file=err)
        return 2
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(src, dest))
    except MigrationError as exc:
        print(i18n.t(exc.key, lang, **exc.params), file=err)
        return 1
    except SchemaTooNew as exc:
        print(i18n.t(exc.key, lang, path=src, **exc.params), file=err)
        return 2
    except Exception as exc:
        print(i18n.t("storage.error.open", lang, path=redact_url(dest), error=f"{type(exc).__name__}: {exc}"),
              file=err)
        return 2
    table = ", ".join(f"{t} {n}" for t, n in counts.items())
    print(i18n.t("storage.migrate.done", lang, source=src, url=redact_url(dest), counts=table,
                 games=counts.get("games", 0)), file=out)
    return 0
