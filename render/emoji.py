"""Application emojis (issue 24 part 6): the small glyphs a message, a button or a select option
shows where a glyph says more than a word — a Ludix die face, a Range ta Ludothèque die, a Ludime
letter card, a Take it to the Limit line value, a Lutinades gesture.

Pure: ``(kind, key) -> PNG bytes``, 128 × 128 RGBA (Discord shows an emoji at about 20 px in a
line of text and on a button, 48 px alone): one big glyph, bold strokes, no fine detail, drawn in
the bundled font, on a shape of its own with a transparent corner (readable on the dark and the
light theme alike). The bytes are deterministic (same picture, same PNG) and :func:`digest` names
the picture itself (its pixels, not its encoding), so the bot can tell a changed design from a
reused one (``bot/emojis.py`` versions the emoji's name with it).
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.limit.tiles import COLOURS, RULE, VALUES
from render.common import contrast, font
from render.lutinades import draw_gesture

SIZE = 128
#: drawn at 4 × and reduced: smooth edges at 128 px
_SCALE = 4

INK = (30, 30, 30)
OUTLINE = (30, 30, 30)
DIE_FACE = (250, 247, 240)  # render/ludix.py's die
CARD_FACE = (255, 236, 190)  # a letter card's cream
CARD_EDGE = (150, 100, 40)
WOOD = (120, 78, 40)  # a lutin's signpost wood
WOOD_INK = (255, 244, 220)

LUDIX_FACES = ("L", "X", "V", "I")
RANTA_FACES = tuple(str(n) for n in range(1, 7))
LUDIME_LETTERS = tuple(chr(c) for c in range(ord("A"), ord("Z") + 1))
LIMIT_VALUES = tuple(str(v) for line in VALUES for v in sorted(line))
GESTURES = ("up", "down", "horizontal", "small")

#: every emoji the bot uses: kind -> its keys (a key is letters and digits only)
CATALOG: dict[str, tuple[str, ...]] = {
    "ludix": LUDIX_FACES,
    "ranta": RANTA_FACES,
    "ludime": LUDIME_LETTERS,
    "limit": tuple(sorted(LIMIT_VALUES, key=int)),
    "lutinades": GESTURES,
}

#: pips of a d6 face on a 3 × 3 grid (column, row)
_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
         5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


def _limit_colour(value: int) -> tuple[int, int, int]:
    for values, colours in zip(VALUES, COLOURS, strict=True):
        if value in values:
            return tuple(RULE["rgb"][colours[values.index(value)]])  # type: ignore[return-value]
    raise KeyError(value)


def _ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with ``colour``."""
    return INK if contrast(INK, colour) >= contrast((255, 255, 255), colour) else (255, 255, 255)


def _glyph(draw: ImageDraw.ImageDraw, text: str, size: int, fill, *, stroke: int = 0, stroke_fill=None) -> None:
    s = _SCALE
    draw.text((SIZE * s / 2, SIZE * s / 2), text, font=font(size * s, bold=True), fill=fill, anchor="mm",
              stroke_width=stroke * s, stroke_fill=stroke_fill)


def _tile(draw: ImageDraw.ImageDraw, fill, outline, radius: int = 22, width: int = 7, inset: int = 4) -> None:
    s = _SCALE
    draw.rounded_rectangle((inset * s, inset * s, (SIZE - inset) * s - 1, (SIZE - inset) * s - 1),
                           radius=radius * s, fill=fill, outline=outline, width=width * s)


def _draw(kind: str, key: str) -> Image.Image:
    if key not in CATALOG.get(kind, ()):
        raise KeyError(f"no {kind} emoji {key!r}")
    s = _SCALE
    img = Image.new("RGBA", (SIZE * s, SIZE * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if kind == "ludix":  # the die of the Ludix picture: ivory, its Roman numeral in ink
        _tile(draw, DIE_FACE, OUTLINE)
        _glyph(draw, key, 92, INK)
    elif kind == "ranta":  # a white d6, its pips
        _tile(draw, DIE_FACE, OUTLINE)
        r, step = 12 * s, 34 * s
        for cx, cy in _PIPS[int(key)]:
            x, y = SIZE * s / 2 + (cx - 1) * step, SIZE * s / 2 + (cy - 1) * step
            draw.ellipse((x - r, y - r, x + r, y + r), fill=INK)
    elif kind == "ludime":  # a letter card: cream, a brown edge, the letter in ink
        _tile(draw, CARD_FACE, CARD_EDGE, radius=16)
        _glyph(draw, key, 96 if key not in "MW" else 84, INK)
    elif kind == "limit":  # a line value: the line's colour (as on the tiles), the number in black or white
        colour = _limit_colour(int(key))
        _tile(draw, colour, OUTLINE if colour != (15, 15, 15) else (200, 200, 200))
        ink = _ink_on(colour)
        _glyph(draw, key, 88 if len(key) == 1 else 74, ink)
    elif kind == "lutinades":  # a gesture as the table picture draws it, pale on the signpost's wood
        _tile(draw, WOOD, OUTLINE)
        draw_gesture(draw, SIZE * s / 2, SIZE * s / 2, 92 * s, key, None, fill=WOOD_INK)
    return img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def _drawn(kind: str, key: str) -> tuple[Image.Image, str]:
    img = _draw(kind, key)
    return img, hashlib.sha256(f"{img.mode}{img.size}".encode() + img.tobytes()).hexdigest()


def render(kind: str, key: str) -> bytes:
    """The emoji's picture: a 128 × 128 RGBA PNG (deterministic bytes). ``KeyError`` for an
    emoji that is not in :data:`CATALOG`."""
    buf = io.BytesIO()
    _drawn(kind, key)[0].save(buf, format="PNG", optimize=False, compress_level=9)
    return buf.getvalue()


def digest(kind: str, key: str) -> str:
    """A short hex digest of the emoji's pixels (not of their encoding): it changes exactly when
    the picture does."""
    return _drawn(kind, key)[1][:6]


def everything() -> list[tuple[str, str]]:
    """Every (kind, key) of :data:`CATALOG`, in a stable order."""
    return [(kind, key) for kind, keys in CATALOG.items() for key in keys]
