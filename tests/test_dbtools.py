"""Data safety and moving house: the automatic backup before a migration, ``python -m bot backup`` and its
documented restore (SQLite and PostgreSQL), the refusal of a database from a newer release, and
``python -m bot migrate-db`` from SQLite to PostgreSQL with every game kind, played on after the move."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

import engines
from bot import i18n
from bot.__main__ import main
from bot.dbtools import redact_url
from bot.sessions import Player, SessionService
from bot.storage import FINISHED, MIGRATIONS, RUNNING, TABLES, SQLiteStore, open_store
from bot.storage.sqlite import backup_name
from tests.pg import PgServer

PLAYERS = [Player(100 + i, f"P{i}") for i in range(8)]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seats_for(kind: str) -> int:
    e = engines.get(kind)
    return min(max(2, e.min_players), e.max_players)


async def new_game(svc: SessionService, kind: str, channel: int = 10):
    g = await svc.open_lobby(kind, guild_id=1, channel_id=channel, player=PLAYERS[0])
    for p in PLAYERS[1:seats_for(kind)]:
        g = await svc.join(g.id, p)
    return (await svc.start(g.id, PLAYERS[0])).game


async def play(svc: SessionService, game_id: int, moves: int | None = None):
    """The engines' own AI plays every seat: ``moves`` moves, or to the end."""
    game = await svc.get(game_id)
    n = 0
    while game.status == RUNNING and (moves is None or n < moves):
        seat = min(svc.expected_seats(game))
        engine = svc.engine(game.kind)
        action = engine.ai_action(engine.from_dict(game.state), seat, 1)
        game = (await svc.act(game_id, game.seats[seat].user_id, action, version=game.version)).game
        n += 1
        assert n < 5000, f"{game.kind} never ended"
    return game


def old_database(path: str, schema: int) -> None:
    """A database as release ``schema`` left it (its migrations only), with one finished game's clocks."""
    con = sqlite3.connect(path)
    for script in MIGRATIONS[:schema]:
        con.executescript(script)
    con.execute(f"PRAGMA user_version = {schema}")
    con.execute("INSERT INTO games (id, guild_id, channel_id, kind, status, state, version, seed, creator_id, "
                "created_at, updated_at) VALUES (1, 1, 10, 'ludix', 'finished', '{}', 5, 1, 100, 0, 0)")
    con.execute("INSERT INTO games (id, guild_id, channel_id, kind, status, state, version, seed, creator_id, "
                "created_at, updated_at) VALUES (2, 1, 10, 'ludix', 'running', '{}', 3, 1, 100, 0, 0)")
    rows = [(1, 0, "reminder", 1, "done"), (1, 0, "timeout", 1, "void"),  # a finished game: nothing stays
            (2, 0, "reminder", 1, "done"), (2, 0, "timeout", 1, "void"),  # an old epoch: goes
            (2, 0, "reminder", 3, "done"), (2, 0, "timeout", 3, "pending")]  # the newest epoch stays
    con.executemany("INSERT INTO deadlines (game_id, seat, kind, version, due, since, state) "
                    "VALUES (?, ?, ?, ?, 0, 0, ?)", rows)
    con.commit()
    con.close()


async def test_an_old_database_is_backed_up_then_migrated_and_compacted(tmp_path):
    path = str(tmp_path / "old.db")
    old_database(path, 3)
    store = SQLiteStore(path)
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    assert store.last_backup == backup_name(path, 3) == f"{path}.schema3.bak"
    kept = {(d.game_id, d.kind, d.version, d.state) for d in await store.deadlines_of(1) + await store.deadlines_of(2)}
    assert kept == {(2, "reminder", 3, "done"), (2, "timeout", 3, "pending")}
    await store.close()
    # the backup is the database exactly as it was: schema 3, every deadline
    con = sqlite3.connect(store.last_backup)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 3
    assert con.execute("SELECT COUNT(*) FROM deadlines").fetchone()[0] == 6
    con.close()
    # nothing to migrate the next time: no new backup
    os.remove(backup_name(path, 3))
    store = SQLiteStore(path)
    await store.open()
    assert store.last_backup is None and not os.path.exists(backup_name(path, 3))
    await store.close()


async def test_a_new_database_needs_no_backup(tmp_path):
    path = str(tmp_path / "new.db")
    store = SQLiteStore(path)
    await store.open()
    await store.close()
    assert store.last_backup is None
    assert not any(".bak" in name for name in os.listdir(tmp_path))


