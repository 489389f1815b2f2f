"""bot.threads: a game's thread name and whether a game wants a thread."""

from __future__ import annotations

from bot.storage import GameRow, Seat
from bot.threads import NAME_MAX, server_default, thread_name, wants_thread


def _game(names, settings=None, guild_id=1):
    return GameRow(id=12, guild_id=guild_id, channel_id=10, kind="ludix", options={}, status="running", state=None,
                   version=1, seed=1, creator_id=1, created_at=0.0, updated_at=0.0,
                   seats=[Seat(i, 100 + i, n) for i, n in enumerate(names)], settings=settings or {})


def test_the_thread_is_named_after_the_game_and_its_players_display_names():
    assert thread_name(_game(["Alice", "  Bruno\t le  Grand "]), "fr") == "Ludix n°12 — Alice, Bruno le Grand"
    assert thread_name(_game(["Alice", "Bruno"]), "en") == "Ludix #12 — Alice, Bruno"


def test_a_long_thread_name_is_cut_to_discords_limit():
    name = thread_name(_game(["A" * 32] * 6), "fr")
    assert len(name) == NAME_MAX and name.startswith("Ludix n°12 — AAAA") and name.endswith("…")


def test_a_game_wants_a_thread_only_when_its_settings_say_so_in_a_server():
    assert wants_thread(_game(["A"], {"thread": True}))
    assert not wants_thread(_game(["A"], {"thread": False}))
    assert not wants_thread(_game(["A"], {}))  # older games, and lobbies opened in a thread
    assert not wants_thread(_game(["A"], {"thread": True}, guild_id=None))
    assert server_default({"thread": True}) and not server_default({})
