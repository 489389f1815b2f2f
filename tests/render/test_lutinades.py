"""Lutinades pictures: the signpost card and the table, in every phase and variant; the table never leaks."""

from __future__ import annotations

import io
import random
import time
from dataclasses import replace

import pytest
from PIL import Image

from engines.lutinades import ENGINE, card_dict, deck
from render.lutinades import CARD_H, CARD_W, TABLE_W, render_card, render_table

NAMES = ["Amélie", "Bastien", "Chloé", "Dédé-au-nom-vraiment-très-long", "Élise", "François", "Gwen"]
LABELS_FR = {"turn": "Tour {turn}", "picker": "Cueilleur", "deck": "Pioche", "revealed_card": "Carte révélée",
             "variant": "Lutins malins"}


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("variant", ["standard", "lutins-malins"])
def test_every_card_renders(variant):
    seen = set()
    for card in deck():
        png = render_card(card_dict(card, variant))
        img = _png(png)
        assert img.format == "PNG" and img.size == (CARD_W, CARD_H) and len(png) < 1_000_000
        seen.add(png)
    # kinds x sides x number pairs: 4 x 2 x 4 = 32 different faces (duplicates are identical cards)
    assert len(seen) == 32


def test_the_card_shows_direction_size_numbers_and_side():
    up_left = deck()[next(c.id for c in deck() if (c.kind, c.side, c.big) == ("up", "left", 2))]
    up_right = next(c for c in deck() if (c.kind, c.side, c.big, c.small) == ("up", "right", 2, 1))
    down_left = next(c for c in deck() if (c.kind, c.side, c.big, c.small) == ("down", "left", 2, 1))
    big4 = next(c for c in deck() if (c.kind, c.side, c.big) == ("up", "left", 4))
    pics = {name: render_card(card_dict(c, "standard")) for name, c in
            (("ul", up_left), ("ur", up_right), ("dl", down_left), ("b4", big4))}
    assert len(set(pics.values())) == 4
    malins = render_card(card_dict(up_left, "lutins-malins"))
    assert malins != pics["ul"]  # the side is printed in lutins malins
    labelled = render_card(card_dict(up_left, "standard"), labels={"up": "Vers le haut"})
    assert labelled != pics["ul"]


def play(players: int, variant: str, seed: int):
    """Every state of a game played by the AI."""
    state = ENGINE.new_game(players, {"variante": variant}, seed)
    states = [state]
    while not ENGINE.is_over(state):
        seat = min(ENGINE.expected(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat))
        states.append(state)
    return states


@pytest.mark.parametrize("variant", ["standard", "lutins-malins", "en-grand"])
@pytest.mark.parametrize("players", [3, 7])
def test_the_table_renders_in_every_phase(variant, players):
    states = play(players, variant, seed=players)
    phases = set()
    pngs = set()
    elapsed = []
    for i, state in enumerate(states):
        if i % 5 and i != len(states) - 1:
            continue  # keep the test quick: one state in five, and the end
        phases.add(state.phase)
        t0 = time.process_time()
        png = render_table(ENGINE.view(state, None), NAMES[:players], LABELS_FR if i % 2 else None)
        elapsed.append(time.process_time() - t0)
        img = _png(png)
        assert img.format == "PNG" and img.width == TABLE_W and 400 <= img.height <= 1400
        assert len(png) < 1_000_000
        pngs.add(png)
    assert phases == {"gestures", "choice", "over"} or phases == {"gestures", "over"}
    assert len(pngs) > len(elapsed) // 2  # the picture follows the game
    assert sum(elapsed) / len(elapsed) < 0.15  # CPU time (a loaded machine stretches the wall clock): target well under 60 ms


def test_the_table_image_never_depends_on_the_hidden_card_or_private_view():
    rng = random.Random(3)
    for state in play(5, "lutins-malins", seed=12)[:-1:3]:
        other_card = rng.choice([c for c in state.deck if deck()[c].kind != deck()[state.card].kind])
        pile = tuple(state.card if c == other_card else c for c in state.deck)
        twin = replace(state, card=other_card, deck=pile)
        picker = state.picker
        assert render_table(ENGINE.view(state, picker), NAMES[:5]) == render_table(ENGINE.view(twin, picker),
                                                                                   NAMES[:5])
        lutin = (picker + 1) % 5
        # even a lutin's view (with the card and their own gesture) draws the public table only
        assert render_table(ENGINE.view(state, lutin), NAMES[:5]) == render_table(ENGINE.view(state, None),
                                                                                  NAMES[:5])


def test_gestures_appear_once_public_and_missing_names_do_not_crash():
    state = ENGINE.new_game(4, {}, 2)
    state, _ = ENGINE.apply(state, 1, {"type": "gesture", "gesture": "up", "side": None})
    state, _ = ENGINE.apply(state, 2, {"type": "gesture", "gesture": "down", "side": None})
    waiting = render_table(ENGINE.view(state, None), ["A", "B"])
    state, _ = ENGINE.apply(state, 3, {"type": "gesture", "gesture": "horizontal", "side": None})
    assert state.phase == "choice"
    shown = render_table(ENGINE.view(state, None), ["A", "B"])
    assert waiting != shown
    assert _png(shown).width == TABLE_W
