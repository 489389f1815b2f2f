"""Durable publication (issue 17): every committed version reaches its channel.

The real bot process against the fake Discord: a crash between the commit and the answer, random
SIGKILLs during bursts of clicks, a DM, the permission check at start. After each restart, every
running game's newest public message carries live controls for the game's current version, and
no acknowledged move is lost or applied twice.
"""

from __future__ import annotations

import asyncio
import os
import random
import re

import pytest

from bot.sessions import SessionService
from bot.storage import RUNNING, SQLiteStore
from tests.e2e.harness import mentioned

pytestmark = pytest.mark.e2e

CID = re.compile(r"^ludibot:(\d+):([a-z_]+):(\d+)")


def controls_of(msg) -> list[tuple[int, str, int]]:
    out = []
    for b in msg.buttons:
        m = CID.match(b.get("custom_id", ""))
        if m:
            out.append((int(m[1]), m[2], int(m[3])))
    return out


def newest_control(fake, game_id: int):
    """The newest public, live message of the channel whose buttons belong to ``game_id``."""
    for msg in reversed(fake.messages("jeux") + fake.messages("autre")):
        if msg.visible_to is None and not msg.deleted and any(g == game_id for g, _, _ in controls_of(msg)):
            return msg
    return None


async def db_games(db) -> dict[int, object]:
    store = SQLiteStore(str(db))
    await store.open()
    try:
        return {g.id: g for g in await store.games_with_status((RUNNING,))}
    finally:
        await store.close()


async def start_ludix(fake, u, channel="jeux", target=1000):
    res = await fake.run_command(u.alice, channel, "ludix start", objectif=target)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    game_id = int(lobby.revisions[0].components[0]["components"][0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest_control(fake, game_id) is not None, timeout=20)
    return game_id


async def all_games_show_their_version(fake, db, timeout: float = 25.0) -> None:
    """Wait until every running game's newest control message is for its current version."""
    last = {}

    def ok() -> bool:
        return all((m := newest_control(fake, gid)) is not None
                   and {v for g, _, v in controls_of(m) if g == gid} == {game.version}
                   for gid, game in last.items())

    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        last = await db_games(db)
        if ok():
            return
        if asyncio.get_running_loop().time() > deadline:
            stale = {gid: (g.version, controls_of(newest_control(fake, gid)) if newest_control(fake, gid) else None)
                     for gid, g in last.items()}
            pytest.fail(f"games without live controls for their version: {stale}")
        await asyncio.sleep(0.3)


async def restart(world) -> None:
    world.bot.kill()
    await world.fake.wait_disconnected(timeout=10)
    world.bot.start()
    await world.fake.wait_ready(timeout=60, fresh=True)


async def test_a_move_committed_just_before_a_crash_is_published_after_the_restart(world):
    fake, u = world.fake, world.u
    game_id = await start_ludix(fake, u)
    msg = newest_control(fake, game_id)
    (uid,) = mentioned(msg)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    # exactly what the bot had done when it died: the move committed, its message never posted
    store = SQLiteStore(str(world.bot.db))
    await store.open()
    try:
        outcome = await SessionService(store).act(game_id, uid, {"type": "roll"})
        version = outcome.game.version
        assert outcome.game.published_version < version
    finally:
        await store.close()
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await all_games_show_their_version(fake, world.bot.db)
    new = newest_control(fake, game_id)
    assert new.id != msg.id and {v for _, _, v in controls_of(new)} == {version}
    # the old message lost its buttons once the new one existed; a stale client still clicking
    # one is told it is out of date; the new ones play
    assert msg.buttons == []
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    old_cid = msg.revisions[0].components[0]["components"][0]["custom_id"]
    res = await fake.forge_click(by_id[uid], msg, old_cid)
    assert res.ephemeral and "déjà été joué" in res.content
    label = new.button_labels[0]
    res = await fake.click(by_id[mentioned(new)[0]], new, label=label)
    assert not res.ephemeral and res.message.buttons
    store = SQLiteStore(str(world.bot.db))
    await store.open()
    try:
        game = await store.get_game(game_id)
        assert game.published_version == game.version  # nothing owed any more
    finally:
        await store.close()
    assert not world.bot.tracebacks()


@pytest.mark.parametrize("kills", [pytest.param(3, id="3-kills"),
                                   pytest.param(20, id="20-kills", marks=pytest.mark.slow)])
async def test_sigkill_during_bursts_of_moves_never_strands_a_game(world, kills):
    if kills > 3 and not os.environ.get("LUDIBOT_SLOW"):
        pytest.skip("the long soak runs with LUDIBOT_SLOW=1")
    fake, u = world.fake, world.u
    rng = random.Random(1717)
    games = [await start_ludix(fake, u, channel) for channel in ("jeux", "autre", "jeux")]
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    acknowledged: list[tuple[int, int, int]] = []  # (game, version clicked, user)

    async def click_game(game_id: int) -> None:
        msg = newest_control(fake, game_id)
        if msg is None or not mentioned(msg):
            return
        uid = mentioned(msg)[-1]
        if uid not in by_id:
            return
        label = msg.button_labels[0]
        (_, _, version) = controls_of(msg)[0]
        try:
            res = await fake.click(by_id[uid], msg, label=label, timeout=5, check_deadline=False)
        except Exception:  # the bot died under the click: not acknowledged
            return
        if res.message is not None and not res.ephemeral:
            acknowledged.append((game_id, version, uid))

    for _ in range(kills):
        burst = asyncio.gather(*(click_game(g) for g in games for _ in range(2)), return_exceptions=True)
        await asyncio.sleep(rng.uniform(0.0, 0.4))
        world.bot.kill()
        await burst
        await fake.wait_disconnected(timeout=10)
        world.bot.start()
        await fake.wait_ready(timeout=60, fresh=True)
        await all_games_show_their_version(fake, world.bot.db)
    # every acknowledged click is in the log once, as the move of its version, by its player
    store = SQLiteStore(str(world.bot.db))
    await store.open()
    try:
        for game_id, version, uid in acknowledged:
            rows = [e for e in await store.events(game_id) if e.version == version + 1]
            assert len(rows) == 1 and rows[0].user_id == uid, (game_id, version, rows)
    finally:
        await store.close()
    assert acknowledged


async def test_game_commands_are_for_servers_only(world):
    """Decision: games are played in a server's channels and threads. Every game command is
    registered server-only, so Discord does not offer it in DMs (and the bot refuses one anyway)."""
    fake = world.fake
    games = [c.payload for c in fake.commands.values()
             if c.payload["name"] in ("ludix", "ludime", "ranta", "limit", "tectonic", "armada", "lutinades")]
    assert len(games) == 7
    for payload in games:
        assert payload.get("dm_permission") is False or payload.get("contexts") == [0], payload["name"]
