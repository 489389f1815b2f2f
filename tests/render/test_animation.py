"""The animated summary's drawing (issue 27): one frame per entry of the order, one canvas, the
ranking on the last frame, the same bytes every time, within the size it is given."""

from __future__ import annotations

import io

from PIL import Image

from render.animation import animate
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
    assert {f.size for f in frames} == {(300, 260)}  # the tallest picture sets the canvas
    assert frames[0].getpixel((150, 100))[0] > 150 and frames[1].getpixel((150, 100))[1] > 150
    # the last frame: the blue board, the ranking drawn over its foot
    assert frames[3].getpixel((150, 60))[2] > 150
    foot = [(x, y) for x in range(0, 300, 3) for y in range(160, 250, 3)]
    changed = sum(frames[3].getpixel(p) != frames[2].getpixel(p) for p in foot)
    assert changed > len(foot) // 10  # the ranking over the foot of the last frame
    # the progress bar: a quarter of the width on the first frame, all of it on the last
    assert frames[0].getpixel((60, 258))[0] > 200 and frames[0].getpixel((100, 258))[0] < 120
    assert frames[3].getpixel((290, 258))[0] > 200
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


def test_the_renderers_still_encode_png_outside_an_animation():
    assert board((1, 2, 3))[:4] == b"\x89PNG"
