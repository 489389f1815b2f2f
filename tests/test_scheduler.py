"""Reminders, timeouts and forfeits on a fake clock, for every game, with a restart in the middle.

Each deadline must fire once, at its due time (never a second earlier), survive a restart,
and never fire twice even when two processes poll the same database.
"""

from __future__ import annotations

import asyncio

import pytest

import engines
from bot.community import Community
from bot.community.scheduler import Scheduler
from bot.sessions import Player, SessionError, SessionService
from bot.storage import DONE, FINISHED, PENDING, REMINDER, TIMEOUT, VOID, open_store

GUILD, CHANNEL = 1, 10
HOUR = 3600.0
PLAYERS = [Player(100 + i, f"P{i}") for i in range(8)]


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Recorder:
    """The notifier, minus Discord: what would have been said, and when."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple] = []

    async def remind(self, game, seats, since):
        self.calls.append((REMINDER, game.id, tuple(seats), self.clock()))

    async def timed_out(self, outcome, seats, forfeit):
        self.calls.append((TIMEOUT, outcome.game.id, tuple(seats), self.clock(), forfeit, outcome.game.status))


OPEN: list[World] = []


@pytest.fixture(autouse=True)
async def _close_worlds():
    """Close every store a test opened, even when it fails (an open connection would hang the run)."""
    yield
    while OPEN:
        await OPEN.pop().close()


class World:
    """One bot process: a store on the file, the session service, the community service."""

    def __init__(self, path: str, clock: FakeClock, recorder: Recorder) -> None:
        OPEN.append(self)
        self.store = open_store(path, clock=clock)
        self.svc = SessionService(self.store, clock=clock, seed_source=lambda: 4242)
        self.com = Community(self.store, self.svc, recorder, clock=clock)

    async def open(self) -> World:
        await self.store.open()
        return self

    async def close(self) -> None:
        await self.store.close()


def seats_for(kind: str) -> int:
    e = engines.get(kind)
    return min(max(2, e.min_players), e.max_players)


async def start_game(svc: SessionService, kind: str, players: int, ai: int = 0):
    g = await svc.open_lobby(kind, guild_id=GUILD, channel_id=CHANNEL, player=PLAYERS[0], ai_seats=ai)
    for p in PLAYERS[1:players - ai]:
        g = await svc.join(g.id, p)
    return (await svc.start(g.id, PLAYERS[0])).game


async def pending(store, game_id):
    return [d for d in await store.deadlines_of(game_id) if d.state == PENDING]


@pytest.mark.parametrize("kind", sorted(engines.GAMES))
async def test_reminders_timeouts_and_forfeit_with_a_restart(kind, db_url):
    assert kind in engines.available(), f"the {kind} engine is missing: every game of engines.GAMES must load"
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    await w.store.set_guild_settings(GUILD, {"timers": {kind: {"reminder_h": 1, "timeout_h": 3,
                                                               "forfeit_after": 2}}})
    # two human players at most: with three, a stalled player's fate is the others' vote (test_votes.py)
    n = seats_for(kind)
    game = await start_game(w.svc, kind, n, ai=max(0, n - 2))
    t0 = clock()
    first = w.svc.expected_seats(game)
    planned = {(d.seat, d.kind): d.due for d in await pending(w.store, game.id)}
    assert planned == {**{(s, REMINDER): t0 + HOUR for s in first}, **{(s, TIMEOUT): t0 + 3 * HOUR for s in first}}

    fired_at: dict[tuple, float] = {}  # deadline key -> when the notifier heard of it
    restarted = False
    for _ in range(300):
        due = await pending(w.store, game.id)
        if not due:
            break
        nxt = min(d.due for d in due)
        # one second early: nothing at all
        clock.now = nxt - 1
        before = len(rec.calls)
        assert await w.com.scheduler.tick() == 0
        assert len(rec.calls) == before
        # on time: what is due fires, once
        clock.now = nxt
        now_due = [d for d in due if d.due == nxt]
        heard_from = len(rec.calls)
        await w.com.scheduler.tick()
        states = {d.key: d.state for d in await w.store.deadlines_of(game.id)}
        heard = {(c[0], seat) for c in rec.calls[heard_from:] for seat in c[2]}
        for d in now_due:
            # lean storage: a void deadline is deleted, and a done one goes once its seat has a newer epoch
            assert states.get(d.key) in (None, DONE), d
            if states.get(d.key) == DONE:
                assert (d.kind, d.seat) in heard, d
            if states.get(d.key) == DONE or (d.kind, d.seat) in heard:
                assert d.key not in fired_at
                fired_at[d.key] = clock()
                assert clock() == d.due
        assert await w.com.scheduler.tick() == 0  # polling again changes nothing
        if not restarted and any(k[2] == REMINDER for k in fired_at):
            # restart in the middle: a new process on the same file, with its start-up catch-up
            await w.close()
            w = await World(db_url, clock, rec).open()
            calls = len(rec.calls)
            await w.com.catch_up()
            assert await w.com.scheduler.tick() == 0
            assert len(rec.calls) == calls
            restarted = True
    else:
        pytest.fail("deadlines never ran out")
    assert restarted

    game = await w.svc.get(game.id)
    assert game.status == FINISHED
    # every fired deadline was heard of exactly once, at its due time
    reminders = [c for c in rec.calls if c[0] == REMINDER]
    timeouts = [c for c in rec.calls if c[0] == TIMEOUT]
    assert sum(len(c[2]) for c in reminders) == sum(1 for k in fired_at if k[2] == REMINDER)
    assert sum(len(c[2]) for c in timeouts) == sum(1 for k in fired_at if k[2] == TIMEOUT)
    assert reminders and reminders[0][2] == tuple(sorted(first)) and reminders[0][3] == t0 + HOUR
    # the first timeouts played the default action; the second in a row of some seat forfeited
    log = await w.store.events(game.id)
    by_timeout = [r for r in log if r.action.get("_by") == "timeout"]
    assert by_timeout and by_timeout[-1].action["type"] == "forfeit"
    loser = by_timeout[-1].seat
    assert sum(1 for r in by_timeout if r.seat == loser) == 2
    assert timeouts[-1][4] == loser and timeouts[-1][5] == FINISHED
    results = {r.seat: r.rank for r in await w.store.results(game.id)}
    assert results[loser] == len(game.seats) and all(r == 1 for s, r in results.items() if s != loser)
    # nothing left pending, and the finished game is rated
    assert await pending(w.store, game.id) == []
    assert await w.store.unrated_games() == []
    await w.close()


async def test_a_player_who_answers_voids_their_reminder_and_timeout(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    game = await start_game(w.svc, "ludix", 2)  # defaults: reminder 12 h, timeout 48 h
    clock.now += 5 * HOUR
    out = await w.svc.act(game.id, PLAYERS[0].user_id, {"type": "roll"})
    out = await w.svc.act(out.game.id, PLAYERS[0].user_id, {"type": "stop"}) if 0 in w.svc.expected_seats(
        out.game) else out
    clock.now = 1_000_000.0 + 17 * HOUR - 1
    await w.com.scheduler.tick()
    states = {(d.seat, d.kind, d.version): d.state for d in await w.store.deadlines_of(game.id)}
    assert states.get((0, REMINDER, game.version), VOID) == VOID  # void: deleted
    # the second player was expected 5 h after the start: their reminder is due at +17 h, not before
    assert [c[2] for c in rec.calls] == []
    clock.now = 1_000_000.0 + 17 * HOUR
    await w.com.scheduler.tick()
    assert [c[2] for c in rec.calls] == [(1,)]
    await w.close()


async def test_after_a_long_stop_the_timeout_fires_without_a_stale_reminder(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    game = await start_game(w.svc, "ludix", 2)
    await w.close()
    clock.now += 100 * HOUR  # the bot was down for four days
    w = await World(db_url, clock, rec).open()
    await w.com.catch_up()
    await w.com.scheduler.tick()
    assert [c[0] for c in rec.calls] == [TIMEOUT]
    log = await w.store.events(game.id)
    # the time bank ran out: the seat keeps the increment for its next turn (normal: half of 48 h)
    assert [(r.seat, r.action) for r in log] == [(0, {"type": "pass", "_by": "timeout", "_bank": 24 * HOUR})]
    await w.close()


async def test_a_change_lost_in_a_crash_is_scheduled_by_the_catch_up(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    game = await start_game(w.svc, "ludix", 2)
    # the process dies between the commit and the hook, on a change whose deadlines are written after
    # it (a start, a timeout, or a process of the release before a player's move carried them)
    w.svc.on_change = w.svc.plan_deadlines = None
    clock.now += HOUR
    out = await w.svc.act(game.id, PLAYERS[0].user_id, {"type": "pass"})
    assert 1 in w.svc.expected_seats(out.game)
    assert [d for d in await pending(w.store, game.id) if d.seat == 1] == []
    await w.close()
    w = await World(db_url, clock, rec).open()
    await w.com.catch_up()
    mine = [d for d in await pending(w.store, game.id) if d.seat == 1]
    assert sorted((d.kind, d.due) for d in mine) == [(REMINDER, clock() + 12 * HOUR), (TIMEOUT, clock() + 48 * HOUR)]
    await w.com.catch_up()  # idempotent
    assert len([d for d in await pending(w.store, game.id) if d.seat == 1]) == 2
    await w.close()


async def test_a_players_move_is_stored_with_its_deadlines(db_url):
    """A move's deadlines are written by its own transaction (issue 24): a process dying right after
    the commit, before any hook, leaves nothing for the catch-up; a move refused by the compare-and-swap
    writes none."""
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    game = await start_game(w.svc, "ludix", 2)
    w.svc.on_change = None  # the process dies between the commit and the hook
    clock.now += HOUR
    out = await w.svc.act(game.id, PLAYERS[0].user_id, {"type": "pass"}, version=game.version)
    assert out.scheduled and 1 in w.svc.expected_seats(out.game)
    mine = [d for d in await pending(w.store, game.id) if d.seat == 1]
    assert sorted((d.kind, d.version, d.due) for d in mine) == [
        (REMINDER, out.game.version, clock() + 12 * HOUR), (TIMEOUT, out.game.version, clock() + 48 * HOUR)]
    assert await w.store.seats_without_deadline() == []
    before = await w.store.deadlines_of(game.id)
    with pytest.raises(SessionError):  # an outdated button: refused, and no deadline written for it
        await w.svc.act(game.id, PLAYERS[1].user_id, {"type": "pass"}, version=game.version)
    assert await w.store.deadlines_of(game.id) == before
    stale = await w.store.commit_action(game.id, game.version, state=out.game.state, seat=1, user_id=None,
                                        action={"type": "pass"}, events=[], expected={0},
                                        deadlines=(clock(), [(0, TIMEOUT, clock() + HOUR)]))
    assert stale is None and await w.store.deadlines_of(game.id) == before
    await w.close()


async def test_two_processes_polling_together_fire_each_deadline_once(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    a = await World(db_url, clock, rec).open()
    b = await World(db_url, clock, rec).open()
    games = [await start_game(a.svc, "ludix", 2) for _ in range(4)]
    clock.now += 12 * HOUR
    await asyncio.gather(a.com.scheduler.tick(), b.com.scheduler.tick())
    assert sorted(c[1] for c in rec.calls if c[0] == REMINDER) == sorted(g.id for g in games)
    clock.now += 36 * HOUR
    await asyncio.gather(a.com.scheduler.tick(), b.com.scheduler.tick(), a.com.scheduler.tick())
    assert sorted(c[1] for c in rec.calls if c[0] == TIMEOUT) == sorted(g.id for g in games)
    for g in games:
        log = await a.store.events(g.id)
        assert [r.action.get("_by") for r in log] == ["timeout"]
    await a.close()
    await b.close()


async def test_a_timeout_claimed_by_a_process_that_died_is_applied_once(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    game = await start_game(w.svc, "ludix", 2)
    clock.now += 48 * HOUR
    (dl,) = [d for d in await pending(w.store, game.id) if d.kind == TIMEOUT]
    # process 1 leases the timeout, applies the move, and dies before marking it done
    assert await w.store.claim_deadline(dl.key, clock(), 120)
    await w.svc.act_for(game.id, 0, {"type": "pass"}, version=game.version)
    assert not await w.store.claim_deadline(dl.key, clock(), 120)  # the lease holds
    await w.com.scheduler.tick()
    assert rec.calls == []
    clock.now += 121  # the lease ran out: checked again, the seat has acted, so it is void
    await w.com.scheduler.tick()
    states = {d.key: d.state for d in await w.store.deadlines_of(game.id)}
    assert states.get(dl.key, VOID) == VOID  # void: deleted
    assert len([r for r in await w.store.events(game.id) if r.seat == 0]) == 1
    await w.close()


async def test_delays_of_zero_schedule_nothing_and_a_game_default_overrides_the_server(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    await w.store.set_guild_settings(GUILD, {"timers": {"*": {"reminder_h": 0, "timeout_h": 0},
                                                        "tectonic": {"timeout_h": 5}}})
    g = await start_game(w.svc, "ludix", 2)
    assert await w.store.deadlines_of(g.id) == []
    sched: Scheduler = w.com.scheduler
    assert (await sched.timers(GUILD, "tectonic")).timeout_h == 5
    assert (await sched.timers(GUILD, "tectonic")).forfeit_after == 3
    assert (await sched.timers(GUILD, "ludix")).forfeit_after == 0
    await w.close()


async def test_a_timeout_and_a_move_racing_from_two_processes_apply_one_action(db_url):
    """Process A fires the timeouts while process B's players move, on the same games and versions:
    each game gets exactly one action on that version (the move or the timeout's pass, never both)."""
    clock = FakeClock()
    rec = Recorder(clock)
    a = await World(db_url, clock, rec).open()
    b = await World(db_url, clock, rec).open()
    games = [await start_game(a.svc, "ludix", 2) for _ in range(6)]
    clock.now += 48 * HOUR  # every first player's timeout is due

    async def move(g):
        try:
            return await b.svc.act(g.id, PLAYERS[0].user_id, {"type": "pass"}, version=g.version)
        except Exception as exc:  # the refusal when the timeout won
            return exc

    outcomes = await asyncio.gather(a.com.scheduler.tick(), *[move(g) for g in games])
    moved = {g.id for g, out in zip(games, outcomes[1:], strict=True) if not isinstance(out, Exception)}
    timed_out = {c[1] for c in rec.calls if c[0] == TIMEOUT}
    assert moved.isdisjoint(timed_out) and moved | timed_out == {g.id for g in games}
    for g in games:
        log = await b.store.events(g.id)
        assert [r.version for r in log] == [g.version + 1]
        assert log[0].action.get("_by") == ("timeout" if g.id in timed_out else None)
        assert (await a.store.get_game(g.id)).version == g.version + 1
    await a.close()
    await b.close()


async def test_each_process_fires_only_the_deadlines_of_its_shards(db_url):
    """Two processes, shards 0 and 1 of 2: each fires the deadlines of its own servers' games; a DM game
    (no server) belongs to shard 0."""
    from bot.community import process_shards
    from bot.config import load_settings
    from bot.gateway import shard_of

    clock = FakeClock()
    # the shard depends on the bits above 22, not on the low ones
    guilds = {shard_of(g, 2): g for g in (1 << 22, 2 << 22, (3 << 22) | 5, (6 << 22) | 0x3FFFFF)}
    assert sorted(guilds) == [0, 1]
    rec = [Recorder(clock), Recorder(clock)]
    worlds = [await World(db_url, clock, rec[i]).open() for i in (0, 1)]
    for i, w in enumerate(worlds):
        w.com.scheduler.shards = process_shards(load_settings(env={"LUDIBOT_SHARD_COUNT": "2",
                                                                   "LUDIBOT_SHARD_IDS": str(i)}))
    assert worlds[1].com.scheduler.shards == ((1,), 2)
    svc = worlds[0].svc
    games = {}
    for shard, guild in [*guilds.items(), (0, None)]:
        g = await svc.open_lobby("ludix", guild_id=guild, channel_id=CHANNEL, player=PLAYERS[0])
        g = await svc.join(g.id, PLAYERS[1])
        games[(shard, guild)] = (await svc.start(g.id, PLAYERS[0])).game.id
    clock.now += 2 * 24 * HOUR  # every reminder is due
    everything = await worlds[0].store.due_deadlines(clock(), 100)
    assert {d.game_id for d in everything} == set(games.values())
    for i, w in enumerate(worlds):
        mine = {gid for (shard, _), gid in games.items() if shard == i}
        due = await w.store.due_deadlines(clock(), 100, shards=w.com.scheduler.shards)
        assert {d.game_id for d in due} == mine
        assert await w.store.due_deadlines(clock(), 100, shards=((i,), 2)) == due
    await worlds[1].com.scheduler.tick()
    assert {c[1] for c in rec[1].calls} == {games[(1, guilds[1])]}
    await worlds[0].com.scheduler.tick()
    assert {c[1] for c in rec[0].calls} == {games[(0, guilds[0])], games[(0, None)]}
    assert not await worlds[0].store.due_deadlines(clock(), 100)  # all fired, none twice
    # one process running every shard needs no filter
    assert process_shards(load_settings(env={"LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "0-1"})) is None
    assert process_shards(load_settings(env={})) is None
