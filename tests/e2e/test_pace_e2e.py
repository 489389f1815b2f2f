"""Speed profiles and vacations end to end (issue 15): the real bot, the fake Discord, the bot's clock moved
by the test (``BotProcess.advance``). Each profile's time bank: a move ends with what was left plus the
increment (capped at the starting allowance), and running out plays the turn at that moment, not before.
A vacation stops a player's clocks (their deadline moves) and an early end restarts them. A SIGKILL in
the middle of each: nothing lost, nothing fired twice."""

from __future__ import annotations

import asyncio
import re

import pytest
import pytest_asyncio

from bot.community.clocks import duration
from bot.pace import DAY, FIXED, HOUR
from bot.storage import PENDING, TIMEOUT, open_store
from tests.e2e.harness import followed, mentioned, seat_sections, usual_world, wait_control

pytestmark = pytest.mark.e2e

#: seconds the bot's clock lands before a deadline when the test checks that nothing fires early (the
#: wall clock keeps running meanwhile, a second or two on a loaded machine)
MARGIN = 20.0
#: real seconds a move's bank may differ from the computed one (clicks take real time)
SLACK = 15.0

BANKS = {"direct": FIXED["direct"], "rapide": FIXED["rapide"], "lent": FIXED["lent"]}


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    """The usual world, with the scheduler polling every 0.2 s."""
    async with usual_world(tmp_path, bot_db, env={"LUDIBOT_SCHEDULER_POLL": "0.2"}) as w:
        w.store = open_store(bot_db)
        await w.store.open()
        try:
            yield w
        finally:
            await w.store.close()


def public(msg) -> bool:
    return msg.visible_to is None and bool(msg.content)


def timed_out(fake, gid: int) -> list:
    return [m for m in fake.messages("jeux") if public(m) and "pas joué à temps" in m.content
            and any(f":{gid}:" in b["custom_id"] for b in m.buttons)]


def reminders(fake) -> list:
    return [m for m in fake.messages("jeux") if public(m) and m.content.startswith("⏰ Rappel")]


async def start_game(world, **options):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=300, **options)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    assert mentioned(msg) == [u.alice.id]
    return int(msg.buttons[0]["custom_id"].split(":")[1]), msg


async def play_turn(fake, user, msg):
    """``user`` rolls, then stops if the roll did not bust: their turn is over. The newest control message."""
    res = await fake.click(user, msg, label="Lancer les dés")
    assert not res.ephemeral, res.content
    # each click takes its card's buttons off first; the next card follows, under load after the settle time
    new = await followed(fake, res, msg)
    if "Stop (marquer)" in new.button_labels and mentioned(new) == [user.id]:
        res = await fake.click(user, new, label="Stop (marquer)")
        new = await followed(fake, res, new)
    return new


async def timeout_of(store, gid: int, seat: int):
    """The seat's newest pending timeout."""
    mine = [d for d in await store.deadlines_of(gid) if d.seat == seat and d.kind == TIMEOUT and d.state == PENDING]
    assert mine, await store.deadlines_of(gid)
    return max(mine, key=lambda d: d.version)


async def bank_of(store, gid: int, seat: int) -> float:
    return (await store.seat_actions(gid, seat, 1))[0].action["_bank"]


async def restart(world) -> None:
    world.bot.kill()
    await world.fake.wait_disconnected(timeout=10)
    world.bot.start()
    await world.fake.wait_ready(timeout=60, fresh=True)


async def nothing_fires(world, gid: int, count: int) -> None:
    """Several polls go by and the game still has ``count`` timeout messages."""
    await asyncio.sleep(1.2)
    assert len(timed_out(world.fake, gid)) == count


@pytest.mark.parametrize("pace", ["direct", "rapide", "normal", "lent"])
async def test_each_profile_has_its_bank_and_runs_out_on_time_across_a_restart(world, pace):
    fake, u, store, bot = world.fake, world.u, world.store, world.bot
    p = BANKS.get(pace)
    bank, inc = (p.bank_s, p.increment_s) if p else (48 * HOUR, 24 * HOUR)  # normal: the server's 48 h
    gid, msg = await start_game(world, rythme=pace)
    first = await timeout_of(store, gid, 0)
    assert first.due - first.since == pytest.approx(bank)
    # a game with its own pace shows the clocks on its seats (issue 24): the deadline of the seat to
    # play (a Discord timestamp, relative), the bank of the other
    alice, bruno = (t for t, _ in seat_sections(msg))
    assert alice.startswith("▶ **Alice** · 0 point · ⏳ <t:") and alice.endswith(":R>"), alice
    assert int(re.search(r"<t:(\d+):R>", alice).group(1)) == pytest.approx(first.due, abs=2)
    assert bruno == f"Bruno · 0 point · ⏳ {duration(bank, 'fr')}"

    # Alice uses 60 % of her bank, then ends her turn: what was left plus the increment (not capped here)
    bot.advance(0.6 * bank)
    msg = await play_turn(fake, u.alice, msg)
    assert mentioned(msg) == [u.bruno.id]
    alice = await bank_of(store, gid, 0)
    assert alice == pytest.approx(0.4 * bank + inc, abs=SLACK) and alice < bank
    # Bruno ends his turn at once: capped at the starting allowance
    msg = await play_turn(fake, u.bruno, msg)
    assert await bank_of(store, gid, 1) == bank
    turn = await timeout_of(store, gid, 0)
    assert turn.due - turn.since == pytest.approx(alice)
    res = await fake.run_command(u.chloe, "jeux", "ludix status", partie=gid)
    assert re.search(r"Temps restant\u00a0: Alice \d", res.content) and "Bruno" in res.content

    # a crash in the middle: the banks and the deadline are where they were
    await restart(world)
    assert await bank_of(store, gid, 0) == alice
    assert (await timeout_of(store, gid, 0)).key == turn.key

    # Alice does not play: nothing until her bank runs out, then her turn is played once
    bot.advance(turn.due - bot.now() - MARGIN)
    await nothing_fires(world, gid, 0)
    bot.advance(MARGIN + 1)
    await fake.wait_until(lambda: timed_out(fake, gid), timeout=20)
    (played,) = timed_out(fake, gid)
    assert "Alice" in played.content and mentioned(played) == [u.bruno.id]
    await nothing_fires(world, gid, 1)
    log = [r for r in await store.events(gid) if r.action.get("_by") == "timeout"]
    assert len(log) == 1 and log[0].seat == 0 and log[0].action["_bank"] == inc  # out of time: the increment
    assert world.bot.tracebacks() == []


