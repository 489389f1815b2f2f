"""The seats of a game's card (issue 24), built by ``GameCog.seats_of`` from the game row and its
public view: the seat to play marked, scores in the game's own unit, clocks, AI seats, the ranking at
the end, names escaped; and a seven-lutin Lutinades turn card that still fits Discord's 40."""

from __future__ import annotations

from types import SimpleNamespace

from bot.cards import MAX_COMPONENTS, Card
from bot.storage import FINISHED, RUNNING, GameRow
from bot.storage.base import Seat as Row
from engines.base import Result
from fakediscord.validation import Errors, validate_components

NOW = 1_800_000_000.0


def cog_of(cls, engine, expected):
    """A game cog without a bot process: the parts ``seats_of`` reads (no store: it makes no query)."""
    cog = object.__new__(cls)
    cog.engine = engine
    cog.bot = SimpleNamespace(clock=lambda: NOW)
    cog.sessions = SimpleNamespace(expected_seats=lambda game: set(expected))
    return cog


def game(kind: str, names: list[str], *, ai: dict[int, int] | None = None, status: str = RUNNING) -> GameRow:
    ai = ai or {}
    seats = [Row(seat=i, user_id=None if i in ai else 100 + i, name=n, ai_level=ai.get(i)) for i, n in enumerate(names)]
    return GameRow(id=42, guild_id=1, channel_id=2, kind=kind, options={}, status=status, state={}, version=7,
                   seed=1, creator_id=100, created_at=0, updated_at=0, seats=seats)


def test_ludix_seats_mark_the_seat_to_play_with_its_deadline_and_the_others_bank():
    from cogs.ludix.cog import LudixCog
    from engines.ludix import ENGINE

    g = game("ludix", ["Alice", "**Bruno** <@1>", "Bot 1"], ai={2: 2})
    cog = cog_of(LudixCog, ENGINE, {1})
    clocks = {0: (3600.0 * 26, None), 1: (90.0, None)}
    seats = cog.seats_of(g, {"scores": [1, 12, 0]}, "fr", clocks=clocks)
    assert [s.text() for s in seats] == [
        "Alice · 1 point · ⏳ 1 jour 2 h",  # not to play: the bank left, in words
        f"▶ **\\*\\*Bruno\\*\\* \\<\u200b@\u200b1>** · 12 points · ⏳ <t:{int(NOW + 90)}:R>",  # escaped; a deadline
        "Bot 1 · 0 point",
    ]
    assert [(s.label, s.ai, s.button) for s in seats] == [
        ("Profil", None, "ludibot:42:profile:0:0"), ("Profil", None, "ludibot:42:profile:0:1"),
        ("🤖 Difficile", "🤖 Difficile", "ludibot:42:profile:0:2")]
    en = cog.seats_of(g, {"scores": [1, 12, 0]}, "en", clocks={0: (None, NOW + 86400)})
    assert en[0].text() == f"Alice · 1 point · on vacation until <t:{int(NOW + 86400)}:D>" and en[0].label == "Profile"
    assert en[2].label == "🤖 Hard"


def test_games_without_a_running_score_show_none_and_lutinades_counts_mushrooms():
    from cogs.lutinades.cog import LutinadesCog
    from cogs.ranta.cog import RantaCog
    from cogs.tectonic.cog import TectonicCog
    from engines.lutinades import ENGINE as LUTINADES
    from engines.ranta import ENGINE as RANTA
    from engines.tectonic import ENGINE as TECTONIC

    ranta = cog_of(RantaCog, RANTA, {0, 1}).seats_of(game("ranta", ["A", "B"]), {"sheets": []}, "fr")
    assert [s.text() for s in ranta] == ["▶ **A**", "▶ **B**"]  # simultaneous: everyone still to act
    tect = cog_of(TectonicCog, TECTONIC, {0}).seats_of(game("tectonic", ["A", "B"]), {}, "fr")
    assert [s.text() for s in tect] == ["▶ **A**", "B"]
    lut = cog_of(LutinadesCog, LUTINADES, {1}).seats_of(game("lutinades", ["A", "B", "C"]),
                                                        {"mushrooms": [0, 1, 3]}, "fr")
    assert [s.score for s in lut] == ["0 champignon", "1 champignon", "3 champignons"]


def test_limit_shows_the_match_totals_only_once_a_game_was_scored():
    from cogs.limit.cog import LimitCog
    from engines.limit import ENGINE

    cog = cog_of(LimitCog, ENGINE, {0, 1})
    g = game("limit", ["A", "B"])
    assert [s.score for s in cog.seats_of(g, {"totals": [0, 0], "history": []}, "fr")] == [None, None]
    scored = cog.seats_of(g, {"totals": [88, 102], "history": [{"game": 1}]}, "fr")
    assert [s.score for s in scored] == ["88 points", "102 points"]


