"""Pictures a phone can read (issues 18, 24 and 36): Discord shows a picture at most as wide as the
place its card gives it on a phone 390 CSS px wide: the card's width less its padding, divided by
the columns of the media gallery it sits in (:func:`card_widths`: two pictures in one gallery are
two halves side by side). A picture ``W`` px wide shown ``w`` CSS px wide is scaled by ``w / W``
(a narrower one is shown as it is). Every text in every picture must then be at least 11 CSS px high
(its font size, as CSS counts it) and contrast at least 4.5 : 1 (WCAG AA) with what is behind it,
and stay visible (no later drawing covers it).

The measure comes from the renderers' own drawing, not from the eye: every picture of the gallery
(every game's public and private pictures from real states, start to end, fewest and most players,
every variant, French and English, with long names; the community leaderboards) is drawn while
``render.common`` records a :class:`render.common.TextRun` for every text: its font size, its
glyphs' box, its colour, and the colours its glyphs cover in the picture just before it is drawn
(the halo of a stroked text); when the picture is encoded, how much of each text later drawings
covered.
"""

from __future__ import annotations

import io
from collections import defaultdict

import pytest
from PIL import Image, ImageDraw

from render import common
from tests.render import gallery

PHONE_WIDTH = 390
#: what a card takes of the phone's width around its pictures: its accent bar and its padding on both
#: sides (4 + 10 + 8 CSS px, as the sandbox's card draws it on a phone, sandbox/static/style.css)
CARD_PADDING = 22
MIN_PX = 11
MIN_CONTRAST = 4.5
MIN_HALO = 1.0  # CSS px: a thinner outline does not set a text apart from what is behind it
MAX_COVERED = 0.15  # share of a text's glyph pixels a later drawing may change (antialiased edges)


def kind_of(name: str) -> str:
    parts = name.split("-")
    if parts[0] in ("leaderboard", "records"):
        return parts[0]
    for role in ("replay", "summary"):  # the replay viewer's frames, the animated summary's
        if f"-{role}-" in name:
            return f"{parts[0]}-{role}"
    for role in ("preview", "between-games", "previous-round"):
        if name.endswith(role):
            return f"{parts[0]}-{role}"
    if "-final-" in name:
        return f"{parts[0]}-final"
    return f"{parts[0]}-{'private' if '-private' in name else 'public'}"


def phone_scale(width: int, shown: float = PHONE_WIDTH) -> float:
    """How much a picture ``width`` px wide is scaled on a phone where its card gives it ``shown``
    CSS px (never enlarged)."""
    return min(1.0, shown / width)


