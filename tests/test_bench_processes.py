"""bench_processes fails a step that left a move unanswered or answered past Discord's 3 s (issue 36: on
Discord, « Échec de l'interaction »), and says why each was lost."""

from __future__ import annotations

from types import SimpleNamespace

from bench.bench_processes import DISCORD_MS, LOSSES_SHOWN, lost_moves


def step(callbacks: list[float], unanswered: int = 0, **why: int) -> dict:
    return {"rate": 60.0, "callbacks": callbacks, "unanswered": unanswered,
            "why": {"no_callback": 0, "late": 0, "no_next": 0, "resync": 0, **why}}


def test_a_step_whose_every_move_was_answered_in_time_passes():
    assert lost_moves("2 processes", step([12.0, 46.0, DISCORD_MS - 1])) is None


def test_an_unanswered_move_fails_the_step_with_its_reason():
    assert lost_moves("2 processes", step([12.0] * 480, 1, no_callback=1)) == \
        "- 2 processes at 60 moves/s: 1 move(s) unanswered (1 no_callback), 0 answered past 3 s"
    assert lost_moves("2 processes", step([12.0] * 479, 2, late=1, no_next=1)) == \
        "- 2 processes at 60 moves/s: 2 move(s) unanswered (1 late, 1 no_next), 0 answered past 3 s"


def test_an_answer_past_discords_three_seconds_fails_the_step():
    assert lost_moves("1 process, SQLite", step([12.0, DISCORD_MS + 1])) == \
        "- 1 process, SQLite at 60 moves/s: 0 move(s) unanswered (-), 1 answered past 3 s"


def test_a_failed_step_says_when_and_where_its_first_lost_moves_were():
    t3 = SimpleNamespace(name="t3", guild_id=2 << 22)
    t8 = SimpleNamespace(name="t8", guild_id=3 << 22)
    failed = {**step([12.0] * 470, 2, no_callback=1, resync=1),
              "losses": [(4.21, t3, "no_callback"), (4.3, t3, "resync")]}
    assert lost_moves("2 processes", failed, lambda guild: guild >> 22 & 1) == (
        "- 2 processes at 60 moves/s: 2 move(s) unanswered (1 no_callback, 1 resync), 0 answered past 3 s: "
        "no_callback at +4.2 s (shard 0, #t3); resync at +4.3 s (shard 0, #t3)")
    many = {**step([12.0] * 400, 9, no_next=9), "losses": [(float(i), t8, "no_next") for i in range(9)]}
    assert lost_moves("2 processes", many).count("no_next at") == LOSSES_SHOWN
    assert "(#t8)" in lost_moves("2 processes", many)  # no shard named when the caller has none
