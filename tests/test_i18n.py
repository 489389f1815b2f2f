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
