"""Ludime pictures: valid PNGs, phone-sized, under 1 MB, for every variant and phase."""

from __future__ import annotations

import io
import time
from dataclasses import replace

import pytest
from PIL import Image

from engines.ludime import ENGINE
from render.ludime import render_hand, render_table

NAMES = ["Alice", "Bérénice-Avec-Un-Très-Long-Prénom", "Chloé", "David"]
PNG = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    img.load()
    assert 600 <= img.width <= 1000 and 200 <= img.height <= 2000
    return img


def _states(variant: str, players: int = 4):
    """A few states along an AI game: start, mid-turn, later, and the end."""
    s = ENGINE.new_game(players, {"variant": variant}, 21)
    out = [s]
    for step in range(400):
        if ENGINE.is_over(s):
            break
        s, _ = ENGINE.apply(s, s.current, ENGINE.ai_action(s, s.current))
        if step in (1, 7, 30, 90):
            out.append(s)
    out.append(s)
    return out


def _drawn(fn, *args) -> list[str]:
    """The texts ``fn(*args)`` draws (render.common's recording), its picture checked on the way."""
    from render import common

    with common.recording_text() as drawn:
        _image(fn(*args))
    return [run.text for run in drawn]


def _has_run(texts: list[str], run: list[str]) -> bool:
    return any(texts[i:i + len(run)] == run for i in range(len(texts) - len(run) + 1))


@pytest.mark.parametrize("variant", ["main", "mot-unique", "main-entiere"])
def test_every_phase_renders(variant):
    """Every phase's pictures show their content: each word on the table, letter by letter and then
    its value; each player's score; the viewer's hand, each card with its value, and no one else's."""
    for state in _states(variant):
        for seat in (None, 0, 1):
            view = ENGINE.view(state, seat)
            table = _drawn(render_table, view, NAMES)
            for word in view["words"]:  # letter cards, or the whole word when too long for cards
                assert (_has_run(table, [*word["shown"], str(word["value"])])
                        or _has_run(table, [word["shown"], str(word["value"])])), (word, table)
            for player, score in enumerate(view["scores"]):
                assert any(t.startswith(f"{score} pt") for t in table), (player, score, table)
            if seat is not None:
                hand = _drawn(render_hand, view, NAMES)
                cards = [x for letter in view["hand"] for x in (letter, str(view["values"][letter]))]
                assert _has_run(hand, cards), (view["hand"], hand)
                assert any(NAMES[seat][:12] in t for t in hand[:2]), hand[:2]  # (a long name is cut short)


def test_hand_shows_only_the_viewers_cards_and_differs_by_seat():
    s = ENGINE.new_game(3, None, 5)
    a = render_hand(ENGINE.view(s, 0), NAMES)
    b = render_hand(ENGINE.view(s, 1), NAMES)
    assert a != b
    # the public table is the same picture for everyone: it depends only on public information
    assert render_table(ENGINE.view(s, 0), NAMES) == render_table(ENGINE.view(s, None), NAMES) == \
        render_table(ENGINE.view(s, 2), NAMES)


def test_many_and_long_words_and_empty_hand():
    s = ENGINE.new_game(3, None, 5)
    words = ("ANTICONSTITUTIONNELLEMENT DRAMES ALLUMAIS HUAIT PASSERENT MOUE SON DEFRICHEES CHAT CHIEN "
             "OISEAU ARBRE MAISON VOITURE PARIS ZOE").split()
    s = replace(s, words=tuple((i + 1, w, i % 3) for i, w in enumerate(words)), scores=(46, 34, -33),
                last_round={"points": [46, 34, -33]}, hands=((), s.hands[1], s.hands[2]))
    table = _image(render_table(ENGINE.view(s, None), NAMES))
    assert table.height > 600
    _image(render_hand(ENGINE.view(s, 0), NAMES))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_exchange_preview_marks_the_cards_given_back(lang):
    """Issue 35: the exchange's preview shows the hand as it is (what comes from the pile is unknown) with
    the cards given back marked: each once (a letter held twice, given once, is marked once), and named."""
    from render import common
    from render.ludime import GIVING, catalog_labels

    s = ENGINE.new_game(2, None, 5)
    view = ENGINE.view(s, 0)
    hand = view["hand"]
    twice = next((c for c in hand if hand.count(c) > 1), hand[0])
    other = next(c for c in hand if c != twice)
    giving = {**view, "giving": [twice, other]}
    lab = catalog_labels(lang)
    with common.recording_text() as runs:
        img = _image(render_hand(giving, NAMES, lab))
    texts = [r.text for r in runs]
    assert f"{lab['giving']}{lab['colon']}{twice} {other}" in texts, texts
    assert texts.count("↩") == 2, texts
    plain = _image(render_hand(view, NAMES, lab))
    assert img.size != plain.size or img.tobytes() != plain.tobytes()

    def marked(picture) -> int:  # the pixels of the marks' colour (the PNG's palette may shift it a little)
        rgb = picture.convert("RGB").tobytes()
        pixels = (rgb[i:i + 3] for i in range(0, len(rgb), 3))
        return sum(1 for px in pixels if sum(abs(a - b) for a, b in zip(px, GIVING, strict=True)) < 24)

    assert marked(img) > 2 * 4 * 100 and marked(plain) == 0


def test_hand_highlights_the_discard_to_use_and_labels_are_used():
    s = ENGINE.new_game(3, None, 5)
    s = replace(s, dealer=0, current=0, turns=(1, 1, 1), discard=("Z",))
    s, _ = ENGINE.apply(s, 0, {"type": "draw", "source": "discard"})
    view = ENGINE.view(s, 0)
    assert view["must_use"]
    fr = render_hand(view, NAMES)
    en = render_hand(view, NAMES, labels={"hand": "My hand", "cards": "cards", "must_use": "Must be used"})
    assert fr != en
    _image(fr)


def test_fast_enough():
    states = _states("main", 4)
    view = ENGINE.view(states[-2], 0)
    render_table(view, NAMES)
    start = time.perf_counter()
    for _ in range(5):
        render_table(view, NAMES)
        render_hand(view, NAMES)
    assert (time.perf_counter() - start) / 10 < 0.25  # target ~30 ms; generous on a shared CI machine
