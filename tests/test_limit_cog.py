"""The /limit cog's relocation choices: every possibility reachable within Discord's limits."""

from __future__ import annotations

import random

from bot import i18n
from cogs.limit.cog import MAX_OPTIONS, MAX_RELOCATION_SELECTS, decode_moves, encode_moves, relocation_pages
from engines.limit import ENGINE
from engines.limit.engine import RELOCATE


def relocation_state(seed: int = 5):
    """An Orchidée game at its relocation step, both big orchids full (3 tiles, 3 empty holes)."""
    rng = random.Random(seed)
    s = ENGINE.new_game(2, {"plateau": "orchidee"}, seed)
    while s.phase != RELOCATE:
        seat = rng.choice(sorted(ENGINE.expected(s)))
        s, _ = ENGINE.apply(s, seat, ENGINE.ai_action(s, seat))  # the AI fills the big orchid first
    return s


def test_every_relocation_is_offered_in_at_most_four_selects_of_25():
    s = relocation_state()
    view = ENGINE.view(s, 0)
    reloc = view["relocation"]
    assert len(reloc["orchid"]) == 3 and len(reloc["options"]) == 34  # 1 + 9 + 18 + 6
    best = reloc["best"]["moves"]
    pages = relocation_pages(reloc["options"], best)
    assert 1 <= len(pages) <= MAX_RELOCATION_SELECTS and all(1 <= len(chunk) <= MAX_OPTIONS for _, chunk in pages)
    offered = [o["moves"] for _, chunk in pages for o in chunk]
    others = [o["moves"] for o in reloc["options"] if o["moves"] and o["moves"] != best]
    assert len(offered) == len(others) == (32 if best else 33)  # all but "move nothing" and the best (buttons)
    assert sorted(map(encode_moves, offered)) == sorted(map(encode_moves, others))
    assert any(len(m) == 3 for m in offered)  # the three-tile moves too
    for count, chunk in pages:  # one select per number of tiles moved, best gain first
        assert {len(o["moves"]) for o in chunk} == {count}
        assert [o["gain"] for o in chunk] == sorted((o["gain"] for o in chunk), reverse=True)
    for m in offered:  # every offered value survives its select and is a legal relocation
        assert len(encode_moves(m)) <= 100
        ENGINE.apply(s, 0, {"type": "relocate", "moves": decode_moves(encode_moves(m))})


def test_select_placeholders_say_how_many_tiles_move():
    assert i18n.t("limit.prompt.relocation_placeholder", "fr", count=1) == "Déplacer une tuile…"
    assert i18n.t("limit.prompt.relocation_placeholder", "fr", count=3) == "Déplacer 3 tuiles…"
    assert i18n.t("limit.prompt.relocation_placeholder", "en", count=2) == "Move 2 tiles…"
