"""The animated summary's drawing (issue 27): one frame per entry of the order, one canvas, the
ranking on the last frame, the same bytes every time, within the size it is given."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render import common
from render.animation import PROGRESS, animate
from render.common import canvas, encode_png


def board(colour: tuple[int, int, int], width: int = 300, height: int = 200) -> bytes:
    img, draw = canvas(width, height)
    draw.rectangle((20, 20, width - 20, height - 20), fill=colour)
    return encode_png(img)


JOBS = [(board, ((200, 40, 40),), {}), (board, ((40, 200, 40),), {}), (board, ((40, 40, 200), 300, 260), {})]


def frames_of(data: bytes) -> list[Image.Image]:
    img = Image.open(io.BytesIO(data))
    out = []
    for i in range(img.n_frames):
        img.seek(i)
        out.append(img.convert("RGB"))
    return out


def test_one_frame_per_entry_on_one_canvas_with_the_ranking_last():
    data, ext = animate(JOBS, [0, 1, 1, 2], ["1. Alice — 3 points", "2. Bruno — 1 point"], "Classement final")
    frames = frames_of(data)
    assert ext in ("webp", "gif") and len(frames) == 4
    (size,) = {f.size for f in frames}  # one canvas: the widest picture's width, the tallest frame's height
    assert size[0] == 300 and size[1] > 260 + 3 * 28  # the last picture (260 px) and the ranking under it
    assert frames[0].getpixel((150, 100))[0] > 150 and frames[1].getpixel((150, 100))[1] > 150
    # the last frame: the blue board whole, the ranking under it (issue 36: it covered the picture's foot)
    assert frames[3].getpixel((150, 60))[2] > 150
    alone = frames_of(animate(JOBS, [0, 1, 1, 2])[0])[3]  # the same frame without the ranking

    def changed(points):  # pixels the ranking changed (beyond the lossy encoding's noise)
        return sum(max(abs(a - b) for a, b in zip(frames[3].getpixel(p), alone.getpixel(p), strict=True)) > 60
                   for p in points)

    board = [(x, y) for x in range(0, 300, 3) for y in range(0, 255, 3)]
    below = [(x, y) for x in range(0, 300, 3) for y in range(262, size[1] - 6, 3)]
    assert changed(board) < len(board) // 100  # (on main: the ranking over the last 108 px of 260)
    assert sum(max(frames[3].getpixel(p)) > 150 for p in below) > len(below) // 50  # the ranking's letters
    # the progress bar: a quarter of the width on the first frame, all of it on the last
    foot = size[1] - 2
    assert frames[0].getpixel((60, foot))[0] > 200 and frames[0].getpixel((100, foot))[0] < 120
    assert frames[3].getpixel((290, foot))[0] > 200
    again = animate(JOBS, [0, 1, 1, 2], ["1. Alice — 3 points", "2. Bruno — 1 point"], "Classement final")
    assert again == (data, ext)


def test_a_picture_is_drawn_once_however_many_frames_show_it():
    calls = []

    def counted(colour):
        calls.append(colour)
        return board(colour)

    animate([(counted, ((1, 2, 3),), {}), (counted, ((9, 9, 9),), {})], [0, 0, 0, 1, 1, 0])
    assert calls == [(1, 2, 3), (9, 9, 9)]


def test_it_stays_within_the_size_it_is_given_or_gives_nothing():
    big = animate(JOBS, list(range(3)) * 5)
    small = animate(JOBS, list(range(3)) * 5, max_bytes=len(big[0]) * 3 // 4)
    assert small is not None and len(small[0]) <= len(big[0]) * 3 // 4
    assert Image.open(io.BytesIO(small[0])).size[0] < 300  # made smaller to fit
    assert animate(JOBS, [0, 1, 2], max_bytes=10) is None
    assert animate(JOBS, []) is None
    assert animate([(lambda: None, (), {})], [0]) is None  # nothing to show


def test_a_tall_picture_keeps_its_size_and_the_summary_shows_fewer_positions(monkeypatch):
    """Issue 36: six Limit boards, eight kallaxes one under the other: shrunk to 1400 px high, their
    numbers fell to 4 CSS px. Now a tall picture keeps the frames' width and the summary shows as many
    positions as ``MAX_PIXELS`` holds, evenly spread, the first and the last kept; the others are not
    even drawn."""
    from render import animation

    assert animation.sampled(list(range(10)), 4) == [0, 3, 6, 9]
    assert animation.sampled([0, 1, 1, 2], 9) == [0, 1, 1, 2] and animation.sampled([5, 6, 7], 1) == [7]
    calls = []

    def tall(n):
        calls.append(n)
        return board((40 + 15 * n, 200 - 15 * n, 90), 300, 3000)

    jobs = [(tall, (n,), {}) for n in range(12)]
    monkeypatch.setattr(animation, "MAX_PIXELS", 300 * 3100 * 5)
    data, _ = animate(jobs, list(range(12)), ["1. Alice — 3 points"], "Classement final")
    frames = frames_of(data)
    assert len(frames) == 5 == animation.frame_count(data)
    assert {f.size[0] for f in frames} == {300} and frames[0].height > 3000  # not made smaller
    assert sorted(calls) == [0, 3, 6, 8, 11]  # the first and the last, evenly between; only those drawn
    assert abs(frames[0].getpixel((150, 1500))[0] - 40) < 20 and abs(frames[-1].getpixel((150, 1500))[0] - 205) < 20
    monkeypatch.setattr(animation, "MAX_PIXELS", 48 * 480 * 2000)
    assert animation.frame_count(animate(jobs, list(range(12)))[0]) == 12  # within the budget: every one
    # a caller's tighter budget (Limit's, whose frames change all over: bot.community.replay.SUMMARY_PIXELS)
    calls.clear()
    data, _ = animate(jobs, list(range(12)), max_pixels=300 * 3100 * 4)
    assert animation.frame_count(data) == 4 and sorted(calls) == [0, 4, 7, 11]
    assert animation.shown_of(jobs, list(range(12)), max_pixels=300 * 3100 * 4) == [0, 4, 7, 11]


def test_the_renderers_still_encode_png_outside_an_animation():
    assert board((1, 2, 3))[:4] == b"\x89PNG"


# --- the closing ranking on real summaries (issue 36) ----------------------------------------------

def _final_job(kind: str, players: int, lang: str):
    """The last frame's picture job of a finished AI game of ``kind`` (as the summary draws it)."""
    import engines
    from tests.render import gallery

    engine = engines.get(kind)
    state = gallery._play(kind, players, {}, seed=11)[-1]
    assert engine.is_over(state)
    game = gallery._row(kind, players, {}, state, True)
    job = gallery._cog(kind).render_replay(game, engine.view(state, None), lang)
    return (job.fn, job.args, job.kwargs), game


