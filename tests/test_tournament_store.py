"""The storage contract of tournaments and queues (``TournamentStore``, ``QueueStore``): what the services
rely on when two processes race. Run against the in-memory stores and against the SQL store on both
backends (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from bot.community.matchmaking import MemoryQueueStore, Waiting
from bot.community.tournaments import OPEN, STARTED, EntryRow, MemoryTournamentStore, TableRow, TournamentRow


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def stores(request, tmp_path):
    if request.param == "memory":
        yield MemoryTournamentStore(), MemoryQueueStore()
        return
    from bot.storage import open_store

    if request.param == "sqlite":
        url = str(tmp_path / "ludibot-test.db")
    else:
        url = await request.getfixturevalue("pg_server").new_database()
    store = open_store(url)
    await store.open()
    try:
        yield store, store
    finally:
        await store.close()


def row(**kw) -> TournamentRow:
    base = dict(id=0, guild_id=1, channel_id=10, kind="tectonic", format="swiss", rounds=3, places=3, creator_id=1,
                created_at=100.0)
    return TournamentRow(**{**base, **kw})


async def test_tournament_versions_and_lease(stores):
    ts, _ = stores
    t = await ts.create_tournament(row())
    assert (await ts.get_tournament(t.id)).status == OPEN
    assert await ts.update_tournament(t.id, t.version + 1, status=STARTED) is None  # stale version
    t2 = await ts.update_tournament(t.id, t.version, status=STARTED, total=3, seeds=[[5, 1000.0]])
    assert t2.version == t.version + 1 and t2.status == STARTED and t2.seeds == [[5, 1000.0]]
    assert [x.id for x in await ts.running_tournaments()] == [t.id]
    assert [x.id for x in await ts.tournaments_in(1, (STARTED,))] == [t.id]
    assert await ts.tournaments_in(2, (STARTED,)) == []
    assert await ts.claim_tournament(t.id, 1000.0, 60.0)
    assert not await ts.claim_tournament(t.id, 1059.0, 60.0)  # held
    assert await ts.claim_tournament(t.id, 1061.0, 60.0)  # the lease ran out (a crashed holder)
    await ts.release_tournament(t.id)
    assert await ts.claim_tournament(t.id, 1062.0, 60.0)


async def test_entries_are_checked_and_written_at_once(stores):
    ts, _ = stores
    t = await ts.create_tournament(row(places=3))
    got = await asyncio.gather(*(ts.add_tournament_entry(EntryRow(t.id, uid, f"J{uid}", 1000.0), 3)
                                 for uid in range(10, 16)))
    assert sorted(got) == ["full"] * 3 + ["ok"] * 3
    assert len(await ts.tournament_entries(t.id)) == 3
    uid = (await ts.tournament_entries(t.id))[0].user_id
    assert await ts.add_tournament_entry(EntryRow(t.id, uid, "x", 1.0), 3) == "already"
    assert await ts.withdraw_tournament_entry(t.id, uid)
    assert not await ts.withdraw_tournament_entry(t.id, uid)
    assert [e.withdrawn for e in await ts.tournament_entries(t.id) if e.user_id == uid] == [True]
    assert await ts.remove_tournament_entry(t.id, uid) and not await ts.remove_tournament_entry(t.id, uid)


async def test_entries_move_the_version_and_close_with_the_launch(stores):
    ts, _ = stores
    t = await ts.create_tournament(row(places=4))
    assert await ts.add_tournament_entry(EntryRow(t.id, 10, "J10", 1000.0), 4) == "ok"
    read = await ts.get_tournament(t.id)  # a launch reads the entries here...
    assert await ts.add_tournament_entry(EntryRow(t.id, 11, "J11", 1000.0), 4) == "ok"  # ...one more enters
    assert await ts.update_tournament(t.id, read.version, status=STARTED) is None  # the launch must read again
    read = await ts.get_tournament(t.id)
    assert await ts.remove_tournament_entry(t.id, 11)
    assert await ts.update_tournament(t.id, read.version, status=STARTED) is None  # a removal too
    read = await ts.get_tournament(t.id)
    assert (await ts.update_tournament(t.id, read.version, status=STARTED)).status == STARTED
    assert await ts.add_tournament_entry(EntryRow(t.id, 12, "J12", 1000.0), 4) == "closed"
    assert [e.user_id for e in await ts.tournament_entries(t.id)] == [10]


async def test_a_round_is_written_once_and_each_table_gets_one_game_and_one_result(stores):
    ts, _ = stores
    t = await ts.create_tournament(row())
    tables = [TableRow(t.id, 1, 0, (1, 2)), TableRow(t.id, 1, 1, (3, 4))]
    first, second = await asyncio.gather(ts.add_tournament_round(t.id, t.version, 1, tables, [(5, Fraction(1))]),
                                         ts.add_tournament_round(t.id, t.version, 1, tables, [(5, Fraction(1))]))
    assert sorted([first, second]) == [False, True]
    t = await ts.get_tournament(t.id)
    assert t.round == 1 and len(await ts.tournament_tables(t.id)) == 2
    assert [(b.round, b.player, b.points) for b in await ts.tournament_byes(t.id)] == [(1, 5, 1)]
    assert await ts.set_tournament_game(t.id, 1, 0, 77) == 77
    assert await ts.set_tournament_game(t.id, 1, 0, 78) == 77  # the second writer learns the first's game
    assert (await ts.tournament_table_of(77)).players == (1, 2)
    assert await ts.tournament_table_of(78) is None
    assert await ts.set_tournament_result(t.id, 1, 0, (2, 1))
    assert not await ts.set_tournament_result(t.id, 1, 0, (1, 2))
    x = next(x for x in await ts.tournament_tables(t.id) if x.table == 0)
    assert x.ended and x.ranks == (2, 1)
    assert await ts.set_tournament_result(t.id, 1, 1, None)  # abandoned
    assert next(x for x in await ts.tournament_tables(t.id) if x.table == 1).ranks is None


async def test_a_queue_is_taken_once(stores):
    _, qs = stores
    for uid in range(20):
        assert await qs.enqueue(Waiting(1, 10, uid, f"J{uid}", "tectonic", 2, None, 100.0 + uid), 5) == "ok"
        await qs.enqueue(Waiting(1, 10, uid, f"J{uid}", "ludix", 3, None, 100.0 + uid), 5)
    assert await qs.enqueue(Waiting(1, 10, 0, "J0", "tectonic", 2, None, 200.0), 5) == "already"
    matches = await asyncio.gather(*(qs.take_group(1, "tectonic", 2, None, 0.0, 300.0) for _ in range(15)))
    taken = [w.user_id for m in matches if m is not None for w in m.members]
    assert sorted(taken) == list(range(20)), "each member taken once"
    assert sum(m is not None for m in matches) == 10
    assert await qs.waiting(1) == []  # taken members left every queue (the Ludix one too)
    # the first match taken (the calls run in parallel on PostgreSQL: the lowest id, not the first call)
    first = min((m for m in matches if m is not None), key=lambda m: m.id)
    assert [w.user_id for w in first.members] == [0, 1]  # the longest-waiting first
    assert await qs.set_match_game(first.id, 9) == 9 and await qs.set_match_game(first.id, 10) == 9
    # recorded, not yet started: still to open (a crash between the record and the start)
    assert [m.game_id for m in await qs.unopened_matches() if m.id == first.id] == [9]
    await qs.set_match_opened(first.id)
    await qs.set_match_opened(first.id)
    assert first.id not in {m.id for m in await qs.unopened_matches()}
