"""Whose turn, since when (issue 16): the turn columns, on both backends.

``seats.turn_since`` / ``games.turn_since`` / ``games.turn_version`` are written in the same
transaction as every commit; ``/parties`` and the scheduler's start-up sweep read them instead of
every running game's state. Checked here against what the engines themselves say.
"""

from __future__ import annotations

import json

import pytest

import engines
from bot.community import Community
from bot.sessions import Player, SessionService
from bot.storage import FINISHED, RUNNING, open_store

GUILD, OTHER_GUILD, CHANNEL = 1, 2, 10
HOUR = 3600.0
PLAYERS = [Player(100 + i, f"P{i}") for i in range(4)]


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def world(db_url):
    clock = Clock()
    store = open_store(db_url, clock=clock)
    await store.open()
    svc = SessionService(store, clock=clock, seed_source=lambda: 4242)
    yield store, svc, clock
    await store.close()


async def started(svc, kind, humans=2, ai=0, guild=GUILD):
    g = await svc.open_lobby(kind, guild_id=guild, channel_id=CHANNEL, player=PLAYERS[0], ai_seats=ai)
    for p in PLAYERS[1:humans]:
        g = await svc.join(g.id, p)
    return (await svc.start(g.id, PLAYERS[0])).game


async def turn_columns(store, game_id) -> tuple[dict[int, float], float | None, int | None]:
    """(seat -> turn_since of the expected seats, games.turn_since, games.turn_version), read raw."""
    seats = await store.execute("SELECT seat, turn_since FROM seats WHERE game_id = ?", (game_id,))
    g = (await store.execute("SELECT turn_since, turn_version FROM games WHERE id = ?", (game_id,)))[0]
    return ({r["seat"]: r["turn_since"] for r in seats if r["turn_since"] is not None}, g["turn_since"],
            g["turn_version"])


async def assert_fresh(store, svc, game_id) -> dict[int, float]:
    """The columns describe the stored game: exactly the engine's expected seats, at its version."""
    game = await store.get_game(game_id)
    seats, first, version = await turn_columns(store, game_id)
    assert version == game.version
    assert set(seats) == (svc.expected_seats(game) if game.status == RUNNING else set())
    assert first == (min(seats.values()) if seats else None)
    return seats


async def play_default(svc, game, seat):
    engine = svc.engine(game.kind)
    action = engine.default_action(engine.from_dict(game.state), seat)
    user = game.seats[seat].user_id
    return (await svc.act(game.id, user, action)).game


async def test_turn_columns_follow_the_moves_of_a_turn_based_game(world):
    store, svc, clock = world
    game = await started(svc, "ludix")
    t0 = clock.now
    assert await assert_fresh(store, svc, game.id) == {0: t0}
    clock.now += HOUR
    game = await play_default(svc, game, 0)  # a pass: seat 1's turn
    assert await assert_fresh(store, svc, game.id) == {1: t0 + HOUR}
    lists = await store.turn_lists(GUILD, PLAYERS[1].user_id, 20)
    assert [(t.game_id, t.since) for t in lists.mine] == [(game.id, t0 + HOUR)] and lists.mine_total == 1
    assert lists.others == [] and lists.others_total == 0
    lists = await store.turn_lists(GUILD, PLAYERS[0].user_id, 20)
    assert lists.mine == [] and lists.mine_total == 0
    assert [(t.game_id, t.waiting, t.since) for t in lists.others] == [(game.id, ["P1"], t0 + HOUR)]
    assert (await store.turn_lists(OTHER_GUILD, PLAYERS[1].user_id, 20)).mine_total == 0  # not another server's


async def test_a_simultaneous_game_keeps_the_wait_of_the_seats_that_have_not_played(world):
    store, svc, clock = world
    game = await started(svc, "ranta", humans=3)
    t0 = clock.now
    assert await assert_fresh(store, svc, game.id) == {0: t0, 1: t0, 2: t0}
    clock.now += HOUR
    game = await play_default(svc, game, 1)
    # seat 1 has placed; seats 0 and 2 still wait since the start, not since seat 1's move
    assert await assert_fresh(store, svc, game.id) == {0: t0, 2: t0}
    lists = await store.turn_lists(GUILD, PLAYERS[1].user_id, 20)
    assert lists.mine_total == 0 and [(t.waiting, t.since) for t in lists.others] == [(["P0", "P2"], t0)]
    clock.now += HOUR
    game = await play_default(svc, game, 0)
    game = await play_default(svc, game, 2)  # the round's last placement: a new round, everyone waits anew
    seats = await assert_fresh(store, svc, game.id)
    if game.status == RUNNING:
        assert set(seats.values()) == {t0 + 2 * HOUR}