def mosaic(items: int) -> list[int]:
    """Discord's media gallery on a phone: how many columns share the row of each of its ``items``
    (1: the whole width; 2: two halves; 3: one half-width on the left, two stacked on the right;
    4: two by two; 5: two then three; 6: three by two; 7: one, then three by two; 8: two, then three
    by two; 9: three by three; 10: one, then three by three)."""
    rows = {1: [1], 2: [2], 3: [2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [1, 3, 3], 8: [2, 3, 3], 9: [3, 3, 3],
            10: [1, 3, 3, 3]}[items]
    if items == 3:
        return [2, 2, 2]
    return [cols for cols in rows for _ in range(cols)]


def card_widths(card) -> dict[str, float]:
    """The CSS px each picture of ``card`` (a :class:`bot.cards.Card`) is given on a 390 px phone, read
    from the components the card sends: the card's inner width divided by its gallery's columns."""
    from bot.cards import CONTAINER, MEDIA_GALLERY

    inner = PHONE_WIDTH - CARD_PADDING
    out: dict[str, float] = {}
    for top in card.components():
        children = top["components"] if top["type"] == CONTAINER else [top]
        for comp in children:
            if comp["type"] != MEDIA_GALLERY:
                continue
            urls = [item["media"]["url"].removeprefix("attachment://") for item in comp["items"]]
            for url, cols in zip(urls, mosaic(len(urls)), strict=True):
                out[url] = (inner - 4 * (cols - 1)) / cols  # 4 CSS px between two pictures of a row
    return out


def shown_width(name: str, part: str) -> float:
    """The CSS px the gallery's picture ``name`` (of the gallery's ``part``) is given by the card that shows it."""
    return card_widths(gallery.card_of(gallery.cards(part)[name]))[name]


def faults(runs: list[common.TextRun], width: int, shown: float = PHONE_WIDTH) -> list[str]:
    """Why each text of a picture ``width`` px wide, shown ``shown`` CSS px wide, is not readable."""
    scale = phone_scale(width, shown)
    out = []
    for run in runs:
        if run.size * scale < MIN_PX:
            out.append(f"{run.text!r} {run.size * scale:.1f} CSS px high")
        thin_halo = run.halo and run.halo * scale < MIN_HALO
        contrast = run.bare_contrast if thin_halo else run.contrast
        if contrast < MIN_CONTRAST:
            behind = run.behind[0][1] if run.behind and not thin_halo else "the picture, its halo too thin"
            out.append(f"{run.text!r} contrast {contrast:.2f} ({run.fill} on {behind})")
        if run.covered > MAX_COVERED:
            out.append(f"{run.text!r} {run.covered:.0%} covered by a later drawing")
    return out


@pytest.fixture(scope="module", params=list(gallery.PARTS))
def report(request) -> tuple[str, dict[str, list[str]]]:
    """The gallery's part (a parameter: each part is drawn in its own worker), and per picture kind:
    every fault found (with the picture's name)."""
    found: dict[str, list[str]] = defaultdict(list)
    shots = gallery.recorded_shots(request.param)
    for name, width, drawn in shots:
        assert drawn, f"{name}: no text recorded (does it draw through render.common?)"
        assert all(run.box != (0, 0, 0, 0) for run in drawn), f"{name}: a text recorded without its place"
        found[kind_of(name)] += [f"{name}: {f}" for f in faults(drawn, width, shown_width(name, request.param))]
    assert len(shots) > 20
    return request.param, dict(found)


GAMES = ("armada", "limit", "ludime", "ludix", "lutinades", "ranta", "tectonic")
#: every kind of picture the gallery must hold
EXPECTED_KINDS = ({"leaderboard", "records"} | {f"{k}-public" for k in GAMES}
                  | {"ludime-private", "limit-private", "lutinades-private", "ranta-private", "ranta-preview",
                     "limit-between-games", "armada-previous-round", "limit-final", "ranta-final"}
                  # every game's replay viewer frames and animated summary (its pictures and its ranking)
                  | {f"{k}-{role}" for k in GAMES for role in ("replay", "summary")})


def test_the_gallery_s_parts_draw_every_game_and_the_community_boards():
    """The parts share out every game of the gallery (each drawn by one part) and the community boards."""
    shares: dict[str, list[tuple[int, ...] | None]] = defaultdict(list)
    for units in gallery.PARTS.values():
        for kind, games in units:
            shares[kind].append(games)
    assert set(shares) == {*GAMES, "community"} == {*gallery.engines.available(), "community"}
    for kind, got in shares.items():
        if got == [None]:  # all of its games in one part
            continue
        drawn = sorted(i for games in got for i in games)
        assert drawn == list(range(len(gallery.games_of(kind)))), kind


def test_the_gallery_covers_every_picture_kind():
    """Every kind of picture is in the gallery's parts (named, not drawn: each part's tests draw it),
    each picture in one part only."""
    names = [shot.name for part in gallery.PARTS for shot in gallery.all_shots(part)]
    assert len(names) == len(set(names)) > 1000
    assert EXPECTED_KINDS <= {kind_of(name) for name in names}


def test_every_text_is_readable_at_phone_width(report):
    bad = {kind: v for kind, v in report[1].items() if v}
    assert not bad, "\n".join(f"{k} ({len(v)} faults): " + "; ".join(v[:4]) for k, v in sorted(bad.items()))


def tile_values(runs: list[common.TextRun]) -> list[common.TextRun]:
    """The values drawn on Take it to the Limit's tiles (digits in their ink on their outline)."""
    from render.limit import VALUE_HALO, VALUE_INK

    return [run for run in runs if run.text.isdigit() and run.fill == VALUE_INK and run.halo
            and run.behind and run.behind[0][1] == VALUE_HALO]


def value_faults(runs: list[common.TextRun], width: int, shown: float = PHONE_WIDTH) -> list[str]:
    """Issue 24's complaint was the digits' own height: on a picture ``width`` px wide shown ``shown``
    CSS px wide, each Limit tile value whose digits (their ink, not the font's em) are under 11 CSS px high."""
    scale = phone_scale(width, shown)
    return [f"{run.text!r} digits {run.ink * scale:.1f} CSS px high" for run in tile_values(runs)
            if run.ink * scale < MIN_PX]


@pytest.mark.parametrize("part", [part for part in gallery.PARTS if "limit" in gallery.kinds_of(part)])
def test_every_limit_tile_value_has_digits_11_css_px_high(part):
    """Placed tiles on every board, the tile to play, the final and between-games boards: the
    digits themselves (ink height), not only the font size, are 11 CSS px high at phone width."""
    kinds, counted, bad = set(), 0, []
    for name, width, runs in gallery.recorded_shots(part):
        values = tile_values(runs)
        if not name.startswith("limit-") or not values:
            continue
        kinds.add(kind_of(name))
        counted += len(values)
        bad += [f"{name}: {f}" for f in value_faults(runs, width, shown_width(name, part))]
    # (each part draws some of Limit's games: the public, private and replay pictures of each, the final,
    # between-games and summary pictures of some; test_the_gallery_covers_every_picture_kind: all of them)
    assert {"limit-public", "limit-private", "limit-replay"} <= kinds
    assert counted > 200
    assert not bad, f"{len(bad)} values too small: " + "; ".join(bad[:6])


# --- the measure itself --------------------------------------------------------------------------

def _runs(draw_fn, size=(400, 100), colour=common.BACKGROUND):
    with common.recording_text() as runs:
        img, draw = common.canvas(*size, colour)
        draw_fn(img, draw)
        common.encode_png(img)
    return runs


def test_contrast_is_wcag():
    assert common.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21, rel=1e-3)
    assert common.contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert common.contrast((10, 20, 30), (10, 20, 30)) == 1


