"""Issue 28's must-hold "two shard processes: a queue filled from both is matched exactly once", end to end.

A server lives on one shard, so its members' ``/chercher`` reach two processes only when two processes run
that shard: a rolling restart's overlap (the new process is up, the old one not yet stopped; Discord sends
each interaction over one of the shard's sessions). Here two real bot processes both run shards 0 and 1 of
2 on one PostgreSQL; two servers, one on each shard; in each, 18 members ask ``/chercher jeu:ludix
joueurs:3`` at the same instant, half over each process's session. Nothing but the database is shared:
every member is seated exactly once, six games a server, each opened once (no stray lobby), each match
announced once and its game's first turn published; the waits some had in another queue are gone."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.community.matchmaking import GRACE
from bot.storage import CANCELLED, FINISHED, LOBBY, RUNNING, open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess

pytestmark = pytest.mark.e2e

#: read by the ``bot_db`` fixture: a fresh database on the throwaway PostgreSQL
BACKEND = "postgresql"

MEMBERS, TABLE = 18, 3
FOUND = "Partie trouvée"
CID = re.compile(r"^ludibot:(\d+):")
PING = re.compile(r"<@(\d+)>")
EVERY = (LOBBY, RUNNING, FINISHED, CANCELLED)


def controls(fake, channel) -> list[int]:
    """The game of each public message of the channel with a game's controls (a game twice: posted twice)."""
    out = []
    for msg in fake.messages(channel):
        ids = {int(m[1]) for b in msg.buttons if (m := CID.match(b.get("custom_id", "")))}
        if msg.visible_to is None and not msg.deleted and ids:
            out.extend(ids)
    return out


async def until(check, timeout: float = 20.0) -> None:
    """Wait for an async condition."""
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            pytest.fail("condition not met")
        await asyncio.sleep(0.2)


async def handover(fake, db, procs, guilds, members, channels, via) -> None:
    """The end of the overlap: a second burst over both processes, the old one SIGKILLed while it answers
    its half. Whatever it had done (entered a member, taken a match, recorded or started its game), the new
    process's tick opens what it left once the grace has passed, members it never answered ask again, and
    every member ends seated exactly once, six running games a server."""
    store = open_store(db)
    await store.open()
    try:
        before = {x.id for g in guilds for x in await store.games_with_status(EVERY, guild_id=g.id)}
        sent = []
        asyncio.get_running_loop().call_later(0.1, procs[0].kill)  # mid-burst
        for g in guilds:
            for i, u in enumerate(members):
                k = i % 2
                try:
                    res = await fake.run_command(u, channels[g.id], "chercher", jeu="ludix", joueurs=TABLE,
                                                 via=via[fake.shard_of(g)][k], wait=False)
                except ValueError:  # the old session is gone: Discord sends it over the one left
                    k = 1
                    res = await fake.run_command(u, channels[g.id], "chercher", jeu="ludix", joueurs=TABLE,
                                                 via=via[fake.shard_of(g)][k], wait=False)
                sent.append((k, res))
                await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)
        assert procs[0].proc.poll() is not None
        # the survivor answers its half, in time
        await fake.wait_until(lambda: all(r.record.callback_type is not None for k, r in sent if k == 1), timeout=20)
        assert not any(r.late for k, r in sent if k == 1)
        answered = sum(r.record.callback_type is not None for k, r in sent if k == 0)
        left = await store.unopened_matches()
        print(f"handover: the old process answered {answered} of {sum(k == 0 for k, _ in sent)}; it left "
              f"{len(left)} match(es) unopened")
        procs[1].advance(GRACE + 1)  # what the old process left half done is the tick's after the grace

        async def opened() -> bool:
            return await store.unopened_matches() == []

        await until(opened)

        async def new_games(g) -> list:
            return [x for x in await store.games_with_status(EVERY, guild_id=g.id) if x.id not in before]

        for g in guilds:  # members whose /chercher died with the old process ask again, on the new one
            seated = {s.user_id for x in await new_games(g) if x.status == RUNNING for s in x.seats}
            waiting = {w.user_id for w in await store.waiting(g.id)}
            for u in members:
                if u.id not in seated | waiting:
                    res = await fake.run_command(u, channels[g.id], "chercher", jeu="ludix", joueurs=TABLE,
                                                 via=via[fake.shard_of(g)][1])
                    assert res.response_type is not None and not res.late, res.content
        await until(opened)
        for g in guilds:
            games = await new_games(g)
            running = [x for x in games if x.status == RUNNING]
            assert len(running) == MEMBERS // TABLE, [(x.id, x.status) for x in games]
            seated = sorted(s.user_id for x in running for s in x.seats)
            assert seated == sorted(u.id for u in members), "every member seated exactly once"
            assert await store.waiting(g.id) == []
            # a lobby the old process created and died before recording is taken up by the tick, not doubled
            assert [x for x in games if x.status != RUNNING] == []
            await fake.wait_until(lambda g=g, running=running: sorted(x for x in controls(fake, channels[g.id])
                                                                      if x not in before)
                                  == sorted(x.id for x in running), timeout=30)
        assert "Traceback" not in procs[1].log, procs[1].log[-5000:]
    finally:
        await store.close()


