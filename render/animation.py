"""An animated summary of a game (issue 27): the frames are the game's own public pictures.

:func:`animate` takes the drawing jobs of the distinct pictures (each a renderer of ``render/``
and its arguments) and, for every frame, which picture it shows: a picture that several frames
show is drawn once. The frames share one canvas (the widest picture's width, at most
``MAX_WIDTH``), each picture scaled to it and set at the top, a progress bar along the foot (a
renderer told the frames' width, ``render.common.FRAME_WIDTH``, may draw its picture that narrow
itself: Limit's boards, nothing left to scale). A tall
picture keeps its size (six Limit boards, eight kallaxes one under the other: made smaller, their
numbers would fall to 4 CSS px on a phone, issue 36): the summary then shows fewer positions, evenly
spread, the first and the last kept, so that all its frames hold at most ``MAX_PIXELS`` (or the
caller's tighter budget: Limit's frames change all over, and WebP's CPU follows the pixels that
change, ``bot.community.replay.SUMMARY_PIXELS``). The
last frame carries the final ranking under the last picture (never over it: issue 36 found it over
Ludix's and Range ta Ludothèque's score lines and Limit's Déchetterie), its title and lines wrapped,
never cut. The result is an animated WebP, or a GIF when that is smaller;
it stays under ``max_bytes`` (the pictures are made smaller until it does). Drawing is pure:
the same jobs give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from render.common import (
    BACKGROUND,
    FRAME_WIDTH,
    HIGHLIGHT,
    PANEL,
    RAW,
    TEXT,
    canvas,
    fit,
    font,
    save_picture_texts,
)

#: a phone shows 390 CSS px: 480 px frames fill it, and keep the drawing and the file small
MAX_WIDTH = 480
#: Discord takes 10 MiB from a bot on a server without boosts; the summary stays well under
MAX_BYTES = 8 * 1024 * 1024
#: a picture taller than this many pixels is made smaller to fit, never cut (WebP's limit is 16383;
#: the tallest the games draw, six Limit boards, is about 5300 px at 480 px wide)
MAX_HEIGHT = 8000
#: every frame's pixels together, at most: as many as 48 frames of 480 x 2000 (about 140 MB drawn);
#: taller frames, fewer of them (a caller may give a tighter budget: ``animate``'s ``max_pixels``)
MAX_PIXELS = 48 * 480 * 2000
FRAME_MS = 700
#: the progress bar's height (px)
PROGRESS = 4
LAST_MS = 4000
#: GIF (a palette per frame) is tried only up to this many frames, and this many pixels in all: past them,
#: WebP is always smaller (a 4-player Limit game's 27 frames of 480 x 3830: GIF 7.8 MB against 1.8 MB, and
#: trying it cost 1.5 s of CPU, a fifth of the summary)
GIF_FRAMES = 40
GIF_PIXELS = 16 * 480 * 1000

Job = tuple[Callable[..., bytes | None], tuple[Any, ...], dict[str, Any]]


def _draw(job: Job, width: int | None = None) -> Image.Image | None:
    """The job's picture itself: its renderer runs with ``encode_png`` handing the image back, and
    ``FRAME_WIDTH`` telling it the frames' ``width`` (a renderer that can draw its picture that narrow
    does: nothing to scale)."""
    fn, args, kwargs = job
    token, narrow = RAW.set(True), FRAME_WIDTH.set(width)
    try:
        out: Any = fn(*args, **kwargs)
    finally:
        FRAME_WIDTH.reset(narrow)
        RAW.reset(token)
    if out is None:
        return None
    if isinstance(out, bytes | bytearray):  # a renderer that encodes by itself
        out = Image.open(io.BytesIO(out))
    return out if out.mode == "RGB" else out.convert("RGB")


def _wrap(text: str, fnt: Any, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word wider than that alone is cut: a name)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and fnt.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [fit(line, fnt, width) for line in lines] or [""]


def _ranking_band(lines: Sequence[str], width: int, title: str) -> Image.Image:
    size = 22 if width >= 480 else 18
    head, body = font(size + 2, bold=True), font(size)
    line_h = size + 10
    heads = _wrap(title, head, width - 32) if title else []
    rows = [part for line in lines for part in _wrap(line, body, width - 32)]
    img, draw = canvas(width, 16 + line_h * (len(heads) + len(rows)) + 8)
    y = 12
    for text in heads:
        draw.text((16, y), text, font=head, fill=HIGHLIGHT)
        y += line_h
    for text in rows:
        draw.text((16, y), text, font=body, fill=TEXT)
        y += line_h
    return img


def fitted_width(pic_width: int, pic_height: int, width: int) -> int:
    """The width a picture ``pic_width`` x ``pic_height`` takes in frames ``width`` px wide: the
    frames' width, unless that would make it taller than ``MAX_HEIGHT`` (then made smaller to fit)."""
    if pic_height * width / pic_width > MAX_HEIGHT:
        return max(1, round(pic_width * MAX_HEIGHT / pic_height))
    return width


