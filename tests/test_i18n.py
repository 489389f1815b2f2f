"""Message catalogs: French and English say the same things, and every key the code uses exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n

ROOT = Path(__file__).resolve().parent.parent
KEY_IN_CALL = re.compile(
    r"""(?:RuleError|SessionError|ConfigError|refuse|i18n\.t|i18n\.has|\bt|\bL)\(\s*(?:[a-z_.]+,\s*)?["']([a-z0-9_]+\.[a-z0-9_]+\.[a-z0-9_.]+)["']""")


def test_french_and_english_have_the_same_keys():
    fr, en = i18n.catalog("fr"), i18n.catalog("en")
    assert sorted(set(fr) - set(en)) == []
    assert sorted(set(en) - set(fr)) == []


def test_both_languages_use_the_same_placeholders():
    fr = i18n.catalog("fr")
    mismatched = [k for k in fr if i18n.variables(k, "fr") != i18n.variables(k, "en")]
    assert mismatched == []


def used_keys() -> set[str]:
    keys = set()
    for folder in ("bot", "cogs", "engines"):
        for path in (ROOT / folder).rglob("*.py"):
            keys.update(KEY_IN_CALL.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_key_used_in_code_exists_in_both_catalogs():
    keys = used_keys()
    assert "common.error.not_your_turn" in keys  # the scan itself works
    missing = sorted(k for k in keys if not (i18n.has(k, "fr") and i18n.has(k, "en")))
    assert missing == []


@pytest.mark.parametrize("locale,expected", [("fr", "fr"), ("en-US", "en"), ("en-GB", "en"), ("de", "fr"),
                                             (None, "fr")])
def test_language_follows_the_discord_locale(locale, expected):
    assert i18n.lang_of(locale) == expected


def test_formatting_and_fallbacks():
    assert i18n.t("common.error.no_such_game", "en", game=7) == "Game #7 does not exist."
    assert "7" in i18n.t("common.error.no_such_game", "fr", game=7)
    assert i18n.t("common.error.no_such_game", "de", game=7) == i18n.t("common.error.no_such_game", "fr", game=7)
    assert i18n.t("no.such.key") == "no.such.key"
    assert "{game}" in i18n.t("common.error.no_such_game", "fr")  # a missing parameter never crashes


# --- Fluent grammar: plurals, elision, numbers ---------------------------------------------------
def _plain_french() -> dict[str, str]:
    """Every French message rendered with placeholder values (numbers for counts)."""
    out = {}
    for key in i18n.catalog("fr"):
        params = {name: 2 for name in i18n.variables(key, "fr")}
        out[key] = i18n.t(key, "fr", **params)
    return out


def test_no_french_pseudo_plural():
    sources = {k: v for k, v in i18n.catalog("fr").items() if re.search(r"\w\((s|x|es)\)", v)}
    assert sources == {}
    rendered = {k: v for k, v in _plain_french().items() if re.search(r"\w\((s|x|es)\)", v)}
    assert rendered == {}


@pytest.mark.parametrize("lang,count,expected", [
    ("fr", 0, "0 carte"), ("fr", 1, "1 carte"), ("fr", 2, "2 cartes"),
    ("en", 0, "0 cards"), ("en", 1, "1 card"), ("en", 2, "2 cards"),
])
def test_counts_agree(lang, count, expected):
    text = i18n.t("ludime.event.exchanged", lang, seat="Alice", count=count)
    assert text.endswith(expected + "."), text


@pytest.mark.parametrize("count,french,english", [
    (0, "aucun nombre romain\u202f! Aucun point perdu.", "No points lost."), (1, "1 point perdu", "1 point lost"), (2, "2 points perdus", "2 points lost"),
])
def test_lost_points_agree(count, french, english):
    assert french in i18n.t("ludix.event.bust", "fr", seat="Alice", faces="I", lost=count)
    assert english in i18n.t("ludix.event.bust", "en", seat="Alice", faces="I", lost=count)


def test_profile_and_records_agree():
    one = i18n.t("community.profile.game_line", "fr", game="Ludix", rating=25, rank=1, total=2, games=1, wins=1, best=9)
    assert "1 partie · 1 victoire ·" in one
    two = i18n.t("community.profile.game_line", "fr", game="Ludix", rating=25, rank=1, total=2, games=2, wins=0, best=9)
    assert "2 parties · 0 victoire ·" in two
    assert i18n.t("community.records.subtitle", "fr", server="S", count=1) == "S · le meilleur score"
    assert i18n.t("community.records.subtitle", "fr", server="S", count=3) == "S · les 3 meilleurs scores"
    assert i18n.t("community.records.subtitle", "en", server="S", count=1) == "S · the best score"
    assert i18n.t("community.board.subtitle", "fr", period="P", server="S", count=1).endswith("1 joueur")
    assert i18n.t("community.board.subtitle", "en", period="P", server="S", count=2).endswith("2 players")


@pytest.mark.parametrize("name,elided", [
    ("Alice", True), ("Ève", True), ("Ulysse", True), ("Œdipe", True), ("ines", True),
    ("Hélène", True), ("Hugo", True),  # first names take the silent h
    ("Yves", True), ("Ysée", True),  # y before a consonant sounds like i
    ("Yann", False), ("Yolande", False),  # y before a vowel is a consonant
    ("Bruno", False), ("Chloé", False), ("Bot 1", False), ("42", False), ("<@123>", False), ("", False),
])
def test_names_elide(name, elided):
    assert i18n.starts_with_vowel_sound(name) is elided
    turn = i18n.t("ludix.event.turn", "fr", seat=name)
    assert turn == (f"Au tour d'{name}." if elided else f"Au tour de {name}.")


def test_elision_everywhere_names_follow_de():
    assert i18n.t("community.profile.head", "fr", name="Ève", server="S").startswith("**Profil d'Ève**")
    assert "victoire d'Alice" in i18n.t("tectonic.event.resigned", "fr", seat="Bruno", winner="Alice")
    assert "victoire de Bruno" in i18n.t("tectonic.event.resigned", "fr", seat="Alice", winner="Bruno")
    assert "partie d'Armada" in i18n.t("common.lobby.cancelled", "fr", game="Armada", id=3, by="X")
    # no French message writes "de" or "que" straight before a name parameter: it goes through ELISION
    names = r"seat|winner|loser|name|player|owner|game|dealer|picker|opponent|holder|creator|lutin"
    bare = {k: v for k, v in i18n.catalog("fr").items() if re.search(rf"\b(de|que) \{{ \$({names}) \}}", v, re.I)
            and "ELISION" not in v}
    assert bare == {}


def test_numbers_follow_the_language():
    assert "0,01 h" in i18n.t("community.config.hours", "fr", value=0.01)
    assert "0.01" in i18n.t("community.config.hours", "en", value=0.01)
    assert "n°1234 " in i18n.t("common.error.no_such_game", "fr", game=1234)  # ids are never grouped


def test_french_marks_never_start_a_line():
    """« : ; ! ? % » follow a no-break space in every French catalog (scripts/french_spaces.py), so a
    narrow phone screen never wraps a line before them (« 84 » then « % » alone)."""
    from scripts.french_spaces import main as french_spaces

    assert french_spaces(["--check"]) == 0
    assert "\u202f%" in i18n.t("community.profile.completion", "fr", percent=84, finished=21, total=25,
                               cancelled=4, abandoned=0)


def test_french_says_vous_and_names_players_neutrally():
    tu = re.compile(r"\b(tu|ta|ton|tes|toi|te|t')\b|\b(attends|choisis|peux|dois)\b", re.I)
    informal = {k: v for k, v in _plain_french().items() if tu.search(v.replace("Range ta Ludothèque", ""))}
    assert informal == {}
    gendered = re.compile(r": il est ignoré|est le premier cueilleur|\{ \$(seat|lutin|picker|player) \} s'est trompé")
    assert {k: v for k, v in i18n.catalog("fr").items() if gendered.search(v)} == {}


def test_ftl_files_parse_and_ids_map_back():
    for path in sorted(i18n.LOCALES.glob("*/*.ftl")):
        messages = i18n.read_ftl(path)  # raises on a syntax error
        assert messages, path
        for key in messages:
            assert key.startswith(path.parent.name + "."), key


def test_each_message_read_alone_is_the_one_its_whole_file_holds():
    """A process parses a message at its first use, from its entry alone (``i18n._entries``): each entry cut
    out of its file parses to the very message the whole file gives, and no message is lost or gained."""
    from fluent.runtime import FluentResource

    for path in sorted(i18n.LOCALES.glob("*/*.ftl")):
        whole = i18n.read_ftl(path)
        alone: dict = {}
        for chunk in i18n._entries(path.read_text(encoding="utf-8")).values():
            alone.update(i18n._messages_of(FluentResource(chunk), path))
        assert alone.keys() == whole.keys(), (path, alone.keys() ^ whole.keys())
        for key, message in whole.items():
            assert message.equals(alone[key], ignored_fields=["span", "comment"]), (path, key)  # (comments: docs)


def test_a_message_parsed_alone_brings_the_messages_it_refers_to(tmp_path, monkeypatch):
    """« { button-stop } » inside a message: formatting it before the referred message was ever used
    still writes it; a select whose variants and closing brace start their lines stays one entry; a
    syntax error says where."""
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "fr.ftl").write_text(
        "rules-page = Cliquez sur « { button-stop } ».\n"
        "button-stop = Stop { $n ->\n[one] une fois\n*[other] { $n } fois\n}\n"
        "## a comment\n"
        "broken-one = { $n \n", encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    for cached in (i18n._domain, i18n.catalog, i18n.variables, i18n._formatted):
        cached.cache_clear()
    try:
        assert i18n.keys("fr") == ["demo.rules.page", "demo.button.stop", "demo.broken.one"]
        # (the referred message's own variable, not given, shows as its name, as Fluent writes it)
        assert i18n.t("demo.rules.page", "fr") == "Cliquez sur « Stop n fois »."
        assert i18n.t("demo.button.stop", "fr", n=1) == "Stop une fois"
        assert i18n.t("demo.button.stop", "fr", n=3) == "Stop 3 fois"
        with pytest.raises(ValueError, match="syntax error"):
            i18n.t("demo.broken.one", "fr", n=1)
    finally:
        monkeypatch.undo()
        for cached in (i18n._domain, i18n.catalog, i18n.variables, i18n._formatted):
            cached.cache_clear()


def test_transitional_toml_catalog_is_still_read(tmp_path, monkeypatch):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "fr.ftl").write_text("event-one = Une { $count ->\n    [one] fois\n   *[other] fois\n}\n",
                                              encoding="utf-8")
    (tmp_path / "demo" / "fr.toml").write_text('[event]\none = "ignored"\ntwo = "Deux {thing}"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n._domain.cache_clear()
    i18n.catalog.cache_clear()
    i18n.variables.cache_clear()
    i18n._formatted.cache_clear()
    try:
        assert i18n.t("demo.event.two", "fr", thing="choses") == "Deux choses"
        assert i18n.t("demo.event.one", "fr", count=1) == "Une fois"  # the .ftl wins
        assert i18n.variables("demo.event.two") == {"thing"}
    finally:
        monkeypatch.undo()
        i18n._domain.cache_clear()
        i18n.catalog.cache_clear()
        i18n.variables.cache_clear()
        i18n._formatted.cache_clear()


def test_converter_merges_new_toml_keys_into_the_ftl(tmp_path):
    from scripts.toml_to_ftl import main as convert

    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "fr.ftl").write_text("event-one = Un\n", encoding="utf-8")
    (folder / "fr.toml").write_text('[event]\none = "ignored"\ntwo = "Deux {x}"\n', encoding="utf-8")
    convert(["--merge", str(folder / "fr.toml")])
    messages = i18n.read_ftl(folder / "fr.ftl")
    assert set(messages) == {"demo.event.one", "demo.event.two"}
    assert not (folder / "fr.toml").exists()
    assert "ignored" not in (folder / "fr.ftl").read_text(encoding="utf-8")


def test_converter_round_trip(tmp_path, monkeypatch):
    from scripts.toml_to_ftl import main as convert

    src = tmp_path / "demo" / "fr.toml"
    src.parent.mkdir()
    src.write_text('[event]\nturn = "Au tour de {seat} {{ok}}"\nlong = """**Ligne**\n* puce\n[crochet]"""\n',
                   encoding="utf-8")
    convert([str(src)])
    messages = i18n.read_ftl(src.with_suffix(".ftl"))
    assert set(messages) == {"demo.event.turn", "demo.event.long"}
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    for cached in (i18n._domain, i18n.catalog, i18n.variables):
        cached.cache_clear()
    try:
        assert i18n.t("demo.event.turn", "fr", seat="Bruno") == "Au tour de Bruno {ok}"
        assert i18n.t("demo.event.long", "fr") == "**Ligne**\n* puce\n[crochet]"
    finally:
        monkeypatch.undo()
        for cached in (i18n._domain, i18n.catalog, i18n.variables):
            cached.cache_clear()


# --- command and option names -------------------------------------------------------------------
async def _command_payloads() -> list[dict]:
    from bot.client import Ludibot, discover_extensions
    from bot.config import Settings
    from bot.gamecog import register_lobby
    from bot.translator import CatalogTranslator

    settings = Settings(token="x", db_path=":memory:", dev_guild=None, log_level="INFO",
                        api_base="http://127.0.0.1:9/api/v10", gateway_url="ws://127.0.0.1:9",
                        state_dir="/nonexistent")
    bot = Ludibot(settings)
    register_lobby(bot.router)
    for ext in discover_extensions():
        await bot.load_extension(ext)
    translator = CatalogTranslator()
    return [await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()]


def _walk(payload: dict, parent: str = ""):
    path = f"{parent} {payload['name']}".strip()
    yield path, payload
    for option in payload.get("options", []):
        yield from _walk(option, path)


async def test_command_and_option_names_are_localized_and_valid():
    from bot.translator import valid_name

    payloads = await _command_payloads()
    seen = dict(pair for p in payloads for pair in _walk(p))
    assert seen["ranta placer"]["name_localizations"]["en-US"] == "place"
    assert seen["ranta placer"]["name_localizations"]["en-GB"] == "place"
    assert seen["ludibot config langue"]["name_localizations"]["en-US"] == "language"
    assert seen["ludime join"]["name_localizations"]["fr"] == "rejoindre"
    assert "de" not in seen["ranta placer"].get("name_localizations", {})
    for path, item in seen.items():
        assert valid_name(item["name"]), path
        for locale, name in (item.get("name_localizations") or {}).items():
            assert valid_name(name), (path, locale, name)
    # names are unique within their parent, in every language
    for path, item in seen.items():
        children = [c for c in item.get("options", []) if "name" in c and c.get("type", 1) in range(1, 12)]
        for locale in ("en-US", "en-GB", "fr"):
            names = [(c.get("name_localizations") or {}).get(locale, c["name"]) for c in children]
            assert len(names) == len(set(names)), (path, locale, names)
        tops = [(p.get("name_localizations") or {}).get("en-US", p["name"]) for p in payloads]
        assert len(tops) == len(set(tops))


async def test_every_french_name_has_an_english_name():
    payloads = await _command_payloads()
    english = i18n.catalog("en")
    for path, item in (pair for p in payloads for pair in _walk(p)):
        kind = "command" if item.get("type", 1) in (1, 2) else "option"
        assert f"commands.{kind}.{item['name']}" in english, path


def test_dates_follow_the_language():
    from datetime import UTC, datetime

    day = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    assert i18n.t("common.format.date", "fr", date=day) == "24 nov. 2026"
    assert i18n.t("common.format.date", "en", date=day) == "Nov 24, 2026"


def test_kept_messages_stay_right():
    """Formatted messages are kept (bounded): asked again, the same text; a parameter of another
    type or value is another message; an object parameter is written afresh each time."""
    first = i18n.t("common.lobby.joined", "fr", player="Alice", id=3, count=2, max=4)
    assert first == i18n.t("common.lobby.joined", "fr", player="Alice", id=3, count=2, max=4)
    assert i18n.t("common.lobby.joined", "en", player="Alice", id=3, count=2, max=4) != first
    assert "3/4" in i18n.t("common.lobby.joined", "fr", player="Alice", id=3, count=3, max=4)
    assert "True" in i18n.t("common.lobby.joined", "fr", player=True, id=3, count=2, max=4)

    class Renamed:
        name = "Bruno"

        def __str__(self) -> str:
            return self.name

    who = Renamed()
    assert "Bruno" in i18n.t("common.lobby.joined", "fr", player=who, id=3, count=2, max=4)
    who.name = "Chloé"
    assert "Chloé" in i18n.t("common.lobby.joined", "fr", player=who, id=3, count=2, max=4)
