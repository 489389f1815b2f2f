"""The store, on both backends (SQLite and PostgreSQL): migrations, compare-and-swap, event log,
results, settings, the outbox, lean deadlines, and the refusal of a database from a newer release."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import (
    DONE,
    FINISHED,
    MIGRATIONS,
    PENDING,
    REMINDER,
    TIMEOUT,
    VOID,
    ResultRow,
    SchemaTooNew,
    Seat,
    SQLiteStore,
    open_store,
)
from bot.storage.postgres import MIGRATIONS as PG_MIGRATIONS


async def _game(store):
    return await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                   options={"target": 300}, seed=7)


def test_both_dialects_have_the_same_migration_numbers():
    assert len(PG_MIGRATIONS) == len(MIGRATIONS) >= 4


async def test_migrations_are_numbered_and_idempotent(db_url, backend):
    s = open_store(db_url)
    await s.open()
    assert await s.schema_version() == len(MIGRATIONS) == s.latest_schema
    await s.close()
    s = open_store(db_url)
    await s.open()  # applying again changes nothing
    assert await s.schema_version() == len(MIGRATIONS)
    if backend == "sqlite":
        assert (await s.execute("PRAGMA journal_mode"))[0][0] == "wal"
    await s.close()


async def _set_schema(store, backend, number):
    if backend == "sqlite":
        await store.execute(f"PRAGMA user_version = {number}")
    else:
        await store.execute("UPDATE ludibot_schema SET version = ?", (number,))


async def test_a_database_from_a_newer_release_is_refused_untouched(db_url, backend):
    s = open_store(db_url)
    await s.open()
    g = await _game(s)
    await _set_schema(s, backend, 99)
    await s.close()
    s = open_store(db_url)
    with pytest.raises(SchemaTooNew) as err:
        await s.open()
    assert (err.value.found, err.value.known) == (99, len(MIGRATIONS))
    assert err.value.key == "storage.error.too_new"
    # nothing was changed: back to a known number, the game is there
    s2 = open_store(db_url)
    with pytest.raises(SchemaTooNew):
        await s2.open()
    if backend == "sqlite":
        import sqlite3

        con = sqlite3.connect(db_url)
        assert con.execute("PRAGMA user_version").fetchone()[0] == 99
        con.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
        con.close()
    else:
        import psycopg

        async with await psycopg.AsyncConnection.connect(db_url, autocommit=True) as con:
            assert (await (await con.execute("SELECT version FROM ludibot_schema")).fetchone())[0] == 99
            await con.execute("UPDATE ludibot_schema SET version = %s", (len(MIGRATIONS),))
    s3 = open_store(db_url)
    await s3.open()
    assert (await s3.get_game(g.id)).kind == "ludix"
    await s3.close()


#: a process that opens the store (migrating it) at the moment the test says go
_OPENER = """
import asyncio, os, sys, time
from bot.storage import open_store

url, ready, go = sys.argv[1:4]
open(ready, "w").close()
end = time.monotonic() + 60
while not os.path.exists(go):
    assert time.monotonic() < end, "never told to go"
    time.sleep(0.001)

async def main():
    store = open_store(url)
    await store.open()
    print(await store.schema_version())
    await store.close()

