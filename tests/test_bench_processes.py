"""bench_processes fails a step that left a move unanswered or answered past Discord's 3 s (issue 36: on
Discord, « Échec de l'interaction »), and says why each was lost."""

from __future__ import annotations

from types import SimpleNamespace

from bench.bench_processes import DISCORD_MS, LOSSES_SHOWN, blame, lost_moves


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


def click(sent: float, *, arrived: float | None = None, late_at: float | None = None, iid: int = 7):
    """A click's record in the fake (its monotonic clock, seconds)."""
    return SimpleNamespace(id=iid, sent_at=sent, callback_at=arrived, late_at=late_at)


def test_a_move_answered_late_by_the_bot_is_the_bots_loss():
    # read at once, answered 3.2 s later: the bot's own time is past Discord's 3 s
    said = blame("late", click(100.0, late_at=103.25), {"frame": 100.01, "callback": 103.21})
    assert said == ("bot", "late: frame read by the bot +10 ms, answered 3200 ms later, "
                           "seen by the fake 40 ms after that")
    # issue 36's loss, reproduced with the answer waiting for its picture on a starved machine: the bot
    # answered 2.46 s after reading the frame, and the fake, itself late, saw the answer past 3 s
    assert blame("late", click(100.0, late_at=103.1), {"frame": 100.018, "callback": 102.475})[0] == "bot"
    assert blame("no_callback", click(100.0), {"frame": 100.01})[0] == "bot"  # read, never answered
    assert blame("no_callback", click(100.0), {})[0] == "bot"  # never read
    assert blame("no_next", click(100.0, arrived=100.05), {"frame": 100.01, "callback": 100.04})[0] == "bot"
    assert blame("late", click(100.0, late_at=104.0), None)[0] == "bot"  # not traced: the bot's


def test_a_move_the_bot_answered_in_time_but_that_came_late_is_the_ways():
    # the bot answered 0.4 s after reading the frame; the fake read the answer 2.8 s later (its loop starved)
    said = blame("late", click(100.0, late_at=103.4), {"frame": 100.2, "callback": 100.6})
    assert said == ("way", "late: frame read by the bot +200 ms, answered 400 ms later, "
                           "seen by the fake 2800 ms after that")


def test_a_step_whose_losses_were_all_on_the_way_did_not_measure_the_bot():
    t3 = SimpleNamespace(name="t3", guild_id=2 << 22)
    traces = {7: {"frame": 100.2, "callback": 100.6}}
    way = {**step([12.0] * 470, 2, late=1, resync=1),
           "losses": [(4.21, t3, "late", click(100.0, late_at=103.4)), (4.3, t3, "resync", None)]}
    assert lost_moves("2 processes", way, lambda guild: guild >> 22 & 1, traces, 1890.0) == (
        "- NOT MEASURED: 2 processes at 60 moves/s: 2 move(s) unanswered (1 late, 1 resync), none by the bot: it "
        "answered each within 1 s of reading its frame (a resync is the driver finding its way back after a lost "
        "move); the driver's loop lag reached 1890 ms: the driver or the machine was starved: late: frame read by "
        "the bot +200 ms, answered 400 ms later, seen by the fake 2800 ms after that at +4.2 s (shard 0, #t3); "
        "resync at +4.3 s (shard 0, #t3)")
    # a step with only the resync after the previous step's loss: not the bot's either
    resync = {**step([12.0] * 470, 1, resync=1), "losses": [(0.6, t3, "resync", None)]}
    assert lost_moves("2 processes", resync, None, traces).startswith(
        "- NOT MEASURED: 2 processes at 60 moves/s: 1 move(s) unanswered (1 resync), none by the bot")
    # one move the bot itself answered late among them: the step is the bot's failure
    bots = {**step([12.0] * 470, 3, late=2, resync=1),
            "losses": [*way["losses"], (5.0, t3, "late", click(200.0, late_at=203.5, iid=8))]}
    traces[8] = {"frame": 200.01, "callback": 203.4}
    assert lost_moves("2 processes", bots, None, traces).startswith(
        "- 2 processes at 60 moves/s: 3 move(s) unanswered (2 late, 1 resync), 0 answered past 3 s: late: ")
