"""Pictures readable on a phone (issue 18): a Discord phone client shows a picture about 360 px
wide, and every text in it must then be at least 11 px high.

Every picture of the gallery (every game's public and private pictures from real states with long
names, big scores, full boards and the most players; the community leaderboards) is drawn while
``render.common`` records the size of every text drawn; a size ``s`` in a picture ``w`` px wide
shows ``s * 360 / w`` px high on a phone.
"""

from __future__ import annotations

import importlib
import io
from collections import defaultdict

import pytest
from PIL import Image

from render import common
from tests.render import gallery

PHONE_WIDTH = 360
MIN_PX = 11
RENDER_MODULES = ["armada", "leaderboard", "limit", "ludime", "ludix", "lutinades", "ranta", "tectonic"]

#: Picture kinds not re-laid out yet (the lead's list of what remains): each is still checked,
#: and the test fails as soon as one of them passes, so the list cannot go stale.
NOT_YET: set[str] = set()


def kind_of(name: str) -> str:
    parts = name.split("-")
    if parts[0] in ("leaderboard", "records"):
        return parts[0]
    for role in ("preview", "between-games", "previous-round"):
        if name.endswith(role):
            return f"{parts[0]}-{role}"
    if "-final-" in name:
        return f"{parts[0]}-final"
    return f"{parts[0]}-{'private' if '-private' in name else 'public'}"


def _clear_caches() -> None:
    """Cached tiles and layers would skip their drawing (and its recording)."""
    for name in RENDER_MODULES:
        for value in vars(importlib.import_module(f"render.{name}")).values():
            if hasattr(value, "cache_clear") and value is not common.font:
                value.cache_clear()


@pytest.fixture(scope="module")
def smallest() -> dict[str, tuple[float, str, str]]:
    """Per picture kind: the smallest text as seen on a phone (px), the text, the picture."""
    worst: dict[str, tuple[float, str, str]] = defaultdict(lambda: (float("inf"), "", ""))
    count = 0
    for shot in gallery.all_shots():
        _clear_caches()
        with common.recording_text() as drawn:
            data = shot.draw()
        if not data:
            continue
        count += 1
        width = Image.open(io.BytesIO(data)).width
        assert drawn, f"{shot.name}: no text recorded (does it draw through render.common?)"
        for size, text in drawn:
            seen = size * PHONE_WIDTH / width
            if seen < worst[kind_of(shot.name)][0]:
                worst[kind_of(shot.name)] = (seen, text, shot.name)
    assert count > 200
    return dict(worst)


def test_the_gallery_covers_every_picture_kind(smallest):
    expected = {"leaderboard", "records"} | {f"{k}-public" for k in ("armada", "limit", "ludime", "ludix",
                                                                      "lutinades", "ranta", "tectonic")}
    expected |= {"ludime-private", "limit-private", "lutinades-private", "ranta-private", "ranta-preview",
                 "limit-between-games", "armada-previous-round", "limit-final", "ranta-final"}
    assert expected <= set(smallest)


def test_every_text_is_readable_at_phone_width(smallest):
    too_small = {kind: v for kind, v in smallest.items() if v[0] < MIN_PX and kind not in NOT_YET}
    assert not too_small, "\n".join(f"{k}: {v[1]!r} {v[0]:.1f} px in {v[2]}" for k, v in sorted(too_small.items()))


def test_the_not_yet_list_is_current(smallest):
    fixed = sorted(kind for kind in NOT_YET if kind in smallest and smallest[kind][0] >= MIN_PX)
    assert not fixed, f"now readable, remove from NOT_YET: {fixed}"
