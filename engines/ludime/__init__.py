"""Ludime — the French letter-card game (engine, lexicon, scoring).

Public API: ``ENGINE`` (the game engine), ``is_word(text) -> bool`` (accent- and
case-insensitive lexicon lookup), ``word_value(text) -> int`` (sum of the letter values).
"""

from engines.ludime.engine import ENGINE, EVENT_TYPES, MAIN, SINGLE, VARIANTS, WHOLE, LudimeEngine, State
from engines.ludime.lexicon import find_words, is_word, normalize
from engines.ludime.scoring import DECK_COUNTS, VALUES, hand_penalty, round_breakdown, round_score, word_value

__all__ = ["ENGINE", "EVENT_TYPES", "LudimeEngine", "State", "MAIN", "SINGLE", "WHOLE", "VARIANTS", "is_word", "word_value",
           "normalize", "find_words", "VALUES", "DECK_COUNTS", "hand_penalty", "round_breakdown", "round_score"]
