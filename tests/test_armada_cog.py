"""The Armada cog's pure parts, without Discord (pass button, hints, autocomplete filtering), and
the session option it needs to resign out of turn.

(The whole surface is tested end to end in tests/e2e/test_armada_e2e.py; a position where
England has no legal move is too long to reach through Discord, so it is built here.)
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engines
from bot.sessions import Player, SessionService
from bot.storage import RUNNING, GameRow, Seat
from cogs.armada.cog import ArmadaCog, _matching
from engines.armada.board import ENGLAND, SPAIN
from engines.base import RuleError

ENGINE = engines.get("armada")


def cog() -> ArmadaCog:
    c = ArmadaCog.__new__(ArmadaCog)  # no bot needed for the rendering hooks
    c.engine = ENGINE
    return c


def row(state) -> GameRow:
    return GameRow(id=7, guild_id=1, channel_id=2, kind="armada", options={"plateau": "9x9"}, status=RUNNING,
                   state=ENGINE.to_dict(state), version=12, seed=1, creator_id=10, created_at=0.0, updated_at=0.0,
                   seats=[Seat(seat=0, user_id=10, name="Alice"), Seat(seat=1, user_id=11, name="Bruno")])


def boxed_in_england():
    """England (seat 1) at its 5 ships, every pivot blocked by Spanish ships: it can only pass."""
    state = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    geo = {f"{c}{r}": (r - 1) * 9 + i for i, c in enumerate("ABCDEFGHI") for r in range(1, 10)}
    board = list(state.board)
    for p in ("A1", "B1", "E5", "E6", "I9"):
        board[geo[p]] = ENGLAND
    spain = ("A2", "B2", "C2", "C1", "D4", "E4", "F4", "D5", "F5", "D6", "F6", "D7", "E7", "F7")
    for p in spain:
        board[geo[p]] = SPAIN
    return replace(state, board=tuple(board), turn=ENGLAND, reserve=(20 - len(spain), 15), ply=27)


def test_a_player_with_no_legal_move_gets_a_pass_button_and_is_told_so():
    state = boxed_in_england()
    assert ENGINE.legal_actions(state, 1) == [{"type": "pass"}]
    game = row(state)
    view = ENGINE.view(state, None)
    (only,) = cog().turn_controls(game, view, "fr")
    assert only.label == "Passer" and only.custom_id == "ludibot:7:pass:12"
    assert cog()._hints(game, view, "fr") == ["⛔ Aucun coup possible : cliquez sur « Passer »."]
    assert cog()._hints(game, view, "en") == ['⛔ No legal move: click "Pass".']


def test_capture_choice_buttons_carry_the_point_and_the_version():
    state = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    for seat, point in ((0, "D5"), (1, "B5"), (0, "A9"), (1, "G5"), (0, "E5")):
        state, _ = ENGINE.apply(state, seat, {"type": "place", "point": point})
    view = ENGINE.view(state, None)
    assert view["phase"] == "capture"
    buttons = cog().turn_controls(row(state), view, "fr")
    assert [(b.label, b.custom_id) for b in buttons] == [("Prendre B5", "ludibot:7:capture:12:B5"),
                                                         ("Prendre G5", "ludibot:7:capture:12:G5")]
    # no buttons when the AI is the one choosing (it never waits)
    game = row(state)
    game.seats[0] = Seat(seat=0, user_id=None, name="Bot 1", ai_level=1)
    assert cog().turn_controls(game, view, "fr") == []


def test_autocomplete_filtering_is_by_prefix_in_board_order_and_capped():
    points = [f"{c}{r}" for r in range(1, 12) for c in "ABCDEFGHIJK"]
    assert _matching(points, "") == [f"A{r}" for r in range(1, 12)] + [f"B{r}" for r in range(1, 12)] + ["C1", "C2",
                                                                                                         "C3"]
    assert _matching(points, "c1") == ["C1", "C10", "C11"]
    assert _matching(points, " d 4 ") == ["D4"]
    assert _matching(points, "11") == [f"{c}11" for c in "ABCDEFGHIJK"]  # no prefix match: contains
    assert _matching(points, "Z") == []


async def test_resigning_is_accepted_out_of_turn_only_when_asked_for(store):
    """``SessionService.act(..., any_turn=True)`` (added for /armada abandon): the turn check is
    skipped, the engine still judges the action; without it, out of turn is refused as before."""
    svc = SessionService(store, seed_source=lambda: 99)
    alice, bruno = Player(100, "Alice"), Player(101, "Bruno")
    game = await svc.open_lobby("armada", guild_id=1, channel_id=10, player=alice, options={"plateau": "9x9"})
    game = await svc.join(game.id, bruno)
    await svc.start(game.id, alice)  # Alice (Spain) to play
    with pytest.raises(RuleError) as err:
        await svc.act(game.id, bruno.user_id, {"type": "resign"})
    assert err.value.key == "common.error.not_your_turn"
    with pytest.raises(RuleError) as err:  # any_turn is no licence to move out of turn
        await svc.act(game.id, bruno.user_id, {"type": "place", "point": "E5"}, any_turn=True)
    assert err.value.key == "common.error.not_your_turn"
    out = await svc.act(game.id, bruno.user_id, {"type": "resign"}, any_turn=True)
    assert out.finished and out.result.ranks == [1, 2]
    assert [e["type"] for e in out.events] == ["resigned", "game_over"]