async def test_backup_while_running_then_the_documented_restore(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "ludibot.db")
    monkeypatch.setenv("LUDIBOT_DB", path)
    monkeypatch.setenv("LUDIBOT_LANG", "en")
    store = SQLiteStore(path)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 77)
    game = await play(svc, (await new_game(svc, "ludix")).id, 3)
    target = str(tmp_path / "saved.db")
    assert main(["backup", target]) == 0  # while the bot's connection is open (WAL)
    assert target in capsys.readouterr().out
    later = await play(svc, game.id, 4)
    assert later.version > game.version
    await store.close()
    # the README's restore: stop the bot, copy the backup over the file, remove -wal/-shm, start
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    shutil.copyfile(target, path)
    store = SQLiteStore(path)
    await store.open()
    back = await store.get_game(game.id)
    assert (back.version, back.state) == (game.version, game.state)
    assert len(await store.events(game.id)) == len([e for e in await store.events(game.id)
                                                      if e.version <= game.version])
    svc = SessionService(store)
    assert (await play(svc, game.id, 1)).version == game.version + 1  # and it plays on
    await store.close()


def test_backup_without_a_database_is_a_clean_refusal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LUDIBOT_DB", str(tmp_path / "none.db"))
    monkeypatch.setenv("LUDIBOT_LANG", "fr")
    assert main(["backup"]) == 2
    assert capsys.readouterr().err.strip() == i18n.t("storage.backup.missing", "fr", path=str(tmp_path / "none.db"))


def test_the_bot_refuses_a_database_from_a_newer_release(tmp_path):
    path = str(tmp_path / "future.db")
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.close()
    env = {**os.environ, "LUDIBOT_DB": path, "DISCORD_TOKEN": "MTIz.x.y", "LUDIBOT_LANG": "fr",
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/"}
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**env, "PYTHONPATH": ROOT},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert i18n.t("storage.error.too_new", "fr", path=path, found=99, known=len(MIGRATIONS)) in run.stderr
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 99  # untouched
    assert con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    con.close()


async def test_the_bot_refuses_to_start_on_a_read_only_database(tmp_path):
    """A read-only database file (immutable: read-only even for root, as tests run) is refused at start
    with the reason and what to do, exit status 2, no traceback — not at the first move."""
    path = str(tmp_path / "ro.db")
    store = open_store(path)
    await store.open()
    await store.close()
    if subprocess.run(["chattr", "+i", path], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        env = {**os.environ, "LUDIBOT_DB": path, "DISCORD_TOKEN": "MTIz.x.y", "LUDIBOT_LANG": "fr",
               "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/"}
        run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**env, "PYTHONPATH": ROOT},
                             capture_output=True, text=True, timeout=120)
    finally:
        subprocess.run(["chattr", "-i", path], capture_output=True)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert i18n.t("storage.error.unwritable", "fr", path=path, reason="readonly") in run.stderr
    assert "lecture seule" in run.stderr and "ne démarre pas" in run.stderr


def test_urls_never_show_a_password():
    assert redact_url("postgresql://bot:s3cret@db:5432/ludibot") == "postgresql://bot:***@db:5432/ludibot"
    assert redact_url("ludibot.db") == "ludibot.db"


# --- PostgreSQL ----------------------------------------------------------------------------
async def test_postgres_backup_prints_pg_dump_and_the_printed_way_restores(pg_server: PgServer, monkeypatch,
                                                                           capsys, tmp_path):
    url = await pg_server.new_database()
    monkeypatch.setenv("LUDIBOT_DB", url)
    monkeypatch.setenv("LUDIBOT_LANG", "en")
    assert main(["backup"]) == 0
    said = capsys.readouterr().out
    assert "pg_dump --format=custom" in said and "pg_restore --clean --if-exists" in said
    store = open_store(url)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 5)
    game = await play(svc, (await new_game(svc, "ludix")).id, 3)
    dump = str(tmp_path / "ludibot.dump")
    env = {**os.environ, "LUDIBOT_DB": url}
    # the commands exactly as printed
    commands = [line.strip() for line in said.splitlines() if line.strip().startswith(("pg_dump", "pg_restore"))]
    subprocess.run(["bash", "-c", commands[0].replace("ludibot.dump", dump)], check=True, env=env,
                   cwd=tmp_path, capture_output=True)
    await play(svc, game.id, 3)
    await store.close()
    subprocess.run(["bash", "-c", commands[1].replace("ludibot.dump", dump)], check=True, env=env,
                   cwd=tmp_path, capture_output=True)
    store = open_store(url)
    await store.open()
    back = await store.get_game(game.id)
    assert (back.version, back.state) == (game.version, game.state)
    assert (await play(SessionService(store), game.id, 1)).version == game.version + 1
    await store.close()


