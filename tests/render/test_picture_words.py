"""Every word on a picture is in the picture's language (issue 25): no French left on an English
server's pictures, no English on a French one, and the numbers' nouns agree with them.

The words come from the renderers' own drawing (``render.common`` records every text drawn) over
the whole gallery (every game, start to end, every variant, both languages). A game's French
vocabulary is every word of its French catalog that its English catalog never uses (and the other
way round): shared words (the games' own names, « kallax », « lutin », the variants' names) are
allowed in both.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as ftl

from render import catalog
from tests.render import gallery

WORD = re.compile(r"[^\W\d_]{3,}")
#: Words that are not the bot's: the gallery's player names (« Marie-Charlotte de Montmorency »,
#: also cut short: « Mon… ») and server name, and the games' proper names (« Take it to the Limit »).
NAMES = {w.lower()[:k] for name in [*gallery.LONG_NAMES, gallery.SERVER_NAME] for w in WORD.findall(name)
         for k in range(3, len(w) + 1)} | {"take", "the", "limit"}


def _texts(node: object, out: list[str]) -> list[str]:
    if isinstance(node, ftl.TextElement):
        out.append(node.value)
    elif isinstance(node, ftl.BaseNode):
        for value in vars(node).values():
            for item in value if isinstance(value, list) else [value]:
                _texts(item, out)
    return out


@cache
def words(domain: str, lang: str) -> frozenset[str]:
    """Every word the ``domain`` catalog in ``lang`` writes (messages only, not comments or ids)."""
    text = (catalog.LOCALES / domain / f"{lang}.ftl").read_text(encoding="utf-8")
    out: set[str] = set()
    for entry in FluentParser().parse(text).body:
        if isinstance(entry, ftl.Message):
            for chunk in _texts(entry, []):
                out |= {w.lower() for w in WORD.findall(chunk)}
    return frozenset(out)


def foreign(domain: str, lang: str) -> frozenset[str]:
    """Words of ``domain`` only the other language writes."""
    other = "en" if lang == "fr" else "fr"
    return words(domain, other) - words(domain, lang) - words("common", lang)


def lang_of(name: str) -> str:
    last = name.rsplit("-", 1)[-1]
    return last if last in ("fr", "en") else "fr"  # the cogs' extra pictures are drawn in French


def domain_of(name: str) -> str:
    """The catalog a picture's words come from: its game's; the community's for the boards; the
    replay's for an animated summary's closing ranking (``…-summary-ranking-<lang>``)."""
    first = name.split("-", 1)[0]
    if "-summary-ranking-" in name:
        return "replay"
    return "community" if first in ("leaderboard", "records") else first


@pytest.fixture(scope="module", params=list(gallery.PARTS))
def shots(request):
    """The pictures of one of the gallery's parts (a parameter: each part is drawn in its own worker)."""
    return gallery.recorded_shots(request.param)


def domains_of(part: str) -> set[str]:
    """The catalogs the pictures of the gallery's ``part`` take their words from."""
    kinds = gallery.kinds_of(part)
    return (kinds - {"community"}) | ({"community"} if "community" in kinds else set()) \
        | ({"replay"} if kinds - {"community"} else set())


def test_the_measure_finds_each_language_s_own_words():
    assert {"révélée", "pioche"} <= foreign("lutinades", "en")
    assert {"revealed", "picker", "deck"} <= foreign("lutinades", "fr")
    assert {"vides", "vide"} <= foreign("ranta", "en")
    assert "lutin" not in foreign("lutinades", "en")  # the game's own word, in both catalogs


def test_no_picture_carries_words_of_the_other_language(shots, request):
    found: dict[str, set[str]] = {}
    langs = set()
    for name, _width, runs in shots:
        lang = lang_of(name)
        langs.add((domain_of(name), lang))
        bad = foreign(domain_of(name), lang)
        for run in runs:
            hits = {w for w in WORD.findall(run.text) if w.lower() in bad and w.lower() not in NAMES}
            if hits:
                found.setdefault(f"{name}: {run.text!r}", set()).update(hits)
    assert {d for d, lang in langs if lang == "en"} >= domains_of(request.node.callspec.params["shots"])
    assert not found, "\n".join(f"{k} {sorted(v)}" for k, v in sorted(found.items())[:30])


PLURAL = re.compile(r"(?<![\d.,])([01]) ([^\W\d_]+)")


def test_zero_and_one_take_the_singular_in_french_and_one_only_in_english(shots):
    """« 0 point », « 1 case vide » (French puts 0 and 1 in the singular), "0 points", "1 cell"."""
    wrong = set()
    for name, _width, runs in shots:
        lang = lang_of(name)
        for run in runs:
            for n, noun in PLURAL.findall(run.text):
                plural = noun.endswith(("s", "x")) and noun.lower() not in ("pas", "bonus", "pts", "fois", "its")
                if plural and (lang == "fr" or n == "1"):
                    wrong.add(f"{name}: {run.text!r}")
    assert not wrong, "\n".join(sorted(wrong)[:30])


def test_plural_texts_of_the_pictures_come_from_the_catalog():
    from render.limit import _Labels as LimitLabels
    from render.ranta import _Labels as RantaLabels

    for lang, expected in (("fr", ["0 case vide", "1 case vide", "2 cases vides"]),
                           ("en", ["0 empty cells", "1 empty cell", "2 empty cells"])):
        lab = RantaLabels({"meta.lang": lang, "rule.empty_cells": "{empty} ?"})
        assert [lab.get("rule.empty_cells", "", empty=n) for n in (0, 1, 2)] == expected
    lab = LimitLabels({"meta.lang": "fr", "label.gain": "{gain} ?"})
    assert [lab.get("label.gain", "", gain=n) for n in (0, 1, 7)] == ["0 point", "1 point", "7 points"]
    assert LimitLabels({"label.gain": "{gain} pts"}).get("label.gain", "", gain=0) == "0 pts"  # no language: the template


