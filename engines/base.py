"""The protocol every game engine speaks.

An engine is the rules of one game as pure data transformations (see
../shared/ARCHITECTURE.md). Nothing here knows about Discord, storage or images.

Conventions shared by all seven engines
---------------------------------------
* **Seats** are ints ``0 .. n-1`` in turn order.
* **Actions** are JSON-safe dicts with a ``"type"`` key, e.g. ``{"type": "roll"}``.
* **Events** are JSON-safe dicts with a ``"type"`` key that describe what just
  happened, for the bot to narrate. An event is public unless it carries
  ``"private_to": seat`` (only that seat may be told). Events never carry
  information a seat may not see, except in a ``private_to`` event for that seat.
* **Errors**: an illegal action raises :class:`RuleError` with a catalog key
  (``"<game>.error.<what>"``) and parameters; the input state is untouched.
* **State** is the engine's own type; ``apply`` never mutates its input.
  ``to_dict``/``from_dict`` round-trip it through JSON (with ``SCHEMA`` version).
* **Randomness** is deterministic: the state holds the seed (or an RNG state)
  and every draw derives from it, so a stored game replays to the same state.
* **Views**: ``view(state, seat)`` returns a JSON-safe dict with exactly what
  that seat may see; ``seat=None`` is the public/spectator view. Renderers and
  cogs only ever see views, never the state.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True)
class Phrase:
    """A catalog text used as a message parameter: a variant's or a board's display name.

    Engines know ids ("dechetterie-basse"); players must see names ("La plus basse
    Déchetterie paie"). ``RuleError("...", variante=Phrase("limit.choice.dechetterie-basse"))``
    is shown with the phrase written in the reader's language (``bot.i18n.t`` renders it).
    """

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:  # what a log line shows
        return self.key


class RuleError(Exception):
    """An illegal action. ``key`` is a message-catalog key, ``params`` its values.

    The message shown to the user is ``catalog[key].format(**params)`` in their
    language, so the key must say precisely what is wrong (``ludime.error.not_a_word``
    with ``word="ORAMES"``, not ``invalid``).
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleError({self.key!r}, {self.params!r})"


@dataclass(frozen=True)
class Option:
    """A game option (variant) the rulebook names.

    ``choices`` lists the allowed values (strings, ints or bools); ``None`` with
    ``minimum``/``maximum`` for a free int.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def validate(self, game: str, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise RuleError(
                    "common.error.bad_option",
                    option=self.name,
                    value=value,
                    allowed=", ".join(str(c) for c in self.choices),
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise RuleError("common.error.bad_option", option=self.name, value=value, allowed="true, false")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError("common.error.bad_option", option=self.name, value=value,
                                allowed=f"{self.minimum}..{self.maximum}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise RuleError("common.error.bad_option", option=self.name, value=value,
                                allowed=f"{self.minimum}..{self.maximum}")
            return value
        return value


def validate_options(game: str, declared: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate ``given`` against ``declared``; unknown names are refused."""
    given = dict(given or {})
    known = {o.name: o for o in declared}
    for name in given:
        if name not in known:
            raise RuleError("common.error.unknown_option", option=name,
                            allowed=", ".join(known) or "-")
    return {o.name: o.validate(game, given.get(o.name, o.default)) for o in declared}


def check_new_game(engine: Any, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """``new_game``'s common start: the player count within the engine's limits, the options
    validated with their defaults filled in (``common.error.player_count`` / ``bad_option``)."""
    if not engine.min_players <= players <= engine.max_players:
        raise RuleError("common.error.player_count", min=engine.min_players, max=engine.max_players, count=players)
    return validate_options(engine.name, engine.options, options)


@dataclass(frozen=True)
class Result:
    """Final outcome. ``ranks[seat]`` is 1 for the winner(s); equal ranks are ties.

    ``scores[seat]`` is the final score (or None for games without points);
    ``details`` is JSON-safe extra information (breakdowns, tie-break values).
    """

    scores: list[int | None]
    ranks: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [s for s, r in enumerate(self.ranks) if r == 1]

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "details": self.details}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(scores=list(d["scores"]), ranks=list(d["ranks"]), details=dict(d.get("details", {})))


def rank_by(keys: list[tuple]) -> list[int]:
    """Competition ranking (1, 1, 3 ...) of seats by descending key tuples."""
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    ranks = [0] * len(keys)
    for pos, seat in enumerate(order):
        if pos > 0 and keys[seat] == keys[order[pos - 1]]:
            ranks[seat] = ranks[order[pos - 1]]
        else:
            ranks[seat] = pos + 1
    return ranks


def derive_rng(seed: int, *salt: Any) -> random.Random:
    """A ``random.Random`` derived from the game seed and a salt (e.g. round, turn).

    Use it for every draw so replays are exact: ``derive_rng(state.seed, "roll", turn)``.
    """
    h = hashlib.sha256(repr((seed, *salt)).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def plugged_ai(engine: Any) -> Callable[..., Action]:
    """The AI plugged into ``engine`` by its game's package (an AI module depends on its engine, the
    engine never imports it: the package, which the registry ``engines.get`` loads, connects them)."""
    ai = getattr(engine, "ai", None)
    if ai is None:
        raise RuntimeError(f"no AI plugged into the {engine.name} engine: load it through its package")
    return ai


@runtime_checkable
class Engine(Protocol):
    """What every engine module exposes as its ``ENGINE`` object."""

    name: str  # "ludix", "ludime", "ranta", "limit", "tectonic", "armada", "lutinades"
    min_players: int
    max_players: int
    has_ai: bool  # whether AI seats are allowed
    ai_levels: tuple[int, int]  # lowest and highest AI level (when has_ai)
    simultaneous: bool  # whether several seats may be expected at once
    options: tuple[Option, ...]
    SCHEMA: int

    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> Any: ...

    def expected(self, state: Any) -> set[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action] | None: ...

    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> View: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Result | None: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...

    def ai_action(self, state: Any, seat: int, level: int = 1) -> Action: ...

    def default_action(self, state: Any, seat: int) -> Action: ...

    def takeback_refusal(self, before: Any, seat: int, action: Action, after: Any,
                         events: list[Event]) -> str | None:
        """Why the move ``action`` of ``seat`` (``before`` -> ``after``, telling ``events``) can NOT be
        taken back, as a catalog key (``"undo.reason.dice"``), or None when it may. Never a move that
        revealed information or randomness: a die rolled, a card drawn from the pile, a hidden card
        seen, a tile turned up, gestures revealed, a round scored (issue 26; each game's rules page
        says which of its moves)."""
        ...


#: a move that ended the game is never taken back (results and ratings are written)
GAME_OVER_EVENTS = frozenset({"game_over", "game_drawn"})


def refusal_from_events(events: list[Event], revealing: dict[str, str]) -> str | None:
    """``takeback_refusal``'s common form: the reason of the first event that revealed something
    (``revealing``: event type -> catalog key), the end of the game, else None (it may be taken back)."""
    for event in events:
        kind = event.get("type")
        if kind in revealing:
            return revealing[kind]
        if kind in GAME_OVER_EVENTS:
            return "undo.reason.game_over"
    return None


def stamp_schema(data: dict[str, Any], schema: int) -> dict[str, Any]:
    """``to_dict`` helper: the JSON-safe state with its schema version."""
    data["schema"] = schema
    return data


def unstamp_schema(game: str, data: dict[str, Any], schema: int) -> dict[str, Any]:
    """``from_dict`` helper: a copy without the schema key; refuses a version this code cannot read."""
    d = dict(data)
    found = d.pop("schema", schema)
    if found != schema:
        raise ValueError(f"{game} state schema {found} not supported (this code reads {schema})")
    return d
