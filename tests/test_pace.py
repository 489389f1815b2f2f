"""Issue 15: the speed profiles' time banks and vacations — the arithmetic, both storage backends,
and the scheduler on a fake clock (a move adds the increment, capped; a vacation moves the deadlines)."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.community.clocks import duration
from bot.community.settings import change, resolve
from bot.pace import (
    DAY,
    FIXED,
    HOUR,
    MINUTE,
    VACATION_DAYS,
    bank_after_move,
    check_vacation,
    profile,
    reminder_at,
    vacation_used,
)
from bot.storage import PENDING, TIMEOUT
from engines.base import RuleError
from tests.test_scheduler import GUILD, PLAYERS, FakeClock, Recorder, World, pending, start_game


def test_profiles_and_the_servers_timers():
    # normal is the server's delai/rappel: bank = delai, half of it back per move
    assert profile("normal", 12 * HOUR, 48 * HOUR) == profile(None, 12 * HOUR, 48 * HOUR)
    p = profile(None, 12 * HOUR, 48 * HOUR)
    assert (p.bank_s, p.increment_s, p.reminder_s) == (48 * HOUR, 24 * HOUR, 12 * HOUR)
    assert profile("direct", 12 * HOUR, 48 * HOUR) == FIXED["direct"]
    assert FIXED["direct"].bank_s == 5 * MINUTE and FIXED["rapide"].bank_s == 2 * HOUR
    # the server's 0 turns the timeout / the reminder off whatever the profile
    assert not profile("rapide", 12 * HOUR, 0).timed
    assert profile("lent", 0, 48 * HOUR).reminder_s == 0 and profile("lent", 0, 48 * HOUR).timed


def test_bank_arithmetic():
    p = FIXED["rapide"]  # 2 h, +30 min
    assert bank_after_move(90 * MINUTE, p) == 2 * HOUR  # capped at the starting allowance
    assert bank_after_move(20 * MINUTE, p) == 50 * MINUTE
    assert bank_after_move(-5, p) == 30 * MINUTE  # a timeout leaves the increment
    assert reminder_at(100.0, 2 * HOUR, p) == 100 + 30 * MINUTE
    assert reminder_at(100.0, 20 * MINUTE, p) == 100 + 10 * MINUTE  # halfway when the bank is shorter
    assert reminder_at(100.0, 40 * MINUTE, p) == 100 + 30 * MINUTE  # a quarter of it left: still on time
    assert reminder_at(100.0, 30 * MINUTE + 1, p) == 100 + 15 * MINUTE + 0.5  # less: halfway


def test_vacation_allowance():
    now = 1000 * DAY
    assert vacation_used([], now) == 0
    check_vacation(VACATION_DAYS, [], now)
    periods = [(now - 400 * DAY, now - 380 * DAY),  # outside the 365 days
               (now - 370 * DAY, now - 360 * DAY),  # 5 days inside
               (now - 10 * DAY, now - 2 * DAY)]  # 8 days
    assert vacation_used(periods, now) == 13 * DAY
    check_vacation(17, periods, now)
    with pytest.raises(RuleError) as err:
        check_vacation(18, periods, now)
    assert err.value.key == "community.error.vacation_allowance" and err.value.params["left"] == 17
    assert "il vous reste 17 jours" in i18n.t(err.value.key, "fr", **err.value.params)
    check_vacation(0, [(now - 40 * DAY, now + DAY)], now)  # coming back is never refused
    # a running vacation counts up to now (asking again replaces it: the rest is given back)
    assert vacation_used([(now - 3 * DAY, now + 20 * DAY)], now) == 3 * DAY
    for bad in (-1, 31):
        with pytest.raises(RuleError) as err:
            check_vacation(bad, [], now)
        assert err.value.key == "community.error.vacation_days"


def test_durations_in_both_languages():
    assert duration(2 * DAY + 3 * HOUR + 5 * MINUTE, "fr") == "2 jours 3 h"
    assert duration(DAY + 20 * MINUTE, "en") == "1 day"  # the two largest units
    assert duration(3 * DAY + 5 * HOUR, "en") == "3 days 5 h"
    assert duration(4 * HOUR + 20 * MINUTE + 30, "fr") == "4 h 20 min"
    assert duration(45, "fr") == "45 s" and duration(-3, "en") == "0 s"


def test_the_default_pace_is_a_server_setting():
    s, _ = change({}, None, pace="rapide")
    assert resolve(s, "ludix").pace == "rapide" and resolve({}, "ludix").pace == "normal"
    with pytest.raises(RuleError):
        change({}, None, pace="eclair")


async def test_vacations_on_both_backends(store):
    await store.set_guild_settings(1, {})
    assert await store.vacation_ends([7, 8], 100.0) == {}
    assert await store.set_vacation(7, 100.0, 500.0) == 400.0
    assert await store.vacation_ends([7, 8], 100.0) == {7: 500.0}
    assert await store.vacation_ends([7], 500.0) == {}
    # ending early at 300: the end moves back by 200; the history keeps what was taken
    assert await store.set_vacation(7, 300.0, 300.0) == -200.0
    assert await store.vacation_ends([7], 300.0) == {}
    assert await store.vacations(7, 0.0) == [(100.0, 300.0)]
    # not on vacation: ending changes nothing
    assert await store.set_vacation(7, 400.0, 400.0) == 0.0
    # extending a running one: the shift is the change of its end
    await store.set_vacation(7, 1000.0, 2000.0)
    assert await store.set_vacation(7, 1500.0, 3000.0) == 1000.0
    assert await store.vacations(7, 0.0) == [(100.0, 300.0), (1000.0, 1500.0), (1500.0, 3000.0)]
    assert await store.vacations(7, 1600.0) == [(1500.0, 3000.0)]


async def test_a_move_adds_the_increment_capped_and_running_out_fires_on_time(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    svc, sched = w.svc, w.com.scheduler
    svc._seed = lambda: 1  # a seed whose first roll does not bust
    g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=10, player=PLAYERS[0], pace="rapide")
    g = await svc.join(g.id, PLAYERS[1])
    g = (await svc.start(g.id, PLAYERS[0])).game
    t0 = clock()
    (dl,) = [d for d in await pending(w.store, g.id) if d.kind == TIMEOUT]
    assert (dl.seat, dl.due) == (0, t0 + 2 * HOUR)
    # seat 0 rolls after 10 min: the turn goes on, no increment, the same timeout
    clock.now += 10 * MINUTE
    out = await svc.act(g.id, PLAYERS[0].user_id, {"type": "roll"})
    assert 0 in svc.expected_seats(out.game)
    assert (await w.store.seat_actions(g.id, 0, 1))[0].action["_bank"] == 110 * MINUTE
    assert [d.due for d in await pending(w.store, g.id) if d.kind == TIMEOUT] == [t0 + 2 * HOUR]
    # and stops 100 min after the start: 20 min left + 30 min
    clock.now += 90 * MINUTE
    out = await svc.act(g.id, PLAYERS[0].user_id, {"type": "stop"})
    assert (await w.store.seat_actions(g.id, 0, 1))[0].action["_bank"] == 50 * MINUTE
    # seat 1 passes at once: capped at 2 h
    clock.now += 10
    out = await svc.act(g.id, PLAYERS[1].user_id, {"type": "pass"})
    assert (await w.store.seat_actions(g.id, 1, 1))[0].action["_bank"] == 2 * HOUR
    since = clock()
    (dl,) = [d for d in await pending(w.store, g.id) if d.kind == TIMEOUT and d.seat == 0]
    assert dl.due == since + 50 * MINUTE
    assert (await sched.clocks(out.game))[0] == (50 * MINUTE, None)
    clock.now = since + 50 * MINUTE - 1
    await sched.tick()
    assert not [c for c in rec.calls if c[0] == TIMEOUT]
    clock.now = since + 50 * MINUTE
    await sched.tick()
    assert [c[2] for c in rec.calls if c[0] == TIMEOUT] == [(0,)]
    assert (await w.store.seat_actions(g.id, 0, 1))[0].action == {"type": "pass", "_by": "timeout",
                                                                    "_bank": 30 * MINUTE}
    await w.close()


async def test_a_vacation_stops_the_clocks_and_an_early_end_restarts_them(db_url):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    svc, sched = w.svc, w.com.scheduler
    g = await start_game(svc, "ludix", 2)  # normal: 48 h, reminder after 12 h
    t0 = clock()
    clock.now += HOUR
    until, shift = await sched.set_vacation(PLAYERS[0].user_id, 5)
    assert (until, shift) == (clock() + 5 * DAY, 5 * DAY)
    dues = {(d.seat, d.kind): d.due for d in await pending(w.store, g.id)}
    assert dues[(0, TIMEOUT)] == t0 + 48 * HOUR + 5 * DAY
    assert (await sched.clocks(g))[0] == (47 * HOUR, until)
    # two days on, she comes back: her clock restarts where it stopped
    clock.now += 2 * DAY
    _, shift = await sched.set_vacation(PLAYERS[0].user_id, 0)
    assert shift == -3 * DAY
    dues = {(d.seat, d.kind): d.due for d in await pending(w.store, g.id)}
    assert dues[(0, TIMEOUT)] == t0 + 48 * HOUR + 2 * DAY
    assert all(d.state == PENDING for d in await pending(w.store, g.id))
    # the allowance: 2 days taken, 28 left
    with pytest.raises(RuleError) as err:
        await sched.set_vacation(PLAYERS[0].user_id, 29)
    assert err.value.params["left"] == 28
    # a seat expected while its player is away: its clock starts when the vacation ends
    await sched.set_vacation(PLAYERS[1].user_id, 3)
    clock.now += HOUR
    await svc.act(g.id, PLAYERS[0].user_id, {"type": "pass"})
    back = clock() - HOUR + 3 * DAY
    dues = {(d.seat, d.kind): d.due for d in await pending(w.store, g.id) if d.seat == 1}
    assert dues[(1, TIMEOUT)] == back + 48 * HOUR and dues[(1, "reminder")] == back + 12 * HOUR
    await w.close()


async def test_a_paused_games_clocks_stand_still(db_url):
    import json

    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    g = await start_game(w.svc, "ludix", 2)
    clock.now += HOUR
    await w.store.set_paused(g.id, json.dumps({"reason": "missing_permissions", "since": clock()}), clock())
    clock.now += 5 * HOUR
    g = await w.svc.get(g.id)
    assert (await w.com.scheduler.clocks(g))[0] == (47 * HOUR, None)
    assert await w.com.scheduler.bank_after_move(g, 0, turn_over=False) == 47 * HOUR
    await w.close()


def test_the_clock_line_in_both_languages():
    from bot.community.clocks import clock_line
    from bot.storage import GameRow, Seat

    game = GameRow(id=1, guild_id=1, channel_id=1, kind="ludix", options={}, status="running", state=None,
                   version=1, seed=1, creator_id=1, created_at=0, updated_at=0,
                   seats=[Seat(0, 1, "**Alice**"), Seat(1, 2, "Bruno"), Seat(2, None, "Bot 1", ai_level=1)])
    clocks = {0: (DAY + 4 * HOUR, None), 1: (2 * HOUR, 1_800_000_000.0)}
    assert clock_line(game, clocks, "fr") == ("⏳ Temps restant\u00a0: \\*\\*Alice\\*\\* 1 jour 4 h · "
                                              "Bruno en vacances jusqu'au <t:1800000000:D>")
    assert clock_line(game, clocks, "en") == ("⏳ Time left: \\*\\*Alice\\*\\* 1 day 4 h · "
                                              "Bruno on vacation until <t:1800000000:D>")
    assert clock_line(game, {0: (None, None)}, "fr") is None  # no clock, nobody away: no line


async def test_running_vacations_are_cached_and_a_change_elsewhere_is_seen_within_the_ttl(db_url):
    """Each move asks whether its players are away: one cached read of the running vacations, not a
    query per move. A change through this store is seen at once; one by another process (a second
    store on the same database) once ``vacations_ttl`` has passed."""
    from bot.storage import open_store

    here, there = open_store(db_url), open_store(db_url)
    await here.open()
    await there.open()
    try:
        assert await here.vacation_ends([7], 100.0) == {}  # nobody away: remembered
        assert await there.set_vacation(7, 100.0, 500.0) == 400.0  # another process
        assert await there.vacation_ends([7], 101.0) == {7: 500.0}  # its own change: at once
        assert await here.vacation_ends([7], 101.0) == {}  # within the ttl: not seen yet
        here.vacations_ttl = 0.0
        assert await here.vacation_ends([7, 8], 101.0) == {7: 500.0}
        here.vacations_ttl = 30.0
        assert await here.set_vacation(7, 102.0, 102.0) == -398.0  # back early, through this store
        assert await here.vacation_ends([7], 103.0) == {}  # seen at once
        assert await there.vacation_ends([7], 103.0) == {7: 500.0}  # the other one: until its ttl
    finally:
        await here.close()
        await there.close()
