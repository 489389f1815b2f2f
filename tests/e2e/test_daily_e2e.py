"""The daily challenge end to end (issue 37): the real bot, the strict fake Discord.

Three members play the same day's Take it to the Limit challenge (Nexus) on their own: each is shown
the same first tile; a second attempt is refused, privately and precisely; the scores stay hidden from
the one who has not finished, who sees how many played; the day's board ranks the three with the AI's
mark; the share card gives the score and a shape, no tile or cell, and its « Jouer le défi » starts the
challenge for whoever clicks; the replay stays the player's until the day is over; the next day's draw
differs. The boards' pictures are saved (``LUDIBOT_SHOTS``: a folder) to be looked at.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

import pytest

from engines.limit import DECHETTERIE, NEXUS
from tests.e2e.harness import assert_card, read_game_row

pytestmark = pytest.mark.e2e

ORDER = [*NEXUS.names, *DECHETTERIE.names]  # the board first: lines that score
TILE = r"Tuile 1/44.*?\*\*(?:<:\w+:\d+>)* ?(\S+)\*\*"
DAY_S = 86400.0


def game_of(msg) -> int:
    return int(next(b for b in msg.buttons if b.get("custom_id"))["custom_id"].split(":")[1])


def first_tile(msg) -> str:
    m = re.search(TILE, msg.content, re.S)
    assert m, msg.content
    return m.group(1)


def secret_of(db: str, guild_id: int) -> str:
    """The server's challenge secret as the bot stored it (read in a thread of its own, as read_game_row)."""
    from bot.storage import open_store

    async def read():
        store = open_store(str(db))
        await store.open()
        try:
            return await store.daily_secret(guild_id, "not-the-secret", 0.0)  # the stored one: it exists
        finally:
            await store.close()

    return asyncio.run(read())


