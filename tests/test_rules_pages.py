"""The rules of every game are complete inside Discord (issue 25): paged, in both languages, within
Discord's limits, with no repository path, every variant on its page, the table's settings filled in."""

from __future__ import annotations

import re

import pytest

import engines as registry
from bot import i18n, rules

KINDS = ("ludix", "ludime", "ranta", "limit", "tectonic", "armada", "lutinades")
#: a repository path or a file a Discord user cannot open
REPO_PATH = re.compile(r"docs/|\.md\b|shared/|engines/|cogs/")


def all_pages(kind: str, lang: str, params: dict | None = None):
    params = rules.params_for(kind, None) if params is None else params
    return [rules.page_text(kind, i, lang, params) for i in range(len(rules.pages(kind)))]


def test_every_game_has_pages_and_shares_the_time_page():
    for kind in KINDS:
        keys = rules.pages(kind)
        assert keys[0] == f"{kind}.rules.page_1" and len(keys) >= 4, keys
        assert keys[-2:] == ("common.rules.page_time", "common.rules.page_undo")
        assert len(keys) <= 25  # the page select holds at most 25 options


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_pages_fit_discord_and_read_as_text(kind, lang):
    for text in all_pages(kind, lang):
        assert len(text) <= 2000, (kind, len(text))  # a message's content
        assert not REPO_PATH.search(text), text
        assert "{" not in text and "}" not in text, text  # every placeable and message reference resolved
        assert f"{kind}.rules" not in text and "rules-" not in text, text
    titles = [rules.title(kind, i, lang, rules.params_for(kind, None)) for i in range(len(rules.pages(kind)))]
    assert all(0 < len(t) <= 100 for t in titles) and len(set(titles)) == len(titles), titles


@pytest.mark.parametrize("kind", KINDS)
def test_french_and_english_have_the_same_pages(kind):
    for key in rules.pages(kind):
        assert i18n.has(key, "fr") and i18n.has(key, "en"), key


def test_every_variant_has_its_page():
    variants = {"ludime": ("main", "mot-unique", "main-entiere"), "lutinades": ("lutins-malins", "en-grand"),
                "limit": ("dechetterie-basse", "passe-dechetterie", "sans-dechetterie", "orchidee-64")}
    for kind, names in variants.items():
        for name in names:
            index = rules.variant_page(kind, name)
            assert index > 0 and rules.pages(kind)[index] == f"{kind}.rules.variant_{name}"
    assert rules.variant_page("lutinades", "standard") == 0  # no page of its own: the first page
    assert rules.variant_page("ludix", None) == 0


def test_every_variant_the_engines_offer_is_explained():
    """Each rules variant of an engine (not a board or a table setting) has a page, or its page is
    the first (the standard game)."""
    for kind in KINDS:
        engine = registry.get(kind)
        for option in engine.options:
            if option.name not in ("variant", "variante"):
                continue
            for choice in option.choices:
                if choice in ("standard",):
                    continue
                assert f"{kind}.rules.variant_{choice}" in rules.pages(kind), (kind, choice)


def test_ludix_pages_say_the_target_of_the_game_played_here():
    default = "\n".join(all_pages("ludix", "fr"))
    assert "**300 points**" in default
    here = "\n".join(all_pages("ludix", "fr", rules.params_for("ludix", {"target": 150})))
    assert "**150 points**" in here and "300 points" not in here.replace("300 par défaut", "")
    english = "\n".join(all_pages("ludix", "en", rules.params_for("ludix", {"target": 150})))
    assert "**150 points**" in english


def test_buttons_are_named_as_players_see_them():
    text = "\n".join(all_pages("ludix", "fr"))
    for key in ("ludix.button.roll", "ludix.button.reroll", "ludix.button.stop"):
        assert f"« {i18n.t(key, 'fr')} »" in text
    english = "\n".join(all_pages("ludix", "en"))
    assert f'"{i18n.t("ludix.button.roll", "en")}"' in english


@pytest.mark.parametrize("kind", KINDS)
def test_english_pages_name_english_commands(kind):
    english = "\n".join(all_pages(kind, "en"))
    french_names = {"jouer", "placer", "deplacer", "pivoter", "poser", "allonger", "echanger", "ajouter",
                    "declarer", "tapis", "vacances", "rythme", "variante", "tuiles", "serie", "paires"}
    typed = set(re.findall(r"`/[a-z]+ ([a-z_]+)", english)) | set(re.findall(r"`([a-z_]+)`", english))
    assert not typed & french_names, typed & french_names


def test_controls_turn_pages_and_carry_no_other_server_data():
    view = rules.controls("limit", 0, "fr", {}, game_id=42)
    ids = [item.custom_id for item in view.children]
    last = len(rules.pages("limit")) - 1
    assert ids[0] == f"ludibot:rules:limit:{last}:42" and ids[1] == "ludibot:rules:limit:1:42"
    assert all(len(i) <= 100 for i in ids)
    assert all(rules.RULES_ID.match(i) or rules.PICK_ID.match(i) for i in ids)
    first, end = view.children[0], rules.controls("limit", last, "fr", {}).children[1]
    assert first.disabled and end.disabled  # nothing before the first page nor after the last


async def test_a_page_reads_the_settings_of_this_servers_game_only():
    from types import SimpleNamespace

    from bot.ui import _options_here

    games = {7: SimpleNamespace(guild_id=1, options={"target": 150})}

    class Store:
        async def get_game(self, game_id):
            return games.get(game_id)

    options_of = _options_here(SimpleNamespace(store=Store()))
    assert await options_of(7, 1) == {"target": 150}
    assert await options_of(7, 2) is None  # another server's game: nothing of it is read
    assert await options_of(8, 1) is None


async def test_the_page_select_turns_to_a_page_it_offered_only():
    """A crafted pick: none or several values, or a page the select did not list, is refused precisely."""
    from types import SimpleNamespace

    from engines.base import RuleError

    async def no_game(game_id, guild_id):
        return None

    cid = rules.rules_id("limit", 0, 0) + ":pick"

    async def pick(values):
        inter = SimpleNamespace(data={"custom_id": cid, "values": values}, guild_id=1, locale="fr")
        return await rules.turn_page(inter, no_game)

    text, _ = await pick(["1"])
    assert text == rules.page_text("limit", 1, "fr", rules.params_for("limit", None))
    for values, key in ((["1", "2"], "common.error.select_one"), ([], "common.error.select_one"),
                        (["99"], "common.error.not_offered"), (["01"], "common.error.not_offered")):
        with pytest.raises(RuleError) as err:
            await pick(values)
        assert err.value.key == key