asyncio.run(main())
"""


async def test_two_processes_migrating_together_apply_each_migration_once(db_url, tmp_path):
    """Bot processes started together on a new database (a deployment's shards): each opens the store,
    which migrates it, at the same moment; every migration runs once (a second run of one would fail:
    its tables exist), each process ends with the latest schema."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    go = tmp_path / "go"
    readies = [tmp_path / f"ready-{n}" for n in range(3)]
    procs = [subprocess.Popen([sys.executable, "-c", _OPENER, db_url, str(ready), str(go)], env=env, cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for ready in readies]
    try:
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while not all(r.exists() for r in readies):  # every process started, waiting for the word
            assert loop.time() < end and all(p.poll() is None for p in procs), [p.communicate() for p in procs]
            await asyncio.sleep(0.01)
        go.touch()
        outs = [await asyncio.to_thread(p.communicate, timeout=60) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert [(p.returncode, out.strip()) for p, (out, _) in zip(procs, outs, strict=True)] == \
        [(0, str(len(MIGRATIONS)))] * len(procs), [err[-2000:] for _, err in outs]
    s = open_store(db_url)
    await s.open()
    assert await s.schema_version() == len(MIGRATIONS)
    await _game(s)  # the schema works
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
    assert sorted(r is not None for r in results) == [False, False, False, False, True]
    g = await store.get_game(g.id)
    assert g.version == 2
    events = await store.events(g.id)
    assert len(events) == 1 and events[0].action["i"] == g.state["n"]


async def test_two_processes_sharing_the_database_cannot_both_apply(db_url):
    a, b = open_store(db_url), open_store(db_url)
    await a.open()
    await b.open()
    g = await _game(a)
    await a.start_game(g.id, 0, g.seats, {"n": 0})
    ok = await asyncio.gather(
        a.commit_action(g.id, 1, state={"n": 1}, seat=0, user_id=100, action={}, events=[]),
        b.commit_action(g.id, 1, state={"n": 2}, seat=0, user_id=100, action={}, events=[]))
    assert sorted(r is not None for r in ok) == [False, True]
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

    def work(tx):  # a plain function run whole in a database thread (either backend)
        tx.execute("UPDATE games SET state = '{\"x\":1}' WHERE id = ?", (g.id,))
        raise Boom

    with pytest.raises(Boom):
        await store._tx(work)
    assert (await store.get_game(g.id)).state == {}


async def test_guild_settings_and_meta(store):
    assert await store.guild_settings(5) == {}
    await store.set_guild_settings(5, {"reminder_hours": 12})
    assert await store.guild_settings(5) == {"reminder_hours": 12}
    assert await store.get_meta("x") is None
    await store.set_meta("x", "1")
    await store.set_meta("x", "2")
    assert await store.get_meta("x") == "2"


async def test_snowflakes_and_big_seeds_round_trip(store):
    big = 1_234_567_890_123_456_789  # Discord ids are 64-bit
    g = await store.create_game(kind="ludix", guild_id=big, channel_id=big + 1, creator=Seat(0, big + 2, "Zoé"),
                                options={}, seed=2**62 - 1)
    g = await store.get_game(g.id)
    assert (g.guild_id, g.channel_id, g.creator_id, g.seats[0].user_id, g.seed) == (
        big, big + 1, big + 2, big + 2, 2**62 - 1)
    assert [x.id for x in await store.games_with_status(("lobby",), guild_id=big)] == [g.id]


async def test_the_outbox_marks_versions_published_and_never_lowers(store):
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats, {"n": 0})
    for v in (1, 2):
        assert await store.commit_action(g.id, v, state={"n": v}, seat=0, user_id=100, action={"v": v}, events=[])
    g = await store.get_game(g.id)
    assert g.version == 3 and g.due
    assert [x.id for x in await store.unpublished_games()] == [g.id]
    assert [e.version for e in await store.events_after(g.id, 2)] == [3]
    assert await store.mark_published(g.id, 3, 555)
    assert not await store.mark_published(g.id, 2, 444)  # never lowered
    g = await store.get_game(g.id)
    assert (g.published_version, g.control_message_id, g.due) == (3, 555, False)
    assert await store.unpublished_games() == []
    await store.commit_action(g.id, 3, state={"n": 4}, seat=0, user_id=100, action={}, events=[])
    await store.set_paused(g.id, "forbidden", 10.0)
    assert await store.unpublished_games() == []  # a paused game is not retried
    assert (await store.get_game(g.id)).paused == "forbidden"
    await store.set_paused(g.id, None, 20.0)
    assert [x.id for x in await store.unpublished_games()] == [g.id]


async def test_deadlines_keep_only_the_newest_epoch_of_each_seat(store):
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats + [Seat(1, 101, "Bruno")], {})
    await store.schedule_deadlines(g.id, 1, 1000.0, [(0, REMINDER, 2000.0), (0, TIMEOUT, 5000.0)])
    rem = (g.id, 0, REMINDER, 1)
    assert await store.claim_deadline(rem, 2000.0, 60)
    assert await store.close_deadline(rem, DONE, 2000.0)
    assert [(d.kind, d.state) for d in await store.deadlines_of(g.id)] == [(REMINDER, DONE), (TIMEOUT, PENDING)]
    assert await store.latest_deadline_version(g.id, 0) == 1  # the done reminder still says "scheduled"
    assert await store.turn_since([g.id]) == {(g.id, 0): 1000.0}
    # the seat acts and is expected again: the old epoch goes, done or pending
    await store.schedule_deadlines(g.id, 3, 3000.0, [(0, REMINDER, 4000.0), (0, TIMEOUT, 7000.0)])
    assert {(d.kind, d.version, d.state) for d in await store.deadlines_of(g.id)} == {
        (REMINDER, 3, PENDING), (TIMEOUT, 3, PENDING)}
    assert await store.turn_since([g.id]) == {(g.id, 0): 3000.0}
    # a void deadline is deleted (compare-and-swap on pending: only once)
    assert await store.close_deadline((g.id, 0, REMINDER, 3), VOID, 3500.0)
    assert not await store.close_deadline((g.id, 0, REMINDER, 3), VOID, 3500.0)
    assert [(d.kind, d.version) for d in await store.deadlines_of(g.id)] == [(TIMEOUT, 3)]
    # a leased timeout survives the end of its game until its owner closes it (the one row an ended game
    # may keep: the timeout that ended it); the other seat's clocks go
    await store.schedule_deadlines(g.id, 3, 3000.0, [(1, REMINDER, 4000.0)])
    tmo = (g.id, 0, TIMEOUT, 3)
    assert await store.claim_deadline(tmo, 7000.0, 60)
    await store.commit_action(g.id, 1, state={}, seat=0, user_id=100, action={}, events=[], status=FINISHED)
    await store.void_game_deadlines(g.id, 7001.0)
    assert [d.key for d in await store.deadlines_of(g.id)] == [tmo]
    assert await store.close_deadline(tmo, DONE, 7002.0)
    assert [(d.key, d.state) for d in await store.deadlines_of(g.id)] == [(tmo, DONE)]


async def test_an_ended_game_is_archived_in_one_row_and_reads_back_the_same(store, backend):
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats + [Seat(1, 101, "Bruno")], {"n": 0})
    for v in range(1, 6):
        assert await store.commit_action(g.id, v, state={"n": v, "board": ["x" * 40] * 5}, seat=v % 2,
                                         user_id=100 + v % 2, action={"v": v}, events=[{"type": "moved", "v": v}])
    before = (await store.events(g.id), await store.seat_actions(g.id, 1, 2), await store.events_after(g.id, 3))
    assert await store.commit_action(g.id, 6, state={"n": 6, "over": True}, seat=0, user_id=100, action={"v": 6},
                                     events=[{"type": "game_over"}], status=FINISHED,
                                     results=[ResultRow(g.id, 0, 100, 10, 1), ResultRow(g.id, 1, 101, 5, 2)])
    g = await store.get_game(g.id)
    assert g.state == {"n": 6, "over": True} and g.status == FINISHED and g.version == 7
    log = await store.events(g.id)
    assert log[:5] == before[0] and [e.version for e in log] == [2, 3, 4, 5, 6, 7]
    assert await store.seat_actions(g.id, 1, 2) == before[1]
    assert [e.version for e in await store.events_after(g.id, 3)] == [4, 5, 6, 7]
    assert log[2:5] == before[2]
    # the log left the events table: one compressed row holds it
    rows = await store.execute("SELECT COUNT(*) AS n FROM events WHERE game_id = ?", (g.id,))
    assert rows[0]["n"] == 0
    assert [x.id for x in await store.games_with_status((FINISHED,))] == [g.id]
    assert (await store.games_with_status((FINISHED,)))[0].state == g.state