def save(name: str, res) -> None:
    """The picture and the card (its components' JSON) of an answer, to be looked at (``LUDIBOT_SHOTS``)."""
    folder = os.environ.get("LUDIBOT_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    message = getattr(res, "message", None) or res
    (Path(folder) / f"{name}.json").write_text(json.dumps(message.components, ensure_ascii=False, indent=1))
    if getattr(res, "attachments", None):
        (Path(folder) / f"{name}.png").write_bytes(res.attachments[0].bytes)


async def started(fake, user, res):
    """The answer to a start (the command, or « Jouer le défi »): privately, the private thread where the
    member's challenge is played; there, its first tile. ``(thread, first message)``."""
    # (a thread made later than the bot waits for it — a loaded machine — is linked by a private follow-up)
    await fake.wait_until(lambda: "<#" in res.content, timeout=20, what="the link to the private thread")
    assert res.ephemeral and "fil privé, rien qu'à vous" in res.content, res.content
    thread = fake.channel(int(re.search(r"<#(\d+)>", res.content).group(1)))
    assert thread.type == 12 and not thread.invitable  # private: nobody else sees the draw
    await fake.wait_until(lambda: any("Tuile 1/44" in m.content for m in fake.messages(thread)), timeout=20,
                          what="the first tile in the private thread")
    msg = next(m for m in fake.messages(thread) if "Tuile 1/44" in m.content)
    assert "Défi du jour" in msg.content and f"<@{user.id}>" in msg.content, msg.content
    others = [x for x in (fake.user("Alice"), fake.user("Bruno"), fake.user("Chloé"), fake.user("Dave"))
              if x.id != user.id]
    assert fake.channel_permissions(user, thread) and not any(fake.channel_permissions(x, thread) for x in others)
    return thread, msg


async def start(fake, user):
    return await started(fake, user, await fake.run_command(user, "jeux", "defi-du-jour", jeu="limit:nexus"))


async def play_through(fake, user, thread, order: list[str]) -> int:
    """Place every tile of the member's own challenge (typed in its thread, the first free position of
    ``order``): their score."""
    used: list[str] = []
    res = None
    for _ in range(44):
        position = next(p for p in order if p not in used)
        res = await fake.run_command(user, thread, "limit placer", position=position,
                                     until=lambda r: bool(r.public_messages))
        assert res.ephemeral and "Vous avez posé" in res.content, (position, res.content)
        used.append(position)
    final = next(m for m in res.public_messages if "Fin de la partie" in m.content)
    m = re.search(r"1\. " + re.escape(user.name) + r" — (-?\d+)", final.content)
    assert m, final.content
    return int(m.group(1))


async def share_card(fake, user, since: int):
    """The share card a finished challenge posts (after its result)."""
    def found():
        return next((m for m in fake.messages("jeux") if m.id > since and m.visible_to is None
                     and "Jouer le défi" in m.button_labels and f"<@{user.id}>" in m.content), None)

    await fake.wait_until(lambda: found() is not None, timeout=30, what="the share card")
    return found()


async def board(fake, user, period="jour", *, mark=True):
    """The day's (or week's) board as ``user`` sees it, once the AI's mark is known (``mark``)."""
    for _ in range(120):
        res = await fake.run_command(user, "jeux", "defi-du-jour", jeu="limit:nexus", classement=period)
        assert res.ephemeral and res.attachments and res.attachments[0].bytes[:4] == b"\x89PNG", res.content
        if not mark or "fait **" in res.content or "scores **" in res.content:
            return res
        await asyncio.sleep(1)
    raise AssertionError(f"the AI's mark never came: {res.content}")


async def test_three_members_take_the_same_challenge(world):
    fake, u, bot = world.fake, world.u, world.bot
    # Alice takes today's challenge: her solo game on the day's draw, answered publicly with its first tile
    thread, first = await start(fake, u.alice)
    tile = first_tile(first)
    alice_game = game_of(first)
    since = max(fake.message_by_id)
    alice = await play_through(fake, u.alice, thread, ORDER)
    # nothing of her game reached the channel: only the share card
    assert not any("Tuile" in m.content for m in fake.messages("jeux"))
    share = assert_card(await share_card(fake, u.alice, since))
    save("daily-share-fr", share)
    save("daily-start-fr", first)
    assert f"**{alice}**" in share.content and "Forme\u00a0:" in share.content, share.content
    assert not share.attachments and not re.search(r"\b[A-GX]\d\b", share.content), share.content  # no cell, no tile
    # a second attempt the same day is refused, privately, and says why
    again = await fake.run_command(u.alice, "jeux", "defi-du-jour", jeu="limit:nexus")
    assert again.ephemeral and "Vous avez déjà relevé le défi du jour" in again.content, again.content
    save("daily-again-fr", again)
    assert "un seul essai par jour" in again.content
    # Chloé has not played: she sees how many did, no score, no name
    hidden = await board(fake, u.chloe)
    assert "Un membre a relevé le défi aujourd'hui" in hidden.content and "restent cachés" in hidden.content
    assert "Alice" not in hidden.content and f"— {alice}" not in hidden.content, hidden.content
    save("daily-hidden-fr", hidden)
    # nor can she look at Alice's game before the day is over: not its state, not its replay
    peek = await fake.run_command(u.chloe, "jeux", "limit etat", partie=alice_game)
    assert peek.ephemeral and not peek.attachments and "se joue en privé" in peek.content, peek.content
    closed = await fake.run_command(u.chloe, "jeux", "historique", partie=alice_game)
    assert closed.ephemeral and "s'ouvrent à tous quand la journée se termine" in closed.content, closed.content
    # Bruno answers the share card: « Jouer le défi » starts his own game, on the same draw
    thread, msg = await started(fake, u.bruno, await fake.click(u.bruno, share, label="Jouer le défi"))
    assert first_tile(msg) == tile
    since = max(fake.message_by_id)
    bruno = await play_through(fake, u.bruno, thread, ORDER[::-1])
    await share_card(fake, u.bruno, since)
    # Chloé takes it too: the same first tile; while she plays, the scores stay hidden from her
    thread, chloe_first = await start(fake, u.chloe)
    assert first_tile(chloe_first) == tile
    playing = await board(fake, u.chloe)
    assert "2 membres ont relevé" not in playing.content and "3 membres ont relevé" in playing.content
    assert "restent cachés" in playing.content and "Bruno" not in playing.content
    chloe = await play_through(fake, u.chloe, thread, ORDER[len(ORDER) // 2:] + ORDER[:len(ORDER) // 2])
    # the day's board ranks the three, with the AI's mark to beat
    ranked = await board(fake, u.chloe)
    save("daily-board-fr", ranked)
    mark = int(re.search(r"fait \*\*(-?\d+)\*\*", ranked.content).group(1))
    assert "restent cachés" not in ranked.content
    lines = [line for line in ranked.content.splitlines() if re.match(r"\d+\. ", line)]
    scores = {"Alice": alice, "Bruno": bruno, "Chloé": chloe}
    shown = [(re.match(r"(\d+)\. (\S+) — (-?\d+)", line).groups()) for line in lines]
    assert [(n, int(s)) for _, n, s in shown] == sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])), lines
    assert [int(r) for r, _, _ in shown][0] == 1
    assert mark > 0
    # Dave reads it in English: he has not played, so no scores
    english = await board(fake, u.dave)
    assert "Today's scores stay hidden" in english.content and "3 members have taken" in english.content
    save("daily-hidden-en", english)
    week = await board(fake, u.alice, "semaine")
    assert "Défi de la semaine" in week.content
    save("daily-week-fr", week)
    # the next day: another draw, and the replay of yesterday's challenge is everyone's
    bot.advance(DAY_S)
    _, tomorrow = await start(fake, u.alice)
    before, after = read_game_row(bot.db, alice_game), read_game_row(bot.db, game_of(tomorrow))
    assert before.seed != after.seed and before.state["deck"] != after.state["deck"]
    late = await fake.click(u.dave, share, label="Jouer le défi")  # yesterday's card: another day's challenge
    assert late.ephemeral and "was another day's" in late.content, late.content
    opened = await fake.run_command(u.chloe, "jeux", "historique", partie=alice_game)
    assert opened.ephemeral and "s'ouvrent à tous" not in opened.content
    # the server's secret, from which the draws come, is in no message the bot sent
    secret = await asyncio.to_thread(secret_of, bot.db, fake.guild_id)
    assert len(secret) == 64
    for message in fake.message_by_id.values():
        assert secret not in message.content and secret not in json.dumps(message.components)