def test_the_result_card_seats_are_its_ranking_with_profile_buttons():
    from cogs.armada.cog import ArmadaCog
    from engines.armada import ENGINE

    g = game("armada", ["Alice", "Bruno"], status=FINISHED)
    seats = cog_of(ArmadaCog, ENGINE, set()).seats_of(g, {}, "fr", result=Result(scores=[4, 9], ranks=[2, 1]))
    assert [s.text() for s in seats] == ["1. Bruno — 9", "2. Alice — 4"]  # rank order
    assert [s.button for s in seats] == ["ludibot:42:profile:0:1", "ludibot:42:profile:0:0"]
    assert cog_of(ArmadaCog, ENGINE, set()).seats_of(g, {}, "fr") == ()  # no result given: no seats


def test_a_result_without_scores_or_ended_early_says_who_won_and_who_resigned_never_a_dash():
    """Issue 36: a game ended by resignation listed « 1. Bot 1 — - / 2. Alice — - ». The seat that
    resigned, forfeited or was voted out says so; a game without scores gives no score at all."""
    from cogs.armada.cog import ArmadaCog
    from cogs.tectonic.cog import TectonicCog
    from engines.armada import ENGINE as ARMADA
    from engines.tectonic import ENGINE as TECTONIC

    g = game("tectonic", ["Alice", "Bot 1"], ai={1: 1}, status=FINISHED)
    tectonic = cog_of(TectonicCog, TECTONIC, set())
    resigned = Result(scores=[None, None], ranks=[2, 1], details={"reason": "resign", "winner": 1})
    for lg, expected in (("fr", ["1. Bot 1", "2. Alice — abandon"]), ("en", ["1. Bot 1", "2. Alice — resigned"])):
        assert [s.text() for s in tectonic.seats_of(g, {}, lg, result=resigned)] == expected
    won = Result(scores=[None, None], ranks=[1, 2], details={"reason": "region", "winner": 0})
    assert [s.text() for s in tectonic.seats_of(g, {}, "fr", result=won)] == ["1. Alice", "2. Bot 1"]
    armada = cog_of(ArmadaCog, ARMADA, set())
    g = game("armada", ["Alice", "Bruno"], status=FINISHED)
    gave_up = Result(scores=[5, 3], ranks=[2, 1], details={"resigned": 0})  # the scores of a game not played out
    assert [s.text() for s in armada.seats_of(g, {}, "fr", result=gave_up)] == ["1. Bruno", "2. Alice — abandon"]
    forfeit = Result(scores=[None, None], ranks=[1, 2], details={"forfeit": 1, "reason": "timeout"})
    assert [s.text() for s in armada.seats_of(g, {}, "fr", result=forfeit)] == ["1. Alice", "2. Bruno — forfait"]
    from bot.sessions import Outcome

    lines = armada.ranking_lines(Outcome(game=g, result=gave_up), "fr")  # the compact form: the same lines
    assert lines[1:] == ["1. Bruno", "2. Alice — abandon"] and not any(line.endswith("— -") for line in lines)


def test_a_seven_lutin_turn_card_fits_and_validates():
    """The real Lutinades controls of a seven-player gesture turn, with its seats: within 40."""
    from cogs.lutinades.cog import LutinadesCog
    from engines.lutinades import ENGINE

    state = ENGINE.new_game(7, {}, 3)
    expected = ENGINE.expected(state)
    g = game("lutinades", [f"Lutin {i}" for i in range(7)], ai={6: 1})
    g.state = ENGINE.to_dict(state)
    cog = cog_of(LutinadesCog, ENGINE, expected)
    view = ENGINE.view(state, None)
    controls = cog.turn_controls(g, view, "fr")
    card = Card(text="Tour 1", pictures=("lutinades-42.png",), groups=(tuple(controls),),
                seats=cog.seats_of(g, view, "fr"))
    count, form = card.count(), card.seats_form()  # (before the layout, which places the gestures by row)
    payload = card.layout().to_components()
    errors = Errors()
    validate_components(payload, 1 << 15, errors, attachment_names={"lutinades-42.png"})
    assert not errors, errors.errors
    assert count == 31 and form == "sections"  # 7 sections of 3 fit beside the gestures
    text = "\n".join(c.get("content", "") for c in _walk(payload))
    assert all(f"Lutin {i}" in text for i in range(7))
    # after a timeout, the votes about stalled lutins (two full rows): the seats become one list
    from bot.ui import button

    votes = tuple(button(42, "vote", f"v{i}", version=7, arg=f"0-{i}") for i in range(10))
    controls = cog.turn_controls(g, view, "fr")
    voted = Card(text="Tour 1", pictures=("lutinades-42.png",), groups=(tuple(controls), votes),
                 seats=card.seats)
    assert voted.seats_form() == "compact" and voted.count() == 31 - 21 + 1 + 2 + 10 <= MAX_COMPONENTS
    errors = Errors()
    validate_components(voted.layout().to_components(), 1 << 15, errors, attachment_names={"lutinades-42.png"})
    assert not errors, errors.errors
    listed = voted.layout().to_components()[0]["components"][1]["content"].split("\n")
    assert len(listed) == 7 and listed[6].endswith("· 🤖 Facile")  # the AI says so without its button


def _walk(comps):
    for c in comps:
        yield c
        yield from _walk(c.get("components", []))
        if isinstance(c.get("accessory"), dict):
            yield from _walk([c["accessory"]])