def test_open_store_picks_the_backend_from_the_url(tmp_path):
    from bot.storage.postgres import PostgresStore

    for url in ("postgresql://u:p@127.0.0.1:5432/db", "postgres://127.0.0.1/db"):
        assert isinstance(open_store(url), PostgresStore)
    for path in (str(tmp_path / "x.db"), "ludibot.db", ":memory:"):
        assert isinstance(open_store(path), SQLiteStore)


async def test_rate_limit_slots_are_booked_across_processes(db_url):
    """Two stores on one file (two processes): Discord's IDENTIFY buckets are shared by every process."""
    a, b = open_store(db_url), open_store(db_url)
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


async def test_ended_games_of_older_releases_are_archived_once_and_cancelled_ones_too(store):
    # a game as an older release left it: finished, its state and log in rows (written behind the store's back)
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats, {"n": 0})
    await store.commit_action(g.id, 1, state={"n": 1}, seat=0, user_id=100, action={"v": 1}, events=[])
    await store.execute("UPDATE games SET status = 'finished' WHERE id = ?", (g.id,))
    log = await store.events(g.id)
    assert await store.archive_ended(10) == 1
    assert await store.archive_ended(10) == 0  # done once
    assert (await store.get_game(g.id)).state == {"n": 1} and await store.events(g.id) == log
    # a running game cancelled: archived as it ends
    c = await _game(store)
    await store.start_game(c.id, 0, c.seats, {"n": 0})
    await store.commit_action(c.id, 1, state={"n": 5}, seat=0, user_id=100, action={"v": 5}, events=[])
    log = await store.events(c.id)
    assert await store.set_status(c.id, 2, "cancelled")
    assert await store.archive_ended(10) == 0
    c = await store.get_game(c.id)
    assert (c.status, c.state, await store.events(c.id)) == ("cancelled", {"n": 5}, log)


