"""Scoring on plain data: ``cells`` maps a position name to a tile id.

Everything here is pure and independent of the game state, so the rulebook's
worked examples can be tested on hand-built boards:

* :func:`score_board` — scoring lines, bonus tiles and (optionally) the longest
  sun/moon ray of a Nexus or Orchidée board, as a per-rule breakdown whose
  ``total`` is the sum of its ``items``;
* :func:`dechetterie_value` — the best of the three Déchetterie options;
* :func:`relocation_options` / :func:`best_relocation` — every way to move the
  big-orchid tiles onto the small-orchid holes, scored exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations, permutations
from typing import Any

from engines.limit.boards import (
    DECHETTERIE,
    NEXUS,
    ORCHIDEE,
    PENALTY,
    PENALTY_THRESHOLD,
    RAY_POINTS,
    Board,
    Line,
)
from engines.limit.tiles import DIRECTIONS, TILES

BONUS_HALF_LINES = 2  # 2 scoring lines through a bonus tile: half bonus; 3: full


def _line_tiles(line: Line, cells: Mapping[str, str]) -> list[str] | None:
    """Tiles of ``line`` (filled holes included), or None if a hex is still empty."""
    out = []
    for c in line.cells:
        t = cells.get(c)
        if t is None:
            if c in line.holes:
                continue
            return None
        out.append(t)
    return out


def line_score(line: Line, cells: Mapping[str, str]) -> tuple[int, int] | None:
    """``(value, length)`` if ``line`` is a scoring line (complete, one colour), else None."""
    tiles = _line_tiles(line, cells)
    if not tiles:
        return None
    d = line.direction
    value = TILES[tiles[0]].values[d]
    for t in tiles[1:]:
        if TILES[t].values[d] != value:
            return None
    return value, len(tiles)


def scoring_lines(board: Board, cells: Mapping[str, str]) -> list[dict[str, Any]]:
    out = []
    for i, line in enumerate(board.lines):
        res = line_score(line, cells)
        if res is not None:
            value, length = res
            out.append({"line": i, "direction": DIRECTIONS[line.direction],
                        "cells": [c for c in line.cells if c in cells], "span": [line.cells[0], line.cells[-1]],
                        "value": value,
                        "length": length, "points": value * length})
    return out


def bonus_tiles(board: Board, cells: Mapping[str, str], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every bonus tile on ``board`` with the number of scoring lines through it and its points."""
    scoring = {ln["line"] for ln in lines}
    out = []
    for pos in (*board.names, *board.hole_names):
        tid = cells.get(pos)
        if tid is None or TILES[tid].bonus is None:
            continue
        tile = TILES[tid]
        through = sum(1 for i in board.line_ids_through[pos] if i in scoring)
        if through >= 3:
            points = tile.bonus_value
        elif through == BONUS_HALF_LINES:
            points = tile.bonus_value // 2
        else:
            points = 0
        out.append({"position": pos, "tile": tid, "kind": tile.bonus, "lines": through, "points": points})
    return out


def longest_ray(board: Board, cells: Mapping[str, str]) -> dict[str, Any] | None:
    """The single longest complete line of only suns or only moons (10 points a tile)."""
    best: dict[str, Any] | None = None
    lengths = {True: 0, False: 0}
    for line in board.lines:
        tiles = _line_tiles(line, cells)
        if not tiles:
            continue
        sun = TILES[tiles[0]].sun
        if any(TILES[t].sun != sun for t in tiles[1:]):
            continue
        lengths[sun] = max(lengths[sun], len(tiles))
        if best is None or len(tiles) > best["length"]:
            best = {"kind": "sun" if sun else "moon", "length": len(tiles),
                    "points": RAY_POINTS * len(tiles), "cells": [c for c in line.cells if c in cells]}
    if best is not None:
        best["tie"] = lengths[True] == lengths[False]
    return best


def score_board(board: Board, cells: Mapping[str, str], rays: bool) -> dict[str, Any]:
    """Breakdown of a main board (Nexus or Orchidée): ``items`` sum to ``total``."""
    lines = scoring_lines(board, cells)
    bonuses = bonus_tiles(board, cells, lines)
    ray = longest_ray(board, cells) if rays else None
    items = {"lines": sum(ln["points"] for ln in lines), "bonuses": sum(b["points"] for b in bonuses)}
    if rays:
        items["ray"] = ray["points"] if ray else 0
    return {"board": board.key, "lines": lines, "bonuses": bonuses, "ray": ray, "items": items,
            "total": sum(items.values())}


