from __future__ import annotations

import io

from PIL import Image

from engines.ludix import ENGINE
from render.ludix import render_table


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_every_phase_renders_a_small_png():
    state = ENGINE.new_game(4, {}, seed=11)
    names = ["Alice", "Bruno", "Chloé", "Bot 1"]
    seen_bust = False
    for _ in range(60):
        png = render_table(ENGINE.view(state, None), names)
        img = _png(png)
        assert img.format == "PNG" and 600 <= img.width <= 1200 and len(png) < 1_000_000
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.expected(state)
        state, ev = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat))
        seen_bust |= any(e["type"] == "bust" for e in ev)
    assert seen_bust


def test_labels_change_the_picture():
    state = ENGINE.new_game(2, {}, seed=11)
    state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    fr = render_table(ENGINE.view(state, None), ["A", "B"])
    en = render_table(ENGINE.view(state, None), ["A", "B"], {"round": "Round", "target": "Target"})
    assert fr != en