@pytest.mark.parametrize(("kind", "players"), [("ludix", 3), ("ranta", 1), ("ranta", 2), ("limit", 1), ("limit", 2)])
def test_the_closing_ranking_covers_nothing_of_the_last_picture(kind, players):
    """Ranta's and Ludix's score lines, Limit's Déchetterie (X5 at its foot) and the explanation of
    its penalty under it: the last picture is shown whole, the ranking under it."""
    job, game = _final_job(kind, players, "en")
    ranking = [f"{i + 1}. {name} — {100 - i} points" for i, name in enumerate(game.names)]
    title = "Take it to the Limit #1 — final ranking"
    with_ranking = frames_of(animate([job], [0], ranking, title)[0])[-1]
    alone = frames_of(animate([job], [0])[0])[-1]
    top = alone.height - PROGRESS - 2  # the picture, scaled to the canvas (its foot: the progress bar)
    assert with_ranking.height > alone.height  # the ranking is added under it
    diff = ImageChops.difference(with_ranking.crop((0, 0, alone.width, top)), alone.crop((0, 0, alone.width, top)))
    changed = sum(diff.convert("L").histogram()[61:])
    assert changed < alone.width * top // 1000, f"{changed} pixels of the last picture covered"


#: the fill of the panel a Limit board's Déchetterie is drawn on (render.limit)
DECHETTERIE_PANEL = (74, 62, 52)


def _panel_box(img: Image.Image, colour: tuple[int, int, int] = DECHETTERIE_PANEL) -> tuple[int, int, int, int] | None:
    """The box of the pixels of ``colour`` in ``img`` (a panel's fill around what it holds; within the
    palette's and the scaling's few levels)."""
    rgb = img.convert("RGB")
    same = ImageChops.difference(rgb, Image.new("RGB", rgb.size, colour)).convert("L").point(lambda v: 255 if v <= 3 else 0)
    return same.getbbox()