async def test_move_times_and_completion_read_the_live_log_and_the_archives(store):
    """``/profil``: the time from the game's previous action to each of the player's moves (running games by a
    window function, ended games from their archived logs), only this server's; and the player's ended games
    split into finished, cancelled (once running) and forfeited."""
    now = [1000.0]
    store.clock = lambda: now[0]

    async def game(guild, seats):
        g = await store.create_game(kind="tectonic", guild_id=guild, channel_id=10, creator=seats[0], options={},
                                    seed=1)
        assert await store.start_game(g.id, 0, seats, {"n": 0})
        return await store.get_game(g.id)

    async def move(g, seat, user, after, **end):
        now[0] += after
        assert await store.commit_action(g.id, (await store.get_game(g.id)).version, state={"n": now[0]}, seat=seat,
                                         user_id=user, action={"type": end.pop("type", "move")}, events=[], **end)

    alice, bruno = Seat(0, 100, "Alice"), Seat(1, 101, "Bruno")
    running = await game(1, [alice, bruno])
    await move(running, 0, 100, 5)      # the game's first action: no previous one, not counted
    await move(running, 1, 101, 60)
    await move(running, 0, 100, 30)     # Alice: 30 s
    await move(running, 1, None, 500)   # a timeout for Bruno: not his move
    await move(running, 0, 100, 90)     # Alice: 90 s
    ended = await game(1, [alice, bruno])
    await move(ended, 1, 101, 5)
    await move(ended, 0, 100, 600)      # Alice: 600 s, then the game ends and its log is archived
    await move(ended, 1, 101, 7, status=FINISHED, results=[ResultRow(ended.id, 0, 100, 3, 2),
                                                           ResultRow(ended.id, 1, 101, 9, 1)])
    elsewhere = await game(2, [alice, bruno])  # another server's game never counts here
    await move(elsewhere, 1, 101, 5)
    await move(elsewhere, 0, 100, 7777)
    assert sorted(await store.move_times(1, 100)) == [30, 90, 600]
    assert await store.move_times(1, 100, limit=2) == [600, 90]  # newest first
    assert await store.move_times(2, 100) == [7777]
    assert sorted(await store.move_times(1, 101)) == [7, 60]  # Bruno's own moves (the first action is none)

    # Alice forfeits one game (no score, last), one running game is cancelled, a lobby is cancelled unstarted
    forfeit = await game(1, [alice, bruno])
    await move(forfeit, 0, None, 5, type="forfeit", status=FINISHED,
               results=[ResultRow(forfeit.id, 0, 100, None, 2), ResultRow(forfeit.id, 1, 101, None, 1)])
    cancelled = await game(1, [alice, bruno])
    await move(cancelled, 0, 100, 5)
    assert await store.set_status(cancelled.id, (await store.get_game(cancelled.id)).version, "cancelled")
    lobby = await store.create_game(kind="tectonic", guild_id=1, channel_id=10, creator=alice, options={}, seed=1)
    assert await store.set_status(lobby.id, 0, "cancelled")
    lost = await game(1, [alice, bruno])  # a Tectonic game lost by play: no score, last, yet finished
    await move(lost, 1, 101, 5, status=FINISHED,
               results=[ResultRow(lost.id, 0, 100, None, 2), ResultRow(lost.id, 1, 101, None, 1)])
    assert await store.player_completion(1, 100) == (2, 1, 1)  # ended, lost by play; cancelled; forfeited
    assert await store.player_completion(1, 101) == (3, 1, 0)  # the forfeit is a finished game for Bruno
    assert await store.player_completion(2, 100) == (0, 0, 0)


