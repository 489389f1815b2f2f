"""Finding opponents (bot/community/matchmaking.py) over the real session service and store: queues filled
from two processes at once (each member matched exactly once, leaving all their queues), every refusal,
a match a crash left without its game, and challenges only the challenged member can join."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.community.matchmaking import (
    GRACE,
    MAX_QUEUES,
    TTL,
    Matchmaking,
    MemoryQueueStore,
    QueueStore,
    Waiting,
    queue_store,
)
from bot.sessions import Player, SessionError, SessionService
from bot.storage import CANCELLED, LOBBY, RUNNING, open_store
from engines.base import RuleError

GUILD, OTHER, CHANNEL = 1, 2, 10


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def member(uid: int, guild: int = GUILD) -> Player:
    return Player(uid, f"J{uid}", guild_id=guild)


class Process:
    """A bot process: its own store; its queues in that store (the database decides), or in the memory
    ``shared`` by the test's processes (the in-memory store, run against the same cases)."""

    def __init__(self, path: str, shared: MemoryQueueStore | None, clock: Clock) -> None:
        self.path, self.shared, self.clock = path, shared, clock
        self.woken: list[int] = []

    async def __aenter__(self) -> Process:
        self.store = open_store(self.path)
        await self.store.open()
        self.queues: QueueStore = self.shared if self.shared is not None else queue_store(self.store)
        self.sessions = SessionService(self.store, clock=self.clock)
        self.mm = Matchmaking(self.queues, self.store, self.sessions, clock=self.clock, opened=self.woken.append)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.store.close()


@pytest.fixture(params=["memory", "database"])
def queues(request) -> MemoryQueueStore | None:
    """The queues in memory, or (None) in each process's own store."""
    return MemoryQueueStore() if request.param == "memory" else None


async def test_a_queue_fills_and_its_members_leave_every_queue(tmp_path, queues):
    clock = Clock()
    async with Process(str(tmp_path / "db"), queues, clock) as p:
        entry, match, count = await p.mm.search(member(1), CHANNEL, "ludix", 3)
        assert match is None and count == 1 and entry.players == 3
        await p.mm.search(member(1), CHANNEL + 1, "tectonic")  # a second queue
        with pytest.raises(SessionError, match="queue_already"):
            await p.mm.search(member(1), CHANNEL, "ludix", 3)
        clock.now += 5
        _, match, count = await p.mm.search(member(2), CHANNEL, "ludix", 3)
        assert match is None and count == 2
        clock.now += 5
        _, match, _ = await p.mm.search(member(3), CHANNEL + 2, "ludix", 3)
        assert match is not None and [w.user_id for w in match.members] == [1, 2, 3]
        game = await p.store.get_game(match.game_id)
        assert game.status == RUNNING and [s.user_id for s in game.seats] == [1, 2, 3]
        assert game.channel_id == CHANNEL  # where the longest-waiting member asked
        assert p.woken == [game.id]
        assert await p.queues.waiting(GUILD) == []  # member 1 left the Tectonic queue too


async def test_refusals(tmp_path, queues):
    async with Process(str(tmp_path / "db"), queues, Clock()) as p:
        cases = [(("chess", None), "tournament.error.game"), (("ludix", 7), "tournament.error.queue_players"),
                 (("lutinades", 2), "tournament.error.queue_players"), (("tectonic", 3), "tournament.error.queue_players")]
        for (kind, n), key in cases:
            with pytest.raises(SessionError) as err:
                await p.mm.search(member(1), CHANNEL, kind, n)
            assert err.value.key == key
        with pytest.raises(RuleError, match="bad_pace"):
            await p.mm.search(member(1), CHANNEL, "ludix", None, "warp")
        with pytest.raises(SessionError, match="guild_only"):
            await p.mm.search(Player(1, "x"), CHANNEL, "ludix")
        for kind, n in [("ludix", 2), ("ludix", 3), ("ludix", 4), ("ludix", 5), ("ludix", 6), ("ludime", 2),
                        ("ludime", 3), ("ludime", 4), ("lutinades", 3), ("lutinades", 4)]:
            await p.mm.search(member(1), CHANNEL, kind, n)
        with pytest.raises(SessionError, match="queue_too_many"):
            await p.mm.search(member(1), CHANNEL, "ranta", 2)
        assert await p.mm.leave(member(1)) == 10
        # queues are per server: a member of another server never completes this one's queue
        await p.mm.search(member(5), CHANNEL, "tectonic")
        _, match, count = await p.mm.search(member(6, guild=OTHER), CHANNEL, "tectonic")
        assert match is None and count == 1


