"""Drawing helpers shared by every renderer: bundled fonts, palette, PNG output.

Renderers are pure functions ``view -> PNG bytes``. Pictures are sized for a
phone screen (about 800-1000 px wide) and kept well under Discord's limits.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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
MUTED = (170, 174, 181)
HIGHLIGHT = (250, 210, 60)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font (Bitstream Vera licence, data/fonts/LICENSE-DejaVu.txt)."""
    if mono:
        name = "DejaVuSansMono-Bold.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


#: While a test records (see :func:`recording_text`): one ``(font size in px, text)`` per drawn text.
_recorded: list[tuple[float, str]] | None = None


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw`` that reports the size of every text it draws to :func:`recording_text`.

    Every renderer draws through it (``canvas`` or :func:`draw_on`), so the phone-readability
    test sees every glyph drawn. ``scale`` is the supersampling factor of the image drawn on
    (it is reduced by that factor afterwards): sizes are recorded as they end up in the picture.
    """

    def __init__(self, im: Image.Image, mode: str | None = None, scale: int = 1) -> None:
        super().__init__(im, mode)
        self.scale = scale

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        if _recorded is not None and text and str(text).strip():
            size = getattr(font, "size", None) or 10
            _recorded.append((size / self.scale, str(text)))
        return super().text(xy, text, fill, font, *args, **kwargs)


def draw_on(img: Image.Image, mode: str | None = None, scale: int = 1) -> Draw:
    return Draw(img, mode, scale)


@contextmanager
def recording_text() -> Iterator[list[tuple[float, str]]]:
    """Collect ``(font size, text)`` of everything drawn inside the block (tests only)."""
    global _recorded
    previous, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = previous


def canvas(width: int, height: int, colour=BACKGROUND, scale: int = 1) -> tuple[Image.Image, Draw]:
    """A new picture and its drawer (``scale``: drawn at that multiple, reduced afterwards)."""
    img = Image.new("RGB", (width, height), colour)
    return img, Draw(img, scale=scale)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


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


def encode_png(img: Image.Image, palette: bool = True) -> bytes:
    """The one PNG encoder of every picture: a 256-colour adaptive palette at zlib level 1.

    These pictures are flat colours plus antialiased text and a few soft shades: a palette keeps
    them visually identical (tests/render/test_encoding.py bounds the difference) at about half
    the bytes. The palette is chosen on the picture at half size (a quarter of the pixels: the
    same colours, twice as fast), then every pixel takes its nearest entry. No dithering (it
    would speckle the antialiased edges), no ``optimize`` (slow for a few percent). A picture
    with wide smooth gradients (more shades than a palette holds) passes ``palette=False``.
    """
    if img.mode not in ("RGB", "P", "L"):
        img = img.convert("RGB")
    if img.mode == "RGB" and palette:
        sample = img.reduce(2) if img.width >= 64 and img.height >= 64 else img
        colours = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        img = img.quantize(palette=colours, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
