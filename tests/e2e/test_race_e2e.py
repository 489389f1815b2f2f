"""Issue 14's must-hold, across real processes on PostgreSQL: a deadline and a player's move racing on
one game never apply two actions on one version. The bot process answers the players' clicks; this
test's process is a second one on the same database whose scheduler (its clock two days ahead) fires
every game's timeout at the same moment. (The store-level race is tests/test_scheduler.py:
test_a_timeout_and_a_move_racing_from_two_processes_apply_one_action, on both backends.)"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.community import Community
from bot.sessions import SessionService
from bot.storage import open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import mentioned, start_bot
from tests.e2e.test_shards_kill_e2e import newest_control, start_ludix

pytestmark = pytest.mark.e2e

#: read by the ``bot_db`` fixture
BACKEND = "postgresql"
GAMES = 6


class Timeouts:
    """The other process's notifier: which (game, version) its timeouts produced."""

    def __init__(self) -> None:
        self.applied: list[tuple[int, int]] = []

    async def remind(self, game, seats, since) -> None:
        pass

    async def timed_out(self, outcome, seats, forfeit) -> None:
        self.applied.append((outcome.game.id, outcome.game.version))


async def test_a_timeout_and_a_click_racing_from_two_processes_apply_one_action(tmp_path, bot_db):
    channels = [f"t{i}" for i in range(GAMES)]
    fake = FakeDiscord(guild_name="Ludothèque", channels=channels, settle=0.1, timeout=20)
    alice, bruno = fake.add_user("Alice"), fake.add_user("Bruno")
    await fake.start()
    bot = await start_bot(fake, tmp_path, db=bot_db)
    store = open_store(bot_db, clock=lambda: time.time() + 49 * 3600)  # every 48-h timeout is due
    try:
        games = {}
        for name in channels:
            ch = fake.channel(name)
            gid = await start_ludix(fake, ch, alice, bruno)
            games[gid] = (ch, newest_control(fake, ch, gid))
        await store.open()
        sessions = SessionService(store, clock=lambda: time.time() + 49 * 3600)
        notes = Timeouts()
        other = Community(store, sessions, notes, clock=lambda: time.time() + 49 * 3600)
        before = {gid: (await store.get_game(gid)).version for gid in games}

        async def click(gid):
            _, msg = games[gid]
            (uid,) = mentioned(msg)
            roll = next(b["custom_id"] for b in msg.buttons if ":roll:" in b["custom_id"])
            return await fake.click(alice if uid == alice.id else bruno, msg, custom_id=roll)

        results = await asyncio.gather(other.scheduler.tick(), *(click(gid) for gid in games))
        clicks = dict(zip(games, results[1:], strict=True))
        for res in clicks.values():
            assert not res.late and res.latency is not None and res.latency < 3.0
        timed_out = {gid for gid, v in notes.applied if v == before[gid] + 1}
        moved = {gid for gid, res in clicks.items() if not res.ephemeral}
        # one action on each game's version: the click or the timeout, never both, never neither
        assert moved.isdisjoint(timed_out), (moved, timed_out)
        assert moved | timed_out == set(games), (moved, timed_out, {g: r.content for g, r in clicks.items()})
        for gid in games:
            log = [e for e in await store.events(gid) if e.version > before[gid]]
            assert log and log[0].version == before[gid] + 1
            assert log[0].action.get("_by") == ("timeout" if gid in timed_out else None), log[0].action
            assert len([e for e in log if e.version == before[gid] + 1]) == 1
        print(f"race: {len(moved)} clicks won, {len(timed_out)} timeouts won")
        assert fake.validation_errors == []
        assert "Traceback" not in bot.log
    except BaseException:
        print(bot.log[-5000:])
        raise
    finally:
        await store.close()
        bot.kill()
        await fake.stop()
