"""The SQLite store's database thread: one hop per store call, whole transactions, clean cancellation."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from bot.storage import Seat, SQLiteStore


@pytest.fixture
async def sqlite_store(tmp_path):
    store = SQLiteStore(str(tmp_path / "t.db"))
    await store.open()
    yield store
    await store.close()


async def _game(store):
    return await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                   options={}, seed=1)


async def test_every_statement_runs_in_the_one_database_thread(sqlite_store):
    seen: set[int] = set()
    original = sqlite_store._transaction

    def spy(db, work):
        seen.add(threading.get_ident())
        return original(db, work)

    sqlite_store._transaction = spy
    g = await _game(sqlite_store)
    await sqlite_store.start_game(g.id, 0, g.seats, {"n": 0})
    row = await sqlite_store.commit_action(g.id, 1, state={"n": 1}, seat=0, user_id=100, action={}, events=[])
    assert row is not None and row.version == 2
    assert len(seen) == 1 and threading.get_ident() not in seen


async def test_concurrent_transactions_never_interleave(sqlite_store):
    """Forty coroutines race to move one game on from the same version: exactly one wins, the
    log has one entry per version, and nothing is left half-written."""
    g = await _game(sqlite_store)
    await sqlite_store.start_game(g.id, 0, g.seats, {"n": 0})
    results = await asyncio.gather(*(
        sqlite_store.commit_action(g.id, 1, state={"n": i}, seat=0, user_id=100, action={"i": i}, events=[])
        for i in range(40)))
    winners = [r for r in results if r is not None]
    assert len(winners) == 1
    game = await sqlite_store.get_game(g.id)
    assert game.version == 2 and game.state == winners[0].state
    assert [e.version for e in await sqlite_store.events(g.id)] == [2]


async def test_a_call_cancelled_before_it_starts_never_runs(sqlite_store):
    gate = threading.Event()
    ran: list[str] = []

    def blocker(db):
        gate.wait(5)
        ran.append("blocker")

    def second(db):
        ran.append("second")

    first = asyncio.create_task(sqlite_store._call(blocker))
    await asyncio.sleep(0.05)  # the blocker is running: the next call waits in the queue
    queued = asyncio.create_task(sqlite_store._call(second))
    await asyncio.sleep(0.05)
    queued.cancel()
    gate.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await queued
    await sqlite_store._call(lambda db: None)  # everything queued before this has been through
    assert ran == ["blocker"]


async def test_an_error_reaches_the_caller_and_the_thread_goes_on(sqlite_store):
    with pytest.raises(Exception, match="no such table"):
        await sqlite_store.execute("SELECT * FROM nowhere")
    assert await sqlite_store.healthy()


async def test_a_closed_store_refuses_calls(tmp_path):
    store = SQLiteStore(str(tmp_path / "c.db"))
    await store.open()
    await store.close()
    with pytest.raises(RuntimeError, match="not open"):
        await store.get_game(1)
    await store.close()  # closing twice is harmless


async def test_point_reads_run_on_the_callers_thread_and_see_every_commit(sqlite_store):
    """A game by its id and a seat's last moves are read at once on the event loop's thread (no trip
    to the database thread: two wake-ups saved each), from a read-only connection that sees each
    commit of the database thread as soon as it is made."""
    g = await _game(sqlite_store)
    await sqlite_store.start_game(g.id, 0, g.seats, {"n": 0})
    trips: list[str] = []
    call = sqlite_store._thread.call

    async def counted(fn, *args):
        trips.append(getattr(fn, "__name__", "?"))
        return await call(fn, *args)

    sqlite_store._thread.call = counted
    for n in range(1, 4):
        assert (await sqlite_store.commit_action(g.id, n, state={"n": n}, seat=0, user_id=100, action={"n": n},
                                                 events=[])) is not None
        game = await sqlite_store.get_game(g.id)  # read right after the commit: this commit is seen
        assert game.version == n + 1 and game.state == {"n": n}
        rows, _ = await sqlite_store.seat_clock(g.id, 0, 5)
        assert [r.action["n"] for r in rows] == list(range(n, 0, -1))
    assert len(trips) == 3  # the three commits only
    assert await sqlite_store.get_game(999_999) is None
    with pytest.raises(sqlite3.OperationalError):  # the reader cannot write
        sqlite_store._reader.execute("DELETE FROM games")
    assert not sqlite_store._reader.in_transaction  # no snapshot held between reads


async def test_a_point_read_the_file_refuses_is_read_again_in_the_database_thread(sqlite_store):
    """The file busy past READER_BUSY_MS (a checkpoint resetting the log…): the event loop does not
    wait; the database thread reads it, with its own patience."""
    g = await _game(sqlite_store)

    class Busy:
        in_transaction = False

        def execute(self, *a, **k):
            raise sqlite3.OperationalError("database is locked")

        def close(self):
            pass

    sqlite_store._reader = Busy()
    assert (await sqlite_store.get_game(g.id)).id == g.id
    assert (await sqlite_store.seat_clock(g.id, 0, 5)) == ([], [])


async def test_an_in_memory_store_reads_everything_in_its_thread():
    store = SQLiteStore(":memory:")  # private to its connection: no second one could see it
    await store.open()
    try:
        assert store._reader is None
        g = await _game(store)
        assert (await store.get_game(g.id)).id == g.id
    finally:
        await store.close()