@pytest.mark.parametrize("part", [gallery.part_of("tectonic")])  # (run where that part is drawn)
def test_board_corners_are_named_in_the_picture_s_language(part):
    """Tectonic's corner regions: « NO »/« SO » in French, "NW"/"SW" in English (two letters: below the
    word test's three)."""
    seen = {"fr": set(), "en": set()}
    for name, _width, runs in gallery.recorded_shots(part):
        if name.startswith("tectonic-") and name.endswith(("-fr", "-en")):
            seen[lang_of(name)] |= {run.text for run in runs}
    assert {"NO", "NE", "SO", "SE"} <= seen["fr"] and not {"NW", "SW"} & seen["fr"]
    assert {"NW", "NE", "SW", "SE"} <= seen["en"] and not {"NO", "SO"} & seen["en"]


def _glyph(fnt, ch: str) -> bytes:
    mask = fnt.getmask(ch)
    return bytes(mask) + repr(mask.size).encode()


def test_every_character_drawn_has_a_glyph_in_the_bundled_fonts(shots):
    """Accents and symbols draw as themselves (« TUÉE », not a box nor « TUEE »): every character of
    every picture text is in the bundled DejaVu fonts (a missing one would draw the empty box that an
    unassigned code point draws)."""
    from render.common import font

    # (French puts a no-break space before « : » and a narrow one before « ; ! ? »: spaces with a glyph too)
    drawn = {ch for _name, _width, runs in shots for run in runs for ch in run.text
             if not ch.isspace() or ch in "\u00a0\u202f"}
    assert {"é", "É", "è", "à", "ç", "·", "→", "☀", "☾"} & drawn and "\u00a0" in drawn
    for bold in (False, True):
        fnt = font(40, bold=bold)
        missing = _glyph(fnt, "\U000F0000")
        assert not [ch for ch in sorted(drawn) if _glyph(fnt, ch) == missing]
    accented, plain = font(40, bold=True).getbbox("TUÉE"), font(40, bold=True).getbbox("TUEE")
    assert accented[1] < plain[1]  # the accent stands above the capitals


DOMAINS = ("armada", "limit", "ludime", "ludix", "lutinades", "ranta", "tectonic")


def known(domain: str, lang: str) -> frozenset[str]:
    """The words a picture of ``domain`` may write in ``lang``: its catalog's and the common one's (a
    community board names every game and its modes, a summary's ranking its game: every game's catalog)."""
    out = words(domain, lang) | words("common", lang) if domain != "community" else words("community", lang)
    if domain in ("community", "replay"):
        for game in DOMAINS:
            out |= words(game, lang)
    return out


def test_every_word_on_a_picture_comes_from_its_language_s_catalog(shots):
    """Stricter than the vocabulary test: a word written in the code (« Défausse », "Deck") and not
    in the catalog of the picture's language is found even if no catalog has it. Letters shown as
    letters (a Ludime word, a tile id) and a word cut short (« Orchidé… ») are allowed."""
    unknown: dict[str, set[str]] = {}
    for name, _width, runs in shots:
        ok = known(domain_of(name), lang_of(name))
        for run in runs:
            for match in WORD.finditer(run.text):
                word = match.group().lower()
                if match.group().isupper() or word in ok or word in NAMES:
                    continue
                if run.text[match.end():].startswith("…") and any(w.startswith(word) for w in ok | NAMES):
                    continue
                unknown.setdefault(match.group(), set()).add(name)
    assert not unknown, "\n".join(f"{w}: {sorted(names)[:3]}" for w, names in sorted(unknown.items()))


def _literals(path) -> list[tuple[int, str]]:
    """The string literals of a module's code (docstrings left out: they are not drawn)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_renderer_writes_words_of_its_own():
    """Issues 36 and 38: the words of a picture come from the catalogs, through the caller's labels or
    :mod:`render.catalog` — no French fallback label in a renderer (« Défausse », « Autres »,
    « Partie terminée ») and no French colon (« Others : LXIX = 69 » on an English picture)."""
    from pathlib import Path

    french = frozenset().union(*(words(d, "fr") - words(d, "en") for d in (*DOMAINS, "common")))
    found = []
    for path in sorted((Path(catalog.__file__).parent).glob("*.py")):
        for line, text in _literals(path):
            if re.fullmatch(r"[a-z0-9_.\-]*", text):  # a key or an engine's value (« must_pair », « colline »)
                continue
            hits = {w for w in WORD.findall(text) if w.lower() in french}
            if hits or re.search(r"\s[:;!?](\s|$)", text):  # a French space (even no-break) before a mark
                found.append(f"{path.name}:{line}: {text!r}")
    assert not found, "\n".join(found)


def test_english_pictures_put_no_space_before_a_colon(shots):
    """« Others : LXIX = 69 » on an English picture (issue 36): French typography (a space before « : »,
    « ! », « ? ») only on French pictures."""
    wrong = sorted({f"{name}: {run.text!r}" for name, _width, runs in shots if lang_of(name) == "en"
                    for run in runs if re.search(r"\s[:!?;](\s|$)", run.text)})
    assert not wrong, "\n".join(wrong[:30])