def test_a_small_text_fails_at_phone_width_and_a_narrow_picture_is_not_enlarged():
    runs = _runs(lambda img, d: d.text((10, 10), "D4", font=common.font(16), fill=common.TEXT))
    (run,) = runs
    assert run.size == 16 and 9 <= run.ink <= 14
    assert faults(runs, 390) == []
    assert faults(runs, 1000) == ["'D4' 6.2 CSS px high"]
    assert faults(runs, 200) == []  # shown at its own size


def test_the_background_is_sampled_from_the_picture_under_the_glyphs():
    def dark_on_dark(img, d):
        d.rectangle((0, 0, 200, 100), fill=(22, 23, 28))
        d.text((20, 20), "10", font=common.font(30, bold=True), fill=(15, 15, 15))
        d.text((250, 20), "10", font=common.font(30, bold=True), fill=(15, 15, 15))  # on the grey canvas

    first, second = _runs(dark_on_dark)
    assert first.behind[0][1] == (22, 23, 28) and first.contrast < 1.2
    assert second.behind[0][1] == common.BACKGROUND and second.contrast < 4.5
    assert any("contrast" in f for f in faults([first], 390))


def test_a_stroked_text_stands_on_its_halo_and_a_covered_text_is_found():
    def draw(img, d):
        d.text((20, 20), "11", font=common.font(30, bold=True), fill=(255, 255, 255), stroke_width=3,
               stroke_fill=(250, 210, 30))  # white on a yellow halo: unreadable whatever lies behind
        d.text((200, 20), "11", font=common.font(30, bold=True), fill=(255, 255, 255))
        d.ellipse((195, 15, 240, 60), fill=(250, 210, 30))  # an icon drawn over it afterwards

    halo, hidden = _runs(draw)
    assert halo.behind == [(halo.behind[0][0], (250, 210, 30))] and halo.contrast < 2
    assert halo.halo == 3 and halo.bare_contrast > 10  # on the dark canvas it would have been readable
    assert hidden.contrast > 4.5 and hidden.covered > 0.5
    assert any("covered" in f for f in faults([hidden], 390))


