"""Button labels fit a phone: Discord's guideline is 34 characters beside an emoji, 38 without
(clients cut longer ones); a long display name is cut with an ellipsis, never the button."""

from __future__ import annotations

import discord
import pytest

from bot import i18n
from bot.ui import LABEL_MAX, LABEL_MAX_WITH_EMOJI, button, fit, label_with_name

LONG_NAME = "Jean-Christophe de La Fontaine-Saint-Hilaire"  # 44 characters, as Discord allows 32+


def button_texts(lang: str):
    for key, text in i18n.catalog(lang).items():
        if ".button." in key or ".side_button." in key:
            yield key, text


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_catalog_button_label_fits_beside_an_emoji(lang):
    too_long = []
    for key, _text in button_texts(lang):
        sample = i18n.t(key, lang, **{v: "Alice" if v in ("player", "name", "lutin") else 9
                                      for v in i18n.variables(key, lang)})
        if len(sample) > LABEL_MAX_WITH_EMOJI:
            too_long.append(f"{key}: {sample!r} ({len(sample)})")
    assert not too_long, "\n".join(too_long)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_long_name_is_cut_not_the_rest_of_the_label(lang):
    gesture = i18n.t("lutinades.gesture.horizontal", lang)
    label = label_with_name("lutinades.button.follow", lang, "lutin", LONG_NAME, gesture=gesture)
    assert len(label) <= LABEL_MAX and "…" in label and label.endswith(f"({gesture})")
    assert label_with_name("lutinades.button.follow", lang, "lutin", "Alice", gesture=gesture) == \
        i18n.t("lutinades.button.follow", lang, lutin="Alice", gesture=gesture)
    b = button(1, "follow", f"Suivre {LONG_NAME}", emoji="👉")
    assert len(b.label) <= LABEL_MAX_WITH_EMOJI and b.label.endswith("…")


def test_fit():
    assert fit("Court", 38) == "Court"
    assert fit("a  b\n c", 38) == "a b c"  # no line breaks or double spaces in a label


def test_labels_never_exceed_discords_hard_limit():
    assert LABEL_MAX < 80 and isinstance(button(1, "x", "y" * 200), discord.ui.Button)
