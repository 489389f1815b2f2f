"""L'Invincible Armada renderer: valid PNGs for every phase, readable sizes, different views differ."""

from __future__ import annotations

import io
import random
import time
from dataclasses import replace

import pytest
from PIL import Image

from engines.armada import ENGINE
from engines.armada.board import EMPTY, ENGLAND, SPAIN, geometry
from render.armada import labels, render_board

NAMES = ["Alice", "Bob"]


def png_ok(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    img.load()
    assert 600 <= img.width <= 1000 and img.height < 1400
    return img


def position(spain=(), england=(), turn=SPAIN, size="11x11", **extra):
    state = ENGINE.new_game(2, {"plateau": size}, seed=4)
    geo = geometry(state.size)
    board = [EMPTY] * (state.size ** 2)
    for p in spain:
        board[geo.index[p]] = SPAIN
    for p in england:
        board[geo.index[p]] = ENGLAND
    return replace(state, board=tuple(board), turn=turn,
                   reserve=(20 - len(spain), 20 - len(england)), **extra)


def random_states(seed: int, every: int = 40):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, None, seed=seed)
    out = [state]
    step = 0
    while not state.finished:
        state, _ = ENGINE.apply(state, state.current, rng.choice(ENGINE.legal_actions(state, state.current)))
        step += 1
        if step % every == 0:
            out.append(state)
    return out + [state]


def test_empty_board_and_every_size():
    for size in ("11x11", "10x10", "9x9"):
        img = png_ok(render_board(ENGINE.view(ENGINE.new_game(2, {"plateau": size}, seed=1), None), NAMES))
        assert img.mode == "P"  # render.common.encode_png: a palette picture


def test_pending_capture_pairs_and_lines_render_in_both_languages():
    state = position(spain=["B4", "C4"], england=["E4", "F4", "E5"])
    pending, _ = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})
    view = ENGINE.view(pending, None)
    assert view["pending_captures"] and view["pairs"] and view["last_lines"]
    fr = render_board(view, NAMES, "fr")
    en = render_board(view, NAMES, "en")
    png_ok(fr)
    png_ok(en)
    assert fr != en  # the words differ
    assert render_board(view, NAMES, "de") == fr  # unknown language: French


def test_phases_render_and_differ():
    # England at the limit (must pivot), with four free ships (must pair), Spain moving, finished game
    limit = position(england=["B2", "C2", "F6", "H8", "K1"], turn=ENGLAND)
    must_pair = position(england=["B2", "F2", "B8", "H8"], turn=ENGLAND)
    spain = [f"{c}{r}" for r in (1, 11) for c in "ABCDEFGHIJK"][:20]
    moving = replace(position(spain=spain, england=["F5"]), reserve=(0, 19))
    images = [render_board(ENGINE.view(s, None), NAMES) for s in (limit, must_pair, moving)]
    for data in images:
        png_ok(data)
    assert len(set(images)) == 3


def test_random_game_states_round_ends_previous_round_and_game_over():
    states = random_states(6)
    seen_rounds = set()
    for state in states:
        view = ENGINE.view(state, 0)
        png_ok(render_board(view, NAMES))
        seen_rounds.add(view["round"])
        if view["previous_round"]:
            png_ok(render_board(view, NAMES, previous=True))
    final = ENGINE.view(states[-1], None)
    assert final["finished"] and len(seen_rounds) >= 2
    assert render_board(final, NAMES, previous=True) != render_board(final, NAMES)
    # without a previous round, previous=True falls back to the current board
    fresh = ENGINE.view(states[0], None)
    assert render_board(fresh, NAMES, previous=True) == render_board(fresh, NAMES)


def test_resigned_game_and_odd_names():
    from render import common

    state = position(spain=["C3"], england=["D5"])
    over, _ = ENGINE.apply(state, 1, {"type": "resign"})  # England resigns: Spain (seat 0) wins
    view = ENGINE.view(over, None)

    def drawn(names):
        with common.recording_text() as runs:
            img = png_ok(render_board(view, names))
        return img, runs

    img, runs = drawn(["Ä" * 80, ""])
    texts = [r.text for r in runs]
    long = [r for r in runs if r.text.startswith("ÄÄÄ")]
    assert long and all(r.text.endswith("…") and len(r.text) < 80 for r in long), texts  # cut short to fit
    assert any(t.startswith("Vainqueur\u00a0: ÄÄÄ") for t in texts), texts
    img, runs = drawn([])  # no names: seats are numbered
    texts = [r.text for r in runs]
    assert "Vainqueur\u00a0: #1" in texts and {"#1", "#2"} <= set(texts), texts
    # the fleets as they stand: Spain one ship at sea and 19 in reserve, England one of its five at sea
    assert any("Réserve 19" in t for t in texts) and any("En mer 1/5" in t for t in texts), texts


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_status_line_follows_the_legal_moves_not_a_count(lang):
    """England's five ships out: « Pivot obligatoire » while a pivot is legal; when its pair is boxed in and
    « Passer » is the only legal move, the picture says so instead of asking for a pivot (issue 35)."""
    from render import common

    words = labels(lang)
    spain = ("A2", "B2", "C2", "C1")
    boxed = position(spain=spain, england=("A1", "B1", "F6", "H6", "F9"), turn=ENGLAND, size="9x9")
    free = position(spain=spain, england=("E5", "F5", "F7", "H6", "B9"), turn=ENGLAND, size="9x9")
    assert ENGINE.legal_actions(boxed, boxed.current) == [{"type": "pass"}]
    assert any(a["type"] == "pivot" for a in ENGINE.legal_actions(free, free.current))
    for state, shown, hidden in ((boxed, "must_pass", "must_pivot"), (free, "must_pivot", "must_pass")):
        with common.recording_text() as runs:
            png_ok(render_board(ENGINE.view(state, None), NAMES, lang))
        texts = [r.text for r in runs]
        assert words[shown] in texts and words[hidden] not in texts, texts


def test_labels_come_from_both_catalogs():
    for lang in ("fr", "en"):
        words = labels(lang)
        for key in ("round", "tiebreak", "captures", "score", "reserve", "on_board", "range", "must_move",
                    "must_pivot", "must_pair", "must_pass", "choose_capture", "final", "over", "winner", "side_spain",
                    "side_england"):
            assert words[key], (lang, key)


@pytest.mark.parametrize("seed", [8])
def test_render_is_fast(seed):
    view = ENGINE.view(random_states(seed)[2], None)
    render_board(view, NAMES)
    best = min(_timed(view) for _ in range(3))
    assert best < 0.25  # about 30 ms on an idle core; generous for a loaded machine


def _timed(view) -> float:
    t0 = time.perf_counter()
    render_board(view, NAMES)
    return time.perf_counter() - t0
