"""Game engines: the rules, pure. ``get(name)`` returns an engine by its short name."""

from __future__ import annotations

import importlib

from engines.base import Engine, RuleError  # noqa: F401  (re-exported)

#: short name -> module path. Every module defines ``ENGINE``.
GAMES: dict[str, str] = {
    "ludix": "engines.ludix",
    "ludime": "engines.ludime",
    "ranta": "engines.ranta",
    "limit": "engines.limit",
    "tectonic": "engines.tectonic",
    "armada": "engines.armada",
    "lutinades": "engines.lutinades",
}


def get(name: str) -> Engine:
    try:
        module = importlib.import_module(GAMES[name])
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None
    return module.ENGINE


def available() -> list[str]:
    """The games whose engine is present (all seven once every game has landed)."""
    names = []
    for name, path in GAMES.items():
        try:
            importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name != path:
                raise
            continue
        names.append(name)
    return names
