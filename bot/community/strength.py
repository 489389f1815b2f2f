"""What an AI seat's « Profil » says: its level's strength as the benchmarks measured it.

The figures live in ``data/ai/strength.json`` (``bench/bench_ai.py`` measures them; ``docs/benchmarks.md``
gives each command, its seeds and its date). A level is shown with the measures where it is the one
measured (its solo mean, its wins against the level below, at a table, against a random player) and
those where a stronger level was measured against it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from bot import i18n

PATH = Path(__file__).resolve().parents[2] / "data" / "ai" / "strength.json"
#: the measures a line can say, each with its catalog key (``community.profile.ai_<measure>``)
MEASURES = ("solo", "duel", "table", "random", "word")
#: a solo measure's setting is a daily challenge's choice (« Take it to the Limit — Nexus »); the profile, whose
#: title already names the game, says it by its short name when the catalog has one (« plateau Nexus »)
DAILY_CHOICE, SHORT_SETTING = "community.daily.choice-", "community.profile.ai_setting-"


@cache
def measures() -> dict[str, list[dict[str, Any]]]:
    """Per game kind, its measures (read once)."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return {kind: list(rows) for kind, rows in data.items() if not kind.startswith("_")}


def setting_name(key: str, lg: str) -> str:
    """A solo measure's setting in ``lg``: its short name (the game left to the title), else its catalog text."""
    short = SHORT_SETTING + key.removeprefix(DAILY_CHOICE)
    return i18n.t(short if key.startswith(DAILY_CHOICE) and i18n.has(short, lg) else key, lg)


def weaker_solo(kind: str, m: dict[str, Any]) -> dict[str, Any] | None:
    """The solo measure of the strongest level below ``m``'s on the same setting, if one was measured."""
    below = [o for o in measures().get(kind, []) if o["measure"] == "solo" and o["setting"] == m["setting"]
             and o["level"] < m["level"]]
    return max(below, key=lambda o: o["level"], default=None)


def lines(kind: str, level: int, level_name: Callable[[int], str], lg: str) -> list[str]:
    """The lines that describe ``kind``'s AI at ``level`` in ``lg`` (``level_name`` names a level); empty when
    nothing was measured."""
    out: list[str] = []
    for m in measures().get(kind, []):
        if m["measure"] == "duel" and m["other"] == level:
            out.append(i18n.t("community.profile.ai_duel_beaten", lg, other=level_name(m["level"]),
                              share=float(m["share"]), games=int(m["games"])))
            continue
        if m["level"] != level:
            continue
        params: dict[str, Any] = {"games": int(m["games"])}
        key = m["measure"]
        if key == "solo":
            params.update(setting=setting_name(m["setting"], lg), mean=float(m["mean"]))
            below = weaker_solo(kind, m)
            if below is not None:  # a mean says more beside the weaker level's on the same draws' setting
                key = "solo_above"
                params.update(below=float(below["mean"]), other=level_name(below["level"]))
        elif m["measure"] == "duel":
            params.update(other=level_name(m["other"]), share=float(m["share"]))
        elif m["measure"] in ("table", "word"):
            params.update(share=float(m["share"]), other=level_name(1))
        elif m["measure"] == "random":
            params.update(wins=int(m["wins"]))
        out.append(i18n.t(f"community.profile.ai_{key}", lg, **params))
    return out