def score_nexus(cells: Mapping[str, str], rays: bool = True) -> dict[str, Any]:
    return score_board(NEXUS, cells, rays)


def score_orchid(cells: Mapping[str, str], rays: bool = False) -> dict[str, Any]:
    """Orchidée board; ``cells`` includes the holes ``A``/``B``/``C`` that were filled."""
    return score_board(ORCHIDEE, cells, rays)


def dechetterie_value(cells: Mapping[str, str]) -> dict[str, Any]:
    """The Déchetterie value: the best of its 3 best scoring lines, its 2 best silver
    bonuses (full or half), its single best gold bonus. No rays on the Déchetterie.

    Returns ``{"value", "option" ("lines"|"silver"|"gold"|None), "options": {..},
    "lines", "bonuses", "counted"}`` where ``counted`` lists what made the value.
    """
    lines = scoring_lines(DECHETTERIE, cells)
    bonuses = bonus_tiles(DECHETTERIE, cells, lines)
    best_lines = sorted(lines, key=lambda ln: -ln["points"])[:3]
    silver = sorted((b for b in bonuses if b["kind"] == "silver" and b["points"]), key=lambda b: -b["points"])[:2]
    gold = sorted((b for b in bonuses if b["kind"] == "gold" and b["points"]), key=lambda b: -b["points"])[:1]
    options = {"lines": sum(ln["points"] for ln in best_lines),
               "silver": sum(b["points"] for b in silver),
               "gold": sum(b["points"] for b in gold)}
    counted = {"lines": best_lines, "silver": silver, "gold": gold}
    option = max(options, key=lambda k: options[k])  # first of lines/silver/gold on ties
    value = options[option]
    return {"value": value, "option": option if value else None, "options": options,
            "lines": lines, "bonuses": bonuses, "counted": counted[option] if value else []}


def threshold_penalty(value: int) -> int:
    """Standard rule: a Déchetterie value below 60 costs 60 points."""
    return PENALTY if value < PENALTY_THRESHOLD else 0


def shared_penalties(values: list[int], lowest: bool) -> list[int]:
    """Variants: the lowest (or highest) Déchetterie pays 60, shared equally on ties."""
    target = min(values) if lowest else max(values)
    losers = [i for i, v in enumerate(values) if v == target]
    return [PENALTY // len(losers) if i in losers else 0 for i in range(len(values))]


# --- Orchidée relocation -------------------------------------------------------

def relocation_moves(orchid: Iterable[str], holes: Iterable[str] = ORCHIDEE.hole_names) -> list[dict[str, str]]:
    """Every way to move some of the big-orchid tiles onto empty holes (hole -> tile),
    the empty move first (at most 34 for three tiles and three holes)."""
    tiles = list(orchid)
    holes = list(holes)
    out: list[dict[str, str]] = []
    for k in range(min(len(tiles), len(holes)) + 1):
        for hs in combinations(holes, k):
            for ts in permutations(tiles, k):
                out.append(dict(zip(hs, ts, strict=True)))
    return out


def relocation_options(cells: Mapping[str, str], orchid: Iterable[str], rays: bool = False) -> list[dict[str, Any]]:
    """Every relocation with its exact score and gain, best first (fewest moves on ties)."""
    base = score_orchid(cells, rays)["total"]
    opts = []
    empty = [h for h in ORCHIDEE.hole_names if h not in cells]
    for moves in relocation_moves(orchid, empty):
        total = score_orchid({**cells, **moves}, rays)["total"] if moves else base
        opts.append({"moves": moves, "score": total, "gain": total - base})
    opts.sort(key=lambda o: (-o["score"], len(o["moves"]), sorted(o["moves"].items())))
    return opts


def best_relocation(cells: Mapping[str, str], orchid: Iterable[str], rays: bool = False) -> dict[str, Any]:
    """The exact best relocation: ``{"moves": {hole: tile}, "score": .., "gain": ..}``."""
    return relocation_options(cells, orchid, rays)[0]


def relocation_gain(cells: Mapping[str, str], moves: Mapping[str, str], rays: bool = False) -> int:
    """Points won (or lost, negative) by filling the holes as in ``moves``."""
    return score_orchid({**cells, **moves}, rays)["total"] - score_orchid(cells, rays)["total"]
