"""Scoring on plain data: a sheet is a list of items ``{"cells": [...], "category", "mechanic"}``.

A *game* (a box) has a category letter (T A C P F R) and a mechanic id; a *mat*
(tapis) has neither (``category`` None). Cells are names (``"A1"``). Every rule
returns a breakdown entry ``{"rule", "points", "detail"}``; the total is always
the sum of the breakdown. Rule ids (catalog keys ``ranta.rule.<id>``):

* classic: ``category_group`` (detail: category, games, boxes), ``mechanic_group``
  (mechanic, games, boxes), ``empty_cells`` (empty);
* expert: ``category_T`` ... ``category_R`` and ``mechanic_bluff`` ...
  ``mechanic_secret_role`` (detail: category or mechanic, games, scoring, boxes),
  ``full_cubby`` (cubby, games), ``empty_cells`` (empty).

Entries worth 0 points are left out, except ``empty_cells`` (always present) and
``full_cubby`` (present for every full cubby).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.ranta.sheet import DICE, SHEET, Cell, Sheet

CLASSIC = "classique"
EXPERT = "expert"
MODES = (CLASSIC, EXPERT)

Entry = dict[str, Any]


@dataclass
class Game:
    index: int
    cells: frozenset[Cell]
    anchor: str
    category: str
    mechanic: str
    cubby: int
    width: int
    height: int

    @property
    def size(self) -> int:
        return len(self.cells)


class Layout:
    """A sheet's items parsed once: the games, occupied cells and game adjacency."""

    def __init__(self, items: Iterable[Mapping[str, Any]], sheet: Sheet = SHEET) -> None:
        self.sheet = sheet
        self.occupied: set[Cell] = set()
        self.games: list[Game] = []
        owner: dict[Cell, int] = {}
        by_name = sheet.by_name
        for item in items:
            cells = []
            for name in item["cells"]:
                cell = by_name.get(name) or sheet.parse(name)
                if cell is None:
                    raise ValueError(f"{name!r} is not a cell of the shelf")
                cells.append(cell)
            self.occupied.update(cells)
            if item.get("category") is None:
                continue  # a mat: fills a cell, is not a game
            xs = [c[0] for c in cells]
            ys = [c[1] for c in cells]
            anchor = sheet.name((min(xs), min(ys)))
            game = Game(len(self.games), frozenset(cells), anchor, item["category"], item["mechanic"],
                        sheet.cubby_at[cells[0]].id, max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            for cell in cells:
                owner[cell] = game.index
            self.games.append(game)
        self.neighbours: list[set[int]] = [set() for _ in self.games]
        for game in self.games:
            for x, y in game.cells:
                for other in (owner.get((x + 1, y)), owner.get((x - 1, y)),
                              owner.get((x, y + 1)), owner.get((x, y - 1))):
                    if other is not None and other != game.index:
                        self.neighbours[game.index].add(other)
        self.by_cubby: dict[int, list[Game]] = {c.id: [] for c in sheet.cubbies}
        for game in self.games:
            self.by_cubby[game.cubby].append(game)

    @property
    def empty(self) -> int:
        return len(self.sheet.cells) - len(self.occupied)

    def largest_group(self, members: list[Game]) -> list[Game]:
        """Largest set of ``members`` connected through orthogonal adjacency."""
        left = {g.index for g in members}
        best: list[int] = []
        while left:
            start = min(left)
            left.discard(start)
            group, todo = [start], [start]
            while todo:
                for n in self.neighbours[todo.pop()]:
                    if n in left:
                        left.discard(n)
                        group.append(n)
                        todo.append(n)
            if len(group) > len(best):
                best = group
        return [self.games[i] for i in sorted(best)]


def _empty_entry(layout: Layout) -> Entry:
    return {"rule": "empty_cells", "points": -layout.empty, "detail": {"empty": layout.empty}}


def classic_breakdown(items: Iterable[Mapping[str, Any]], sheet: Sheet = SHEET) -> list[Entry]:
    """Largest group per category and per mechanic (>= 2 games: 1 point a game); -1 per empty cell."""
    layout = Layout(items, sheet)
    out: list[Entry] = []
    for attr, rule in (("category", "category_group"), ("mechanic", "mechanic_group")):
        values = DICE.categories if attr == "category" else DICE.mechanics
        for value in values:
            group = layout.largest_group([g for g in layout.games if getattr(g, attr) == value])
            if len(group) >= 2:
                out.append({"rule": rule, "points": len(group),
                            "detail": {attr: value, "games": len(group), "boxes": [g.anchor for g in group]}})
    out.append(_empty_entry(layout))
    return out


def _category_points(layout: Layout, game: Game) -> int:
    cubby_games = layout.by_cubby[game.cubby]
    if game.category == "T":
        distinct = (len({g.category for g in cubby_games}) == len(cubby_games)
                    and len({g.mechanic for g in cubby_games}) == len(cubby_games))
        return len(cubby_games) if distinct else 0
    if game.category == "A":
        shelf = next(c for c in layout.sheet.cubbies if c.id == game.cubby).y
        return 2 if all(y != shelf for _, y in game.cells) else 0
    if game.category == "C":
        return sum(1 for g in cubby_games if g.category == "C" and g is not game)
    if game.category == "P":
        return 1 if game.width > game.height else 0
    if game.category == "F":
        return 1 if game.size == 6 else 0
    if game.category == "R":
        return 1 if game.height > game.width else 0
    raise ValueError(f"unknown category {game.category!r}")


def _mechanic_points(layout: Layout, game: Game) -> int:
    mech = game.mechanic
    if mech == "bluff":
        return sum(1 for n in layout.neighbours[game.index]
                   if layout.games[n].category == game.category or layout.games[n].mechanic == mech)
    if mech == "deduction":
        return 1 if game.size == 2 else 0
    if mech == "deck_building":
        return sum(1 for g in layout.by_cubby[game.cubby] if g.mechanic != "deck_building")
    if mech == "programming":
        return sum(1 for n in layout.neighbours[game.index] if layout.games[n].mechanic == "programming")
    if mech == "memory":
        return min(3, sum(1 for g in layout.games if g.mechanic == "memory"))
    if mech == "secret_role":
        return 5 if sum(1 for g in layout.games if g.mechanic == "secret_role") == 1 else 0
    raise ValueError(f"unknown mechanic {mech!r}")


def expert_breakdown(items: Iterable[Mapping[str, Any]], sheet: Sheet = SHEET) -> list[Entry]:
    """Each game's category and mechanic effect, +2 a game per full cubby, -1 per empty cell."""
    layout = Layout(items, sheet)
    out: list[Entry] = []
    for attr, values, points_of in (("category", DICE.categories, _category_points),
                                    ("mechanic", DICE.mechanics, _mechanic_points)):
        for value in values:
            games = [g for g in layout.games if getattr(g, attr) == value]
            scored = [(g, points_of(layout, g)) for g in games]
            points = sum(p for _, p in scored)
            if points:
                out.append({"rule": f"{attr}_{value}", "points": points,
                            "detail": {attr: value, "games": len(games),
                                       "scoring": sum(1 for _, p in scored if p),
                                       "boxes": [g.anchor for g, p in scored if p]}})
    for cubby in sheet.cubbies:
        if all(cell in layout.occupied for cell in cubby.cells):
            n = len(layout.by_cubby[cubby.id])
            out.append({"rule": "full_cubby", "points": 2 * n, "detail": {"cubby": cubby.id, "games": n}})
    out.append(_empty_entry(layout))
    return out


def score(items: Iterable[Mapping[str, Any]], mode: str, sheet: Sheet = SHEET) -> dict[str, Any]:
    """``{"total", "breakdown", "empty"}`` of a sheet in ``mode`` ("classique" or "expert")."""
    items = list(items)
    if mode == CLASSIC:
        breakdown = classic_breakdown(items, sheet)
    elif mode == EXPERT:
        breakdown = expert_breakdown(items, sheet)
    else:
        raise ValueError(f"unknown scoring mode {mode!r}")
    empty = next(e["detail"]["empty"] for e in breakdown if e["rule"] == "empty_cells")
    return {"total": sum(e["points"] for e in breakdown), "breakdown": breakdown, "empty": empty}