async def test_the_servers_default_pace_applies_to_a_game_started_without_one(world):
    fake, u, store = world.fake, world.u, world.store
    res = await fake.run_command(u.modo, "jeux", "ludibot config", rythme="rapide")
    assert res.ephemeral and "rythme par défaut\u00a0: Rapide" in res.content
    gid, msg = await start_game(world)
    first = await timeout_of(store, gid, 0)
    assert first.due - first.since == pytest.approx(FIXED["rapide"].bank_s)
    assert "Temps restant" not in msg.content and "⏳" not in msg.content  # no pace of its own: the clocks
    # are on its status


async def test_a_vacation_stops_the_clocks_and_an_early_return_restarts_them(world):
    fake, u, store, bot = world.fake, world.u, world.store, world.bot
    gid, msg = await start_game(world)  # normal: a 48 h bank, a reminder after 12 h

    # Bruno goes away for 5 days before his turn comes
    res = await fake.run_command(u.bruno, "jeux", "ludibot vacances", jours=5)
    assert res.ephemeral and "Bonnes vacances" in res.content
    until = int(re.search(r"<t:(\d+):D>", res.content).group(1))
    msg = await play_turn(fake, u.alice, msg)
    assert mentioned(msg) == [u.bruno.id]
    assert f"▶ **Bruno** · 0 point · en vacances jusqu'au <t:{until}:D>" in msg.content  # the turn card says so
    res = await fake.run_command(u.alice, "jeux", "ludix status")
    assert f"Bruno en vacances jusqu'au <t:{until}:D>" in res.content and "Alice 2 jours" in res.content
    # his clock starts when his vacation ends: no reminder, no timeout before
    away = await timeout_of(store, gid, 1)
    assert away.due == pytest.approx(until + 48 * HOUR, abs=1)
    bot.advance(DAY)
    await asyncio.sleep(1.2)
    assert reminders(fake) == []

    # a crash during the vacation changes nothing
    await restart(world)
    assert (await timeout_of(store, gid, 1)).due == away.due

    # he comes back after 2 days: his clock restarts with its whole bank
    bot.advance(DAY)
    res = await fake.run_command(u.bruno, "jeux", "ludibot vacances", jours=0)
    assert res.ephemeral and "Bon retour" in res.content
    back = bot.now()
    turn = await timeout_of(store, gid, 1)
    assert turn.key == away.key and turn.due == pytest.approx(back + 48 * HOUR, abs=SLACK)
    res = await fake.run_command(u.alice, "jeux", "ludix status")
    assert "vacances" not in res.content and re.search(r"Bruno (2 jours|1 jour 23 h)$", res.content)
    # the allowance: 2 days taken of 30 in 365 days
    res = await fake.run_command(u.bruno, "jeux", "ludibot vacances", jours=29)
    assert res.ephemeral and "il vous reste 27 jours" in res.content

    # his reminder and his timeout come at their new times, once
    bot.advance(turn.due - bot.now() - MARGIN)
    await fake.wait_until(lambda: len(reminders(fake)) == 1, timeout=20)
    assert mentioned(reminders(fake)[0]) == [u.bruno.id]
    await nothing_fires(world, gid, 0)
    bot.advance(MARGIN + 1)
    await fake.wait_until(lambda: timed_out(fake, gid), timeout=20)
    await nothing_fires(world, gid, 1)
    assert len(reminders(fake)) == 1

    # now Alice's turn: going away moves her pending deadline by exactly the vacation
    before = await timeout_of(store, gid, 0)
    res = await fake.run_command(u.alice, "jeux", "ludibot vacances", jours=3)
    assert "Bonnes vacances" in res.content
    assert (await timeout_of(store, gid, 0)).due == pytest.approx(before.due + 3 * DAY, abs=SLACK)
    assert world.bot.tracebacks() == []
