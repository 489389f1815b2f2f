"""Messages that name a slash command mention it (issue 25): ``</tectonic jouer:<id>>``, which each
member's client shows under the name of its own language, once the process knows the commands'
ids (from its sync, or fetched at start); until then the name the message's language's clients
see, as code. Every command a catalog names exists in the bot's tree."""

from __future__ import annotations

import re
from types import SimpleNamespace

import discord
import pytest

from bot import commandids, i18n

MENTION = re.compile(r"</([^:>]+):(\d+)>")


@pytest.fixture(autouse=True)
def no_ids():
    """Each test starts and ends with no id known (other tests expect the text form)."""
    i18n.set_command_ids({})
    yield
    i18n.set_command_ids({})


def test_unknown_ids_give_the_name_each_language_sees_as_code():
    assert i18n.command("tectonic jouer", "fr") == "`/tectonic jouer`"
    assert i18n.command("tectonic jouer", "en") == "`/tectonic play`"
    assert i18n.command("ludix start", "fr") == "`/ludix lancer`"  # French clients see « lancer »
    assert i18n.command("ludix start", "en") == "`/ludix start`"
    assert i18n.command("tournoi inscrire", "en") == "`/tournament join`"
    assert i18n.command("classement", "en") == "`/leaderboard`"
    assert i18n.t("tectonic.ui.hint_move", "en") == (
        "➡️ Play with `/tectonic play` `from: to:` (autocomplete only offers your legal moves).")
    assert i18n.t("tectonic.ui.hint_move", "fr").startswith("➡️ Jouez avec `/tectonic jouer` `de: vers:` (")


def test_known_ids_give_the_mention_by_default_names_in_every_language():
    assert i18n.set_command_ids({"tectonic": 1234567890123456789, "tournoi": 42})
    for lang in ("fr", "en"):
        assert i18n.command("tectonic jouer", lang) == "</tectonic jouer:1234567890123456789>"
        # the options stay text after it, in the message's language
        assert i18n.t("tectonic.ui.hint_move", lang).startswith(
            {"fr": "➡️ Jouez avec </tectonic jouer:1234567890123456789> `de: vers:`",
             "en": "➡️ Play with </tectonic jouer:1234567890123456789> `from: to:`"}[lang])
        assert i18n.t("tournament.round.many", lang, id=7).count("</tournoi etat:42>") == 1
    # a command whose id is not known (another scope) stays text
    assert i18n.command("ludix start", "en") == "`/ludix start`"


def test_a_subcommand_group_is_mentioned_with_its_whole_path():
    """``</NAME SUBCOMMAND_GROUP SUBCOMMAND:ID>``, the id being the top-level command's (the tree has
    no group today: a made-up path of known names)."""
    i18n.set_command_ids({"ludibot": 99})
    assert i18n.command("ludibot casse annuler", "fr") == "</ludibot casse annuler:99>"
    i18n.set_command_ids({})
    assert i18n.command("ludibot casse annuler", "en") == "`/ludibot broken cancel`"  # names known, ids not
    assert i18n.command("ludibot casse annuler", "fr") == "`/ludibot casse annuler`"


def test_kept_messages_are_forgotten_when_the_ids_change():
    before = i18n.t("armada.ui.hint_spain_place", "fr")
    assert "`/armada placer` `point:`" in before and i18n.t("armada.ui.hint_spain_place", "fr") == before
    assert i18n.set_command_ids({"armada": 11}) is True
    assert "</armada placer:11> `point:`" in i18n.t("armada.ui.hint_spain_place", "fr")
    assert i18n.set_command_ids({"armada": 11}) is False  # the same ids: nothing to forget
    i18n.set_command_ids({"armada": 12})  # re-created by a re-sync: a new id
    assert "</armada placer:12>" in i18n.t("armada.ui.hint_spain_place", "fr")
    i18n.set_command_ids({})
    assert i18n.t("armada.ui.hint_spain_place", "fr") == before


def command(name: str, cid: int, kind=discord.AppCommandType.chat_input):
    return SimpleNamespace(name=name, id=cid, type=kind)


