"""A 256-player Swiss round opened by the real bot against the strict fake Discord (issue 28's must-hold):
128 games, each opened once, each in a thread of its own with its first card, and not one 429.
``bench/bench_tournament.py --round`` times the same thing."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot, strict

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def open_round(tmp_path, bot_db, players: int, kind: str = "tectonic") -> dict:
    """Register ``players`` members, launch, wait for every first card; the figures."""
    fake = FakeDiscord(guild_name="Ludothèque", channels=["tournoi"], settle=0.02, timeout=60)
    members = [fake.add_user(f"Joueur {i:03d}", locale="fr") for i in range(players)]
    modo = fake.add_user("Modo", locale="fr", manage_guild=True)
    await fake.start()
    bot = await start_bot(fake, tmp_path, db=bot_db, extra_env={"LUDIBOT_PUBLISH_POLL": "0.5"})
    async with strict(SimpleNamespace(fake=fake, bot=bot)):
        res = await fake.run_command(modo, "tournoi", "tournoi creer", jeu=kind, rondes=3, places=players)
        assert "Tournoi n°1" in res.content, res.content
        for start in range(0, players, 16):  # entries, sixteen at a time
            results = await asyncio.gather(*(fake.run_command(m, "tournoi", "tournoi inscrire", tournoi=1)
                                             for m in members[start:start + 16]))
            assert all("participe" in r.content for r in results), [r.content for r in results][:3]
        t0 = time.monotonic()
        res = await fake.run_command(modo, "tournoi", "tournoi lancer", tournoi=1)
        assert "commence" in res.content, res.content
        games = players // 2
        parent = fake.channel("tournoi")

        def cards() -> list:
            threads = [c for c in fake.channels.values() if c.is_thread and c.parent_id == parent.id]
            return [t for t in threads if any("La partie commence" in (m.content or "") for m in fake.messages(t))]

        await fake.wait_until(lambda: len(cards()) >= games, timeout=600, poll=0.5)
        elapsed = time.monotonic() - t0
        await asyncio.sleep(2)  # nothing more comes: no game opened twice
        threads = [c for c in fake.channels.values() if c.is_thread and c.parent_id == parent.id]
        names = sorted(t.name for t in threads)
        assert len(threads) == games and len(set(names)) == games, "one thread per game"
        seated = [n.split(" — ")[1] for n in names]
        people = sorted(p for s in seated for p in s.split(", "))
        assert people == sorted(m.name for m in members), "everyone seated exactly once"
        assert fake.rate_limited == [], fake.rate_limited[:3]
        assert not bot.tracebacks()
        return {"games": games, "seconds": elapsed, "429": len(fake.rate_limited),
                "requests": len(fake.request_log)}


async def test_a_256_player_swiss_round(tmp_path, bot_db):
    figures = await open_round(tmp_path, bot_db, 256)
    print(f"128 games: last first card after {figures['seconds']:.1f} s, 429s: {figures['429']}")
