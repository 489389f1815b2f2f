"""SQLite store: migrations, WAL, compare-and-swap, event log, results, settings."""

from __future__ import annotations

import asyncio

from bot.storage import FINISHED, MIGRATIONS, ResultRow, Seat, SQLiteStore


async def _game(store):
    return await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                   options={"target": 300}, seed=7)


async def test_migrations_are_numbered_and_idempotent(db_path):
    s = SQLiteStore(db_path)
    await s.open()
    assert await s.schema_version() == len(MIGRATIONS)
    await s.close()
    s = SQLiteStore(db_path)
    await s.open()  # applying again changes nothing
    assert await s.schema_version() == len(MIGRATIONS)
    async with s.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await s.close()


async def test_create_and_read_back(store):
    g = await _game(store)
    assert g.status == "lobby" and g.version == 0 and g.seats[0].name == "Alice"
    again = await store.get_game(g.id)
    assert again.options == {"target": 300} and again.creator_id == 100
    assert [x.id for x in await store.games_in_channel(10)] == [g.id]
    assert await store.games_in_channel(11) == []


async def test_compare_and_swap_lets_exactly_one_writer_win(store):
    g = await _game(store)
    assert await store.start_game(g.id, 0, g.seats + [Seat(1, 101, "Bruno")], {"n": 0})
    results = await asyncio.gather(*[
        store.commit_action(g.id, 1, state={"n": i}, seat=0, user_id=100, action={"type": "roll", "i": i},
                            events=[]) for i in range(5)])
    assert sorted(results) == [False, False, False, False, True]
    g = await store.get_game(g.id)
    assert g.version == 2
    events = await store.events(g.id)
    assert len(events) == 1 and events[0].action["i"] == g.state["n"]


async def test_two_processes_sharing_the_file_cannot_both_apply(db_path):
    a, b = SQLiteStore(db_path), SQLiteStore(db_path)
    await a.open()
    await b.open()
    g = await _game(a)
    await a.start_game(g.id, 0, g.seats, {"n": 0})
    ok = await asyncio.gather(
        a.commit_action(g.id, 1, state={"n": 1}, seat=0, user_id=100, action={}, events=[]),
        b.commit_action(g.id, 1, state={"n": 2}, seat=0, user_id=100, action={}, events=[]))
    assert sorted(ok) == [False, True]
    assert len(await b.events(g.id)) == 1
    await a.close()
    await b.close()


async def test_results_and_status_are_written_with_the_last_action(store):
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats, {})
    ok = await store.commit_action(g.id, 1, state={"over": True}, seat=0, user_id=100, action={"type": "stop"},
                                   events=[{"type": "game_over"}], status=FINISHED,
                                   results=[ResultRow(g.id, 0, 100, 312, 1)])
    assert ok
    g = await store.get_game(g.id)
    assert g.status == FINISHED
    assert [(r.user_id, r.score, r.rank) for r in await store.results(g.id)] == [(100, 312, 1)]


async def test_a_failed_transaction_leaves_nothing(store):
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats, {})

    class Boom(Exception):
        pass

    async def work(db):
        await db.execute("UPDATE games SET state = '{\"x\":1}' WHERE id = ?", (g.id,))
        raise Boom

    try:
        await store._tx(work)
    except Boom:
        pass
    assert (await store.get_game(g.id)).state == {}


async def test_guild_settings_and_meta(store):
    assert await store.guild_settings(5) == {}
    await store.set_guild_settings(5, {"reminder_hours": 12})
    assert await store.guild_settings(5) == {"reminder_hours": 12}
    assert await store.get_meta("x") is None
    await store.set_meta("x", "1")
    await store.set_meta("x", "2")
    assert await store.get_meta("x") == "2"


async def test_rate_limit_slots_are_booked_across_processes(db_path):
    """Two stores on one file (two processes): Discord's IDENTIFY buckets are shared by every process."""
    a, b = SQLiteStore(db_path), SQLiteStore(db_path)
    await a.open()
    await b.open()
    try:
        now = 1000.0
        assert await a.reserve_slot("identify:1:0", now, 5.0) == now
        assert await b.reserve_slot("identify:1:0", now, 5.0) == now + 5  # the other process waits its turn
        assert await a.reserve_slot("identify:1:0", now + 1, 5.0) == now + 10
        assert await b.reserve_slot("identify:1:1", now, 5.0) == now  # another bucket goes at once
        assert await a.reserve_slot("identify:1:0", now + 60, 5.0) == now + 60  # long after: no wait
    finally:
        await a.close()
        await b.close()