def sampled(order: Sequence[int], count: int) -> list[int]:
    """``count`` entries of ``order`` evenly spread, its first and its last kept (all of it when it
    has no more)."""
    if len(order) <= max(count, 1):
        return list(order)
    if count <= 1:
        return [order[-1]]
    step = (len(order) - 1) / (count - 1)
    return [order[round(i * step)] for i in range(count)]


def shown(order: Sequence[int], sizes: Sequence[tuple[int, int]], max_width: int = MAX_WIDTH,
          max_pixels: int | None = None) -> list[int]:
    """The entries of ``order`` the frames show, given the sizes (width, height) of its first and last
    pictures: the frames as tall as the tallest of them, as many as ``max_pixels`` (``MAX_PIXELS``)
    holds (all of them, or fewer, evenly spread, the first and the last kept)."""
    if not sizes:
        return list(order)
    width = min(max_width, max(w for w, _ in sizes))
    tall = max(h * fitted_width(w, h, width) / w for w, h in sizes)
    budget = MAX_PIXELS if max_pixels is None else max_pixels
    return sampled(order, max(2, int(budget // (width * (tall + PROGRESS)))))


def shown_of(jobs: Sequence[Job], order: Sequence[int], max_width: int = MAX_WIDTH,
             max_pixels: int | None = None) -> list[int]:
    """:func:`shown` for the drawing jobs of an animation (its first and last pictures drawn): what
    :func:`animate` would show, for a check (``bench/bench_replay.py``)."""
    if not order:
        return []
    drawn = [_draw(jobs[i], max_width) for i in dict.fromkeys((order[0], order[-1]))]
    return shown(order, [p.size for p in drawn if p is not None], max_width, max_pixels)


def frame_count(data: bytes) -> int:
    """How many frames an animation ``data`` (WebP or GIF) holds."""
    return getattr(Image.open(io.BytesIO(data)), "n_frames", 1)


def _frames(pictures: list[Image.Image | None], order: Sequence[int], width: int,
            ranking: Sequence[str], title: str) -> list[Image.Image]:
    """Every frame at one size: each picture scaled to ``width`` (once per picture; one taller than
    ``MAX_HEIGHT`` made smaller to fit, centred), set at the top of the canvas when it is shorter;
    the ranking under the picture of the last frame (the canvas is as tall as that needs)."""
    scaled: dict[int, Image.Image] = {}
    for i, pic in enumerate(pictures):
        if pic is None:
            continue
        w = fitted_width(pic.width, pic.height, width)
        if pic.width != w:
            pic = pic.resize((w, max(1, round(pic.height * w / pic.width))), Image.Resampling.BILINEAR,
                             reducing_gap=2.0)
        if pic.width < width:
            wide = Image.new("RGB", (width, pic.height), BACKGROUND)
            wide.paste(pic, ((width - pic.width) // 2, 0))
            pic = wide
        scaled[i] = pic
    band = _ranking_band(ranking, width, title) if ranking and order else None
    last: Image.Image | None = None
    for index in order:  # the picture the last frame shows (a position without one shows the previous)
        last = scaled.get(index, last)
    height = max([p.height for p in scaled.values()] + [1])
    if band is not None:
        height = max(height, (last.height if last is not None else 0) + band.height + PROGRESS)
    blank = Image.new("RGB", (width, height), BACKGROUND)
    out: list[Image.Image] = []
    shown: Image.Image | None = None
    for index in order:
        pic = scaled.get(index, shown)  # a position without a picture shows the previous one
        if pic is None:
            frame = blank.copy()
        elif pic.height == height:
            frame = pic.copy()
        else:  # the picture, the canvas under it (one pass over the frame: a tall one is 2 Mpx)
            frame = pic.crop((0, 0, width, height))
            frame.paste(BACKGROUND, (0, pic.height, width, height))
        out.append(frame)
        shown = pic
    if band is not None and out:
        out[-1].paste(band, (0, last.height if last is not None else 0))
    # a progress bar along the foot: where the game is, and no two frames alike (an encoder would
    # merge identical neighbours, and a position would lose its frame)
    for n, frame in enumerate(out):
        done = max(1, round(width * (n + 1) / len(out)))
        frame.paste(HIGHLIGHT, (0, height - PROGRESS, done, height))
        if done < width:
            frame.paste(PANEL, (done, height - PROGRESS, width, height))
    return out


def _encode(frames: list[Image.Image], durations: list[int]) -> tuple[bytes, str]:
    webp = io.BytesIO()
    frames[0].save(webp, format="WEBP", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   quality=60, method=0, minimize_size=False, allow_mixed=False,
                   # no key frame after the first: each frame is coded as its change from the previous one, which is
                   # what a summary is (a 4-player Limit game: 1.2 MB in 1.7 s of CPU, against 1.8 MB in 2.3 s)
                   kmin=0, kmax=0)
    best, kind = webp.getvalue(), "webp"
    if len(frames) <= GIF_FRAMES and len(frames) * frames[0].width * frames[0].height <= GIF_PIXELS:
        paletted = [f.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
                    for f in frames]
        gif = io.BytesIO()
        paletted[0].save(gif, format="GIF", save_all=True, append_images=paletted[1:], duration=durations,
                         loop=0, optimize=False, disposal=1)
        # a GIF merges identical neighbouring frames: taken only when it keeps every one (a frame a position)
        if len(gif.getvalue()) < len(best) and Image.open(io.BytesIO(gif.getvalue())).n_frames == len(frames):
            best, kind = gif.getvalue(), "gif"
    return best, kind


def animate(jobs: Sequence[Job], order: Sequence[int], ranking: Sequence[str] = (), title: str = "",
            *, frame_ms: int = FRAME_MS, last_ms: int = LAST_MS, max_bytes: int = MAX_BYTES,
            max_width: int = MAX_WIDTH, max_pixels: int | None = None) -> tuple[bytes, str] | None:
    """``(bytes, "webp" | "gif")``: one frame per entry of ``order`` (an index into ``jobs``), the
    ranking lines under the last one (fewer frames when they are tall: ``max_pixels``, ``MAX_PIXELS``
    unless the caller gives a tighter one); None when there is nothing to show."""
    if not order:
        return None
    pictures: list[Image.Image | None] = [None] * len(jobs)
    for i in dict.fromkeys((order[0], order[-1])):  # the first and last pictures tell the frames' size
        pictures[i] = _draw(jobs[i], max_width)
    order = shown(order, [p.size for p in pictures if p is not None], max_width, max_pixels)
    for i in sorted(set(order)):
        if pictures[i] is None:
            pictures[i] = _draw(jobs[i], max_width)
    drawn = [p for p in pictures if p is not None]
    if not drawn:
        return None
    width = min(max_width, max(p.width for p in drawn))
    durations = [frame_ms] * (len(order) - 1) + [last_ms]
    while True:
        frames = _frames(pictures, order, width, ranking, title)
        data, kind = _encode(frames, durations)
        if len(data) <= max_bytes or width <= 160:
            save_picture_texts(data)  # (LUDIBOT_PICTURE_TEXTS only: the words of every frame)
            return (data, kind) if len(data) <= max_bytes else None
        width = int(width * 0.75)