async def fill_from_two_processes(path: str, queues: MemoryQueueStore | None) -> None:
    clock = Clock()
    async with Process(path, queues, clock) as a, Process(path, queues, clock) as b:
        if queues is None:
            assert a.queues is a.store and b.queues is b.store  # nothing shared but the database
        members = list(range(100, 130))
        random.Random(4).shuffle(members)

        async def go(i: int, uid: int):
            clock.now += 0.001
            await asyncio.sleep(0)
            await (a if i % 2 else b).mm.search(member(uid), CHANNEL, "tectonic")

        await asyncio.gather(*(go(i, uid) for i, uid in enumerate(members)))
        games = await a.store.games_with_status((LOBBY, RUNNING))
        seated = [s.user_id for g in games for s in g.seats]
        assert sorted(seated) == sorted(members), "every member seated exactly once"
        assert all(g.status == RUNNING and len(g.seats) == 2 for g in games) and len(games) == 15
        assert await a.queues.waiting(GUILD) == [] and await b.queues.waiting(GUILD) == []
        assert await a.queues.unopened_matches() == []


async def test_two_processes_fill_a_queue_at_once_each_member_matched_once(tmp_path, queues):
    await fill_from_two_processes(str(tmp_path / "db"), queues)


async def test_two_processes_fill_a_queue_at_once_on_postgresql(pg_server):
    await fill_from_two_processes(await pg_server.new_database(), None)


async def test_a_wait_ends_after_a_day(tmp_path, queues):
    clock = Clock()
    async with Process(str(tmp_path / "db"), queues, clock) as p:
        await p.mm.search(member(1), CHANNEL, "tectonic")
        clock.now += TTL + 1
        _, match, count = await p.mm.search(member(2), CHANNEL, "tectonic")
        assert match is None and count == 1
        # a wait that ran out neither blocks its queue (stored: it would outlive restarts) nor counts
        queues = [("ludix", 2), ("ludix", 3), ("ludix", 4), ("ludix", 5), ("ludix", 6), ("ludime", 2), ("ludime", 3),
                  ("ludime", 4), ("lutinades", 3), ("lutinades", 4)]
        assert len(queues) == MAX_QUEUES
        for kind, n in queues:
            await p.mm.search(member(3), CHANNEL, kind, n)
        clock.now += TTL + 1
        _, match, count = await p.mm.search(member(3), CHANNEL, "ranta", 2)
        assert match is None and count == 1 and len(await p.queues.waiting(GUILD, 3)) == 1
        _, match, _ = await p.mm.search(member(1), CHANNEL, "tectonic")
        assert match is None
        _, match, _ = await p.mm.search(member(4), CHANNEL, "tectonic")
        assert match is not None and [w.user_id for w in match.members] == [1, 4]


async def test_a_match_left_without_its_game_is_opened_by_the_tick(tmp_path, queues):
    clock = Clock()
    async with Process(str(tmp_path / "db"), queues, clock) as p:
        for uid in (1, 2):  # the process dies right after the match is taken
            await p.queues.enqueue(Waiting(GUILD, CHANNEL, uid, f"J{uid}", "armada", 2, None, clock.now + uid), 10)
        match = await p.queues.take_group(GUILD, "armada", 2, None, 0.0, clock.now)
        assert match is not None and await p.queues.unopened_matches() == [match]
        assert await p.mm.tick() == 0  # just taken: its taker is opening it (this process or another)
        clock.now += GRACE + 1
        assert await p.mm.tick() == 1
        assert await p.mm.tick() == 0
        (game,) = await p.store.games_with_status((RUNNING,))
        assert [s.user_id for s in game.seats] == [1, 2]


async def test_a_match_recorded_but_not_started_is_started_once_by_two_ticks(tmp_path, queues):
    """The taker recorded the match's lobby and died before starting it: after the grace, the ticks of two
    processes at once start that very lobby, once; no second game, nothing left to open."""
    clock = Clock()
    path = str(tmp_path / "db")
    async with Process(path, queues, clock) as a, Process(path, queues, clock) as b:
        for uid in (1, 2):
            await a.queues.enqueue(Waiting(GUILD, CHANNEL, uid, f"J{uid}", "tectonic", 2, None, clock.now + uid), 10)
        match = await a.queues.take_group(GUILD, "tectonic", 2, None, 0.0, clock.now)
        lobby = await a.sessions.open_lobby("tectonic", guild_id=GUILD, channel_id=CHANNEL, player=member(1))
        await a.sessions.join(lobby.id, member(2))
        assert await a.queues.set_match_game(match.id, lobby.id) == lobby.id  # ... and the process dies
        assert [m.id for m in await b.queues.unopened_matches()] == [match.id]
        clock.now += GRACE + 1
        done = await asyncio.gather(a.mm.tick(), b.mm.tick())
        assert sum(done) == 2  # each looked at it; the database let one start it
        games = await a.store.games_with_status((LOBBY, RUNNING, CANCELLED))
        assert [(g.id, g.status) for g in games] == [(lobby.id, RUNNING)]
        assert len(a.woken) + len(b.woken) == 1
        assert await a.queues.unopened_matches() == [] and await a.mm.tick() == 0