def test_ids_are_learnt_from_what_discord_returns():
    """From the sync (``AppCommand`` objects) or a listing (JSON); user and message commands have no mention."""
    assert commandids.learn([command("ludix", 5), command("Profil", 6, discord.AppCommandType.user)])
    assert i18n.command_ids() == {"ludix": 5}
    assert commandids.learn([{"name": "ludix", "id": "7", "type": 1}, {"name": "tectonic", "id": "8"}])
    assert i18n.command_ids() == {"ludix": 7, "tectonic": 8}
    assert not commandids.learn([])  # an empty answer forgets nothing
    assert not commandids.learn([{"name": "ludix", "id": None}]) and i18n.command_ids() == {"ludix": 7, "tectonic": 8}


class FakeTree:
    """``tree.fetch_commands``: fails ``failures`` times, then lists the commands."""

    def __init__(self, commands, failures: int = 0) -> None:
        self.commands, self.failures, self.calls = commands, failures, []

    async def fetch_commands(self, *, guild=None):
        self.calls.append(guild)
        if len(self.calls) <= self.failures:
            raise discord.HTTPException(SimpleNamespace(status=503, reason="down"), "unavailable")
        return self.commands


async def test_ids_are_fetched_once_and_again_only_while_it_fails():
    tree = FakeTree([command("tectonic", 31)])
    assert await commandids.fetch_until_known(tree, None, delays=(0, 0))
    assert tree.calls == [None] and i18n.command_ids() == {"tectonic": 31}
    i18n.set_command_ids({})
    guild = discord.Object(555)
    tree = FakeTree([command("armada", 32)], failures=2)
    assert await commandids.fetch_until_known(tree, guild, delays=(0, 0, 0))
    assert tree.calls == [guild] * 3 and i18n.command_ids() == {"armada": 32}  # the dev guild's commands
    # none registered yet (shard 0, another process, has not synced): asked again
    tree = FakeTree([command("armada", 34)])
    empty = [[]]

    async def not_yet(*, guild=None):
        tree.calls.append(guild)
        return empty.pop() if empty else tree.commands

    tree.fetch_commands = not_yet
    assert await commandids.fetch_until_known(tree, None, delays=(0, 0))
    assert len(tree.calls) == 2 and i18n.command_ids() == {"armada": 34}
    i18n.set_command_ids({"armada": 32})
    tree = FakeTree([command("armada", 33)], failures=5)
    assert not await commandids.fetch_until_known(tree, None, delays=(0, 0))
    assert len(tree.calls) == 3 and i18n.command_ids() == {"armada": 32}  # what was known stays
    assert "</armada placer:32>" in i18n.t("armada.ui.hint_spain_place", "en")


async def test_the_sync_teaches_the_ids_and_a_skipped_sync_leaves_them_to_the_fetch():
    from bot.client import Ludibot
    from bot.config import Settings

    settings = Settings(token="x", db_path=":memory:", dev_guild=None, log_level="INFO",
                        api_base="http://127.0.0.1:9/api/v10", gateway_url="ws://127.0.0.1:9",
                        state_dir="/nonexistent")
    bot = Ludibot(settings)
    await bot.store.open()
    try:
        async def sync(*, guild=None):
            return [command("ludix", 71), command("tectonic", 72)]

        bot.tree.sync = sync  # type: ignore[method-assign]
        assert await bot.sync_commands() is True
        assert i18n.command_ids() == {"ludix": 71, "tectonic": 72}
        i18n.set_command_ids({})
        assert await bot.sync_commands() is False  # unchanged tree: not synced, so setup_hook fetches
        assert i18n.command_ids() == {}
    finally:
        await bot.store.close()


def _catalog_commands() -> set[str]:
    paths = set()
    for lang in i18n.LANGS:
        for text in i18n.catalog(lang).values():
            paths.update(re.findall(r'COMMAND\("([^"]*)"\)', text))
    return paths