def test_a_halo_counts_only_when_it_is_at_least_one_css_px_wide():
    def draw(img, d):
        d.rectangle((0, 0, 400, 100), fill=(250, 210, 30))  # a yellow line under the number
        d.text((20, 20), "11", font=common.font(40, bold=True), fill=(255, 255, 255), stroke_width=2,
               stroke_fill=(0, 0, 0))

    (run,) = _runs(draw)
    assert run.contrast > 15 and run.bare_contrast < 1.5 and run.halo == 2
    assert faults([run], 400) == []  # 2 px shown as 1.95 CSS px: the halo holds
    assert faults([run], 1000) == ["'11' contrast 1.47 ((255, 255, 255) on the picture, its halo too thin)"]


def test_text_drawn_on_a_supersampled_layer_is_measured_at_its_final_size():
    with common.recording_text() as runs:
        layer = Image.new("RGB", (200, 100), (22, 23, 28))
        common.draw_on(layer, None, 2).text((10, 10), "12", font=common.font(40, bold=True), fill=(255, 255, 255))
    (run,) = runs
    assert run.size == 20 and run.contrast > 15
    # a text on a transparent layer with nothing under it has nothing to contrast with: it is reported as such
    with common.recording_text() as runs:
        ImageDraw.Draw(Image.new("RGBA", (10, 10)))  # a plain drawer records nothing
        common.draw_on(Image.new("RGBA", (100, 60), (0, 0, 0, 0))).text((5, 5), "A", font=common.font(30))
    assert runs[0].behind == []


# --- the card's layout (issue 36) ----------------------------------------------------------------

def test_discord_s_gallery_mosaic_and_a_card_s_widths():
    assert [mosaic(n) for n in (1, 2, 3, 4)] == [[1], [2, 2], [2, 2, 2], [2, 2, 2, 2]]
    assert mosaic(5) == [2, 2, 3, 3, 3] and mosaic(10) == [1] + [3] * 9
    inner = PHONE_WIDTH - CARD_PADDING
    from bot.cards import Card

    assert card_widths(Card(text="t", pictures=("a.png",))) == {"a.png": inner}
    # every picture of a card alone in its gallery, one under the other: each across the card
    assert card_widths(Card(text="t", pictures=("a.png", "b.png", "c.webp"))) == dict.fromkeys(
        ("a.png", "b.png", "c.webp"), inner)


def test_the_end_card_shows_each_board_across_the_card_and_one_gallery_would_not(monkeypatch):
    """Issue 36: Limit's end card, two players: both final boards and the animated summary. Measured
    as the card lays them out, the boards' digits are 11 CSS px high; laid out as one gallery of three
    (the card before the fix), the same pictures fall to about half that."""
    from bot.cards import Card
    from cogs.limit.cog import LimitCog

    engine = gallery.engines.get("limit")
    state = gallery._play("limit", 2, {}, seed=9)[-1]
    assert engine.is_over(state)
    game = gallery._row("limit", 2, {}, state, True)
    cog = gallery._cog("limit")
    assert isinstance(cog, LimitCog)
    jobs = cog.render_public_gallery(game, engine.view(state, None), "en")
    names = tuple(f"limit-{i}.png" for i in range(len(jobs)))
    card = gallery.card_of((*names, gallery.SUMMARY))
    from render import limit

    measured = []
    for name, job in zip(names, jobs, strict=True):
        for value in vars(limit).values():  # cached tiles would skip their drawing (and its recording)
            if hasattr(value, "cache_clear") and value is not common.font:
                value.cache_clear()
        with common.recording_text() as runs:
            data = job()
        measured.append((name, Image.open(io.BytesIO(data)).width, list(runs)))
    widths = card_widths(card)
    assert len(measured) == 2 and all(widths[name] == PHONE_WIDTH - CARD_PADDING for name, _, _ in measured)
    assert all(len(tile_values(runs)) > 50 and value_faults(runs, width, widths[name]) == []
               for name, width, runs in measured)
    monkeypatch.setattr(Card, "galleries", lambda self: [tuple(self.pictures)])  # main's one gallery
    widths = card_widths(card)
    assert {widths[name] for name, _, _ in measured} == {(PHONE_WIDTH - CARD_PADDING - 4) / 2}
    for name, width, runs in measured:
        assert len(value_faults(runs, width, widths[name])) == len(tile_values(runs)) > 50
