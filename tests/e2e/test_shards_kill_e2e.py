"""Issue 14's must-hold, end to end: two bot processes (shards 0 and 1 of 2) share one PostgreSQL;
four servers, two on each shard, play Ludix; one process is SIGKILLed mid-game. The other's games are
unaffected (answered within Discord's 3 s, their own timeouts fire); restarted, the killed process
resumes its games: each shows live controls for its current version, a player plays on, and the short
timeout configured with ``/ludibot config`` on one of its servers fires after the restart, by it."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.storage import RUNNING, open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess, mentioned, wait_control

pytestmark = pytest.mark.e2e

#: read by the ``bot_db`` fixture: a fresh database on the throwaway PostgreSQL
BACKEND = "postgresql"

CID = re.compile(r"^ludibot:(\d+):([a-z_]+):(\d+)")
TIMEOUT_H = 0.0025  # 9 s: longer than the kill-to-restart gap's start, due while the process is dead
TIMED_OUT = "pas joué à temps"


def controls_of(msg) -> set[tuple[int, int]]:
    """(game id, version) of a message's buttons."""
    return {(int(m[1]), int(m[3])) for b in msg.buttons if (m := CID.match(b.get("custom_id", "")))}


def newest_control(fake, channel, game_id: int):
    for msg in reversed(fake.messages(channel)):
        if msg.visible_to is None and not msg.deleted and any(g == game_id for g, _ in controls_of(msg)):
            return msg
    return None


def timed_out(fake, channel) -> list:
    return [m for m in fake.messages(channel) if m.visible_to is None and TIMED_OUT in (m.content or "")]


async def running_games(db: str) -> dict[int, object]:
    store = open_store(db)
    await store.open()
    try:
        return {g.id: g for g in await store.games_with_status((RUNNING,))}
    finally:
        await store.close()


async def every_game_shows_its_version(fake, db: str, game_ids: set[int], timeout: float = 25.0) -> None:
    """Every game of ``game_ids`` is running and its newest public message with buttons is for its
    current version (the buttons a player sees are live)."""
    end = time.monotonic() + timeout
    while True:
        games = await running_games(db)
        state = {gid: (games[gid].version if gid in games else None,
                       controls_of(m) if (m := newest_control(fake, fake.channels[games[gid].channel_id], gid))
                       else None) if gid in games else None for gid in game_ids}
        if all(s is not None and s[1] == {(gid, s[0])} for gid, s in state.items()):
            return
        if time.monotonic() > end:
            pytest.fail(f"games without live controls for their version: {state}")
        await asyncio.sleep(0.3)


async def start_ludix(fake, ch, alice, bruno) -> int:
    res = await fake.run_command(alice, ch, "ludix start", objectif=1000)
    assert not res.ephemeral and res.message is not None, res.content
    lobby = res.message
    await fake.click(bruno, lobby, label="Rejoindre")
    await fake.click(alice, lobby, label="Lancer")
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest_control(fake, ch, game_id) is not None, timeout=20)
    return game_id


async def move(fake, ch, game_id: int, users) -> float:
    """The expected player rolls the dice on the game's newest controls; the callback latency (s)."""
    msg = newest_control(fake, ch, game_id)
    (uid,) = mentioned(msg)
    user = next(u for u in users if u.id == uid)
    roll = next(b["custom_id"] for b in msg.buttons if ":roll:" in b["custom_id"])
    res = await fake.click(user, msg, custom_id=roll)
    assert not res.ephemeral and not res.late, res.content
    # the click takes the buttons off its message first, and the next turn follows: until then the game
    # has no live controls at all (None, which is not ``msg`` either)
    await fake.wait_until(lambda: (m := newest_control(fake, ch, game_id)) is not None and m is not msg, timeout=10,
                          what=f"the next turn of game {game_id}")
    return res.latency