async def test_a_game_records_its_own_thread_once_and_is_found_from_it(store):
    g = await _game(store)
    other = await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 101, "Bruno"),
                                    options={}, seed=8)
    assert (await store.get_game(g.id)).thread_id is None
    assert await store.set_thread(g.id, 555) == 555
    # a second creation (a restart, two processes) does not replace the first thread: the caller learns it
    assert await store.set_thread(g.id, 666) == 555
    assert (await store.get_game(g.id)).thread_id == 555
    assert await store.set_thread(999_999, 1) is None
    # commands typed in the thread find the game; those typed in its channel find both games
    assert [x.id for x in await store.games_in_channel(555)] == [g.id]
    assert [x.id for x in await store.games_in_channel(555, kind="ranta")] == []
    assert sorted(x.id for x in await store.games_in_channel(10)) == [g.id, other.id]
    assert await store.games_in_channel(666) == []


async def test_lobbies_and_cancellations_are_owed_to_their_channel_too(store):
    """Issue 24: a lobby's card and a cancelled game's controls go through the outbox."""
    g = await _game(store)
    assert not g.due and await store.unpublished_games() == []  # a new lobby: its opening answer shows it
    assert await store.update_lobby(g.id, 0, g.seats + [Seat(1, 101, "Bruno")])
    g = await store.get_game(g.id)
    assert g.due and [x.id for x in await store.unpublished_games()] == [g.id]
    assert await store.mark_published(g.id, g.version, None)  # the card edited: no control message
    g = await store.get_game(g.id)
    assert not g.due and g.control_message_id is None
    assert await store.set_status(g.id, g.version, "cancelled")
    assert [x.id for x in await store.unpublished_games()] == [g.id]


async def test_a_seat_s_clock_is_its_latest_actions_and_the_game_s_deadlines_in_one_read(store):
    """``seat_clock`` answers what ``seat_actions`` and ``deadlines_of`` answer, live and once archived."""
    g = await _game(store)
    await store.start_game(g.id, 0, g.seats + [Seat(1, 101, "Bruno")], {"n": 0})
    for v in range(1, 6):
        seat = v % 2
        assert await store.commit_action(g.id, v, state={"n": v}, seat=seat, user_id=100 + seat,
                                         action={"i": v}, events=[])
    await store.schedule_deadlines(g.id, 6, 1000.0, [(0, "reminder", 2000.0), (0, "timeout", 3000.0)])
    await store.schedule_deadlines(g.id, 6, 1000.0, [(1, "timeout", 4000.0)])
    rows, deadlines = await store.seat_clock(g.id, 0, 2)
    assert [e.action["i"] for e in rows] == [4, 2]  # seat 0's, newest first, at most 2
    assert rows == await store.seat_actions(g.id, 0, 2)
    assert deadlines == await store.deadlines_of(g.id)
    assert sorted((d.seat, d.kind, d.due) for d in deadlines) == [
        (0, "reminder", 2000.0), (0, "timeout", 3000.0), (1, "timeout", 4000.0)]
    # ended: the log is in the archive, the deadlines void
    assert await store.commit_action(g.id, 6, state={"n": 6}, seat=0, user_id=100, action={"i": 6}, events=[],
                                     status=FINISHED, results=[ResultRow(g.id, 0, 100, 1, 1)])
    await store.void_game_deadlines(g.id, 5000.0)
    rows, deadlines = await store.seat_clock(g.id, 0, 2)
    assert [e.action["i"] for e in rows] == [6, 4] and rows == await store.seat_actions(g.id, 0, 2)
    assert deadlines == [] == await store.deadlines_of(g.id)
