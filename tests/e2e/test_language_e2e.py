"""The server's language (``/ludibot config langue:``) rules every public message; private answers follow
the user. A Ludix game is played on a server set to English and on one left in French (the default), and
no public message may contain a word that the server's language catalog does not have."""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot import i18n, rules
from tests.e2e.harness import mentioned, wait_control

pytestmark = pytest.mark.e2e

WORD = re.compile(r"[^\W\d_]{3,}")
#: a custom emoji (<:name:id>) is a picture, not a word
NOISE = re.compile(r"https?://\S+|<[@#]!?\d+>|<a?:\w+:\d+>|<t:\d+:\w>|</[^:>\n]+:\d+>|\b[IVXLCDM]+\b")


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """Every word of every message of ``lang`` (all plural and elision variants, from the Fluent source)."""
    words: set[str] = set()
    for text in i18n.catalog(lang).values():
        words.update(w.lower() for w in WORD.findall(text))
    return frozenset(words)


def foreign_words(text: str, lang: str, names: set[str]) -> list[str]:
    text = NOISE.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    return [w for w in WORD.findall(text) if w.lower() not in vocabulary(lang)]


def test_the_check_tells_the_languages_apart():
    french = i18n.t("ludix.event.banked", "fr", seat="Alice", points=20, score=40)
    english = i18n.t("ludix.event.banked", "en", seat="Alice", points=20, score=40)
    assert foreign_words(french, "fr", {"Alice"}) == [] and foreign_words(english, "en", {"Alice"}) == []
    assert foreign_words(french, "en", {"Alice"}) and foreign_words(english, "fr", {"Alice"})


async def play_ludix(world, lang: str, players) -> None:
    fake = world.fake
    first, second = players
    res = await fake.run_command(first, "jeux", "ludix start", objectif=50)
    lobby = res.message
    assert not res.ephemeral
    assert lobby.button_labels[:2] == [i18n.t("common.button.join", lang), i18n.t("common.button.leave", lang)]
    await fake.click(second, lobby, label=i18n.t("common.button.join", lang))
    await fake.click(first, lobby, label=i18n.t("common.button.start", lang))
    msg = await wait_control(fake)
    by_id = {p.id: p for p in players}
    roll, stop = i18n.t("ludix.button.roll", lang), i18n.t("ludix.button.stop", lang)
    for _ in range(200):
        if roll not in msg.button_labels:  # the game is over (only « Revanche » may be left)
            break
        (uid,) = mentioned(msg)
        res = await fake.click(by_id[uid], msg, label=roll)
        msg = res.message
        if stop in msg.button_labels and mentioned(msg) == [uid]:
            msg = (await fake.click(by_id[uid], msg, label=stop)).message
    else:
        pytest.fail("the game did not end")
    # a private answer follows the user's own locale, whatever the server's language
    for user in players:
        res = await fake.run_command(user, "jeux", "ludix rules")
        expected = rules.page_text("ludix", 0, i18n.lang_of(user.locale), {"target": 300})  # no game here any more
        assert res.ephemeral and res.content == expected


def check_public_messages(fake, lang: str, names: set[str]) -> int:
    public = [m for m in fake.messages("jeux") if m.visible_to is None and not m.deleted]
    assert len(public) >= 4
    for message in public:
        texts = [message.content or "", *message.button_labels]
        for text in texts:
            assert foreign_words(text, lang, names) == [], (lang, text)
    return len(public)


async def test_a_server_set_to_english_plays_in_english(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.modo, "jeux", "ludibot config", langue="en")
    # the admin's answer is private, hence in the admin's own language (French)
    assert res.ephemeral and i18n.t("community.language.en", "fr") in res.content and "publics" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot config")
    assert res.ephemeral and "**Langue des messages publics**\u00a0: Anglais" in res.content
    await play_ludix(world, "en", (u.alice, u.dave))
    names = {"Alice", "Dave", "Ludothèque", "Ludix"}
    check_public_messages(fake, "en", names)
    assert any("Ranking" in (m.content or "") or "Game over" in (m.content or "")
               for m in fake.messages("jeux") if m.visible_to is None)
    assert fake.errors == []


async def test_a_server_left_alone_plays_in_french_even_for_english_players(world):
    fake, u = world.fake, world.u
    await play_ludix(world, "fr", (u.dave, u.bruno))
    check_public_messages(fake, "fr", {"Bruno", "Dave", "Ludothèque", "Ludix"})
    assert fake.errors == []


async def test_switching_back_to_french_takes_effect_at_once(world):
    fake, u = world.fake, world.u
    await fake.run_command(u.modo, "jeux", "ludibot config", langue="en")
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
    assert res.message.button_labels[0] == "Join"
    res = await fake.run_command(u.modo, "jeux", "ludibot config", langue="fr")
    assert res.ephemeral
    res = await fake.run_command(u.bruno, "jeux", "ludix start", objectif=50)
    assert res.message.button_labels[0] == "Rejoindre"


async def test_the_rules_are_a_card_of_pages_turned_in_place(world):
    """/x rules: complete rules in Discord, paged in place, in the reader's language, with the settings
    of the game played here (a 150-point Ludix); a crafted page button is refused."""
    fake, u = world.fake, world.u
    await fake.run_command(u.alice, "jeux", "ludix start", objectif=150)
    res = await fake.run_command(u.dave, "jeux", "ludix rules")
    card = res.message
    assert res.ephemeral and card.content == rules.page_text("ludix", 0, "en", {"target": 150})
    assert "**150 points**" in card.content and "docs/" not in card.content
    res = await fake.click(u.dave, card, label=i18n.t("common.rules.next", "en"))
    assert res.message.id == card.id  # the same card, turned
    assert res.message.content == rules.page_text("ludix", 1, "en", {"target": 150})
    last = len(rules.pages("ludix")) - 1
    res = await fake.select(u.dave, card, [str(last)], placeholder=i18n.t("common.rules.pick", "en"))
    assert res.message.id == card.id and res.message.content == rules.page_text("ludix", last, "en", {"target": 150})
    # a French reader gets French pages; a game of another server gives the defaults, not its settings
    res = await fake.run_command(u.bruno, "jeux", "ludix rules")
    assert res.message.content == rules.page_text("ludix", 0, "fr", {"target": 150})
    forged = await fake.forge_click(u.bruno, res.message, "ludibot:rules:ludix:1:987654321")
    assert forged.content == i18n.t("common.error.forged_button", "fr")  # not a button of this card
    assert fake.errors == []


async def test_messages_mention_commands_by_the_ids_discord_gave(world):
    """Issue 25: after its start the bot knows its commands' ids, and a message that names a command
    mentions it (``</ludix start:<id>>``), so each member's client shows it in its own language; the
    fake Discord checks that every mention names one of the application's commands."""
    fake, u = world.fake, world.u
    (ludix,) = [c for c in fake.commands.values() if c.name == "ludix" and c.type == 1]
    page = next(i for i, key in enumerate(rules.pages("ludix")) if "ludix start" in i18n.catalog("fr")[key])
    for user in (u.dave, u.bruno):  # an English and a French reader: the same mention
        res = await fake.run_command(user, "jeux", "ludix rules")
        res = await fake.select(user, res.message, [str(page)], placeholder=i18n.t("common.rules.pick", i18n.lang_of(user.locale)))
        assert f"</ludix start:{ludix.id}>" in res.message.content, res.message.content
        assert "`/ludix" not in res.message.content
    assert fake.broken_command_mentions == [] and fake.errors == []
