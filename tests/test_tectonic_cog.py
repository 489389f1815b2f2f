"""The Tectonic cog's pure parts, without Discord: how a move is answered (the dry run that
decides on a "thinking" defer), the flip-button argument, narration tweaks, the end lines.

(The whole surface is tested end to end in tests/e2e/test_tectonic_e2e.py.)
"""

from __future__ import annotations

from dataclasses import replace

from bot.narrate import narrate
from bot.sessions import Outcome
from bot.storage import FINISHED, RUNNING, GameRow, Seat
from cogs.tectonic.cog import FLIP_ARG, TectonicCog, _matching
from engines.base import Result
from engines.tectonic import ENGINE


def cog() -> TectonicCog:
    c = TectonicCog.__new__(TectonicCog)  # no bot needed for the pure parts
    c.engine = ENGINE
    return c


def row(state, *, bot_level: int | None = None, version: int = 12) -> GameRow:
    black = Seat(seat=1, user_id=None, name="Bot 1", ai_level=bot_level) if bot_level else \
        Seat(seat=1, user_id=11, name="Bruno")
    return GameRow(id=7, guild_id=1, channel_id=2, kind="tectonic", options={"pic_backward": "droit"},
                   status=RUNNING, state=ENGINE.to_dict(state), version=version, seed=1, creator_id=10,
                   created_at=0.0, updated_at=0.0, seats=[Seat(seat=0, user_id=10, name="Alice"), black])


def move(a: str, b: str, flip: str | None = None) -> dict:
    return {"type": "move", "from": a, "to": b, "flip": flip}


def test_a_defer_only_for_a_legal_move_that_the_slow_bot_will_answer():
    state = ENGINE.new_game(2, {}, seed=1)
    c = cog()
    assert c._dry_run(row(state), 10, move("C2", "C6"), None) == (True, False)  # against a person
    assert c._dry_run(row(state, bot_level=1), 10, move("C2", "C6"), None) == (True, False)  # fast bot
    assert c._dry_run(row(state, bot_level=2), 10, move("C2", "C6"), None) == (True, True)
    assert c._dry_run(row(state, bot_level=3), 10, move("c2", "c6"), None) == (True, True)
    # anything the session service or the engine will refuse is answered directly (ephemeral)
    assert c._dry_run(row(state, bot_level=3), 10, move("C2", "C7"), None) == (False, False)  # too far
    assert c._dry_run(row(state, bot_level=3), 11, move("C2", "C6"), None) == (False, False)  # not seated
    assert c._dry_run(row(state), 11, move("C9", "C5"), None) == (False, False)  # not Bruno's turn
    assert c._dry_run(row(state, bot_level=3), 10, move("C2", "C6"), 11) == (False, False)  # stale button
    assert c._dry_run(replace(row(state, bot_level=3), status=FINISHED), 10, move("C2", "C6"), None) == (False,
                                                                                                          False)
    # a move that needs a flip choice: answered with the buttons, not deferred
    for seat, m in ((0, move("C2", "C6")), (1, move("E9", "D8"))):
        state, _ = ENGINE.apply(state, seat, m)
    assert c._dry_run(row(state, bot_level=3), 10, move("C6", "C8"), None) == (False, False)
    assert c._dry_run(row(state, bot_level=3), 10, move("C6", "C8", "D8"), None) == (True, True)


def test_a_winning_move_is_not_deferred_the_bot_has_nothing_to_answer():
    state = ENGINE.new_game(2, {}, seed=1)
    # Black's pieces: one coloured colline left on E7, the rest red; White's colline E5 moves next to it
    board = list(state.board)
    for i, ch in enumerate(board):
        if ch in "cpm":
            board[i] = {"c": "4", "p": "5", "m": "6"}[ch]
    board[6 * 10 + 4] = "c"  # E7
    board[4 * 10 + 4] = "C"  # E5
    state = replace(state, board="".join(board))
    action = move("E5", "E6")
    after, _ = ENGINE.apply(state, 0, action)
    assert after.finished and after.reason == "all_red"
    assert cog()._dry_run(row(state, bot_level=3), 10, action, None) == (True, False)


def test_flip_button_argument_and_autocomplete_filtering():
    assert FLIP_ARG.match("C6-C8-D8").groups() == ("C6", "C8", "D8")
    assert FLIP_ARG.match("J10-J9-I9").groups() == ("J10", "J9", "I9")
    for bad in ("C6-C8", "K1-C8-D8", "C0-C8-D8", "C6-C8-D11", "c6-c8-d8"):
        assert FLIP_ARG.match(bad) is None, bad
    cells = [f"{f}{r}" for r in range(1, 11) for f in "ABCDEFGHIJ"]
    assert _matching(cells, "c1") == ["C1", "C10"]
    assert _matching(cells, " d 4 ") == ["D4"]
    assert _matching(cells, "10") == [f"{f}10" for f in "ABCDEFGHIJ"]  # no prefix match: contains
    assert len(_matching(cells, "")) == 25