def test_limit_s_last_frame_shows_the_dechetterie_and_its_explanation():
    """Limit's final picture, as the summary shows it: its Déchetterie's seven tiles (X5, at its foot,
    too) on their panel and the lines under the board (the Déchetterie's value, a penalty's reason)
    are drawn, and the ranking covers none of them."""
    from tests.render.test_phone import tile_values

    job, game = _final_job("limit", 1, "en")
    fn, args, kwargs = job
    png = fn(*args, **kwargs)
    width = Image.open(io.BytesIO(png)).width
    from render import limit

    for value in vars(limit).values():  # cached tiles would skip their drawing (and its recording)
        if hasattr(value, "cache_clear") and value is not common.font:
            value.cache_clear()
    with common.recording_text() as runs:
        fn(*args, **kwargs)
    board = args[0]["boards"][0]["cells"]
    assert {f"X{i}" for i in range(1, 8)} <= set(board)
    assert len(tile_values(runs)) == 3 * len(board)  # every tile's three values, the Déchetterie's seven too
    wanted = [run.box for run in runs if run.text.startswith(("Scrapyard value", "Penalty"))]
    assert any(run.text.startswith("Scrapyard value") for run in runs)
    if args[0]["final"]["breakdowns"][0].get("penalty_reason"):
        assert any(run.text.startswith("Penalty") for run in runs)
    panel = _panel_box(Image.open(io.BytesIO(png)))
    assert panel is not None and panel[3] - panel[1] > 100  # the Déchetterie's panel, its foot included
    shown = frames_of(animate([job], [0], ["1. Zoé — 88 points"], "Take it to the Limit #4242 — final ranking")[0])[-1]
    alone = frames_of(animate([job], [0])[0])[-1]
    scale = alone.width / width
    for what, box in (("the Déchetterie", panel), *(("a line under the board", b) for b in wanted)):
        box = tuple(round(v * scale) for v in box)
        assert box[3] < alone.height - PROGRESS, what
        diff = ImageChops.difference(shown.crop(box), alone.crop(box)).convert("L")
        assert max(diff.getextrema()) < 90, f"{what} covered"
    # and the last frame shows that panel's fill where the picture has it, its foot included
    foot = (round((panel[0] + 2) * scale), round((panel[3] - 3) * scale))
    assert max(abs(a - b) for a, b in zip(alone.convert("RGB").getpixel(foot), DECHETTERIE_PANEL, strict=True)) <= 12


def test_a_long_title_and_long_lines_are_wrapped_never_cut():
    title = "Take it to the Limit #1 — final ranking"
    lines = ["1. Marie-Charlotte de Montmorency — 342 points", "2. Jean-Baptiste Éloi Duchâteau — 205 points"]
    with common.recording_text() as runs:
        animate(JOBS, [0, 1], lines, title, max_width=300)
    band = [run for run in runs if run.text and run.text not in ("",)]
    words = " ".join(run.text for run in band)
    assert "…" not in words
    assert " ".join(title.split()) in " ".join(words.split()) and all(line in " ".join(words.split()) for line in lines)
    assert all(run.box[2] <= 300 - 16 for run in band)  # inside the frame's margins


def test_gif_is_tried_only_for_small_frames(monkeypatch):
    """GIF (a palette per frame) wins only on small flat frames; for many tall ones WebP is always smaller,
    and trying GIF cost a fifth of a 4-player Limit summary's CPU: it is not tried then."""
    quantized: list[tuple[int, int]] = []
    real = Image.Image.quantize

    def quantize(self, *args, **kwargs):
        quantized.append(self.size)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", quantize)
    animate(JOBS, [0, 1, 2])
    assert quantized  # three small frames: both tried
    quantized.clear()
    tall = [(board, ((40 * k, 200 - 40 * k, 90), 480, 1800), {}) for k in range(5)]
    data, ext = animate(tall, list(range(5)) * 2)
    assert ext == "webp" and quantized == [] and len(frames_of(data)) == 10


