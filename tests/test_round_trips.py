"""Fewer round trips per move (issue 16): the committed row comes back from the commit, a button's
game is not read again, the server settings come from the cache; an outdated row is still refused."""

from __future__ import annotations

import pytest

from bot.community import Community
from bot.sessions import Player, SessionError, SessionService
from bot.storage import open_store

GUILD, CHANNEL = 1, 10
ALICE, BRUNO = Player(100, "Alice"), Player(101, "Bruno")


class Counting:
    """The store, counting the calls that reach the database (settings: only real reads)."""

    def __init__(self, store) -> None:
        self.store = store
        self.calls: dict[str, int] = {}
        for name in ("get_game", "commit_action", "schedule_deadlines", "games_in_channel"):
            setattr(self, name, self._counted(name))
        read = store._read

        async def counted_read(sql, *args):
            if "FROM guild_settings" in sql:
                self.calls["guild_settings (read)"] = self.calls.get("guild_settings (read)", 0) + 1
            return await read(sql, *args)

        store._read = counted_read

    def _counted(self, name):
        method = getattr(self.store, name)

        async def call(*args, **kw):
            self.calls[name] = self.calls.get(name, 0) + 1
            return await method(*args, **kw)

        return call

    def __getattr__(self, name):
        return getattr(self.store, name)


@pytest.fixture
async def world(db_url):
    store = open_store(db_url)
    await store.open()
    counting = Counting(store)
    svc = SessionService(counting, seed_source=lambda: 4242)  # type: ignore[arg-type]
    Community(counting, svc, None)  # type: ignore[arg-type]
    yield counting, svc
    await store.close()


async def test_a_button_move_reads_the_game_once_and_the_settings_not_at_all(world):
    store, svc = world
    g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    g = (await svc.start(g.id, ALICE)).game  # settings read here once (Alice's deadlines), then cached
    for _ in range(3):
        row = await svc.get_in(g.id, GUILD, CHANNEL)  # the dispatcher's read (scope, version)
        seat = min(svc.expected_seats(row))
        store.calls.clear()
        user = row.seats[seat].user_id
        out = await svc.act(g.id, user, {"type": "pass"}, version=row.version, row=row)
        assert out.game.version == row.version + 1 and out.game == await store.store.get_game(g.id)
        # one commit (the row comes back from it), with the deadlines of the seat now expected in it
        assert store.calls == {"commit_action": 1}, store.calls
        assert out.scheduled
        await _deadlines_written(store.store, out.game)
        g = out.game


async def _deadlines_written(store, game) -> None:
    """The seat now expected has its reminder and timeout at the game's new version, as the
    scheduler's ``schedule`` would have written them; none is left at an older version for it."""
    (seat,) = SessionService(store).expected_seats(game)
    mine = [d for d in await store.deadlines_of(game.id) if d.seat == seat]
    assert sorted((d.kind, d.version) for d in mine) == [("reminder", game.version), ("timeout", game.version)]
    timeout = next(d for d in mine if d.kind == "timeout")
    assert timeout.due > timeout.since


async def test_an_outdated_row_is_refused_by_the_commit_as_before(world):
    store, svc = world
    g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    g = (await svc.start(g.id, ALICE)).game
    stale = await svc.get_in(g.id, GUILD, CHANNEL)
    await svc.act(g.id, ALICE.user_id, {"type": "pass"}, version=stale.version)  # another click won
    with pytest.raises(SessionError) as err:
        await svc.act(g.id, ALICE.user_id, {"type": "pass"}, version=stale.version, row=stale)
    assert err.value.key == "common.error.already_played"
    assert len(await store.store.events(g.id)) == 1


# --- PostgreSQL: round trips on the wire (issue 29) -------------------------------------------------
@pytest.fixture
async def pg_proxied(pg_server):
    from tests.pg import RoundTripProxy

    proxy = await RoundTripProxy(pg_server.port).start()
    url = proxy.url(await pg_server.new_database())
    store = open_store(url)
    await store.open()
    yield store, proxy
    await store.close()
    await proxy.stop()


class OnTheWire(Counting):
    """The store's calls, and the round trips each took on the wire (the relay's count)."""

    def __init__(self, store, proxy) -> None:
        self.proxy = proxy
        self.trips: dict[str, list[int]] = {}
        super().__init__(store)

    def _counted(self, name):
        method = getattr(self.store, name)

        async def call(*args, **kw):
            self.calls[name] = self.calls.get(name, 0) + 1
            before = self.proxy.round_trips
            try:
                return await method(*args, **kw)
            finally:
                self.trips.setdefault(name, []).append(self.proxy.round_trips - before)

        return call


async def test_a_move_commits_in_two_round_trips_on_postgresql(pg_proxied):
    """Counted by a relay between the store and the server: the compare-and-swap, then the log, the turn
    columns and the COMMIT pipelined together; the deadlines of the seat now expected in one more."""
    store, proxy = pg_proxied
    wire = OnTheWire(store, proxy)
    svc = SessionService(wire, seed_source=lambda: 4242)  # type: ignore[arg-type]
    Community(wire, svc, None)  # type: ignore[arg-type]
    g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    g = (await svc.start(g.id, ALICE)).game
    for _ in range(4):
        row = await svc.get_in(g.id, GUILD, CHANNEL)
        seat = min(svc.expected_seats(row))
        wire.calls.clear()
        wire.trips.clear()
        before = proxy.round_trips
        out = await svc.act(g.id, row.seats[seat].user_id, {"type": "pass"}, version=row.version, row=row)
        # besides the move's own writes, the scheduler reads the mover's latest actions with the game's
        # deadlines (one round trip: the archived log is asked in the same pipeline), then the seat now
        # expected's (one more); the deadlines go with the move's log (issue 24); 19 to 27 before issue
        # 29, 6 before the first read was one, 5 before the deadlines went with the move
        assert proxy.round_trips - before <= 4, proxy.round_trips - before
        assert wire.calls == {"commit_action": 1}, wire.calls
        assert wire.trips == {"commit_action": [2]}, wire.trips
        assert out.game == await store.get_game(g.id)
        await _deadlines_written(store, out.game)
        g = out.game
    # an outdated version: refused by the compare-and-swap, nothing written (the CAS, then the ROLLBACK)
    before = proxy.round_trips
    assert await store.commit_action(g.id, g.version - 1, state=g.state, seat=0, user_id=ALICE.user_id,
                                     action={"type": "pass"}, events=[]) is None
    assert proxy.round_trips - before == 2
    assert [e.version for e in await store.events(g.id)] == list(range(g.version - 3, g.version + 1))  # 4 moves


async def test_the_relay_counts_a_statement_waiting_for_its_answer_as_a_round_trip(pg_proxied):
    store, proxy = pg_proxied
    before = proxy.round_trips

    def three(tx):  # three statements one after the other, then three pipelined with the COMMIT
        for _ in range(3):
            tx.execute("SELECT 1")
        tx.batch([("SELECT 1", ())] * 3, final=True)

    await store._tx(three)
    assert proxy.round_trips - before == 4