async def test_sigkill_one_of_two_processes_on_postgresql(tmp_path, bot_db):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, shards=2)
    guilds = [fake.guild] + [fake.add_guild(name, channels=["jeux"]) for name in ("Club", "Cercle", "Salon")]
    users = [fake.add_user(n, guilds=guilds) for n in ("Alice", "Bruno")]
    alice, bruno = users
    modo = fake.add_user("Modo", guilds=guilds, manage_guild=True)
    procs: dict[int, BotProcess] = {}
    for sid in (0, 1):
        (tmp_path / f"p{sid}").mkdir()
        procs[sid] = BotProcess(fake, tmp_path / f"p{sid}", db=bot_db, extra_env={
            "LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": str(sid),
            "LUDIBOT_SCHEDULER_POLL": "0.2"})
    await fake.start()
    for p in procs.values():
        p.start()
    try:
        await fake.wait_ready(timeout=60)
        await fake.wait_until(lambda: sorted(fake.shard_sessions()) == [0, 1], timeout=60)
        shard = {g.id: fake.shard_of(g) for g in guilds}
        on = {s: [g for g in guilds if shard[g.id] == s] for s in (0, 1)}
        assert len(on[0]) == 2 and len(on[1]) == 2, shard  # two servers on each shard
        # one server of each shard gets a short timeout (no reminder) through /ludibot config;
        # the other keeps the defaults (hours): its games are played by hand
        quick = {s: on[s][1] for s in (0, 1)}
        for s in (0, 1):
            ch = fake.channel("jeux", guild=quick[s])
            res = await fake.run_command(modo, ch, "ludibot config", jeu="ludix", rappel=0, delai=TIMEOUT_H)
            assert res.ephemeral and "enregistrés" in res.content, res.content
        games: dict[int, tuple] = {}  # game id -> (shard, channel)
        manual, quick_games = {}, {}
        for s in (0, 1):
            ch = fake.channel("jeux", guild=on[s][0])
            manual[s] = await start_ludix(fake, ch, alice, bruno)
            games[manual[s]] = (s, ch)
        for s in (0, 1):  # both processes play their manual games
            for _ in range(2):
                assert await move(fake, games[manual[s]][1], manual[s], users) < 3.0
        for s in (0, 1):  # the quick games start last: their first timeout is 9 s away
            ch = fake.channel("jeux", guild=quick[s])
            quick_games[s] = await start_ludix(fake, ch, alice, bruno)
            games[quick_games[s]] = (s, ch)
        # mid-game, the quick timeout of shard 1's server pending: SIGKILL shard 1's process
        t_quick1 = fake.channel("jeux", guild=quick[1])
        assert timed_out(fake, t_quick1) == []
        procs[1].kill()
        killed = time.monotonic()
        # the other process's games are unaffected: every move answered within 3 s, its own quick
        # timeout fires on time
        latencies = []
        while time.monotonic() - killed < TIMEOUT_H * 3600 + 3:
            latencies.append(await move(fake, games[manual[0]][1], manual[0], users))
            await asyncio.sleep(0.3)
        assert len(latencies) >= 10 and max(latencies) < 3.0, latencies
        await fake.wait_until(lambda: timed_out(fake, games[quick_games[0]][1]), timeout=10)
        # ... while nobody fires the dead process's deadline (now overdue)
        assert timed_out(fake, t_quick1) == []
        # restarted, it resumes its games: live controls for every game's version, on both shards
        procs[1].start()
        await fake.wait_until(lambda: 1 in fake.shard_sessions(), timeout=60)
        await every_game_shows_its_version(fake, bot_db, set(games))
        # its overdue timeout fires after the restart, once the timeout was due
        await fake.wait_until(lambda: timed_out(fake, t_quick1), timeout=20)
        assert "pas joué à temps" in timed_out(fake, t_quick1)[0].content
        await wait_control(fake, t_quick1)
        # and its manual game plays on
        for _ in range(2):
            assert await move(fake, games[manual[1]][1], manual[1], users) < 3.0
        assert await move(fake, games[manual[0]][1], manual[0], users) < 3.0
        await every_game_shows_its_version(fake, bot_db, set(games))
        assert fake.validation_errors == []
        for p in procs.values():
            assert "Traceback" not in p.log, p.log[-5000:]
    except BaseException:
        for sid, p in procs.items():
            print(f"--- process {sid}\n{p.log[-4000:]}")
        raise
    finally:
        for p in procs.values():
            p.kill()
        await fake.stop()