# --- the summary's CPU (issue 27: a 4-player Limit summary took 4 s) -------------------------------

def test_a_line_rendered_again_is_the_very_same_pixels_and_is_not_rendered_again(monkeypatch):
    """The bundled fonts remember what they rendered: a line drawn again (a board's cell names, frame
    after frame) is not rendered again, and is exactly what a font that remembers nothing draws, at any
    fraction of a pixel, stroked or not."""
    from PIL import ImageDraw, ImageFont

    fnt = common.font(19, bold=True)
    plain = ImageFont.truetype(fnt.path, 19)
    calls = []
    real = ImageFont.FreeTypeFont.getmask2

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return real(self, *args, **kwargs)

    def drawn(f, xy, text, **kw):
        img = Image.new("RGB", (120, 50), common.BACKGROUND)
        ImageDraw.Draw(img).text(xy, text, font=f, fill=(250, 210, 60), anchor="mm", **kw)
        return img

    common._rendered.cache_clear()
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counted)
    stroked = {"stroke_width": 3, "stroke_fill": (0, 0, 0)}
    for xy, text, kw in (((60.37, 25.81), "E5 A12", {}), ((60, 25), "−40", stroked)):
        first = drawn(fnt, xy, text, **kw)
        rendered = len(calls)
        assert rendered >= 1
        again = drawn(fnt, xy, text, **kw)
        assert len(calls) == rendered  # remembered: not rendered again
        assert first.tobytes() == again.tobytes() == drawn(plain, xy, text, **kw).tobytes()
        assert Image.new("RGB", first.size, common.BACKGROUND).tobytes() != first.tobytes()  # something drawn
    # another fraction of a pixel is another rendering (it may differ): never the remembered one
    rendered = len(calls)
    assert drawn(fnt, (60.5, 25.81), "E5 A12").tobytes() == drawn(plain, (60.5, 25.81), "E5 A12").tobytes()
    assert len(calls) == rendered + 2
    assert fnt.getlength("Total") == plain.getlength("Total") and fnt.getbbox("X7") == plain.getbbox("X7")


def test_limit_s_boards_are_drawn_at_the_frames_width_as_they_would_look_scaled_to_it():
    """A summary's Limit picture (four boards, 3700 px high) was drawn 563 px wide, then scaled to the
    frames' 480: a third of the summary's CPU, and blurred text. The animation now tells the renderer the
    frames' width and Limit lays its boards out that narrow itself: the same texts, each at the size the
    scaled picture gave it (within a pixel), the tiles in proportion; nothing is scaled. Outside an
    animation the picture is as it was."""
    from render import animation
    from render.limit import render_final

    job, _ = _final_job("limit", 2, "fr")
    fn, args, kwargs = job
    with common.recording_text() as natural:
        wide = Image.open(io.BytesIO(fn(*args, **kwargs)))
    token = common.FRAME_WIDTH.set(480)
    try:
        with common.recording_text() as narrow_runs:
            narrow = fn(*args, **kwargs)
    finally:
        common.FRAME_WIDTH.reset(token)
    assert fn is render_final and wide.width == 563 and isinstance(narrow, bytes)
    narrow = Image.open(io.BytesIO(narrow))
    assert narrow.width == 480  # the frames' width: the closing ranking keeps its size (22 px from 480 px)
    scale = narrow.width / wide.width
    assert [r.text for r in narrow_runs] == [r.text for r in natural]
    assert all(abs(n.size - w.size * scale) <= 1.2 for n, w in zip(narrow_runs, natural, strict=True))
    assert abs(narrow.height - wide.height * scale) < wide.height * scale * 0.1
    # the animation draws it so, and shows it as drawn: nothing scaled
    resized = []
    real = Image.Image.resize
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Image.Image, "resize", lambda self, *a, **k: resized.append(self.size) or real(self, *a, **k))
        frame = frames_of(animate([job], [0])[0])[0]
        assert animation.shown_of([job], [0]) == [0]
    assert resized == [] and frame.width == narrow.width
    top = (0, 0, narrow.width, 600)
    diff = ImageChops.difference(frame.crop(top), narrow.convert("RGB").crop(top)).convert("L")
    assert sum(diff.histogram()[60:]) < narrow.width * 600 // 200  # the same picture (lossy WebP's noise)