async def test_ai_seats_are_expected_in_the_columns_but_never_swept(world):
    store, svc, clock = world
    game = await started(svc, "tectonic", humans=1, ai=1)
    if 1 in svc.expected_seats(game):  # the AI moved at the start if it was first
        pytest.fail("the AI seat should have played already")
    await assert_fresh(store, svc, game.id)
    clock.now += HOUR
    game = await play_default(svc, game, 0)  # the human plays, the AI answers in the same call
    seats = await assert_fresh(store, svc, game.id)
    assert set(seats) == {0}
    # only human seats are the sweep's business; this one's deadlines were never written (no hook)
    assert [(r["game_id"], r["seat"]) for r in await store.seats_without_deadline()] == [(game.id, 0)]


async def test_the_end_of_a_game_clears_its_turn_and_the_lists(world):
    store, svc, clock = world
    a = await started(svc, "ludix")
    b = await started(svc, "ludix")
    out = await svc.forfeit(a.id, 0)
    assert out.game.status == FINISHED
    assert await assert_fresh(store, svc, a.id) == {}
    await svc.cancel(b.id, PLAYERS[0])
    assert await assert_fresh(store, svc, b.id) == {}
    lists = await store.turn_lists(GUILD, PLAYERS[0].user_id, 20)
    assert lists.mine_total == lists.others_total == 0 and lists.mine == lists.others == []
    assert await store.seats_without_deadline() == []


async def test_the_lists_are_bounded_ordered_by_wait_and_counted_in_full(world):
    store, svc, clock = world
    ids = []
    for _ in range(5):
        ids.append((await started(svc, "ludix")).id)  # seat 0 (P0) expected in each
        clock.now += 60
    lists = await store.turn_lists(GUILD, PLAYERS[0].user_id, 3)
    assert [t.game_id for t in lists.mine] == ids[:3] and lists.mine_total == 5
    lists = await store.turn_lists(GUILD, PLAYERS[3].user_id, 2)
    assert [t.game_id for t in lists.others] == ids[:2] and lists.others_total == 5
    await store.mark_broken(ids[0], "test")  # a broken game is left out of both
    assert (await store.turn_lists(GUILD, PLAYERS[0].user_id, 3)).mine_total == 4


async def test_stale_columns_are_refreshed_from_the_engine(world):
    """A change written without ``expected`` (as before schema 9) leaves the game stale; the refresh
    (run by the start-up sweep) writes its columns, with the wait its deadlines say."""
    store, svc, clock = world
    game = await started(svc, "ludix")
    engine = svc.engine("ludix")
    state = engine.from_dict(game.state)
    new, events = engine.apply(state, 0, {"type": "pass"})
    clock.now += HOUR
    row = await store.commit_action(game.id, game.version, state=engine.to_dict(new), seat=0, user_id=100,
                                    action={"type": "pass"}, events=events)
    assert row is not None and row.version == game.version + 1
    assert row.state == json.loads(json.dumps(engine.to_dict(new)))  # as read back: JSON, not tuples
    assert row == await store.get_game(game.id)  # the row returned is the row stored
    _, _, version = await turn_columns(store, game.id)
    assert version == game.version  # stale: describes the version before
    assert [g.id for g in await store.stale_turns()] == [game.id]
    await store.schedule_deadlines(game.id, row.version, clock.now - 5, [(1, "timeout", clock.now + HOUR)])
    assert await svc.refresh_turns() == 1
    assert await assert_fresh(store, svc, game.id) == {1: clock.now - 5}
    assert await store.stale_turns() == [] and await svc.refresh_turns() == 0


async def old_sweep(store, svc) -> list[tuple[int, int]]:
    """The start-up sweep as it was (a loop over every running game): the reference."""
    missing = []
    for game in await store.games_with_status((RUNNING,)):
        game = await svc.readable(game)
        if game.broken:
            continue
        for seat in sorted(svc.expected_seats(game)):
            if game.seats[seat].is_ai:
                continue
            latest = await store.latest_deadline_version(game.id, seat)
            last = await store.seat_actions(game.id, seat, 1)
            if latest is None or (last and latest < last[0].version):
                missing.append((game.id, seat))
    return missing


async def test_the_set_based_sweep_finds_exactly_the_seats_the_old_loop_found(world):
    store, svc, clock = world
    com = Community(store, svc, None, clock=clock)  # schedules deadlines on every change
    scheduled = [await started(svc, "ludix") for _ in range(3)]  # deadlines written
    # the process "dies" between commits and hooks from here on (and moves do not carry their
    # deadlines, as a process of the release before issue 24 did not)
    svc.on_change = svc.plan_deadlines = None
    lost = await started(svc, "ludix")  # nothing scheduled
    moved = await play_default(svc, scheduled[1], 0)  # seat 1 now expected, its deadline lost
    simultaneous = await started(svc, "ranta", humans=3)
    with_ai = await started(svc, "tectonic", humans=1, ai=1)
    ended = await started(svc, "ludix")
    await svc.forfeit(ended.id, 1)
    broken = await started(svc, "ludix")
    await store.mark_broken(broken.id, "test")
    svc.on_change, svc.plan_deadlines = com.on_change, com.scheduler.plan
    partly = await started(svc, "ranta", humans=3)  # scheduled; then one seat's deadlines go
    await store.void_game_deadlines(partly.id, clock.now)
    await com.scheduler.schedule(partly, [0, 2], clock.now)
    expected = await old_sweep(store, svc)
    found = [(r["game_id"], r["seat"]) for r in await store.seats_without_deadline()]
    assert found == expected
    assert set(found) >= {(lost.id, 0), (moved.id, 1), (with_ai.id, 0), (partly.id, 1)}
    assert {(simultaneous.id, s) for s in range(3)} <= set(found)
    assert await com.scheduler.sweep() == len(expected)
    assert await store.seats_without_deadline() == [] and await old_sweep(store, svc) == []
    assert await com.scheduler.sweep() == 0  # idempotent


