"""Every game's preview shows only what its seat may know (issue 36, "Fairness").

A preview stages the seat's move and goes through ``view``: it never resolves what comes after (the
next tile, the next dice, the next card). Over seeded random games of every engine that previews:

* the preview does not change when what the seat cannot know is changed: the hidden order of what is
  still to come (the rest of Limit's bag, the dice of Range ta Ludothèque's next rounds) and the
  other seats' placements of this round;
* it shows what the seat's own view shows now (the announced tile, the dice, the round, every other
  board or kallax), its own board or kallax aside, which holds the move;
* its score is the one the text states, and (Limit) the one the board would end with.

The same checks, run on the naive preview (apply the move to the whole game, then view), fail: the
hidden future is what they perturb.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engines
from engines.base import RuleError

PREVIEWING = sorted(k for k in engines.GAMES if callable(getattr(engines.get(k), "preview", None)))


def test_the_games_that_preview_are_the_ones_whose_cogs_show_a_preview():
    assert PREVIEWING == ["limit", "ranta"]


# --- what a seat cannot know, changed -------------------------------------------------------------------
def limit_hidden_changed(engine, state, seat, rng):
    """Another bag order after the announced tile, another seed (the later games' bags), and the other
    boards' tiles of this round elsewhere on their boards."""
    deck = list(state.deck)
    rest = deck[state.round_no:]
    rng.shuffle(rest)
    boards = [dict(b) for b in state.boards]
    tile = engine.current_tile(state)
    moves = list(state.moves)
    me = engine.board_of(state, seat)
    main = engine.main_board(state).names
    for b, pos in enumerate(state.moves):
        if b == me or pos not in main or boards[b].get(pos) != tile:
            continue
        free = [p for p in main if p not in boards[b]]
        if free:
            new = rng.choice(free)
            del boards[b][pos]
            boards[b][new] = tile
            moves[b] = new
    return replace(state, deck=tuple(deck[:state.round_no] + rest), seed=state.seed + 7919,
                   boards=tuple(boards), moves=tuple(moves))


def ranta_hidden_changed(engine, state, seat, rng):
    """Another seed (every later round's dice), and the other seats' boxes of this round removed."""
    sheets = tuple(items if s == seat else tuple(it for it in items if it.round < state.round_no)
                   for s, items in enumerate(state.sheets))
    return replace(state, seed=state.seed + 7919, sheets=sheets)


HIDDEN = {"limit": limit_hidden_changed, "ranta": ranta_hidden_changed}
OPTIONS = {"limit": [{}, {"plateau": "orchidee"}, {"variante": "dechetterie-basse"},
                     {"variante": "passe-dechetterie"}, {"paires": True}],
           "ranta": [{}, {"mode": "expert"}]}


def playthrough(kind: str, seed: int):
    """Seeded random games (solo and with several players): ``(state, seat, action)`` for the moves
    previewed on the way, every legal move of the seat at a few points, the placement that closes a
    round among them."""
    engine = engines.get(kind)
    rng = random.Random(f"{kind}-{seed}")
    options = OPTIONS[kind][seed % len(OPTIONS[kind])]
    players = [1, 2, 3][seed % 3]
    if options.get("paires"):
        players = 4
    elif options.get("variante") in ("dechetterie-basse", "passe-dechetterie"):
        players = max(2, players)
    state = engine.new_game(players, options, seed)
    while not engine.is_over(state):
        seat = rng.choice(sorted(engine.expected(state)))
        actions = [a for a in engine.legal_actions(state, seat) if a["type"] in ("place", "fill", "box", "mat", "pass")]
        if actions:
            for action in rng.sample(actions, min(3, len(actions))):
                yield state, seat, action
            action = rng.choice(actions)
        else:
            action = engine.default_action(state, seat)
        state, _ = engine.apply(state, seat, action)


def naive(engine, state, seat, action):
    """The preview as it was (issue 36): the move applied to the whole game, then the seat's view."""
    return engine.view(engine.apply(state, seat, action)[0], seat)


def own(kind, engine, state, seat):
    return engine.board_of(state, seat) if kind == "limit" else seat


def others(kind, view, mine):
    if kind == "limit":
        return [b for b in view["boards"] if b["board"] != mine]
    return [s for s in view["sheets"] if s["seat"] != mine]


def public_part(kind, view):
    keys = ("tile", "round", "rounds", "game_no", "announced", "phase") if kind == "limit" else \
        ("round", "dice", "dice_meaning", "finished")
    return {k: view[k] for k in keys}


@pytest.mark.parametrize("kind", PREVIEWING)
def test_a_preview_shows_only_what_its_seat_may_know(kind):
    engine = engines.get(kind)
    hidden = HIDDEN[kind]
    rng = random.Random(kind)
    seen = closing = naive_leaks = 0
    for seed in range(6):
        for state, seat, action in playthrough(kind, seed):
            preview = engine.preview(state, seat, action)
            seen += 1
            # the hidden future and the others' secret moves changed: the preview is the same
            other = hidden(engine, state, seat, rng)
            assert engine.view(other, seat) == engine.view(state, seat)  # what the seat knew is the same
            assert engine.preview(other, seat, action) == preview, (kind, seed, seat, action)
            # what the table shows now stays: the announced tile or the dice, the other boards or kallaxes
            now = engine.view(state, seat)
            mine = own(kind, engine, state, seat)
            assert public_part(kind, preview) == public_part(kind, now)
            if kind == "limit" and action["type"] == "fill":
                mine = action["board"]
            assert others(kind, preview, mine) == others(kind, now, mine)
            # the move itself, made: as the seat's view right after it shows its own board (or kallax)
            after, events = engine.apply(state, seat, action)
            closes = any(e.get("type") == "round_closed" for e in events)
            closing += closes
            if not closes:
                made = engine.view(after, seat)
                if kind == "limit":
                    assert preview["boards"][mine]["cells"] == made["boards"][mine]["cells"]
                else:
                    assert preview["sheets"][seat]["items"] == made["sheets"][seat]["items"]
            # the naive preview (apply to the whole game) is caught by the same check when the move
            # closes the round: the next tile or dice came from the hidden future
            if closes and naive(engine, other, seat, action) != naive(engine, state, seat, action):
                naive_leaks += 1
    assert seen > 200 and closing > 20
    assert naive_leaks > 10  # the check has teeth: the old preview showed what comes next


@pytest.mark.parametrize("kind", PREVIEWING)
def test_a_preview_refuses_what_apply_refuses_and_changes_nothing(kind):
    engine = engines.get(kind)
    state = engine.new_game(2, {}, 3)
    bad = {"limit": {"type": "place", "tile": "1-2-3", "position": "D4"},
           "ranta": {"type": "mat", "round": 1, "cell": "A2"}}[kind]
    with pytest.raises(RuleError) as applied:
        engine.apply(state, 0, bad)
    with pytest.raises(RuleError) as previewed:
        engine.preview(state, 0, bad)
    assert (previewed.value.key, previewed.value.params) == (applied.value.key, applied.value.params)
    before = engine.to_dict(state)
    engine.preview(state, 0, engine.legal_actions(state, 0)[0])
    assert engine.to_dict(state) == before


# --- the score a preview states ------------------------------------------------------------------------
def test_ranta_the_preview_sheet_carries_the_score_its_text_states():
    engine = engines.get("ranta")
    for state, seat, action in playthrough("ranta", 1):
        preview = engine.preview(state, seat, action)
        p = preview["preview"]
        sheet = preview["sheets"][seat]
        assert sheet["score"] == p["after"]  # the picture's total is the text's « après »
        assert engine.view(state, seat)["sheets"][seat]["score"] == p["before"]
        assert p["after"] - p["before"] == sum(p["change"].values())
        if action["type"] != "pass":
            assert {c for it in sheet["items"] for c in it["cells"]} >= set(p["cells"])


@pytest.mark.parametrize("seed", range(8))
def test_limit_the_preview_total_is_the_score_if_the_game_ended_now(seed):
    """The last placement of a solo Nexus game: the preview's total is the final score, the
    Déchetterie's penalty included, and the preview says when there is one and why."""
    engine = engines.get("limit")
    rng = random.Random(seed)
    state = engine.new_game(1, {}, seed)
    penalties = 0
    while not engine.is_over(state):
        action = rng.choice(engine.legal_actions(state, 0))
        preview = engine.preview(state, 0, action)
        p = preview["preview"]
        board = preview["boards"][0]["score"]
        assert board["total"] == p["after"] and p["tile"] == preview["tile"]["id"] == action["tile"]
        dech = board["dechetterie"]["value"]
        assert p["dechetterie"] == dech and p["penalty"] == (60 if dech < 60 else 0)
        assert -board["items"]["penalty"] == p["penalty"]
        if p["penalty"]:
            penalties += 1
            assert p["penalty_reason"] == {"rule": "threshold", "value": dech, "threshold": 60, "shared": 1}
        last = state.round_no == engine.rounds(state)
        state, _ = engine.apply(state, 0, action)
        if last:
            assert engine.result(state).scores == [p["after"]]
    assert penalties  # early in the game the Déchetterie is short of its threshold: said every time


def test_limit_the_shared_penalty_is_counted_against_the_boards_the_seat_sees():
    engine = engines.get("limit")
    state = engine.new_game(2, {"variante": "dechetterie-basse"}, 4)
    preview = engine.preview(state, 0, {"type": "place", "tile": engine.current_tile(state), "position": "D4"})
    # both Déchetteries at 0: the lowest is shared, 30 each
    assert preview["preview"]["penalty"] == 30
    assert preview["preview"]["penalty_reason"]["rule"] == "lowest"