def test_narration_drops_turn_lines_names_the_colours_and_the_region():
    told = TectonicCog._told([{"type": "started"}, {"type": "turn", "seat": 0},
                              {"type": "won_region", "winner": 0, "region": "NE"},
                              {"type": "moved", "seat": 0, "piece": "pic", "from": "D2", "to": "E3"}], "en")
    assert told == [{"type": "started"}, {"type": "sides", "white_seat": 0, "black_seat": 1},
                    {"type": "won_region", "winner": 0, "region": "NE"},
                    {"type": "moved", "seat": 0, "piece": "pic", "from": "D2", "to": "E3"}]
    # the pieces and regions are named in the language by narrate() itself: every narration of the
    # game (turn messages, the replay viewer, /historique's journal) says « peak », never « pic »
    lines = narrate("tectonic", told[2:], ["Alice", "Bob"], "en")
    assert "north-east" in lines[0] and "NE" not in lines[0]
    assert lines[1] == "Alice moves a peak from D2 to E3."
    assert narrate("tectonic", told[3:], ["Alice", "Bob"], "fr") == ["Alice déplace son pic de D2 à E3."]
    assert narrate("tectonic", [{"type": "moved", "seat": 0, "piece": "colline", "from": "D2", "to": "E3"}],
                   ["Alice"], "fr") == ["Alice déplace sa colline de D2 à E3."]


def test_the_end_names_the_winner_and_why():
    state = ENGINE.new_game(2, {}, seed=1)
    game = row(state, bot_level=1)

    def end(ranks, reason):
        return cog().ranking_lines(Outcome(game=game, result=Result(scores=[None, None], ranks=ranks,
                                                                    details={"reason": reason})), "fr")

    assert end([2, 1], "all_red") == ["**Fin de la partie**\u00a0: victoire de Bot 1 (toutes les pièces adverses sont "
                                      "rouges)."]
    assert end([1, 2], "resign") == ["**Fin de la partie**\u00a0: victoire d'Alice (abandon)."]
    assert end([1, 1], "repetition") == ["**Fin de la partie**\u00a0: partie nulle (position répétée trois fois)."]
    assert end([2, 1], "timeout") == ["**Fin de la partie**\u00a0: victoire de Bot 1 (forfait après des absences répétées)."]
    assert cog().options_text(game, "en") == "Peak's backward move: straight back"


def test_pack_groups_keeps_a_run_in_one_list_and_cuts_only_what_does_not_fit():
    from bot.ui import pack_groups

    items = [("A", i) for i in range(10)] + [("B", i) for i in range(10)] + [("C", i) for i in range(10)]
    lists = pack_groups(items, lambda x: x[0], size=25)
    assert [[x[0] for x in chunk] for chunk in lists] == [["A"] * 10 + ["B"] * 10, ["C"] * 10]
    assert pack_groups([("A", i) for i in range(30)], lambda x: x[0], size=25) == [
        [("A", i) for i in range(25)], [("A", i) for i in range(25, 30)]]  # a run longer than a list
    assert len(pack_groups([(str(i), i) for i in range(200)], lambda x: x[0], size=25, lists=5)) == 5


def test_the_move_form_never_splits_a_piece_over_two_lists_and_names_its_pieces():
    import random

    from engines.tectonic import legal_destinations, legal_sources

    rng = random.Random(5)
    state = ENGINE.new_game(2, {}, seed=3)
    checked = 0
    for _ply in range(40):
        if state.finished:
            break
        seat = state.current
        form = cog().move_form(row(state), state, seat, "fr")
        lists = [(item.text, [o.value for o in item.component.options]) for item in form.children]
        sources = [sorted({v.split("-")[0] for v in values}) for _, values in lists]
        flat = [s for group in sources for s in group]
        assert len(flat) == len(set(flat)), sources  # no piece in two lists
        for (heading, values), group in zip(lists, sources, strict=True):
            assert len(values) <= 25
            first, last = values[0].split("-")[0], values[-1].split("-")[0]
            assert heading == (f"Pièce en {first}" if len(group) == 1 else f"Pièces de {first} à {last}")
        legal = {f"{s}-{d}" for s in legal_sources(state, seat) for d in legal_destinations(state, seat, s)}
        offered = [v for _, values in lists for v in values]
        assert set(offered) <= legal and len(offered) == len(set(offered))
        if len(legal) <= 75:  # room to spare: every legal move is offered
            assert set(offered) == legal
        checked += len(lists)
        action = rng.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
    assert checked > 40
