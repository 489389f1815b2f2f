"""Drive L'Invincible Armada through the fake Discord with moves computed by the engine's AI.

The state is read from the bot's SQLite file with a separate, read-only use of
store (the bot process stays the only writer); the move the AI picks for
the expected seat is then sent the way a player would: ``/armada placer``,
``/armada deplacer``, ``/armada pivoter``, or a click on a "Prendre …" / "Passer"
button. A move that could take several ships is sent *without* its choice, so the
game goes through the capture-choice buttons. Shared by tests/e2e/test_armada_e2e.py
and bench/bench_armada.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import engines
from engines.armada import capture_choices
from tests.e2e.harness import StateReader, last_control

ENGINE = engines.get("armada")
GAME_NO = re.compile(r"partie n°(\d+)")


def game_id_of(message) -> int:
    """The game number a lobby or turn message names."""
    m = GAME_NO.search(message.content or "")
    assert m, message.content
    return int(m.group(1))


@dataclass
class Step:
    seat: int
    user: Any
    action: dict[str, Any]
    result: Any  # the InteractionResult
    before: Any  # the engine state the move was computed on
    command: str  # what was sent ("/armada placer", "button Prendre", ...)


class Reader(StateReader):
    """Read-only access to the bot's database (games, states) for this game."""

    def __init__(self, db) -> None:
        super().__init__(db, ENGINE)


def quiet(state, seat: int) -> dict[str, Any]:
    """A legal move that takes nothing (to reach Spain's re-placements quickly and surely)."""
    for action in ENGINE.legal_actions(state, seat):
        if action["type"] in ("place", "move", "pivot") and "capture" not in action \
                and not capture_choices(state, seat, action):
            return action
    raise AssertionError("no quiet move")


def answered(res) -> bool:
    """Whether an interaction is fully answered: a refusal, or the board message that ends a publish.

    (The public answer may come in two messages, the round's end then the new round, and a
    follow-up after a button's edit may come later than the fake's settle delay on a busy machine.)
    """
    msgs = res.created
    if any(m.ephemeral and "Vous avez abandonné" not in (m.content or "") for m in msgs):
        return True
    return any(m.visible_to is None and m.attachments and ("<@" in (m.content or "") or "Classement" in (m.content or ""))
               for m in msgs)


async def send_action(fake, user, action: dict[str, Any], channel: str = "jeux"):
    """Send an engine action the way a player does; returns (InteractionResult, what was used)."""
    kind = action["type"]
    if kind == "place":
        return (await fake.run_command(user, channel, "armada placer", point=action["point"], until=answered),
                "/armada placer")
    if kind == "move":
        return (await fake.run_command(user, channel, "armada deplacer", de=action["from"], vers=action["to"],
                                       until=answered), "/armada deplacer")
    if kind == "pivot":
        return (await fake.run_command(user, channel, "armada pivoter", de=action["from"], vers=action["to"],
                                       until=answered), "/armada pivoter")
    if kind == "capture":
        return (await fake.click(user, last_control(fake, channel), label=f"Prendre {action['point']}",
                                   until=answered),
                "button Prendre")
    if kind == "pass":
        return await fake.click(user, last_control(fake, channel), label="Passer", until=answered), "button Passer"
    raise AssertionError(f"not a move a player sends: {action}")


async def step(fake, reader: Reader, game_id: int, users: dict[int, Any], *, level: int = 1,
               channel: str = "jeux", choose=None) -> Step:
    """Play a move for the expected seat through Discord, as that seat's user.

    ``choose(state, seat)`` picks the move (default: the engine's AI at ``level``). A
    ``"capture"`` carried by the move is not sent: with several targets, the game then
    waits for a click on one of the "Prendre …" buttons (the next step).
    """
    _, state = await reader.state(game_id)
    (seat,) = ENGINE.expected(state)
    user = users[seat]
    action = choose(state, seat) if choose else ENGINE.ai_action(state, seat, level)
    res, command = await send_action(fake, user, action, channel)
    return Step(seat=seat, user=user, action=action, result=res, before=state, command=command)