async def test_a_database_from_before_the_turn_columns_is_refreshed_at_start(tmp_path):
    """The migration adds the columns with running games stale; the start-up catch-up fills them
    from the engines (and then the sweep schedules the expected seats)."""
    import sqlite3

    from bot.storage import MIGRATIONS, SQLiteStore, dump_json

    path = str(tmp_path / "old.db")
    before = next(i for i, m in enumerate(MIGRATIONS) if "ADD COLUMN turn_version" in m)
    con = sqlite3.connect(path)
    for script in MIGRATIONS[:before]:
        con.executescript(script)
    con.execute(f"PRAGMA user_version = {before}")
    engine = engines.get("ludix")
    state = engine.to_dict(engine.new_game(2, {"target": 300}, 7))
    con.execute("INSERT INTO games (id, guild_id, channel_id, kind, status, state, version, seed, creator_id, "
                "created_at, updated_at) VALUES (1, 1, 10, 'ludix', 'running', ?, 3, 7, 100, 0, 500)",
                (dump_json(state),))
    con.executemany("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, ?, ?, ?)",
                    [(0, 100, "P0"), (1, 101, "P1")])
    con.commit()
    con.close()
    clock = Clock()
    store = SQLiteStore(path, clock=clock)
    await store.open()
    try:
        svc = SessionService(store, clock=clock)
        assert [g.id for g in await store.stale_turns()] == [1]
        assert (await store.turn_lists(GUILD, 100, 20)).mine == []  # not known yet
        com = Community(store, svc, None, clock=clock)
        await com.catch_up()
        assert await assert_fresh(store, svc, 1) == {0: 500.0}  # since the game's last change
        assert [t.game_id for t in (await store.turn_lists(GUILD, 100, 20)).mine] == [1]
        assert {(d.seat, d.kind) for d in await store.deadlines_of(1)} == {(0, "reminder"), (0, "timeout")}
    finally:
        await store.close()


async def test_server_settings_are_cached_and_a_write_invalidates_them(db_url):
    """Per process: a write through the store is seen at once; another process's write within the TTL."""
    a, b = open_store(db_url), open_store(db_url)
    await a.open()
    await b.open()
    try:
        assert await a.guild_settings(GUILD) == {}
        await b.set_guild_settings(GUILD, {"timers": {"*": {"reminder_h": 2}}})
        assert await b.guild_settings(GUILD) == {"timers": {"*": {"reminder_h": 2}}}  # its own write: at once
        assert await a.guild_settings(GUILD) == {}  # the other process: cached, for up to settings_ttl
        got = await a.guild_settings(GUILD)
        got["language"] = "en"  # a caller changing what it got does not change the cache
        assert await a.guild_settings(GUILD) == {}
        a.settings_ttl = 0.0  # the TTL ran out
        assert await a.guild_settings(GUILD) == {"timers": {"*": {"reminder_h": 2}}}
    finally:
        await a.close()
        await b.close()


async def test_the_scheduler_loop_refreshes_columns_a_change_left_stale(world):
    """A path that commits without saying who is expected leaves stale columns; the next poll fixes them."""
    import asyncio

    store, svc, clock = world
    game = await started(svc, "ludix")
    engine = svc.engine("ludix")
    new, events = engine.apply(engine.from_dict(game.state), 0, {"type": "pass"})
    await store.commit_action(game.id, game.version, state=engine.to_dict(new), seat=0, user_id=100,
                              action={"type": "pass"}, events=events)
    assert [g.id for g in await store.stale_turns()] == [game.id]
    com = Community(store, svc, None, clock=clock, poll=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(com.scheduler.run(stop))
    for _ in range(100):
        if not await store.stale_turns():
            break
        await asyncio.sleep(0.02)
    stop.set()
    await task
    assert set(await assert_fresh(store, svc, game.id)) == {1}


async def test_the_background_check_sets_aside_running_games_that_no_longer_load(world):
    store, svc, clock = world
    games = [await started(svc, "ludix") for _ in range(5)]
    bad = games[2].id
    sql = "UPDATE games SET state = '{\"seed\": 1, \"play' WHERE id = "
    await store.execute(sql + "?", (bad,))
    fresh = SessionService(store, clock=clock)  # a process just started: nothing vouched for yet
    assert await fresh.check_running(page=2, pause=0) == 1
    assert [g.id for g in await store.broken_games(GUILD)] == [bad]
    assert await fresh.check_running(page=2, pause=0) == 0  # set aside once
