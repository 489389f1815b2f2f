"""The Ludime lexicon (data/ludime/lexicon.marisa) and the letter values — no hunspell needed."""

from __future__ import annotations

import time

import pytest

from engines.ludime import DECK_COUNTS, VALUES, find_words, is_word, normalize, word_value
from engines.ludime.lexicon import LEXICON_PATH, trie


@pytest.mark.parametrize("word", [
    "ALLUMAS", "ALLUMAIS", "HUAIT", "PASSERENT", "DEFRICHEES", "DÉFRICHÉES", "défrichées", "MOUE", "SON",
    "DRAMES", "PASSENT", "PASSE", "HUA", "PARIS",
    # the variant-2 example: TREVES -> VERITES -> EVITERAS
    "TREVES", "VERITES", "EVITERAS", "TRÊVES", "VÉRITÉS", "ÉVITERAS",
    # infinitives, participles, feminines, plurals
    "ALLUMER", "ALLUMANT", "ALLUMEE", "ALLUMEES", "CHEVAUX", "BELLES",
    # Œ and Æ are written OE and AE
    "ŒUVRE", "OEUVRE", "cœurs", "EX-ÆQUO".replace("EX-", ""),
])
def test_accepted(word):
    assert is_word(word), word


@pytest.mark.parametrize("word", [
    "SNCF", "EDF", "VROUM", "BADABOUM", "ZUT",  # acronyms and interjection-only stems
    "LYON", "MARSEILLE", "DUPONT",  # proper nouns
    "ORAMES", "XYZ", "", "   ", "PORTE-CLE", "AUJOURD'HUI", "L'ARBRE", "ABC1",  # not words / not letters
])
def test_refused(word):
    assert not is_word(word), word


@pytest.mark.parametrize("word", ["KM", "KG", "MG", "NLX", "KLX", "KCAL", "MMOL", "KMOL", "MRAD", "KVAR", "HLM"])
def test_unit_symbols_are_abbreviations_not_words(word):
    # Dicollecte's unit symbols (flag U.) expand with the SI prefixes: none of these is a word
    assert not is_word(word), word


@pytest.mark.parametrize("word", ["FIG", "fig", "IBID", "ibid", "CHAP", "ENV", "HAB", "PP"])
def test_abbreviations_are_not_words(word):
    # issue 18: the dictionary tags fig. and ibid. as a noun and an adverb; they are abbreviations
    assert word.upper() in trie(), "the dictionary no longer has it: drop it from excluded.txt"
    assert not is_word(word), word


def test_the_full_words_of_the_abbreviations_stay_and_the_ai_never_finds_them():
    assert all(is_word(w) for w in ("FIGUE", "FIGUES", "IBIDEM", "CHAPITRE", "ENVIRON", "HABITANT", "PAGES"))
    assert "FIG" not in find_words("FIGUE", 3) and "FIGUE" in find_words("FIGUE", 3)
    assert "IBID" not in find_words("IBIDEM", 3) and "IBIDEM" in find_words("IBIDEM", 3)


def test_words_that_are_also_unit_symbols_stay():
    assert is_word("CAL") and is_word("CALS") and is_word("VAR") and is_word("DAM")  # a callus, the wind, dam
    assert is_word("KILOMETRE") and is_word("KILOGRAMME") and is_word("MILLILITRE")


def test_paris_is_the_common_word_not_the_city():
    # "paris" is the plural of the noun "pari" (a bet); the capitalised city "Paris" is a proper
    # noun and proper nouns never enter the lexicon (only lower-case forms are kept).
    assert is_word("paris") and is_word("PARI")
    assert not is_word("LYON") and not is_word("TOULOUSE")


def test_interjection_dropped_only_when_it_is_the_only_use():
    # crac and pan are also nouns (un crac, un pan), so they stay; vroum and badaboum only interjections
    assert is_word("CRAC") and is_word("PAN")
    assert not is_word("VROUM") and not is_word("BADABOUM")


def test_normalize():
    assert normalize(" Défrichées ") == "DEFRICHEES"
    assert normalize("œuvre") == "OEUVRE"
    assert normalize("Cæcum") == "CAECUM"
    assert normalize("porte-clé") == "PORTE-CLE"


def test_word_values_from_data():
    assert set(VALUES) == set(DECK_COUNTS) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert all(VALUES[v] == 2 for v in "AEIOUY")
    assert all(VALUES[c] == 3 for c in "BCDFGHJKLMNPQRSTVWXZ")
    assert sum(DECK_COUNTS.values()) == 120
    assert sum(DECK_COUNTS[v] for v in "AEIOUY") == 54
    assert word_value("DRAMES") == 16
    assert word_value("ALLUMAIS") == 20
    assert word_value("HUAIT") == 12
    assert word_value("DÉFRICHÉES") == word_value("DEFRICHEES") == 26
    assert word_value("son") == 8
    assert word_value("PASSERENT") == 24
    assert word_value("MOUE") == 9


def test_lexicon_file_and_size():
    t = trie()
    assert 400_000 < len(t) < 450_000
    assert LEXICON_PATH.stat().st_size < 3_000_000
    assert all(k.isascii() and k.isalpha() and k.isupper() for k in t.keys("ALLUM"))


def test_load_is_fast():
    import marisa_trie

    start = time.process_time()
    fresh = marisa_trie.Trie()
    fresh.load(str(LEXICON_PATH))
    assert "ALLUMAIS" in fresh
    assert time.process_time() - start < 0.5


def test_find_words():
    words = find_words("DRAMESK", 6)
    assert "DRAMES" in words
    assert all(len(w) >= 6 and is_word(w) for w in words)
    assert find_words("HUAIT", 5, 5) == ["HUAIT"]
    assert "ALLUMAIS" in find_words("ALLUMASI", 8, 8)
    # every result uses the required letters
    assert all("E" in w for w in find_words("MOUE", 3, required="E"))
    assert find_words("QQQ", 3) == []
