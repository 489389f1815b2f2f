"""Issue 29: a database of the release before the unified store (schema 9), with running, finished,
cancelled (archived) games and a lobby, opens with this store on both backends, reads back the same,
and plays on. The fixtures are that release's own databases, dumped (tests/fixtures/release_db.py)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.community import Community
from bot.community.ratings import rate_pending
from bot.sessions import Player, SessionService
from bot.storage import CANCELLED, FINISHED, RUNNING, open_store

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "release9.json").read_text(encoding="utf-8"))
GUILD = 1
ALICE, BRUNO = Player(100, "Alice"), Player(101, "Bruno")


@pytest.fixture
async def release_db(backend, tmp_path, request) -> str:
    """A database exactly as the release left it."""
    if backend == "sqlite":
        path = str(tmp_path / "release.db")
        con = sqlite3.connect(path)
        con.executescript((FIXTURES / "release9.sqlite.sql").read_text(encoding="utf-8"))
        con.close()
        return path
    pg = request.getfixturevalue("pg_server")
    url = await pg.new_database("release")
    subprocess.run([str(pg.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(pg.port),
                    "-U", "postgres", "-d", url.rsplit("/", 1)[1], "-f", str(FIXTURES / "release9.postgresql.sql")],
                   check=True, capture_output=True)
    return url


async def test_a_release_database_opens_reads_back_the_same_and_plays_on(release_db, backend):
    clock = [1_800_000_000.0]
    store = open_store(release_db, clock=lambda: clock[0])
    await store.open()
    try:
        # the release's schema (9) is migrated to this one's (10: lobbies through the outbox, issue 24)
        assert EXPECTED["schema"] == 9 and await store.schema_version() == store.latest_schema == 15
        # everything reads back as the release wrote it
        for gid, want in EXPECTED["games"].items():
            g = await store.get_game(int(gid))
            assert (g.kind, g.status, g.version, g.state) == (want["kind"], want["status"], want["version"],
                                                               want["state"])
            assert [[s.seat, s.user_id, s.name] for s in g.seats] == want["seats"]
            assert [e.version for e in await store.events(g.id)] == want["log"]
        finished, cancelled = EXPECTED["finished"], EXPECTED["cancelled"]
        running, lobby = EXPECTED["running"], EXPECTED["lobby"]
        assert [[r.seat, r.user_id, r.score, r.rank] for r in await store.results(finished)] == EXPECTED["results"]
        assert [[r.user_id, r.games] for r in await store.leaderboard(GUILD, "ludix")] == EXPECTED["leaderboard"]
        assert [[d.seat, d.kind, d.version] for d in await store.deadlines_of(running)] == EXPECTED["deadlines"]
        assert await store.guild_settings(GUILD) == {"reminder_hours": 12}
        assert await store.user_prefs(101) == {"lang": "fr"}
        assert len(await store.vacations(102, 0)) == 1
        assert await store.ballots(running, 0, EXPECTED["games"][str(running)]["version"]) == {101: "wait"}
        assert await store.archive_ended(10) == 0  # the ended games were archived by the release already
        assert (await store.get_game(cancelled)).status == CANCELLED

        # and it plays on: the running game moves, its turn columns follow, it ends and is archived
        svc = SessionService(store, seed_source=lambda: 4242, clock=lambda: clock[0])
        Community(store, svc, None, clock=lambda: clock[0])
        g = await store.get_game(running)
        for _ in range(3):
            seat = min(svc.expected_seats(g))
            engine = svc.engine(g.kind)
            clock[0] += 30
            out = await svc.act(g.id, g.seats[seat].user_id, engine.ai_action(engine.from_dict(g.state), seat, 1),
                                version=g.version)
            assert out.game.version == g.version + 1 and out.game == await store.get_game(g.id)
            g = out.game
        assert [e.version for e in await store.events(g.id)][-4:] == list(range(g.version - 3, g.version + 1))
        turns = await store.execute("SELECT turn_version FROM games WHERE id = ?", (g.id,))
        assert turns[0]["turn_version"] == g.version
        assert {d.version for d in await store.deadlines_of(g.id)} <= set(range(g.version + 1))
        await svc.cancel(g.id, ALICE)
        assert (await store.get_game(g.id)).state == g.state and len(await store.events(g.id)) == len(
            EXPECTED["games"][str(running)]["log"]) + 3
        # the lobby fills and starts; a new game is played to its end and rated beside the release's
        lob = await svc.join(lobby, BRUNO)
        assert [s.name for s in lob.seats] == ["Chloé", "Bruno"]
        new = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=99, player=ALICE, options={"target": 50})
        new = (await svc.start((await svc.join(new.id, BRUNO)).id, ALICE)).game
        while new.status == RUNNING:
            seat = min(svc.expected_seats(new))
            engine = svc.engine(new.kind)
            clock[0] += 30
            new = (await svc.act(new.id, new.seats[seat].user_id,
                                 engine.ai_action(engine.from_dict(new.state), seat, 1))).game
        assert new.status == FINISHED and new.id > max(int(i) for i in EXPECTED["games"])
        await rate_pending(store)  # (the community rates a game as it ends; this catches up otherwise)
        assert await store.unrated_games() == []
        board = {r.user_id: r.games for r in await store.leaderboard(GUILD, "ludix")}
        assert board == {uid: n + 1 for uid, n in EXPECTED["leaderboard"]}
        assert len(await store.finished_games(GUILD)) == 2
    finally:
        await store.close()


SCHEMA_SQL = {
    "sqlite": ("SELECT type || ' ' || name || ': ' || COALESCE(sql, '') AS d FROM sqlite_master "
               "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"),
    "postgresql": ("SELECT d FROM (SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' "
                   "|| is_nullable || ' ' || COALESCE(column_default, '') AS d FROM information_schema.columns "
                   "WHERE table_schema = 'public' UNION ALL SELECT 'index ' || indexdef FROM pg_indexes "
                   "WHERE schemaname = 'public' UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' "
                   "|| conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint "
                   "WHERE connamespace = 'public'::regnamespace) t ORDER BY d"),
}


async def test_a_fresh_database_gets_the_release_s_schema_to_the_letter(release_db, db_url, backend):
    """The migrations written once render, for each backend, the schema its own list used to build."""
    schemas = []
    for url in (release_db, db_url):
        store = open_store(url)
        await store.open()
        try:
            schemas.append([r["d"].replace("public.", "") for r in await store.execute(SCHEMA_SQL[backend])])
        finally:
            await store.close()
    assert len(schemas[0]) > 30 and schemas[0] == schemas[1]
