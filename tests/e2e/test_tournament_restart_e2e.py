"""A tournament survives the bot's SIGKILL (issue 28): it lives in the database, not in a process.

A Swiss Armada tournament of four, the real bot against the strict fake Discord, killed twice: once while
round 1 runs (the restarted bot still knows the tournament and its games), once right after the last
game of round 1 ended (the end hook may or may not have run, the lease may be held by the dead process):
the restarted bot opens round 2 exactly once, without a rematch, and the tournament ends with its podium."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.e2e.harness import usual_world
from tests.e2e.test_tournament_e2e import public_with, resign, thread_of, threads

pytestmark = pytest.mark.e2e

LEASE = 120.0  # bot.community.tournaments.LEASE: a lease held by a killed process runs out after it


async def restart(w) -> None:
    w.bot.kill()
    await w.fake.wait_disconnected(timeout=10)
    w.bot.start()
    await w.fake.wait_ready(timeout=60, fresh=True)


async def test_a_tournament_survives_kills_between_and_within_rounds(tmp_path, bot_db):
    env = {"LUDIBOT_SCHEDULER_POLL": "0.3", "LUDIBOT_PUBLISH_POLL": "0.3"}
    async with usual_world(tmp_path, bot_db, env=env) as w:
        fake, u = w.fake, w.u
        res = await fake.run_command(u.modo, "jeux", "tournoi creer", jeu="armada", format="swiss", rondes=2,
                                     places=4)
        assert not res.ephemeral and "Tournoi n°1" in res.content
        card = res.message
        for who in (u.alice, u.bruno, u.chloe, u.dave):
            res = await fake.run_command(who, "jeux", "tournoi inscrire")
            assert not res.ephemeral, res.content
        res = await fake.run_command(u.modo, "jeux", "tournoi lancer")
        assert "commence" in res.content
        await fake.wait_until(lambda: public_with(fake, "ronde 1 sur 2"), timeout=30)
        seen: set[int] = set()
        a = await thread_of(fake, "Alice, Bruno", seen)
        c = await thread_of(fake, "Chloé, Dave", seen)
        seen |= {a.id, c.id}

        # killed while round 1 runs: the new process knows the tournament, its round and its games
        await restart(w)
        res = await fake.run_command(u.chloe, "jeux", "tournoi etat")
        assert not res.ephemeral and "ronde 1 sur 2" in res.content.lower(), res.content
        assert res.message.attachments
        res = await fake.run_command(u.bruno, "jeux", "tournoi inscrire")
        assert res.ephemeral, res.content  # already in (the entries are stored too)
        res = await fake.click(u.modo, card, label="S'inscrire")  # the card's button outlives the process
        assert res.ephemeral and "a déjà commencé" in res.content, res.content

        await resign(fake, u.alice, a)  # Bruno wins
        await resign(fake, u.chloe, c)  # Dave wins: round 1 is complete...
        w.bot.kill()  # ...and the bot dies at once (the hook that opens round 2 may not have run)
        await fake.wait_disconnected(timeout=10)
        w.bot.advance(LEASE + 5)  # a lease the dead process may have held runs out
        w.bot.start()
        await fake.wait_ready(timeout=60, fresh=True)

        # round 2: winners meet winners, losers meet losers, each game opened once
        b = await thread_of(fake, "Bruno, Dave", seen)
        a2 = await thread_of(fake, "Alice, Chloé", seen)
        await fake.wait_idle(quiet=1.5, timeout=20)
        new = [t for t in threads(fake) if t.id not in seen]
        assert sorted(t.id for t in new) == sorted((b.id, a2.id)), [t.name for t in new]
        games = {int(re.search(r"n°(\d+)", t.name)[1]) for t in threads(fake)}
        assert len(games) == 4, "one game per table, none opened twice"
        await fake.wait_until(lambda: public_with(fake, "ronde 2 sur 2"), timeout=20)
        assert len(public_with(fake, "ronde 2 sur 2")) == 1  # announced by whichever process, once

        await resign(fake, u.bruno, b)
        await resign(fake, u.alice, a2)
        await fake.wait_until(lambda: public_with(fake, "Fin du tournoi n°1"), timeout=30)
        await asyncio.sleep(1.0)
        (podium,) = public_with(fake, "Fin du tournoi n°1")  # announced once
        lines = podium.content.splitlines()
        assert f"<@{u.dave.id}> — 2 pt" in lines[1] and lines[1].startswith("🥇")
        assert {lines[2], lines[3]} == {f"🥈 <@{u.bruno.id}> — 1 pt", f"🥈 <@{u.chloe.id}> — 1 pt"}
        assert not w.bot.tracebacks()
