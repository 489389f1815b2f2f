"""The Ludime French lexicon: a marisa-trie of upper-case, accent-free keys.

Built once by ``scripts/build_lexicon.py`` from the Dicollecte dictionary (MPL-2.0,
see ``data/ludime/NOTICE.md``). Loading maps a ~1 MB file; lookups are
accent- and case-insensitive through :func:`normalize`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path

import marisa_trie

LEXICON_PATH = Path(__file__).resolve().parents[2] / "data" / "ludime" / "lexicon.marisa"
#: abbreviations the dictionary lists as words (FIG, IBID…): refused, see the file
EXCLUDED_PATH = LEXICON_PATH.with_name("excluded.txt")
_KEY = re.compile(r"[A-Z]+")
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})


def normalize(text: str) -> str:
    """Letters as played with cards: ``"  Défrichées "`` -> ``"DEFRICHEES"``, ``"œuvre"`` -> ``"OEUVRE"``.

    Surrounding spaces are dropped; anything else is kept (``"porte-clé"`` -> ``"PORTE-CLE"``)
    so that :func:`is_key` can refuse it.
    """
    text = str(text).strip().translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def is_key(word: str) -> bool:
    """Whether ``word`` (already normalized) is made of the letters A-Z only."""
    return bool(_KEY.fullmatch(word))


@lru_cache(maxsize=1)
def trie() -> marisa_trie.Trie:
    """The lexicon, loaded once per process."""
    t = marisa_trie.Trie()
    t.load(str(LEXICON_PATH))
    return t


@lru_cache(maxsize=1)
def excluded() -> frozenset[str]:
    """Keys of the lexicon that are not playable: abbreviations (``data/ludime/excluded.txt``)."""
    lines = EXCLUDED_PATH.read_text(encoding="utf-8").splitlines()
    return frozenset(normalize(x) for x in lines if x.strip() and not x.lstrip().startswith("#"))


def is_word(text: str) -> bool:
    """Whether ``text`` is a playable French word (accents and case ignored)."""
    key = normalize(text)
    return is_key(key) and key in trie() and key not in excluded()


def find_words(letters: str | Counter, min_len: int = 3, max_len: int | None = None,
               required: str | Counter = "", max_nodes: int = 20000) -> list[str]:
    """Words spelt with some of ``letters`` (a multiset), each using every letter of ``required``.

    Depth-first walk over the trie's prefixes, stopped after ``max_nodes`` prefixes
    so that it stays fast (a 16-letter hand can have far more); longest words first.
    """
    pool = Counter(letters) if not isinstance(letters, Counter) else Counter(letters)
    need = Counter(required) if not isinstance(required, Counter) else Counter(required)
    total = sum(pool.values())
    max_len = total if max_len is None else min(max_len, total)
    t = trie()
    skip = excluded()
    found: set[str] = set()
    budget = [max_nodes]
    prefix: list[str] = []

    def walk() -> None:
        for letter in sorted(pool):
            if pool[letter] <= 0 or budget[0] <= 0:
                continue
            prefix.append(letter)
            word = "".join(prefix)
            budget[0] -= 1
            if next(t.iterkeys(word), None) is not None:  # some key starts with this prefix
                pool[letter] -= 1
                used = len(prefix)
                if used >= min_len and word in t and word not in skip and (not need or not need - Counter(word)):
                    found.add(word)
                if used < max_len:
                    walk()
                pool[letter] += 1
            prefix.pop()

    walk()
    return sorted(found, key=lambda w: (-len(w), w))
