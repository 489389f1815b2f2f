"""bench_processes fails a step that left a move unanswered or answered past Discord's 3 s (issue 36: on
Discord, « Échec de l'interaction »), and says why each was lost."""

from __future__ import annotations

from bench.bench_processes import DISCORD_MS, lost_moves


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
