"""Drawing helpers shared by every renderer: bundled fonts, palette, PNG output.

Renderers are pure functions ``view -> PNG bytes``. Pictures are sized for a
phone screen (about 800-1000 px wide) and kept well under Discord's limits.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

DATA = Path(__file__).resolve().parent.parent / "data"
FONTS = DATA / "fonts"

#: Seat colours, in seat order (the four Ludime token colours first), readable on both themes.
SEAT_COLOURS = [
    (214, 48, 49),    # red
    (9, 132, 227),    # blue
    (0, 148, 50),     # green
    (253, 203, 110),  # yellow
    (142, 68, 173),   # purple
    (230, 126, 34),   # orange
    (22, 160, 133),   # teal
]
BACKGROUND = (47, 49, 54)  # Discord's dark grey
PANEL = (64, 68, 75)
TEXT = (240, 240, 240)
MUTED = (185, 189, 196)  # 5.2 : 1 on PANEL, 6.9 : 1 on BACKGROUND (WCAG AA asks 4.5)
HIGHLIGHT = (250, 210, 60)


class _Font(ImageFont.FreeTypeFont):
    """A bundled font that remembers what it rendered and measured (:func:`font`).

    A picture redrawn at every move, or the frames of a replay's summary, draws the same lines again
    and again (a Limit board's 40 cell names, its score rows): rendering one through the text layout
    and FreeType costs 0.1-0.2 ms, about 0.7 s of the 27 pictures of a 4-player Limit summary. The
    coverage of a line depends only on the font and the arguments (the text, the anchor, the stroke,
    the fraction of a pixel it starts at): a remembered one is the very same pixels. Pillow's
    ``ImageDraw`` only reads it (a colour font's ``RGBA`` rendering, which it changes, is not kept)."""

    def getmask2(self, text, mode="", *args, **kwargs):  # type: ignore[no-untyped-def, override]
        if mode != "RGBA":
            try:
                return _rendered(self, text, mode, args, tuple(sorted(kwargs.items())))
            except TypeError:  # an argument that does not hash (a list of features): rendered afresh
                pass
        return super().getmask2(text, mode, *args, **kwargs)

    def getbbox(self, text, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        try:
            return _measured(self, "getbbox", text, args, tuple(sorted(kwargs.items())))
        except TypeError:
            return super().getbbox(text, *args, **kwargs)

    def getlength(self, text, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        try:
            return _measured(self, "getlength", text, args, tuple(sorted(kwargs.items())))
        except TypeError:
            return super().getlength(text, *args, **kwargs)


@lru_cache(maxsize=4096)
def _rendered(fnt: _Font, text, mode: str, args: tuple, kwargs: tuple):  # type: ignore[no-untyped-def]
    return ImageFont.FreeTypeFont.getmask2(fnt, text, mode, *args, **dict(kwargs))


@lru_cache(maxsize=8192)
def _measured(fnt: _Font, what: str, text, args: tuple, kwargs: tuple):  # type: ignore[no-untyped-def]
    return getattr(ImageFont.FreeTypeFont, what)(fnt, text, *args, **dict(kwargs))


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font (Bitstream Vera licence, data/fonts/LICENSE-DejaVu.txt); it remembers
    the lines it rendered and measured (:class:`_Font`)."""
    if mono:
        name = "DejaVuSansMono-Bold.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return _Font(str(FONTS / name), size)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


#: The contrast every text keeps with what is behind it (WCAG AA asks 4.5 : 1; a margin for the
#: antialiased edges of what lies behind).
MIN_CONTRAST = 4.6


@lru_cache(maxsize=1024)
def legible(colour: tuple[int, int, int], behind: tuple[int, int, int],
            ratio: float = MIN_CONTRAST) -> tuple[int, int, int]:
    """``colour`` (a seat's, a category's) as a text colour on ``behind``: itself when it already
    contrasts ``ratio`` : 1 with it, else the nearest tint (towards white on a dark ground, towards
    black on a light one) that does."""
    colour, behind = tuple(colour[:3]), tuple(behind[:3])
    if contrast(colour, behind) >= ratio:
        return colour  # type: ignore[return-value]
    target = (255, 255, 255) if luminance(behind) < 0.18 else (0, 0, 0)
    for k in range(1, 21):
        mixed = tuple(round(c + (t - c) * k / 20) for c, t in zip(colour, target, strict=True))
        if contrast(mixed, behind) >= ratio:
            return mixed  # type: ignore[return-value]
    return target  # type: ignore[return-value]


def halo_for(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The outline (``stroke_fill``) that sets a text in ``colour`` apart: black or white, the one
    it contrasts more with."""
    return (0, 0, 0) if contrast(colour, (0, 0, 0)) >= contrast(colour, (255, 255, 255)) else (255, 255, 255)


#: While a test records (see :func:`recording_text`): every text drawn, as a :class:`TextRun`.
_recorded: list[TextRun] | None = None

#: ``LUDIBOT_PICTURE_TEXTS=<directory>`` (end-to-end tests only): every picture the process encodes
#: leaves ``<sha256 of its bytes>.json`` there, the texts drawn on it (each thread's texts since its
#: previous picture), so a test can read the words of the pictures the bot posted. Unset (always, in
#: production) it costs nothing: the drawing reports texts only when ``_recorded`` is a list.
_texts_dir: Path | None = Path(os.environ["LUDIBOT_PICTURE_TEXTS"]) if os.environ.get("LUDIBOT_PICTURE_TEXTS") else None
_texts_of_thread = threading.local()
if _texts_dir is not None:
    _recorded = []  # a switch only: the texts go to each thread's own list


def _thread_texts() -> list[str]:
    texts = getattr(_texts_of_thread, "texts", None)
    if texts is None:
        texts = _texts_of_thread.texts = []
    return texts


def save_picture_texts(data: bytes) -> None:
    """``LUDIBOT_PICTURE_TEXTS``: record the texts this thread drew since its previous picture as
    those of ``data`` (a PNG, or an animation drawn from frames); then start afresh."""
    if _texts_dir is None:
        return
    texts = _thread_texts()
    name = hashlib.sha256(data).hexdigest()
    tmp = _texts_dir / f"{name}.{os.getpid()}.{threading.get_ident()}.tmp"
    tmp.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, _texts_dir / f"{name}.json")
    texts.clear()


def luminance(colour: Sequence[int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@dataclass
class TextRun:
    """One text as drawn, from the drawing's own data (tests only, see :func:`recording_text`).

    ``size``: the font's em size in px of the finished picture (a supersampled drawing is reduced
    by its ``scale``): CSS's font size. ``ink``: the height of the glyphs' box in those px.
    ``fill``: the text's colour. ``behind``: the colours the glyphs cover, sampled from the
    picture drawn on just before the text is drawn, with how many of the glyphs' pixels each lies
    under (a halo, ``stroke_fill``, is what stands behind a stroked text). ``contrast``: the WCAG
    ratio the glyphs keep against what is behind them for 90 % of their pixels. ``covered``: the
    share of the glyphs' pixels later drawings changed (set when the picture is encoded). ``halo``
    and ``bare_contrast``: see below.
    """

    text: str
    size: float
    ink: float
    fill: tuple[int, int, int]
    behind: list[tuple[int, tuple[int, int, int]]]
    contrast: float
    box: tuple[int, int, int, int]
    covered: float = 0.0
    #: a stroked text: its halo's width in px of the finished picture, and the contrast its glyphs
    #: would keep without it (against the picture under them), for a halo too thin to count
    halo: float = 0.0
    bare_contrast: float = 0.0


def _rgb_of(img: Image.Image, fill) -> tuple[int, int, int]:
    """A ``fill`` as drawn on ``img``: an RGB triple (a palette index, a name or a translucent
    colour resolved)."""
    if fill is None:
        fill = (255, 255, 255)
    if isinstance(fill, str):
        fill = ImageColor.getrgb(fill)
    if isinstance(fill, int):
        if img.mode == "P":
            pal = img.getpalette() or []
            return tuple(pal[3 * fill:3 * fill + 3])  # type: ignore[return-value]
        return (fill, fill, fill)
    return tuple(fill[:3])  # type: ignore[return-value]


def _at_least(img: Image.Image, at: int) -> Image.Image:
    """An ``L`` image: 255 where ``img`` (``L``) is at least ``at``, else 0. (``Image.point`` would
    build and round its 256-entry table in Python for each of the tests' tens of thousands of texts:
    a quarter of the gallery's time. Converting to bilevel without dither keeps the values from 128
    up; a constant shifts the threshold there.)"""
    if at != 128:
        shift = Image.new("L", img.size, abs(at - 128))
        img = ImageChops.subtract(img, shift) if at > 128 else ImageChops.add(img, shift)
    return img.convert("1", dither=Image.Dither.NONE).convert("L")


def _sample(img: Image.Image, box: tuple[int, int, int, int], mask: Image.Image,
            fill: tuple[int, int, int], halo: tuple[int, int, int] | None) -> tuple[list, float]:
    """What stands behind the pixels of ``mask`` (the glyphs' coverage, placed at ``box`` on
    ``img``) and the contrast ``fill`` keeps against it for 90 % of them."""
    core = _at_least(mask, 128)
    if halo is not None:
        n = core.histogram()[255]
        behind = [(n, halo)]
    else:
        region = img.crop(box)
        if region.mode == "RGBA":
            alpha = region.getchannel("A")
            region = region.convert("RGB")
            core = Image.composite(core, Image.new("L", core.size, 0), _at_least(alpha, 128))
        else:
            region = region.convert("RGB")
        region.putalpha(core)
        counts: dict[tuple[int, int, int], int] = {}
        for n, (r, g, b, a) in region.getcolors(region.width * region.height) or []:
            if a:
                counts[(r, g, b)] = counts.get((r, g, b), 0) + n
        behind = sorted(((n, c) for c, n in counts.items()), reverse=True)
    total = sum(n for n, _ in behind)
    if not total:  # drawn on nothing (a transparent layer): nothing known behind it
        return [], 1.0
    seen, worst = 0, 21.0
    for ratio, n in sorted((contrast(fill, c), n) for n, c in behind):
        seen += n
        worst = ratio
        if seen > total * 0.1:
            break
    return behind, worst


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw`` that reports every text it draws to :func:`recording_text`.

    Every renderer draws through it (``canvas`` or :func:`draw_on`), so the phone-readability
    test sees every glyph drawn, its box and its colours. ``scale`` is the supersampling factor
    of the image drawn on (it is reduced by that factor afterwards): sizes are recorded as they
    end up in the picture.
    """

    def __init__(self, im: Image.Image, mode: str | None = None, scale: int = 1) -> None:
        super().__init__(im, mode)
        self.image = im
        self.scale = scale

    def record_text(self, text, font, xy=None, fill=None, anchor=None, stroke_width: float = 0,
                    stroke_fill=None) -> None:
        """Report ``text`` in ``font`` to :func:`recording_text`, drawn at ``xy`` in ``fill``
        (for a text drawn other than by ``text``, call it just before pasting the text)."""
        if _recorded is None or not text or not str(text).strip() or "\n" in str(text):
            return
        if _texts_dir is not None:  # LUDIBOT_PICTURE_TEXTS: the words only
            _thread_texts().append(str(text))
            return
        size = (getattr(font, "size", None) or 10) / self.scale
        colour = _rgb_of(self.image, fill)
        if xy is None:
            _recorded.append(TextRun(str(text), size, size, colour, [], 1.0, (0, 0, 0, 0)))
            return
        box = tuple(int(v) for v in self.textbbox(xy, text, font=font, anchor=anchor))
        box = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)
        mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
        ImageDraw.Draw(mask).text((xy[0] - box[0], xy[1] - box[1]), text, fill=255, font=font, anchor=anchor)
        ink = mask.getbbox()
        if ink is None:
            return
        halo = _rgb_of(self.image, stroke_fill) if stroke_width and stroke_fill is not None else None
        behind, ratio = _sample(self.image, box, mask, colour, halo)
        run = TextRun(str(text), size, (ink[3] - ink[1]) / self.scale, colour, behind, ratio, box)
        if halo is not None:
            run.halo = stroke_width / self.scale
            run.bare_contrast = _sample(self.image, box, mask, colour, None)[1]
        _recorded.append(run)
        _drawn_on.setdefault(id(self.image), (self.image, []))[1].append((run, mask))

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
        self.record_text(text, font, xy, fill, anchor, kwargs.get("stroke_width", 0), kwargs.get("stroke_fill"))
        return super().text(xy, text, fill, font, anchor, *args, **kwargs)


#: While a test records: the texts drawn on each image (by id, the image kept alive), to find the
#: ones a later drawing covered once the picture is encoded.
_drawn_on: dict[int, tuple[Image.Image, list[tuple[TextRun, Image.Image]]]] = {}


def _check_covered(img: Image.Image) -> None:
    """Mark each text drawn on ``img`` with the share of its glyphs' pixels no longer in its colour."""
    entry = _drawn_on.get(id(img))
    if entry is None or entry[0] is not img:
        return
    for run, mask in entry[1]:
        region = img.crop(run.box).convert("RGB")
        core = _at_least(mask, 250)
        r, g, b = ImageChops.difference(region, Image.new("RGB", region.size, run.fill)).split()
        diff = ImageChops.lighter(ImageChops.lighter(r, g), b)  # the largest channel difference
        changed = ImageChops.multiply(_at_least(diff, 61), core)
        n_core = core.histogram()[255]
        if n_core:
            run.covered = changed.histogram()[255] / n_core


def draw_on(img: Image.Image, mode: str | None = None, scale: int = 1) -> Draw:
    return Draw(img, mode, scale)


@contextmanager
def recording_text() -> Iterator[list[TextRun]]:
    """Collect a :class:`TextRun` for everything drawn inside the block (tests only)."""
    global _recorded
    previous, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = previous
        _drawn_on.clear()


def text_mask(text: str, fnt: ImageFont.FreeTypeFont, anchor: str | None = None) -> tuple[Image.Image | None, int, int]:
    """The coverage of ``text`` (one line) as ``Draw.text`` renders it at an integer point, as an
    ``L`` image, and its offset from that point: ``(mask, dx, dy)`` (``None`` for blank text).

    Rendering a line through the text layout and FreeType costs 0.1-0.2 ms; a picture redrawn at
    every move repeats most of its lines, so a renderer can keep the mask (in a bounded cache of
    its own) and paste it: drawn on a blank ``L`` image with ink 255, the pixels are the coverage.
    """
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
    ox, oy = 2 - min(left, 0), 2 - min(top, 0)
    layer = Image.new("L", (ox + max(right, 0) + 2, oy + max(bottom, 0) + 2), 0)
    ImageDraw.Draw(layer).text((ox, oy), text, fill=255, font=fnt, anchor=anchor)
    box = layer.getbbox()
    if box is None:
        return None, 0, 0
    return layer.crop(box), box[0] - ox, box[1] - oy


def canvas(width: int, height: int, colour=BACKGROUND, scale: int = 1) -> tuple[Image.Image, Draw]:
    """A new picture and its drawer (``scale``: drawn at that multiple, reduced afterwards)."""
    img = Image.new("RGB", (width, height), colour)
    return img, Draw(img, scale=scale)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def words(text: str) -> list[str]:
    """The words a line may break between: split at ordinary spaces only, never at a no-break space
    (French puts U+00A0 / U+202F before « : », « ; », « ! », « ? » so that a line never starts with one)."""
    return [w for w in text.replace("\t", " ").replace("\n", " ").split(" ") if w]


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, shortened with an ellipsis until it is at most ``width`` px wide in ``fnt``."""
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str,
                 fnt: ImageFont.FreeTypeFont, fill=TEXT) -> None:
    draw.text(centre, text, font=fnt, fill=fill, anchor="mm")


@dataclass(frozen=True)
class KnownPalette:
    """A palette known in advance (:func:`ramp_palette`): a picture drawn in it (mode ``P``, its
    pieces mapped once with :meth:`map` and cached) needs no palette computed nor pixel mapped
    when it is encoded.

    ``colours`` are the 256 entries (flat RGB). Pillow maps a pixel to a palette through a cache
    of 4×4×4 colour cells, each holding the entry nearest to the cell's lowest corner: a flat
    colour can then go to a neighbouring entry (the panels' grey to a point of a text ramp).
    ``search`` holds every entry moved to the corner of its cell (no two entries share a cell),
    so a pixel of an entry's exact colour always finds that entry; the picture is then given
    ``colours``.
    """

    search: Image.Image
    colours: tuple[int, ...]

    def map(self, img: Image.Image) -> Image.Image:
        """``img`` (RGB) in this palette: every pixel to its entry (its own colour when it is one)."""
        out = img.quantize(palette=self.search, dither=Image.Dither.NONE)
        out.putpalette(self.colours)
        return out

    def index(self, colour: tuple[int, int, int]) -> int:
        """The entry of ``colour`` (to draw in it on a picture already in this palette)."""
        for i in range(256):
            if self.colours[3 * i:3 * i + 3] == tuple(colour):
                return i
        raise ValueError(f"{colour} is not in the palette")


def ramp_palette(flat: Sequence[tuple[int, int, int]],
                 ramps: Sequence[tuple[tuple[int, int, int], tuple[int, int, int]]]) -> KnownPalette:
    """A palette known in advance for a picture drawn in ``flat`` colours only, whose antialiased
    edges (text) blend a colour ``fg`` over ``bg`` for each ``(fg, bg)`` of ``ramps``: the flat
    colours, then the entries left shared among the ramps (more steps for a longer ramp).
    Each text must lie on one flat colour (its ramp's ``bg``): only then are its edges in it."""
    entries: dict[tuple[int, ...], tuple[int, ...]] = {}  # cell corner -> colour, first one wins

    def add(colour: tuple[int, ...]) -> None:
        entries.setdefault(tuple(v & ~3 for v in colour), tuple(colour))

    for colour in flat:
        add(tuple(colour))
    room = 256 - len(entries)
    lengths = [max(abs(a - b) for a, b in zip(fg, bg, strict=True)) or 1 for fg, bg in ramps]
    for (fg, bg), length in zip(ramps, lengths, strict=True):
        steps = max(1, room * length // sum(lengths))
        for k in range(1, steps + 1):
            add(tuple(round(b + (f - b) * k / (steps + 1)) for f, b in zip(fg, bg, strict=True)))
    cells = list(entries)[:256]
    cells += [cells[0]] * (256 - len(cells))  # a repeated entry never wins: the first one does
    search = Image.new("P", (1, 1))
    search.putpalette([v for cell in cells for v in cell])
    return KnownPalette(search, tuple(v for cell in cells for v in entries[cell]))


#: set by :mod:`render.animation` while it draws frames: ``encode_png`` then hands back the picture
#: itself (no palette, no PNG, no decoding afterwards). A context variable: a drawing thread sets its own.
RAW: ContextVar[bool] = ContextVar("render_raw", default=False)
#: set by :mod:`render.animation` while it draws frames: the frames' width (px). A renderer that can lay its
#: picture out that narrow itself (Limit's boards: ``render.limit.render_final``) does; the animation then has
#: nothing to scale (scaling a tall picture down cost as much as drawing it, and blurred its text: issue 27).
FRAME_WIDTH: ContextVar[int | None] = ContextVar("render_frame_width", default=None)


def encode_png(img: Image.Image, palette: bool = True) -> bytes:
    """The one PNG encoder of every picture: a 256-colour adaptive palette at zlib level 1.

    These pictures are flat colours plus antialiased text and a few soft shades: a palette keeps
    them visually identical (tests/render/test_encoding.py bounds the difference) at about half
    the bytes. The palette is chosen on the picture at half size (a quarter of the pixels: the
    same colours, twice as fast), then every pixel takes its nearest entry. No dithering (it
    would speckle the antialiased edges), no ``optimize`` (slow for a few percent). A picture
    with wide smooth gradients (more shades than a palette holds) passes ``palette=False``. A
    picture drawn in a palette known in advance (mode ``P``, see :class:`KnownPalette`) is saved
    as it is.
    """
    if _recorded is not None:
        if _texts_dir is not None and not RAW.get():
            data = _encode(img, palette)
            save_picture_texts(data)
            return data
        _check_covered(img)
    if RAW.get():  # an animation frame: the picture itself, not its PNG (render/animation.py)
        return img  # type: ignore[return-value]
    return _encode(img, palette)


def _encode(img: Image.Image, palette: bool) -> bytes:
    if img.mode not in ("RGB", "P", "L"):
        img = img.convert("RGB")
    if img.mode == "RGB" and palette:
        sample = img.reduce(2) if img.width >= 64 and img.height >= 64 else img
        colours = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        img = img.quantize(palette=colours, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
