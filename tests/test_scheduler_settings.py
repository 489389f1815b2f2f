"""``/ludibot config`` values: server default, per-game overrides, and precise refusals."""

from __future__ import annotations

import pytest

import engines
from bot import i18n
from bot.community import history
from bot.community.settings import ALL, DEFAULTS, change, game_kind, resolve
from bot.sessions import Player, SessionService
from engines.base import Phrase, RuleError


def refused(key: str, fn, *args, **kw) -> RuleError:
    with pytest.raises(RuleError) as err:
        fn(*args, **kw)
    assert err.value.key == key, (err.value.key, err.value.params)
    for lg in i18n.LANGS:  # the message exists and every placeholder is filled
        text = i18n.t(key, lg, **err.value.params)
        assert text != key and "{" not in text
    return err.value


def test_defaults_and_overrides_field_by_field():
    assert resolve({}, "ludix") == DEFAULTS
    assert resolve({}, "armada").forfeit_after == 3 and resolve({}, "tectonic").forfeit_after == 3
    s, scope = change({}, None, reminder_h=2, timeout_h=10)
    assert scope == ALL
    s, scope = change(s, "Ludix", timeout_h=5)  # a title works as well as the short name
    assert scope == "ludix"
    assert resolve(s, "ludix").reminder_h == 2 and resolve(s, "ludix").timeout_h == 5
    assert resolve(s, "ranta").timeout_h == 10
    s, _ = change(s, "ludix", reset=True)
    assert "ludix" not in s["timers"] and resolve(s, "ludix").timeout_h == 10


def test_negative_values_are_refused_with_their_own_message():
    refused("community.error.negative_reminder", change, {}, None, reminder_h=-1)
    refused("community.error.negative_timeout", change, {}, "ludix", timeout_h=-0.5)
    refused("community.error.negative_forfeit", change, {}, "armada", forfeit_after=-2)
    refused("community.error.negative_reminder", change, {}, None, reminder_h=float("nan"))


def test_too_long_and_too_many():
    refused("community.error.timeout_too_long", change, {}, None, timeout_h=10_000)
    refused("community.error.reminder_too_long", change, {}, None, reminder_h=float("inf"))
    refused("community.error.forfeit_too_big", change, {}, None, forfeit_after=99)


def test_a_timeout_not_longer_than_the_reminder_is_refused_even_through_another_scope():
    err = refused("community.error.timeout_before_reminder", change, {}, "ludix", reminder_h=5, timeout_h=5)
    assert err.params["game"] == Phrase("ludix.name.title")
    assert i18n.t(err.key, "fr", **err.params).startswith("Pour Ludix, le délai (5 h)")
    s, _ = change({}, None, reminder_h=2)
    s, _ = change(s, "ludix", timeout_h=6)
    # raising the server's reminder above Ludix's own timeout is refused too, naming Ludix
    err = refused("community.error.timeout_before_reminder", change, s, None, reminder_h=8)
    assert err.params["game"] == Phrase("ludix.name.title")
    # 0 switches one off: no ordering to respect
    change(s, "ludix", reminder_h=0)
    change({}, None, timeout_h=0)


def test_unknown_games_are_refused_listing_the_real_ones():
    err = refused("community.error.unknown_game", game_kind, "monopoly")
    assert "ludix" in err.params["allowed"]
    refused("community.error.unknown_game", change, {}, "échecs", reminder_h=1)
    assert game_kind("tous") == ALL and game_kind(None) == ALL
    for kind in engines.available():
        assert game_kind(kind.upper()) == kind


async def test_history_tells_public_events_only_and_exports_json(store):
    svc = SessionService(store, seed_source=lambda: 99)
    alice, bruno = Player(1, "Alice"), Player(2, "Bruno")
    g = await svc.open_lobby("ludix", guild_id=1, channel_id=10, player=alice)
    await svc.join(g.id, bruno)
    await svc.start(g.id, alice)
    await svc.act(g.id, 1, {"type": "roll"})
    await svc.act_for(g.id, 0, {"type": "stop"}, actor="timeout")
    await svc.forfeit(g.id, 1)
    game = await svc.get(g.id)
    rows = await store.events(g.id)
    rows[0].events.append({"type": "secret", "private_to": 1, "card": "X"})
    lines = history.replay_lines(game, rows, "fr")
    assert len(lines) == 3 and "Alice" in lines[0]
    assert "délai dépassé" in lines[1] and "forfait" in lines[2]
    doc = history.export(game, rows, await store.results(g.id), viewer_seat=None)
    assert doc["format"] == "ludibot-game" and [s["name"] for s in doc["seats"]] == ["Alice", "Bruno"]
    assert all(e.get("private_to") is None for r in doc["log"] for e in r["events"])
    assert "seed" not in doc["game"] and "state" not in doc["game"]
    assert [(r["seat"], r["rank"]) for r in doc["results"]] == [(0, 1), (1, 2)]
    mine = history.export(game, rows, [], viewer_seat=1)
    assert any(e.get("private_to") == 1 for r in mine["log"] for e in r["events"])


@pytest.mark.parametrize("lg", ["fr", "en"])
def test_the_settings_view_states_the_default_once_then_per_game_only_what_differs(lg):
    """Issue 36: the long pace text (« Normal (the server's timeout, 2 days by default, +1 day a move) »)
    once, on the default's line; a game's line says only what differs from it; the games that follow
    the default are named together, on one line."""
    from cogs.community.common import title
    from cogs.community.settings import LudibotCog

    view = LudibotCog.__new__(LudibotCog)
    normal, fast = i18n.t("common.pace.normal", lg), i18n.t("common.pace.rapide", lg)
    lines = view.describe({}, lg)
    assert "\n".join(lines).count(normal) == 1 and normal in lines[3]
    by_game = {k: [x for x in lines[4:] if title(k, lg) in x] for k in engines.available()}
    assert all(len(found) == 1 for found in by_game.values()), lines  # each game named once
    assert by_game["tectonic"] != by_game["ludix"] and "3" in by_game["tectonic"][0]  # its own forfeit rule
    assert by_game["ludix"] == by_game["ranta"]  # both follow the default: one line together
    settings, _ = change({}, "ludix", reminder_h=3, pace="rapide")
    lines = view.describe(settings, lg)
    (ludix,) = [x for x in lines[4:] if x.startswith(f"• {title('ludix', lg)}")]
    assert fast in ludix and "3" in ludix and i18n.t("community.config.own", lg).strip() in ludix
    assert i18n.t("community.config.hours", lg, value=48.0) not in ludix  # its timeout is the default's
    assert "\n".join(lines).count(normal) == 1
    # one game asked for: the default, then that game
    assert view.describe(settings, lg, "ludix")[3:] == [lines[3], ludix]