async def test_every_command_a_catalog_names_is_a_command_of_the_tree():
    from tests.test_i18n import _command_payloads, _walk

    payloads = await _command_payloads()
    leaves = {path for p in payloads for path, item in _walk(p)
              if item.get("type", 1) == 1 and not any(o.get("type") in (1, 2) for o in item.get("options", []))}
    named = _catalog_commands()
    assert len(named) > 40
    assert named <= leaves, named - leaves
    # and no catalog writes a command as text any more
    for lang in i18n.LANGS:
        for key, text in i18n.catalog(lang).items():
            assert not re.search(r"`/[a-z]|(?<![\w/<])/(?:ludime|ludix|ranta|limit|tectonic|armada|lutinades|ludibot|"
                                 r"tournoi|tournament|chercher|find|classement|leaderboard|profil|profile)\b", text), key


async def test_rules_pages_with_mentions_still_fit_and_their_titles_mention_nothing():
    """A mention is longer than the name (a 19-digit id): every page stays within a message's 2,000
    characters, and no page title (a select option's label, where a mention would be raw text) names one."""
    from bot import rules
    from tests.test_i18n import _command_payloads

    i18n.set_command_ids({p["name"]: 1234567890123456789 for p in await _command_payloads()})
    for kind in ("ludix", "ludime", "ranta", "limit", "tectonic", "armada", "lutinades"):
        params = rules.params_for(kind, None)
        for lang in i18n.LANGS:
            for index in range(len(rules.pages(kind))):
                assert len(rules.page_text(kind, index, lang, params)) <= 2000
                assert "</" not in rules.title(kind, index, lang, params)
    assert any("</ludime poser:1234567890123456789>" in rules.page_text("ludime", i, "fr", {})
               for i in range(len(rules.pages("ludime"))))


async def test_the_options_after_a_command_are_its_options_as_the_language_names_them():
    """« { COMMAND("tectonic jouer") } `de: vers:` »: the options written after a mention are that
    command's, under the names the message's language's clients see (``from: to:`` in English)."""
    from tests.test_i18n import _command_payloads, _walk

    locale = {"fr": "fr", "en": "en-US"}
    options: dict[tuple[str, str], set[str]] = {}
    for p in await _command_payloads():
        for path, item in _walk(p):
            for lang, loc in locale.items():
                options[(path, lang)] = {(o.get("name_localizations") or {}).get(loc, o["name"])
                                         for o in item.get("options", []) if o.get("type", 1) > 2}
    checked = 0
    for lang in i18n.LANGS:
        for key, text in i18n.catalog(lang).items():
            for path, written in re.findall(r'COMMAND\("([^"]*)"\) } `([^`]*)`', text):
                for name in re.findall(r"([\w]+):", written):
                    assert name in options[(path, lang)], (lang, key, path, name, options[(path, lang)])
                    checked += 1
    assert checked > 20


async def test_an_option_named_in_words_is_an_option_as_the_language_names_it():
    """« l'option « fil » », “the “thread” option”: an option a message names in words is an option of
    the bot's commands under the name that language's clients show (not the French name in English)."""
    from tests.test_i18n import _command_payloads, _walk

    locale = {"fr": "fr", "en": "en-US"}
    names: dict[str, set[str]] = {lang: set() for lang in locale}
    for p in await _command_payloads():
        for _path, item in _walk(p):
            for o in item.get("options", []):
                if o.get("type", 1) > 2:
                    for lang, loc in locale.items():
                        names[lang].add((o.get("name_localizations") or {}).get(loc, o["name"]))
    pattern = {"fr": r"option « ([\w]+) »", "en": r"“([\w]+)” option|option “([\w]+)”"}
    checked = 0
    for lang in i18n.LANGS:
        for key, text in i18n.catalog(lang).items():
            for found in re.findall(pattern[lang], text):
                name = "".join(found) if isinstance(found, tuple) else found
                assert name in names[lang], (lang, key, name)
                checked += 1
    assert checked >= 6
    assert "fil" not in names["en"] and "thread" in names["en"]  # the check tells the languages apart
