"""The 64 Take it to the Limit tiles, generated from the rule in data/limit/tiles.json.

A tile carries one value per direction: ``vertical`` (1 4 9 12), ``sw_ne``
(2 6 7 11) and ``nw_se`` (3 5 8 10). Its id is ``"vertical-sw_ne-nw_se"``, e.g.
``"1-11-10"``. Whether it is a sun or a moon, and whether it is a gold or silver
bonus tile, follow from the indices of its values (see the data file); nothing
is typed by hand. :func:`check_tiles` verifies the counts the rulebook states.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "limit"

with (DATA_DIR / "tiles.json").open(encoding="utf-8") as _fh:
    RULE: dict[str, Any] = json.load(_fh)

#: Direction keys in tile-id order.
DIRECTIONS: tuple[str, ...] = tuple(d["key"] for d in RULE["directions"])
VERTICAL, SW_NE, NW_SE = 0, 1, 2
DIRECTION_INDEX = {k: i for i, k in enumerate(DIRECTIONS)}
VALUES: tuple[tuple[int, ...], ...] = tuple(tuple(d["values"]) for d in RULE["directions"])
COLOURS: tuple[tuple[str, ...], ...] = tuple(tuple(d["colours"]) for d in RULE["directions"])


@dataclass(frozen=True)
class Tile:
    id: str
    values: tuple[int, int, int]  # (vertical, sw_ne, nw_se)
    colours: tuple[str, str, str]
    sun: bool
    bonus: str | None  # "gold", "silver" or None
    bonus_value: int  # full bonus value (80 / 40), 0 for plain tiles

    def view(self) -> dict[str, Any]:
        """JSON-safe description for views and renderers."""
        return {"id": self.id, "values": list(self.values), "colours": list(self.colours),
                "sun": self.sun, "bonus": self.bonus}


def tile_id(values: tuple[int, int, int] | list[int]) -> str:
    return "-".join(str(v) for v in values)


def generate_tiles(rule: dict[str, Any] = RULE) -> dict[str, Tile]:
    """Every combination of one value per direction, with sun/moon and bonus from ``rule``."""
    values = [d["values"] for d in rule["directions"]]
    colours = [d["colours"] for d in rule["directions"]]
    parity = rule["sun_rule"]["index_sum_parity"]
    bonus_idx = [set(ix) for ix in rule["bonus_rule"]["indices"]]
    gold = {tuple(g) for g in rule["bonus_rule"]["gold"]}
    bonus_values = rule["bonus_rule"]["values"]
    tiles: dict[str, Tile] = {}
    for idx in product(*(range(len(v)) for v in values)):
        vals = tuple(values[d][i] for d, i in enumerate(idx))
        cols = tuple(colours[d][i] for d, i in enumerate(idx))
        sun = sum(idx) % 2 == parity
        bonus = None
        if all(i in bonus_idx[d] for d, i in enumerate(idx)):
            bonus = "gold" if tuple(idx) in gold else "silver"
        tid = tile_id(vals)
        tiles[tid] = Tile(tid, vals, cols, sun, bonus, bonus_values[bonus] if bonus else 0)  # type: ignore[arg-type]
    return tiles


def check_tiles(tiles: dict[str, Tile], rule: dict[str, Any] = RULE) -> None:
    """Raise ValueError unless the set matches the rulebook's counts."""
    checks = rule["checks"]
    if len(tiles) != checks["tiles"]:
        raise ValueError(f"{len(tiles)} tiles, expected {checks['tiles']}")
    suns = [t for t in tiles.values() if t.sun]
    moons = [t for t in tiles.values() if not t.sun]
    if len(suns) != checks["suns"] or len(moons) != checks["moons"]:
        raise ValueError(f"{len(suns)} suns / {len(moons)} moons")
    for half in (suns, moons):
        for kind, count in checks["per_half_set"].items():
            got = sum(1 for t in half if t.bonus == kind)
            if got != count:
                raise ValueError(f"half-set has {got} {kind} bonus tiles, expected {count}")
        for d, vals in enumerate(VALUES):
            for v in vals:
                n = sum(1 for t in half if t.values[d] == v)
                if n != len(half) // len(vals):
                    raise ValueError(f"value {v} appears on {n} tiles of a half-set")


TILES: dict[str, Tile] = generate_tiles()
check_tiles(TILES)
#: Sorted as players sort them: by vertical value, then the two diagonals.
ALL_TILE_IDS: tuple[str, ...] = tuple(sorted(TILES, key=lambda t: TILES[t].values))
SUN_IDS: tuple[str, ...] = tuple(t for t in ALL_TILE_IDS if TILES[t].sun)
MOON_IDS: tuple[str, ...] = tuple(t for t in ALL_TILE_IDS if not TILES[t].sun)


def normalise_tile_id(raw: Any) -> str | None:
    """``" 1 - 11 - 10 "`` / ``"1/11/10"`` / ``[1, 11, 10]`` -> ``"1-11-10"`` if such a tile exists."""
    if isinstance(raw, (list, tuple)):
        parts = [str(p) for p in raw]
    elif isinstance(raw, str):
        parts = [p for p in raw.replace("/", "-").replace(" ", "-").split("-") if p]
    else:
        return None
    tid = "-".join(parts)
    return tid if tid in TILES else None
