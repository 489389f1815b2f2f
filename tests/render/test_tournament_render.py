"""The tournament standings card (render/tournament.py): a PNG sized for a phone, points written as players do."""

from __future__ import annotations

import io
from fractions import Fraction

from PIL import Image

from bot.community import pairing as P
from bot.community.tournament_notice import card_args
from bot.community.tournaments import TournamentRow
from render.tournament import points_text, render_standings


def test_points_text():
    assert points_text(Fraction(5, 2)) == "2½"
    assert points_text(Fraction(1, 2)) == "½"
    assert points_text(Fraction(3)) == "3"
    assert points_text(Fraction(2, 3)) == "0.67"


def test_standings_card_fits_a_phone():
    t = TournamentRow(id=3, guild_id=1, channel_id=2, kind="ludix", format=P.SWISS, rounds=3, places=64,
                      creator_id=1, round=2, total=3)
    rows = [P.Standing(100 + i, i + 1, Fraction(60 - i, 2), Fraction(i, 3), Fraction(1, 2), 1000.0 + i, 2, 0)
            for i in range(40)]
    names = {100 + i: "Nom très long " * 4 for i in range(40)}
    for lg in ("fr", "en"):
        png = render_standings(*card_args(t, rows, names, lg, 105))
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width <= 720 and len(png) < 1_000_000
        assert img.height < 1500  # the top 20 only


def test_names_escaped_in_text_kept_in_pictures():
    from bot.community.tournament_notice import entry_names
    from bot.community.tournaments import EntryRow

    entries = [EntryRow(1, 5, "**Ali_ce**\n@everyone", 1000.0)]
    assert "\\*\\*" in entry_names(entries)[5] and "\n" not in entry_names(entries)[5]
    assert entry_names(entries, for_text=False)[5] == "**Ali_ce** @everyone"