async def test_a_queue_filled_over_two_processes_is_matched_exactly_once(tmp_path, bot_db):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=30, shards=2,
                       max_concurrency=2)
    club = fake.add_guild("Club", channels=["jeux"])
    guilds = [fake.guild, club]
    assert sorted((g.id >> 22) % 2 for g in guilds) == [0, 1], "one server on each shard"
    members = [fake.add_user(f"Joueur{i:02d}", guilds=guilds) for i in range(MEMBERS)]
    procs = []
    for name in ("old", "new"):  # both run every shard: the overlap of a rolling restart
        (tmp_path / name).mkdir()
        procs.append(BotProcess(fake, tmp_path / name, db=bot_db, extra_env={
            "LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "0-1",
            "LUDIBOT_SCHEDULER_POLL": "0.2"}))
    await fake.start()
    try:
        procs[0].start()
        await fake.wait_ready(timeout=60)
        procs[1].start()
        await fake.wait_until(lambda: all(len(fake.sessions_of_shard(s)) == 2 for s in (0, 1)), timeout=60)
        await asyncio.sleep(1.0)  # the new process's cogs and guild caches are up
        via = {s: fake.sessions_of_shard(s) for s in (0, 1)}  # [old process's session, new one's]
        channels = {g.id: fake.channel("jeux", guild=g) for g in guilds}
        # a few already wait in other queues (tables of four, never filled): seated at Ludix, they leave them
        for u in members[:3]:
            for g in guilds:
                for kind in ("ludime", "lutinades"):
                    res = await fake.run_command(u, channels[g.id], "chercher", jeu=kind, joueurs=4,
                                                 via=via[fake.shard_of(g)][1])
                    assert res.ephemeral and "attendez" in res.content, res.content
        # the burst: every member of both servers at once, alternately over the two processes
        calls = [fake.run_command(u, channels[g.id], "chercher", jeu="ludix", joueurs=TABLE,
                                  via=via[fake.shard_of(g)][i % 2], settle=0.3)
                 for g in guilds for i, u in enumerate(members)]
        results = await asyncio.gather(*calls)
        for res in results:  # every interaction answered in time, by exactly one process, without a refusal
            assert res.response_type is not None and not res.late, (res.content, res.latency)
            assert res.ephemeral or FOUND in (res.content or ""), res.content
        store = open_store(bot_db)
        await store.open()
        try:
            for g in guilds:
                ch = channels[g.id]
                games = await store.games_with_status((LOBBY, RUNNING, FINISHED, CANCELLED), guild_id=g.id)
                assert len(games) == MEMBERS // TABLE, [(x.id, x.status) for x in games]  # no stray lobby
                assert all(x.status == RUNNING and x.kind == "ludix" and len(x.seats) == TABLE for x in games)
                seated = sorted(s.user_id for x in games for s in x.seats)
                assert seated == sorted(u.id for u in members), "every member seated exactly once"
                assert await store.waiting(g.id) == [], "nobody left waiting, in any queue"
                found = [m for m in fake.messages(ch) if m.visible_to is None and FOUND in (m.content or "")]
                assert len(found) == len(games), [m.content for m in found]  # each match announced once
                pinged = sorted(int(x) for m in found for x in PING.findall(m.content))
                assert pinged == seated
                # each game opened once: its first turn published with its controls, in the server's channel
                await fake.wait_until(lambda ch=ch, games=games: set(controls(fake, ch)) >= {x.id for x in games},
                                      timeout=30)
            assert await store.unopened_matches() == []
        finally:
            await store.close()
        await asyncio.sleep(1.0)  # neither process's tick opens anything more
        store = open_store(bot_db)
        await store.open()
        try:
            for g in guilds:
                games = await store.games_with_status((LOBBY, RUNNING, FINISHED, CANCELLED), guild_id=g.id)
                assert len(games) == MEMBERS // TABLE
                # each game's controls on exactly one message: while both processes hold the shard, both
                # outboxes may post a first turn; the loser of the compare-and-set takes its controls off
                await fake.wait_until(lambda ch=channels[g.id], games=games: sorted(controls(fake, ch))
                                      == sorted(x.id for x in games), timeout=30)
        finally:
            await store.close()
        for p in procs:
            assert "Traceback" not in p.log, p.log[-5000:]
        await handover(fake, bot_db, procs, guilds, members, channels, via)
        errors = [e for e in fake.validation_errors if "/emojis" not in e.get("path", "")]
        assert errors == [], errors
    except BaseException:
        for name, p in zip(("old", "new"), procs, strict=True):
            print(f"--- process {name}\n{p.log[-4000:]}")
        raise
    finally:
        for p in procs:
            p.kill()
        await fake.stop()
