"""Drive Tectonic through the fake Discord with moves computed by the engine (or picked at random
from the bot's own autocomplete).

The state is read from the bot's SQLite file with a separate, read-only use of
store (the bot process stays the only writer); the chosen move is then sent the way
a player would: ``/tectonic jouer de: vers:``. A move that may flip several enemy pieces is sent
*without* ``retourner`` (unless asked), so the game goes through the ephemeral flip-choice
buttons, and the button of the chosen piece is clicked. Shared by
tests/e2e/test_tectonic_e2e.py and bench/bench_tectonic.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import engines
from engines.tectonic import flip_choices
from tests.e2e.harness import StateReader

ENGINE = engines.get("tectonic")
GAME_NO = re.compile(r"(?:partie n°|game #)(\d+)")
FLIP_LABEL = re.compile(r"^(?:Retourner|Flip) ([A-J](?:10|[1-9])) \(")


def game_id_of(message) -> int:
    """The game number a lobby or turn message names."""
    m = GAME_NO.search(message.content or "")
    assert m, message.content
    return int(m.group(1))


def board_messages(res) -> list:
    """The public messages with a picture this interaction produced, in order."""
    return [m for m in res.created if m.visible_to is None and m.attachments and not m.deleted]


def answered(res) -> bool:
    """Whether an interaction is fully answered: an ephemeral answer (a refusal, the flip choice,
    a confirmation), or the public board that ends a publish (with its turn mention or the end) —
    a board this interaction made, not an older one edited meanwhile (a clicked card losing its
    buttons, a channel post's controls taken off: the fake counts those among the answer's messages)."""
    if any(m.ephemeral for m in res.created):
        return True
    return any(m.visible_to is None and m.attachments and not m.loading
               and ("<@" in (m.content or "") or "Fin de la partie" in (m.content or "")
                    or "Game over" in (m.content or ""))
               for m in res.created)


def flip_buttons(message) -> dict[str, str]:
    """cell -> custom id of the "Retourner <cell> (<piece>)" buttons of a message."""
    out = {}
    for b in message.buttons:
        m = FLIP_LABEL.match(b.get("label") or "")
        if m:
            out[m.group(1)] = b["custom_id"]
    return out


@dataclass
class Step:
    seat: int
    user: Any
    action: dict[str, Any]
    result: Any  # the last InteractionResult (the click, when a flip had to be chosen)
    before: Any  # the engine state the move was computed on
    command: str  # what was sent ("/tectonic jouer", "button Retourner", ...)
    first: Any = None  # the command's InteractionResult when a button followed


class Reader(StateReader):
    """Read-only access to the bot's database (games, states) for this game."""

    def __init__(self, db) -> None:
        super().__init__(db, ENGINE)


async def send_move(fake, user, action: dict[str, Any], *, channel: str = "jeux", with_flip: bool = False):
    """``/tectonic jouer`` for ``action``; with several flip choices and no ``retourner``, click the
    button of ``action["flip"]``. Returns (last result, what was used, the command's result)."""
    options = {"de": action["from"], "vers": action["to"]}
    if with_flip and action.get("flip"):
        options["retourner"] = action["flip"]
    res = await fake.run_command(user, channel, "tectonic jouer", until=answered, **options)
    buttons = flip_buttons(res.message) if res.ephemeral else {}
    if not buttons:
        return res, "/tectonic jouer" + (" retourner" if "retourner" in options else ""), res
    click = await fake.click(user, res.message, custom_id=buttons[action["flip"]], until=answered)
    return click, "button Retourner", res


async def step(fake, reader: Reader, game_id: int, users: dict[int, Any], *, level: int = 1,
               channel: str = "jeux", choose=None, with_flip: bool = False) -> Step:
    """Play a move for the expected seat through Discord, as that seat's user.

    ``choose(state, seat)`` picks the move (default: the engine's AI at ``level``).
    """
    _, state = await reader.state(game_id)
    (seat,) = ENGINE.expected(state)
    user = users[seat]
    action = choose(state, seat) if choose else ENGINE.ai_action(state, seat, level)
    res, command, first = await send_move(fake, user, action, channel=channel, with_flip=with_flip)
    return Step(seat=seat, user=user, action=action, result=res, before=state, command=command, first=first)


async def random_move(fake, reader: Reader, game_id: int, user, rng: random.Random, *,
                      channel: str = "jeux", check: bool = True) -> Step:
    """A random legal move picked the way a player does: a source from the ``de`` autocomplete,
    a destination from the ``vers`` autocomplete, then a random flip button if asked to choose.
    ``check``: each autocomplete offers exactly the engine's legal cells for that seat."""
    _, state = await reader.state(game_id)
    (seat,) = ENGINE.expected(state)
    sources = await fake.autocomplete(user, channel, "tectonic jouer", {"de": ""}, focused="de")
    if check:
        assert sorted(sources.values) == sorted(ENGINE.legal_sources(state, seat)), sources.values
    source = rng.choice(sources.values)
    dests = await fake.autocomplete(user, channel, "tectonic jouer", {"de": source, "vers": ""}, focused="vers")
    if check:
        assert sorted(dests.values) == sorted(ENGINE.legal_destinations(state, seat, source)), dests.values
    dest = rng.choice(dests.values)
    flips = flip_choices(state, seat, source, dest)
    res = await fake.run_command(user, channel, "tectonic jouer", de=source, vers=dest, until=answered)
    action = {"type": "move", "from": source, "to": dest, "flip": flips[0] if len(flips) == 1 else None}
    if len(flips) < 2:
        return Step(seat=seat, user=user, action=action, result=res, before=state, command="/tectonic jouer")
    buttons = flip_buttons(res.message)
    if check:
        assert res.ephemeral and sorted(buttons) == sorted(flips), (res.content, buttons)
    action["flip"] = rng.choice(sorted(buttons))
    click = await fake.click(user, res.message, custom_id=buttons[action["flip"]], until=answered)
    return Step(seat=seat, user=user, action=action, result=click, before=state, command="button Retourner",
                first=res)
