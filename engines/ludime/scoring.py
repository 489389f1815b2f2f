"""Letter values, the deck, and Ludime scoring as functions of plain data.

The value table and the 120-card deck live in ``data/ludime/letters.toml`` so that
another table can be chosen without touching code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

from engines.ludime.lexicon import normalize

LETTERS_PATH = Path(__file__).resolve().parents[2] / "data" / "ludime" / "letters.toml"

with LETTERS_PATH.open("rb") as _fh:
    _DATA = tomllib.load(_fh)

#: letter -> points (vowels 2, consonants 3)
VALUES: dict[str, int] = {k: int(v) for k, v in _DATA["values"].items()}
#: letter -> number of cards in the 120-card deck
DECK_COUNTS: dict[str, int] = {k: int(v) for k, v in _DATA["deck"].items()}


def deck() -> list[str]:
    """The 120 cards, in alphabetical order (shuffle with the game's RNG)."""
    return [letter for letter in sorted(DECK_COUNTS) for _ in range(DECK_COUNTS[letter])]


def letter_value(letter: str, values: Mapping[str, int] = VALUES) -> int:
    return values[letter]


def word_value(text: str, values: Mapping[str, int] = VALUES) -> int:
    """Sum of the letter values of ``text`` (accents ignored): ``word_value("Drames") == 16``.

    Characters that are not cards (hyphens, digits) count 0.
    """
    return sum(values.get(c, 0) for c in normalize(text))


def hand_penalty(hand: Iterable[str], values: Mapping[str, int] = VALUES) -> int:
    """What the cards left in hand cost at the end of a round (a positive number)."""
    return sum(values.get(c, 0) for c in hand)


def round_breakdown(words: Iterable[str], hand: Iterable[str],
                    values: Mapping[str, int] = VALUES) -> dict:
    """One player's round: ``{"words": [[word, value], ...], "penalty": p, "total": t}``."""
    scored = [[normalize(w), word_value(w, values)] for w in words]
    penalty = hand_penalty(hand, values)
    return {"words": scored, "penalty": penalty, "total": sum(v for _, v in scored) - penalty}


def round_score(words: Iterable[str], hand: Iterable[str], values: Mapping[str, int] = VALUES) -> int:
    """Words owned minus cards in hand: ``round_score(["DRAMES", "ALLUMAIS", "HUAIT"], ["E"]) == 46``."""
    return round_breakdown(words, hand, values)["total"]
