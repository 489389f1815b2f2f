"""One encoder for every picture (render.common.encode_png): lighter, same size, same look."""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import common
from tests.render import gallery

RENDER_MODULES = ["armada", "leaderboard", "limit", "ludime", "ludix", "lutinades", "ranta", "tectonic"]


def _kind(name: str) -> str:
    parts = name.split("-")
    role = "private" if "private" in name else parts[-1] if parts[-1] not in ("fr", "en") else \
        "final" if "-final-" in name else "public"
    return f"{parts[0]}-{role}"


@pytest.fixture(scope="module")
def captured():
    """For one picture of each kind: the image handed to the encoder, and the bytes it made."""
    shots = gallery.first_of_each_kind([s for s in gallery.all_shots() if not s.summary], _kind)
    seen: list[Image.Image] = []
    real = common.encode_png

    def spy(img):
        seen.append(img.copy())
        return real(img)

    mp = pytest.MonkeyPatch()
    for name in RENDER_MODULES:
        mp.setattr(importlib.import_module(f"render.{name}"), "encode_png", spy)
    out = []
    try:
        for shot in shots:
            seen.clear()
            data = shot.draw()
            if data:
                assert len(seen) == 1, f"{shot.name}: the picture must go through encode_png once"
                out.append((shot.name, seen[0], data))
    finally:
        mp.undo()
    assert len(out) >= 12
    return out


def _old_png(img: Image.Image) -> bytes:
    """The PNG the encoder made before the palette: RGB at zlib level 3 (a picture drawn in a
    palette of its own, like Ludix's table, is compared with its RGB rendition too)."""
    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def test_every_renderer_encodes_through_encode_png_lighter_and_same_size(captured):
    for name, img, data in captured:
        decoded = Image.open(io.BytesIO(data))
        decoded.load()
        assert decoded.size == img.size, name
        assert decoded.format == "PNG" and decoded.mode == "P", name
        assert len(data) <= len(_old_png(img)), name


def test_pictures_keep_their_look(captured):
    for name, img, data in captured:
        back = Image.open(io.BytesIO(data)).convert("RGB")
        diff = ImageStat.Stat(ImageChops.difference(img.convert("RGB"), back)).mean
        assert max(diff) < 2.0, f"{name}: mean difference {diff}"  # invisible: see the PR pictures


def test_antialiased_text_keeps_its_look_and_gradients_can_stay_exact():
    img = Image.new("RGB", (600, 200), common.BACKGROUND)
    draw = ImageDraw.Draw(img)
    for x in range(0, 300):  # a soft shade, like the panels' highlights
        draw.line((x, 0, x, 60), fill=(60 + x // 10, 60 + x // 12, 70 + x // 8))
    for i, colour in enumerate(common.SEAT_COLOURS):
        draw.text((20 + 80 * i, 80), "Aé", font=common.font(28, bold=True), fill=colour)
    draw.text((20, 130), "Fin de la partie — 264 (+80)", font=common.font(36, bold=True), fill=common.TEXT)
    back = Image.open(io.BytesIO(common.encode_png(img))).convert("RGB")
    diff = ImageChops.difference(img, back)
    assert max(ImageStat.Stat(diff).mean) < 2.0
    assert max(hi for _, hi in diff.getextrema()) < 48  # no edge pixel far off its colour

    gradient = Image.linear_gradient("L").resize((600, 200)).convert("RGB")
    exact = Image.open(io.BytesIO(common.encode_png(gradient, palette=False))).convert("RGB")
    assert ImageChops.difference(gradient, exact).getbbox() is None