async def test_range_ta_ludotheque_challenge_in_both_languages(world):
    """Range ta Ludothèque (expert): two members, one French and one English, each in a private thread of
    their own, are dealt the same first roll; the English one's private answers are in English."""
    fake, u = world.fake, world.u
    firsts = []
    for user in (u.alice, u.dave):
        res = await fake.run_command(user, "jeux", "defi-du-jour", jeu="ranta:expert")
        assert res.ephemeral, res.content
        # (a thread made later than the bot waits for it is linked by a private follow-up)
        await fake.wait_until(lambda r=res: "<#" in r.content, timeout=20, what="the link to the private thread")
        words = "private thread, yours only" if user is u.dave else "fil privé, rien qu'à vous"
        assert words in res.content, res.content
        thread = fake.channel(int(re.search(r"<#(\d+)>", res.content).group(1)))
        assert thread.type == 12 and fake.channel_permissions(user, thread)
        await fake.wait_until(lambda t=thread: any(m.buttons for m in fake.messages(t)), timeout=20,
                              what="the first turn in the private thread")
        firsts.append(next(m for m in fake.messages(thread) if m.buttons))
        save(f"daily-ranta-{user.name}", firsts[-1])
    # the thread's card is in the server's language (French here), as every public message of a game
    assert all("Défi du jour" in m.content and "Range ta Ludothèque · expert" in m.content for m in firsts)
    games = [await asyncio.to_thread(read_game_row, world.bot.db, game_of(m)) for m in firsts]
    assert games[0].seed == games[1].seed and games[0].state["rolls"][:1] == games[1].state["rolls"][:1] != []
    again = await fake.run_command(u.dave, "jeux", "defi-du-jour", jeu="ranta:expert")
    assert again.ephemeral and "You have already taken today's challenge" in again.content, again.content


async def test_a_challenge_whose_thread_waits_on_a_rate_limit_is_answered_in_time(world):
    """Every interaction is answered inside Discord's 3 seconds. The channel may make no thread for now: the
    challenge is still answered in time (``run_command`` raises past 3 s), privately, saying that its thread
    opens in a moment; once threads may be made again, the link follows privately and the first tile is in
    the private thread, once."""
    fake, u = world.fake, world.u
    fake.rate_limit.thread_limit, fake.rate_limit.thread_per = 0, 2.0  # no thread for now
    res = await fake.run_command(u.alice, "jeux", "defi-du-jour", jeu="limit:nexus")
    assert res.latency < 3.0 and res.ephemeral and "s'ouvre dans un instant" in res.content, res.content
    assert "<#" not in res.content and not [c for c in fake.channels.values() if c.type == 12]
    fake.rate_limit.thread_limit = 1  # the channel may make threads again: the bot's retry goes through
    await fake.wait_until(lambda: "<#" in res.content, timeout=30, what="the link to the private thread")
    assert all(m.ephemeral for m in res.messages), [m.text for m in res.messages]
    thread = fake.channel(int(re.search(r"<#(\d+)>", res.content).group(1)))
    assert thread.type == 12 and not thread.invitable
    await fake.wait_until(lambda: any("Tuile 1/44" in m.content for m in fake.messages(thread)), timeout=20,
                          what="the first tile in the private thread")
    assert sum("Tuile 1/44" in m.content for m in fake.messages(thread)) == 1
    assert not any("Tuile" in m.content for m in fake.messages("jeux"))
    assert fake.errors == []
