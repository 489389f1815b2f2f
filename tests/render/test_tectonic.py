"""Tectonic board picture: a valid, small PNG for every phase; moves, labels and languages show."""

from __future__ import annotations

import io
import random
import time
from dataclasses import replace

from PIL import Image

from engines.tectonic import ENGINE, core
from render.tectonic import render_board

NAMES = ["Alice", "Bruno"]


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _check(data: bytes) -> Image.Image:
    img = _png(data)
    assert img.format == "PNG" and 600 <= img.width <= 1100 and 600 <= img.height <= 1200
    assert len(data) < 1_000_000
    return img


def position(pieces: dict[str, str], current: int = 0, reserves=(1, 1, 1, 1, 1, 1)):
    board = ["."] * 100
    for cell, ch in pieces.items():
        board[core.parse_cell(cell)] = ch
    state = ENGINE.new_game(2, None, seed=1)
    return replace(state, board="".join(board), reserves=tuple(reserves), current=current, history={})


def test_every_phase_of_random_games_renders():
    rng = random.Random(3)
    state = ENGINE.new_game(2, None, seed=3)
    seen = set()
    previous = render_board(ENGINE.view(state, None), NAMES)
    _check(previous)
    for _ in range(400):
        if state.finished:
            break
        actions = ENGINE.legal_actions(state, state.current)
        flips = [a for a in actions if a["flip"]]
        state, events = ENGINE.apply(state, state.current, rng.choice(flips or actions))
        seen.update(e["type"] for e in events)
        data = render_board(ENGINE.view(state, state.ply % 3 - 1 or None), NAMES)
        _check(data)
        assert data != previous
        previous = data
    assert state.finished and "flipped" in seen


def test_endings_and_special_cells_render():
    # a substitution, a recolouring, a flip and a region win on one picture
    state = position({"A10": "C", "A8": "M", "B9": "5", "C8": "C", "C10": "p", "D9": "1", "J1": "c"},
                     reserves=(1, 1, 1, 1, 0, 1))
    won, events = ENGINE.apply(state, 0, {"type": "move", "from": "C8", "to": "C9", "flip": None})
    assert won.reason == "region"
    _check(render_board(ENGINE.view(won, None), NAMES))
    draw = replace(won, winner=None, reason="repetition")
    _check(render_board(ENGINE.view(draw, None), NAMES))
    resigned, _ = ENGINE.apply(ENGINE.new_game(2, None, seed=1), 0, {"type": "resign"})
    _check(render_board(ENGINE.view(resigned, None), NAMES))


def test_languages_labels_and_names_change_the_picture():
    view = ENGINE.view(ENGINE.new_game(2, None, seed=1), None)
    fr = render_board(view, NAMES)
    assert render_board(view, NAMES, lang="en") != fr
    assert render_board(view, NAMES, {"reserve": "Stock"}) != fr
    assert render_board(view, ["Alice", "Bot (niveau 3)"]) != fr
    _check(render_board(view, ["Une joueuse au nom vraiment très très long 🎲", ""]))
    _check(render_board(view, []))


def test_rendering_is_fast():
    rng = random.Random(1)
    state = ENGINE.new_game(2, None, seed=1)
    for _ in range(20):
        state, _ = ENGINE.apply(state, state.current, rng.choice(ENGINE.legal_actions(state, state.current)))
        if state.finished:
            break
    view = ENGINE.view(state, None)
    start = time.perf_counter()
    for _ in range(5):
        render_board(view, NAMES)
    assert (time.perf_counter() - start) / 5 < 0.25  # about 30 ms on an idle machine
