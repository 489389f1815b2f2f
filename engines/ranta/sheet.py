"""The kallax sheet and the dice table, loaded from ``data/ranta/``.

Coordinates are ``(x, y)``: ``x`` the column (0 = A, left), ``y`` the row from the
bottom of the whole shelf (0 = row 1). A cell is named by its column letter and
row number, ``"A1"`` (bottom-left) to ``"F6"`` (top-right). Nothing here is
game-state: it is the printed sheet and the printed dice table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "ranta"

Cell = tuple[int, int]

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
ORIENTATIONS = (HORIZONTAL, VERTICAL)


@dataclass(frozen=True)
class Cubby:
    """A casier: a rectangle of cells resting on its own bottom shelf (row ``y``)."""

    id: int
    x: int
    y: int
    w: int
    h: int

    def contains(self, cell: Cell) -> bool:
        return self.x <= cell[0] < self.x + self.w and self.y <= cell[1] < self.y + self.h

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w))


class Sheet:
    """The kallax: a grid of named cells split into cubbies."""

    def __init__(self, columns: str, rows: int, rounds: int, cubbies: list[Cubby]) -> None:
        self.columns = columns
        self.width = len(columns)
        self.rows = rows
        self.rounds = rounds
        self.cubbies = tuple(cubbies)
        self.cubby_at: dict[Cell, Cubby] = {}
        for cubby in self.cubbies:
            for cell in cubby.cells:
                if cell in self.cubby_at:
                    raise ValueError(f"cubbies overlap at {cell}")
                if not (0 <= cell[0] < self.width and 0 <= cell[1] < rows):
                    raise ValueError(f"cubby {cubby.id} leaves the grid")
                self.cubby_at[cell] = cubby
        #: every cell of the shelf in reading order from the bottom: A1, B1, ... F1, A2, ...
        self.cells: tuple[Cell, ...] = tuple(
            (x, y) for y in range(rows) for x in range(self.width) if (x, y) in self.cubby_at)
        self.names: tuple[str, ...] = tuple(self.name(c) for c in self.cells)
        #: canonical (upper-case) cell name -> cell
        self.by_name: dict[str, Cell] = {self.name(c): c for c in self.cells}

    def name(self, cell: Cell) -> str:
        """``(0, 0)`` -> ``"A1"``; cells beyond the grid get a name too (``"G1"``, ``"A7"``)."""
        x, y = cell
        letter = self.columns[x] if 0 <= x < self.width else chr(ord(self.columns[0]) + x)
        return f"{letter}{y + 1}"

    def parse(self, name: Any) -> Cell | None:
        """``"b3"`` -> ``(1, 2)``; None unless it names a cell of the shelf."""
        if not isinstance(name, str):
            return None
        return self.by_name.get(name.strip().upper())

    def supported(self, cell: Cell, occupied: set[Cell] | frozenset[Cell]) -> bool:
        """A cell rests on its cubby's shelf or on an occupied cell right below it."""
        cubby = self.cubby_at[cell]
        return cell[1] == cubby.y or (cell[0], cell[1] - 1) in occupied

    @lru_cache(maxsize=16)  # noqa: B019 - one Sheet per process, a handful of shapes
    def slots(self, width: int, height: int) -> tuple[tuple[Cell, tuple[Cell, ...], tuple[Cell, ...]], ...]:
        """Every ``width x height`` rectangle lying inside one cubby, sorted by column then row:
        ``(anchor, cells, bottom_cells)`` with the anchor its bottom-left cell."""
        out = []
        for anchor in sorted(self.cells):
            cells = tuple((x, y) for y in range(anchor[1], anchor[1] + height)
                          for x in range(anchor[0], anchor[0] + width))
            cubby = self.cubby_at[anchor]
            if all(self.cubby_at.get(c) is cubby for c in cells):
                out.append((anchor, cells, tuple(c for c in cells if c[1] == anchor[1])))
        return tuple(out)

    def to_view(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows,
                "cubbies": [{"id": c.id, "x": c.x, "y": c.y, "w": c.w, "h": c.h} for c in self.cubbies]}


@dataclass(frozen=True)
class SizeFace:
    faces: tuple[int, ...]
    cells: int
    long: int
    short: int

    def shape(self, orientation: str) -> tuple[int, int]:
        """(width, height) of the box: horizontal is wider than tall."""
        return (self.long, self.short) if orientation == HORIZONTAL else (self.short, self.long)


class Dice:
    """What a face means as size, category or mechanic."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.sizes = tuple(SizeFace(tuple(s["faces"]), s["cells"], s["long"], s["short"]) for s in raw["sizes"])
        self.categories = tuple(c["id"] for c in sorted(raw["categories"], key=lambda c: c["face"]))
        self.mechanics = tuple(m["id"] for m in sorted(raw["mechanics"], key=lambda m: m["face"]))
        self.symbols = {m["id"]: m["symbol"] for m in raw["mechanics"]}
        self._size_of = {f: s for s in self.sizes for f in s.faces}
        if sorted(self._size_of) != [1, 2, 3, 4, 5, 6] or len(self.categories) != 6 or len(self.mechanics) != 6:
            raise ValueError("the dice table must give a meaning to each face 1..6")

    def size(self, face: int) -> SizeFace:
        return self._size_of[face]

    def category(self, face: int) -> str:
        return self.categories[face - 1]

    def mechanic(self, face: int) -> str:
        return self.mechanics[face - 1]

    def meaning(self, face: int) -> dict[str, Any]:
        size = self.size(face)
        mech = self.mechanic(face)
        return {"face": face, "size": size.cells, "long": size.long, "short": size.short,
                "category": self.category(face), "mechanic": mech, "symbol": self.symbols[mech]}

    def to_view(self) -> dict[str, Any]:
        return {"sizes": [{"faces": list(s.faces), "cells": s.cells, "long": s.long, "short": s.short}
                          for s in self.sizes],
                "categories": list(self.categories),
                "mechanics": [{"id": m, "symbol": self.symbols[m]} for m in self.mechanics]}


def load_sheet(path: Path = DATA / "sheet.json") -> Sheet:
    raw = json.loads(path.read_text(encoding="utf-8"))
    cubbies = [Cubby(c["id"], c["x"], c["y"], c["w"], c["h"]) for c in raw["cubbies"]]
    return Sheet(raw["columns"], raw["rows"], raw["rounds"], cubbies)


def load_dice(path: Path = DATA / "dice.json") -> Dice:
    return Dice(json.loads(path.read_text(encoding="utf-8")))


SHEET = load_sheet()
DICE = load_dice()
