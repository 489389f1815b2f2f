"""Application emojis (issue 24 part 6) with the real bot process and the strict fake Discord:
created once at the first start, reused after a crash, one deleted by an admin made again at the
next start, and a full application (2,000 emojis) leaves every text and button as it was, with no
reference to an emoji that does not exist."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.emojis import parse_name, wanted_names
from fakediscord import models as m
from render.emoji import render
from tests.e2e.harness import followed, last_control, mentioned, wait_control

pytestmark = pytest.mark.e2e
#: the bot starts on an application without its emojis (its first start ever): it makes them
APP_EMOJIS = False

WANTED = wanted_names()


async def wait_for(predicate, timeout: float = 45.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.2)


def ours(fake) -> dict[str, int]:
    return {e.name: e.id for e in fake.app_emojis.values() if parse_name(e.name)}


def sync_lines(bot) -> list[str]:
    return [line for line in bot.log.splitlines() if "application emojis:" in line]


async def restart(world) -> None:
    world.bot.kill()
    await world.fake.wait_disconnected(timeout=10)
    world.bot.start()
    await world.fake.wait_ready(timeout=60, fresh=True)


async def test_created_once_reused_after_a_crash_and_made_again_when_deleted(world):
    fake = world.fake
    created: list[str] = []
    fake.listeners.append(lambda event, obj: created.append(obj.name) if event == "emoji_create" else None)
    await wait_for(lambda: len(ours(fake)) == len(WANTED) and sync_lines(world.bot), what="the first sync")
    assert set(ours(fake)) == set(WANTED) and sorted(created) == sorted(WANTED)
    assert f"0 reused, {len(WANTED)} created, 0 failed" in sync_lines(world.bot)[-1]
    first = ours(fake)
    for name, eid in first.items():  # the uploaded picture is the renderer's, as a PNG
        kind, key, _ = parse_name(name)
        assert fake.app_emojis[eid].data == render(kind, key)

    await restart(world)  # a crash: everything is reused, nothing created twice
    await wait_for(lambda: len(sync_lines(world.bot)) == 2, what="the second sync")
    assert f"{len(WANTED)} reused, 0 created" in sync_lines(world.bot)[-1]
    assert ours(fake) == first and len(created) == len(WANTED)

    # an admin deletes one (and uploads one of their own): the next start makes ours again, only it
    gone = next(n for n, (kind, key) in WANTED.items() if (kind, key) == ("ludix", "L"))
    del fake.app_emojis[first[gone]]
    fake.app_emojis[10**18] = m.FakeEmoji(id=10**18, name="party_parrot", data=b"GIF89a", content_type="image/gif",
                                          user=fake.bot_user.user_payload())
    await restart(world)
    await wait_for(lambda: len(sync_lines(world.bot)) == 3, what="the third sync")
    assert f"{len(WANTED) - 1} reused, 1 created" in sync_lines(world.bot)[-1]
    now = ours(fake)
    assert set(now) == set(WANTED) and now[gone] != first[gone]
    assert 10**18 in fake.app_emojis, "an emoji that is not the bot's is left alone"
    assert fake.validation_errors == []


async def test_a_full_application_plays_with_texts(world):
    """2,000 emojis already (none ours): nothing can be created; a game runs as before, in text."""
    fake, u = world.fake, world.u
    await wait_for(lambda: sync_lines(world.bot), what="the first sync")  # the usual world made ours: remove them
    fake.app_emojis.clear()
    for n in range(2000):
        eid = 10**18 + n
        fake.app_emojis[eid] = m.FakeEmoji(id=eid, name=f"other_{n}", data=b"\x89PNG", content_type="image/png",
                                           user=fake.bot_user.user_payload())
    await restart(world)
    await wait_for(lambda: len(sync_lines(world.bot)) == 2, what="the sync at the restart")
    assert f"0 created, {len(WANTED)} failed" in sync_lines(world.bot)[-1]
    assert not ours(fake)
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
    await fake.click(u.bruno, res.message, label="Rejoindre")
    res = await fake.click(u.alice, res.message, label="Lancer")
    msg = res.message
    for _ in range(3):
        # the newest turn card (the answer to a click may come before the next card is published)
        await fake.wait_until(lambda: (c := last_control(fake)) is not None and len(mentioned(c)) == 1
                              and any(":roll:" in b["custom_id"] for b in c.buttons), timeout=20,
                              what="a turn card with its roll button")
        msg = last_control(fake)
        (uid,) = mentioned(msg)
        user = u.alice if uid == u.alice.id else u.bruno
        roll = next(b["custom_id"] for b in msg.buttons if ":roll:" in b["custom_id"])
        await fake.click(user, msg, custom_id=roll)
    # strict teardown: no validation error, no broken emoji


async def test_two_processes_started_at_once_create_each_emoji_once(tmp_path, bot_db):
    """Shard 0's process creates; shard 1's only reads the list, again until every emoji is there."""
    from fakediscord import FakeDiscord
    from tests.e2e.harness import BotProcess

    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, shards=2)
    fake.add_guild("Club", channels=["jeux"])
    created: list[str] = []
    fake.listeners.append(lambda event, obj: created.append(obj.name) if event == "emoji_create" else None)
    await fake.start()
    procs = {}
    try:
        for sid in (0, 1):
            (tmp_path / f"p{sid}").mkdir()
            procs[sid] = BotProcess(fake, tmp_path / f"p{sid}", extra_env={
                "LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": str(sid),
                "LUDIBOT_DB": str(bot_db)})
            procs[sid].start()
        await wait_for(lambda: sync_lines(procs[0]) and any(" 0 missing" in line for line in sync_lines(procs[1])),
                       timeout=90, what="both processes to know every emoji")
        assert f"0 reused, {len(WANTED)} created" in sync_lines(procs[0])[-1]
        assert all(" 0 created" in line for line in sync_lines(procs[1])), sync_lines(procs[1])
        assert f"{len(WANTED)} reused, 0 created" in sync_lines(procs[1])[-1]
        assert sorted(created) == sorted(WANTED) and set(ours(fake)) == set(WANTED)
        assert fake.validation_errors == []
        for p in procs.values():
            assert "Traceback" not in p.log
    finally:
        for p in procs.values():
            p.kill()
        await fake.stop()


CUSTOM = re.compile(r"<:(\w+):(\d+)>")


def glyphs_in(text: str, code: str) -> list[str]:
    """The keys of our emojis of ``code`` in ``text``, in order, each naming an emoji that exists."""
    return [name.split("_")[1] for name, _ in CUSTOM.findall(text or "") if name.startswith(f"{code}_")]


def assert_emojis_exist(fake, msg) -> None:
    for name, eid in CUSTOM.findall(msg.text or ""):
        assert fake.app_emojis[int(eid)].name == name


async def test_games_show_their_glyphs(world):
    """Dice faces in the Ludix narration, gesture emojis on the Lutinades buttons (labels kept), the
    Limit tile's line values in the placement prompt, the Ludime hand's letters and discard options."""
    fake, u = world.fake, world.u
    await wait_for(lambda: len(ours(fake)) == len(WANTED) and sync_lines(world.bot), what="the sync")
    ids = {eid: name for name, eid in ours(fake).items()}

    # Ludix: the roll's faces as dice, then in letters (screen readers, copy-paste)
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake, newer_than=lobby)
    (uid,) = mentioned(msg)
    res = await fake.click(u.alice if uid == u.alice.id else u.bruno, msg, label="Lancer les dés")
    assert not res.ephemeral, res.content
    card = await followed(fake, res, msg)  # the roll's card follows the click's own answer (buttons off)
    faces = glyphs_in(card.content, "dx")
    assert len(faces) == 4 and f"{''.join(faces)}" in CUSTOM.sub("", card.content), card.content
    assert_emojis_exist(fake, card)
    assert "Lancer les dés" in card.button_labels or "Relancer" in " ".join(card.button_labels)
    await fake.run_command(u.alice, "jeux", "ludix cancel")

    # Lutinades: every gesture button carries the gesture's application emoji and keeps its words
    res = await fake.run_command(u.alice, "autre", "lutinades start", variante="standard")
    lobby = res.message
    for user in (u.bruno, u.chloe):
        await fake.click(user, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.buttons for m in r.created))
    msg = last_control(fake, "autre")
    gestures = [b for b in msg.buttons if ":gesture:" in b["custom_id"]]
    assert len(gestures) == 4, msg.buttons
    for b in gestures:
        assert b["label"] and b.get("emoji", {}).get("id"), b
        name = ids[int(b["emoji"]["id"])]
        assert name.startswith("lut_") and name.split("_")[1] == b["custom_id"].split(":")[-1].split(".")[1], b
    res = await fake.click(u.bruno, msg, label="Vers le bas", until=lambda r: bool(r.public_messages))
    await fake.run_command(u.alice, "autre", "lutinades cancel")

    # Range ta Ludothèque: the next round's three dice as d6 faces, each followed by its number
    from tests.e2e.test_ranta_e2e import place_mat

    res = await fake.run_command(u.alice, "jeux", "ranta start", mode="classique")
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer", until=lambda r: bool(r.public_messages[1:]))
    await place_mat(fake, u.alice)
    await place_mat(fake, u.bruno)
    await fake.wait_until(lambda: any("les dés donnent" in m.content for m in fake.messages("jeux")), timeout=20)
    msg = next(m for m in reversed(fake.messages("jeux")) if "les dés donnent" in m.content)
    dice = re.search(r"les dés donnent (.*)\.", msg.content).group(1)
    faces = glyphs_in(dice, "d6")
    assert len(faces) == 3 and re.findall(r"> (\d)", dice) == faces, msg.content
    assert_emojis_exist(fake, msg)
    await fake.run_command(u.alice, "jeux", "ranta cancel")

    # Limit: the announced tile's three line values, in the card and in the placement prompt
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="orchidee", variante="standard", tuiles="lune")
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake, newer_than=lobby)
    tile = re.search(r"\d{1,2}-\d{1,2}-\d{1,2}", CUSTOM.sub("", msg.content)).group(0)
    assert glyphs_in(msg.content, "lim") == tile.split("-"), msg.content
    res = await fake.click(u.alice, msg, label="Placer")
    assert res.ephemeral and glyphs_in(res.content, "lim") == tile.split("-") and tile in res.content, res.content
    await fake.run_command(u.alice, "jeux", "limit cancel")

    # Ludime: the hand shown once — its picture and one line of letters, no letter cards besides (issue 36);
    # the discard select's letters as letter cards
    res = await fake.run_command(u.alice, "jeux", "ludime start", variant="main")
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.attachments for m in r.messages))
    msg = last_control(fake)
    (uid,) = mentioned(msg)
    player = u.alice if uid == u.alice.id else u.bruno
    res = await fake.click(player, msg, label="Ma main")
    hand = re.search(r"Votre main\u00a0: ((?:[A-Z] )+[A-Z])\b", res.content)
    assert hand and len(hand[1].split()) >= 5 and res.content.count(hand[1]) == 1, res.content
    assert glyphs_in(res.content, "lm") == [] and res.attachments, res.content
    res = await fake.click(player, msg, label="Piocher", until=lambda r: bool(r.public_messages))
    await fake.wait_until(lambda: any(":discard:" in sel["custom_id"] for m in fake.messages("jeux", visible_to=player)
                                      if m.visible_to == player.id for sel in m.selects), timeout=20)
    private = next(m for m in reversed(fake.messages("jeux", visible_to=player))
                   if m.visible_to == player.id and any(":discard:" in sel["custom_id"] for sel in m.selects))
    options = [o for sel in private.selects if ":discard:" in sel["custom_id"] for o in sel["options"]]
    assert options and all(ids[int(o["emoji"]["id"])].split("_")[1] == o["value"] for o in options), options
    # (strict teardown: no validation error, no emoji shown as text)
    # the hand's letter cards are private: no public message ever shows one
    assert not [m.id for m in fake.messages("jeux") if m.visible_to is None and "<:lm_" in (m.text or "")]


async def test_an_emoji_deleted_while_the_bot_runs(world):
    """An admin deletes the gesture emojis while the bot runs: Discord refuses the next card that
    names one; the bot forgets its emojis, makes them again (shard 0) and the card goes out (with
    texts, or the new emojis): the game is never stuck."""
    fake, u = world.fake, world.u
    await wait_for(lambda: len(ours(fake)) == len(WANTED) and sync_lines(world.bot), what="the sync")
    for name, eid in ours(fake).items():
        if name.startswith("lut_"):
            del fake.app_emojis[eid]
    res = await fake.run_command(u.alice, "jeux", "lutinades start", variante="standard")
    lobby = res.message
    for user in (u.bruno, u.chloe):
        await fake.click(user, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    await fake.wait_until(lambda: (m := last_control(fake)) is not None and any(
        ":gesture:" in b["custom_id"] for b in m.buttons), timeout=40)
    msg = last_control(fake)
    for b in msg.buttons:
        if b.get("emoji", {}).get("id"):
            assert int(b["emoji"]["id"]) in fake.app_emojis
    await wait_for(lambda: len(ours(fake)) == len(WANTED), what="the gesture emojis made again")
    refused = [e for e in fake.validation_errors if "emoji" in str(e).lower()]
    assert refused and len(fake.validation_errors) == len(refused), fake.validation_errors
    assert "Discord refused an application emoji" in world.bot.log
    fake.validation_errors.clear()  # the refusals this test caused on purpose
    res = await fake.click(u.bruno, msg, label="Vers le bas", until=lambda r: bool(r.public_messages))
    assert not fake.validation_errors