@pytest.mark.parametrize("recorded", [False, True])
async def test_a_lobby_left_by_a_crash_is_taken_up_not_doubled(tmp_path, queues, recorded):
    """The taker created the match's lobby (seated its first member only) and died before recording it on
    the match, or after recording it and before seating the others: the tick completes and starts that
    lobby, and no other game is opened for the match."""
    clock = Clock()
    async with Process(str(tmp_path / "db"), queues, clock) as p:
        for uid in (1, 2, 3):
            await p.queues.enqueue(Waiting(GUILD, CHANNEL, uid, f"J{uid}", "ludix", 3, None, clock.now + uid), 10)
        match = await p.queues.take_group(GUILD, "ludix", 3, None, 0.0, clock.now)
        lobby = await p.sessions.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=member(1),
                                            queue_match=match.id)
        # another lobby of the channel (not this match's) is left alone
        other = await p.sessions.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=member(9))
        if recorded:
            await p.queues.set_match_game(match.id, lobby.id)
        clock.now += GRACE + 1
        assert await p.mm.tick() == 1
        games = {g.id: g for g in await p.store.games_with_status((LOBBY, RUNNING, CANCELLED))}
        assert sorted(games) == sorted([lobby.id, other.id])
        assert games[lobby.id].status == RUNNING and [s.user_id for s in games[lobby.id].seats] == [1, 2, 3]
        assert games[other.id].status == LOBBY and p.woken == [lobby.id]
        assert await p.queues.unopened_matches() == []


async def test_a_challenge_only_the_member_can_join(tmp_path, queues):
    async with Process(str(tmp_path / "db"), queues, Clock()) as p:
        with pytest.raises(SessionError, match="challenge_self"):
            await p.mm.challenge(member(1), CHANNEL, 1, "tectonic")
        lobby = await p.mm.challenge(member(1), CHANNEL, 2, "tectonic")
        with pytest.raises(SessionError) as err:
            await p.sessions.join(lobby.id, member(3))
        assert err.value.key == "tournament.error.reserved"
        assert not p.sessions.challenge_complete(lobby)
        with pytest.raises(SessionError) as err:  # a challenge waits for its member, not for an AI
            await p.sessions.add_ai(lobby.id, member(1))
        assert err.value.key == "lobby.error.challenge_ai"
        with pytest.raises(SessionError):  # nobody starts it for the member before they join
            await p.sessions.start(lobby.id, member(2), challenge=True)
        lobby = await p.sessions.join(lobby.id, member(2))
        assert [s.user_id for s in lobby.seats] == [1, 2]
        assert p.sessions.challenge_complete(lobby)
        with pytest.raises(SessionError):  # only the member challenged starts it by joining
            await p.sessions.start(lobby.id, member(3), challenge=True)
        outcome = await p.sessions.start(lobby.id, member(2), challenge=True)
        assert outcome.game.status == RUNNING and [s.user_id for s in outcome.game.seats] == [1, 2]
        assert not p.sessions.challenge_complete(outcome.game)


RACER = """
import asyncio, json, os, sys, time
from bot.community.matchmaking import Waiting
from bot.storage import open_store

async def main(url, go, uids):
    store = open_store(url)
    await store.open()
    print("ready", flush=True)
    while not os.path.exists(go):
        await asyncio.sleep(0.005)
    taken = []
    for uid in uids:  # as /chercher does: enter, then try to take a full table of three
        assert await store.enqueue(Waiting(1, 10, uid, f"J{uid}", "ludix", 3, None, 1000.0 + uid), 10) == "ok"
        m = await store.take_group(1, "ludix", 3, None, 0.0, 2000.0)
        if m is not None:
            taken.append([m.id, [w.user_id for w in m.members]])
    await store.close()
    print(json.dumps(taken), flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")]))
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_two_os_processes_fill_one_queue_each_member_taken_once(tmp_path, backend, request):
    """Two real processes on one database (nothing shared but it), entering members into one queue of three
    and taking it at the same time: every member in exactly one match, every match full."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    url = str(tmp_path / "db") if backend == "sqlite" else await request.getfixturevalue("pg_server").new_database()
    store = open_store(url)
    await store.open()  # migrated once, before the racers
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    members = list(range(100, 160))
    procs = [subprocess.Popen([sys.executable, "-c", RACER, url, str(go), ",".join(map(str, members[i::2]))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for i in (0, 1)]
    try:
        for p in procs:
            assert (await asyncio.to_thread(p.stdout.readline)).strip() == "ready"
        go.write_text("")
        outs = [await asyncio.to_thread(p.communicate, timeout=120) for p in procs]
        for p, (_, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
        by_process = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
        assert all(by_process), "both processes took matches"
        matches = [m for taken in by_process for m in taken]
        taken = sorted(uid for _, uids in matches for uid in uids)
        assert taken == members, "every member taken exactly once"
        assert all(len(uids) == 3 for _, uids in matches) and len({i for i, _ in matches}) == 20
        assert await store.waiting(1) == [] and len(await store.unopened_matches()) == 20
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        await store.close()