@pytest.fixture(autouse=True)
def _pg_tools_on_path(monkeypatch):
    from tests.pg import bin_dir

    found = bin_dir()
    if found:
        monkeypatch.setenv("PATH", f"{found}{os.pathsep}{os.environ.get('PATH', '')}")


def test_migrate_db_round_trip_with_every_game_kind(pg_server: PgServer, tmp_path, monkeypatch, capsys):
    """(Not async: ``migrate-db`` is a command with its own event loop.)"""
    import asyncio

    path = str(tmp_path / "ludibot.db")
    kinds = engines.available()
    running, finished = {}, {}

    async def prepare():
        store = SQLiteStore(path)
        await store.open()
        svc = SessionService(store, seed_source=lambda: 31)
        for i, kind in enumerate(kinds):
            running[kind] = (await play(svc, (await new_game(svc, kind, channel=10 + i)).id, 3)).id
            done = await play(svc, (await new_game(svc, kind, channel=100 + i)).id)
            assert done.status == FINISHED
            finished[kind] = done.id
        from bot.community import ratings

        for game_id in finished.values():
            await ratings.rate(store, game_id)
        await store.set_guild_settings(1, {"timers": {"ludix": {"reminder_h": 2}}})
        await store.set_user_prefs(100, {"dm": True})
        await store.set_meta("commands_hash", "abc")
        await store.schedule_deadlines(running[kinds[0]], 99, 5.0, [(0, "reminder", 10.0), (0, "timeout", 20.0)])
        before = {g: (await store.get_game(g), await store.events(g), await store.results(g))
                  for g in [*running.values(), *finished.values()]}
        board = await store.leaderboard(1, kinds[0])
        await store.close()
        return before, board

    before, board = asyncio.run(prepare())
    assert board  # two humans played each finished game: the board is not empty

    url = pg_server.new_database_sync()
    monkeypatch.setenv("LUDIBOT_DB", path)
    monkeypatch.setenv("LUDIBOT_LANG", "en")
    assert main(["migrate-db", "--to", url]) == 0
    out = capsys.readouterr().out
    assert f"{len(before)} games" in out
    assert main(["migrate-db", "--to", url]) == 1  # never over a database that holds games
    assert "already holds games" in capsys.readouterr().err

    async def check():
        pg = open_store(url)
        await pg.open()
        for game_id, (game, events, results) in before.items():
            assert await pg.get_game(game_id) == game
            assert await pg.events(game_id) == events
            assert await pg.results(game_id) == results
        assert await pg.leaderboard(1, kinds[0]) == board
        assert await pg.guild_settings(1) == {"timers": {"ludix": {"reminder_h": 2}}}
        assert await pg.user_prefs(100) == {"dm": True}
        assert await pg.get_meta("commands_hash") == "abc"
        assert {d.kind for d in await pg.deadlines_of(running[kinds[0]])} == {"reminder", "timeout"}
        assert await pg.unrated_games() == []
        # played on and finished on PostgreSQL, through the session service; new games get fresh ids
        svc = SessionService(pg, seed_source=lambda: 32)
        for kind, game_id in running.items():
            assert (await play(svc, game_id)).status == FINISHED, kind
        fresh = await new_game(svc, kinds[0], channel=999)
        assert fresh.id > max(before)
        await pg.close()

    asyncio.run(check())


async def test_migrate_db_refuses_a_wrong_target(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LUDIBOT_DB", str(tmp_path / "none.db"))
    monkeypatch.setenv("LUDIBOT_LANG", "fr")
    assert main(["migrate-db", "--to", "mysql://x"]) == 2
    assert capsys.readouterr().err.strip() == i18n.t("storage.migrate.usage", "fr")
    assert main(["migrate-db", "--to", "postgresql://127.0.0.1:9/x"]) == 2
    assert "LUDIBOT_DB" in capsys.readouterr().err


def test_every_table_is_copied():
    con = sqlite3.connect(":memory:")
    for script in MIGRATIONS:
        con.executescript(script)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} - {"sqlite_sequence"}
    assert tables == set(TABLES)
