"""A whole game of each of the seven games, told on an English server and on a French one (issue 25):
every narrated line — public, and each player's private lines — is checked against the other
language's own vocabulary (the words one catalog has and the other lacks). "Alice plays colline"
on an English server, or an English word left in French, fails here.

The games are played by the engines' own AI from a fixed seed (no Discord needed); the lines are
told by the same functions the cogs use (``narrate``, Tectonic's piece names, Lutinades' story)."""

from __future__ import annotations

import re
from functools import cache

import pytest

import engines as registry
from bot import i18n
from bot.narrate import narrate
from cogs.lutinades.cog import tell
from cogs.tectonic.cog import TectonicCog

WORD = re.compile(r"[^\W\d_]{3,}")
#: a command named in a catalog (``COMMAND("tectonic jouer")``: base names, not words of the language) and
#: a command mention in a text (``</tectonic jouer:123>``: each client shows it in its own language)
COMMAND = re.compile(r'COMMAND\("[^"]*"\)|</[^:>\n]+:\d+>')
NAMES = ["Alice", "Bruno", "Chloé", "Dave"]
GAMES = [("ludix", 3, {"target": 150}), ("ludime", 3, {"variant": "main"}), ("ludime", 2, {"variant": "mot-unique"}),
         ("ranta", 2, {"mode": "expert"}), ("limit", 2, {}), ("tectonic", 2, {}), ("armada", 2, {}),
         ("lutinades", 4, {"variante": "lutins-malins"})]
#: words both languages use as names of the games' own things, or that are the same word in both
SHARED = {"kallax", "nexus", "déchetterie", "orchidée", "lutin", "lutins", "ludix", "ludime", "armada", "tectonic",
          "lutinades", "standard", "bonus", "solo", "expert", "total", "points", "scores", "score", "variante"}


@cache
def vocabulary(lang: str) -> frozenset[str]:
    words: set[str] = set()
    for text in i18n.catalog(lang).values():
        words.update(w.lower() for w in WORD.findall(COMMAND.sub("", text)))
    return frozenset(words)


def foreign(text: str, lang: str) -> list[str]:
    """The words of ``text`` that only the other language's catalog has."""
    other = "en" if lang == "fr" else "fr"
    own, theirs = vocabulary(lang), vocabulary(other)
    return [w for w in WORD.findall(COMMAND.sub("", text))
            if not w.isupper() and w.lower() in theirs - own - SHARED]  # upper case: a Ludime word, letters


def play(kind: str, players: int, options: dict, seed: int = 7, limit: int = 3000):
    """A whole game by the AI: every (events, state after) in order."""
    engine = registry.get(kind)
    state = engine.new_game(players, options, seed)
    steps = []
    for _ in range(limit):
        if engine.is_over(state):
            break
        seat = min(engine.expected(state))
        state, events = engine.apply(state, seat, engine.ai_action(state, seat))
        steps.append((events, state))
    assert engine.is_over(state), f"{kind} did not end"
    return engine, steps


def told(kind: str, engine, events, state, names, lang: str, viewer: int | None) -> list[str]:
    if kind == "tectonic":
        return narrate(kind, TectonicCog._told(events, lang), names, lang, viewer=viewer)
    if kind == "lutinades" and viewer is None:
        return tell(events, engine.view(state, None), names, lang)
    return narrate(kind, events, names, lang, viewer=viewer)


@pytest.mark.parametrize("kind,players,options", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_game_is_told_in_one_language(kind, players, options, lang):
    engine, steps = play(kind, players, options)
    names = NAMES[:players]
    lines = 0
    for events, state in steps:
        for viewer in (None, *range(players)):
            for line in told(kind, engine, events, state, names, lang, viewer):
                lines += 1
                assert foreign(line, lang) == [], (lang, line)
                assert "{" not in line and f"{kind}." not in line, line  # no missing key nor parameter
    assert lines > 10


def test_the_check_tells_the_languages_apart():
    assert foreign("Alice plays colline E2 → E3", "en") == ["colline"]
    assert foreign("Alice déplace sa colline de E2 à E3.", "fr") == []
    assert foreign("Alice rolls the dice", "fr")
    # a command mention is shown by each client in its own language; its base names are no words of either
    assert foreign("➡️ Play with </tectonic jouer:123> `from: to:`", "en") == []
    assert "jouer" not in vocabulary("en") and "play" not in vocabulary("fr")
    assert foreign("➡️ Play with `/tectonic jouer` `from: to:`", "en") == ["jouer"]  # a French name as text is French
