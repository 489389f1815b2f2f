"""Drawing helpers shared by every renderer: bundled fonts, palette, PNG output.

Renderers are pure functions ``view -> PNG bytes``. Pictures are sized for a
phone screen (about 800-1000 px wide) and kept well under Discord's limits.
"""

from __future__ import annotations

import io
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


def canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str,
                 fnt: ImageFont.FreeTypeFont, fill=TEXT) -> None:
    draw.text(centre, text, font=fnt, fill=fill, anchor="mm")


def to_png(img: Image.Image) -> bytes:
    """Encode as PNG (fast settings: Discord re-compresses anyway)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
