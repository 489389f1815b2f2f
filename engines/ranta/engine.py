"""Range ta Ludothèque — the simultaneous roll-and-write of game boxes in a kallax.

Rules: ../shared/rules/range-ta-ludotheque.md and docs/rules/ranta.md. Each of the
12 rounds, three shared dice are rolled; every player, privately and at their own
pace, assigns one die to the box size, one to its category, one to its mechanic,
and stores the box in their kallax (inside one cubby, no overlap, fully
supported) — or draws a 1-cell mat. The round closes when everyone has placed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any

from engines.base import (
    Action,
    Event,
    Option,
    Result,
    RuleError,
    View,
    check_new_game,
    derive_rng,
    rank_by,
    refusal_from_events,
    unstamp_schema,
)
from engines.ranta.scoring import CLASSIC, MODES, score
from engines.ranta.sheet import DICE, ORIENTATIONS, SHEET, Cell

BOX = "box"
MAT = "mat"
PASS = "pass"


#: the moves that can never be taken back (issue 26): the one that closed a round (the
#: placements are revealed) and rolled the next dice
TAKEBACK_REVEALING = {"rolled": "undo.reason.dice", "round_closed": "undo.reason.round_closed"}


@dataclass(frozen=True)

class Item:
    """Something drawn in a kallax: a box (game) or a mat (tapis)."""

    kind: str  # "box" | "mat"
    round: int  # the round it was drawn in (1..12)
    cells: tuple[str, ...]  # cell names, reading order from the bottom
    anchor: str  # bottom-left cell
    category: str | None = None
    mechanic: str | None = None
    orientation: str | None = None
    dice: tuple[int, ...] = ()  # faces used as (size, category, mechanic)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "cells": list(self.cells), "anchor": self.anchor,
                "category": self.category, "mechanic": self.mechanic, "orientation": self.orientation,
                "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Item:
        return cls(kind=d["kind"], round=d["round"], cells=tuple(d["cells"]), anchor=d["anchor"],
                   category=d.get("category"), mechanic=d.get("mechanic"),
                   orientation=d.get("orientation"), dice=tuple(d.get("dice", ())))

    def to_view(self) -> dict[str, Any]:
        d = self.to_dict()
        d["size"] = len(self.cells)
        d["symbol"] = DICE.symbols.get(self.mechanic) if self.mechanic else None
        return d


@dataclass(frozen=True)
class State:
    seed: int
    players: int
    mode: str
    round_no: int  # current round, 1..rounds (stays at the last round once finished)
    rolls: tuple[tuple[int, ...], ...]  # dice of every round so far, the current one last
    sheets: tuple[tuple[Item, ...], ...]  # per seat, in drawing order
    placed: tuple[bool, ...]  # per seat: has placed (or passed) this round
    finished: bool = False
    out: tuple[int, ...] = ()  # seats the other players voted out (they draw no more; always "placed")

    @property
    def dice(self) -> tuple[int, ...]:
        return self.rolls[-1]


def roll(seed: int, round_no: int) -> tuple[int, int, int]:
    """The three shared dice of ``round_no``, derived from the seed."""
    rng = derive_rng(seed, "dice", round_no)
    return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def _occupied(items: tuple[Item, ...]) -> set[Cell]:
    by_name = SHEET.by_name
    return {by_name[name] for item in items for name in item.cells}


def _dice_indices(assignment: Any) -> tuple[int, int, int]:
    """``[size_die, category_die, mechanic_die]`` (or a dict with ``"dice"``) -> checked tuple."""
    raw = assignment.get("dice") if isinstance(assignment, dict) else assignment
    if (isinstance(raw, (list, tuple)) and len(raw) == 3
            and all(isinstance(i, int) and not isinstance(i, bool) for i in raw)
            and sorted(raw) == [0, 1, 2]):
        return (raw[0], raw[1], raw[2])
    raise RuleError("ranta.error.bad_dice", dice=str(raw))


def _orientation(value: Any) -> str:
    if value not in ORIENTATIONS:
        raise RuleError("ranta.error.bad_orientation", orientation=str(value))
    return value


def _anchor(value: Any) -> Cell:
    cell = SHEET.parse(value)
    if cell is None:
        raise RuleError("ranta.error.bad_cell", cell=str(value))
    return cell


def _rect(anchor: Cell, width: int, height: int) -> list[Cell]:
    x0, y0 = anchor
    return [(x, y) for y in range(y0, y0 + height) for x in range(x0, x0 + width)]


def fit_error(occupied: set[Cell], cells: list[Cell]) -> tuple[str, dict[str, Any]] | None:
    """Why ``cells`` (anchor first) cannot be drawn, as ``(key, params)``, or None if they fit.

    Checked in order: outside the shelf, across a cubby wall, overlap, unsupported.
    """
    anchor = SHEET.name(cells[0])
    for cell in cells:
        if cell not in SHEET.cubby_at:
            return "ranta.error.outside", {"cell": anchor, "over": SHEET.name(cell)}
    cubby = SHEET.cubby_at[cells[0]]
    for cell in cells:
        if SHEET.cubby_at[cell] is not cubby:
            return "ranta.error.crosses_cubby", {"cell": anchor, "over": SHEET.name(cell), "cubby": cubby.id}
    for cell in cells:
        if cell in occupied:
            return "ranta.error.overlap", {"cell": anchor, "over": SHEET.name(cell)}
    bottom = min(y for _, y in cells)
    for cell in cells:
        if cell[1] == bottom and not SHEET.supported(cell, occupied):
            return "ranta.error.unsupported", {"cell": anchor, "over": SHEET.name(cell)}
    return None


def _free_slots(occupied: set[Cell], width: int, height: int) -> list[Cell]:
    """Anchors where a ``width x height`` rectangle fits (the fast path of :func:`fit_error`)."""
    cubby_at = SHEET.cubby_at
    out = []
    for anchor, cells, bottom in SHEET.slots(width, height):
        if occupied.isdisjoint(cells) and all(
                c[1] == cubby_at[c].y or (c[0], c[1] - 1) in occupied for c in bottom):
            out.append(anchor)
    return out


def _items_data(items: tuple[Item, ...]) -> list[dict[str, Any]]:
    return [{"cells": it.cells, "category": it.category, "mechanic": it.mechanic} for it in items]


class RantaEngine:
    name = "ranta"
    min_players = 1
    max_players = 8
    has_ai = True
    ai_levels = (1, 1)  # the AI levels a lobby may ask for
    simultaneous = True
    SCHEMA = 1
    options = (Option("mode", CLASSIC, choices=MODES),)
    rounds = SHEET.rounds

    # --- setup -----------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        return State(seed=seed, players=players, mode=opts["mode"], round_no=1, rolls=(roll(seed, 1),),
                     sheets=((),) * players, placed=(False,) * players)

    # --- helpers for the cog (legal choices, preview) ----------------------------
    def assignments(self, state: State) -> list[dict[str, Any]]:
        """The distinct ways to assign this round's dice, in a stable order.

        Each: ``{"dice": [size_die, category_die, mechanic_die], "faces": [...], "size": 3,
        "long": 3, "short": 1, "category": "C", "mechanic": "bluff", "symbol": "☾"}``; two
        permutations giving the same box (size, category, mechanic) are listed once.
        """
        out, seen = [], set()
        dice = state.dice
        for perm in permutations(range(3)):
            faces = [dice[i] for i in perm]
            size = DICE.size(faces[0])
            key = (size.cells, DICE.category(faces[1]), DICE.mechanic(faces[2]))
            if key in seen:
                continue
            seen.add(key)
            out.append({"dice": list(perm), "faces": faces, "size": size.cells, "long": size.long,
                        "short": size.short, "category": key[1], "mechanic": key[2],
                        "symbol": DICE.symbols[key[2]]})
        return out

    def _box_cells(self, state: State, dice: tuple[int, int, int], orientation: str, anchor: Cell) -> list[Cell]:
        width, height = DICE.size(state.dice[dice[0]]).shape(orientation)
        return _rect(anchor, width, height)

    def legal_placements(self, state: State, seat: int, assignment: Any, orientation: str) -> list[str]:
        """Cell names where the box of ``assignment`` fits with ``orientation`` (its bottom-left cell).

        Sorted by column then row (A1, A2, ..., B1, ...). Empty once the seat has placed.
        """
        if state.finished or not 0 <= seat < state.players or state.placed[seat]:
            return []
        dice = _dice_indices(assignment)
        orientation = _orientation(orientation)
        width, height = DICE.size(state.dice[dice[0]]).shape(orientation)
        return self._anchors(state.sheets[seat], width, height)

    def _anchors(self, items: tuple[Item, ...], width: int, height: int) -> list[str]:
        return [SHEET.name(c) for c in _free_slots(_occupied(items), width, height)]

    def legal_mats(self, state: State, seat: int) -> list[str]:
        """Cells where a mat may go (empty and supported), sorted by column then row."""
        if state.finished or not 0 <= seat < state.players or state.placed[seat]:
            return []
        return self._anchors(state.sheets[seat], 1, 1)

    def can_place_box(self, state: State, seat: int) -> bool:
        return any(self.legal_placements(state, seat, a["dice"], o)
                   for a in self.assignments(state) for o in ORIENTATIONS)

    def action_cells(self, state: State, seat: int, action: Action) -> list[str]:
        """The cells ``action`` would fill (for a preview); raises RuleError exactly as ``apply`` would."""
        _, item, _ = self._check(state, seat, action)
        return list(item.cells) if item else []

    # --- turn structure --------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        if state.finished:
            return set()
        return {s for s in range(state.players) if not state.placed[s]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.finished or not 0 <= seat < state.players or state.placed[seat]:
            return []
        r = state.round_no
        items = state.sheets[seat]
        anchors: dict[tuple[int, int], list[str]] = {}
        actions: list[Action] = []
        for a in self.assignments(state):
            for orientation in ORIENTATIONS:
                shape = DICE.size(state.dice[a["dice"][0]]).shape(orientation)
                if shape not in anchors:
                    anchors[shape] = self._anchors(items, *shape)
                actions += [{"type": BOX, "round": r, "dice": list(a["dice"]), "orientation": orientation,
                             "cell": cell} for cell in anchors[shape]]
        mats = self._anchors(items, 1, 1)
        actions += [{"type": MAT, "round": r, "cell": cell} for cell in mats]
        if not mats:
            actions.append({"type": PASS, "round": r})
        return actions

    def _check(self, state: State, seat: int, action: Action) -> tuple[str, Item | None, Cell | None]:
        """Validate ``action`` for ``seat``; returns (kind, item to draw or None for a pass, anchor)."""
        if state.finished:
            raise RuleError("common.error.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise RuleError("common.error.not_your_turn")
        if seat in state.out:
            raise RuleError("ranta.error.removed")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in (BOX, MAT, PASS):
            raise RuleError("common.error.unknown_action", action=str(kind))
        rnd = action.get("round")
        if not isinstance(rnd, int) or isinstance(rnd, bool):
            raise RuleError("ranta.error.missing_round", current=state.round_no)
        if rnd != state.round_no:
            raise RuleError("ranta.error.stale_round", round=rnd, current=state.round_no)
        if state.placed[seat]:
            raise RuleError("ranta.error.already_placed", round=state.round_no)
        items = state.sheets[seat]
        occupied = _occupied(items)
        if kind == PASS:
            mats = self._anchors(items, 1, 1)
            if mats:
                raise RuleError("ranta.error.must_place", cell=mats[0])
            return kind, None, None
        anchor = _anchor(action.get("cell"))
        if kind == MAT:
            cells = [anchor]
            dice: tuple[int, int, int] | None = None
            orientation = None
        else:
            dice = _dice_indices(action.get("dice"))
            orientation = _orientation(action.get("orientation"))
            cells = self._box_cells(state, dice, orientation, anchor)
        why = fit_error(occupied, cells)
        if why is not None:
            raise RuleError(why[0], **why[1])
        names = tuple(SHEET.name(c) for c in sorted(cells, key=lambda c: (c[1], c[0])))
        if kind == MAT:
            return kind, Item(MAT, state.round_no, names, SHEET.name(anchor)), anchor
        faces = tuple(state.dice[i] for i in dice)  # type: ignore[union-attr]
        item = Item(BOX, state.round_no, names, SHEET.name(anchor), category=DICE.category(faces[1]),
                    mechanic=DICE.mechanic(faces[2]), orientation=orientation, dice=faces)
        return kind, item, anchor

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        kind, item, _ = self._check(state, seat, action)
        sheets = list(state.sheets)
        if item is not None:
            sheets[seat] = sheets[seat] + (item,)
        placed = list(state.placed)
        placed[seat] = True
        new = replace(state, sheets=tuple(sheets), placed=tuple(placed))
        r = state.round_no
        waiting = placed.count(False)
        events: list[Event] = []
        if kind == PASS:
            events.append({"type": "passed", "seat": seat, "round": r, "waiting": waiting})
        else:
            events.append({"type": "placed", "seat": seat, "round": r, "waiting": waiting})
            assert item is not None
            if kind == BOX:
                events.append({"type": "box_placed", "private_to": seat, "seat": seat, "round": r,
                               "cell": item.anchor, "size": len(item.cells), "category": item.category,
                               "mechanic": item.mechanic, "symbol": DICE.symbols[item.mechanic or ""],
                               "orientation": item.orientation})
            else:
                events.append({"type": "mat_placed", "private_to": seat, "seat": seat, "round": r,
                               "cell": item.anchor})
        if waiting:
            return new, events
        return self._close_round(new, events)

    def _close_round(self, new: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Everyone still in has placed: the next round's dice, or the end after the last round."""
        state, r = new, new.round_no
        events.append({"type": "round_closed", "round": r, "players": new.players})
        if r >= self.rounds:
            new = replace(new, finished=True)
            res = self.result(new)
            assert res is not None
            events.append({"type": "game_over", "winners": res.winners, "scores": res.scores})
            return new, events
        dice = roll(state.seed, r + 1)
        new = replace(new, round_no=r + 1, rolls=state.rolls + (dice,),
                      placed=tuple(s in state.out for s in range(state.players)))
        events.append({"type": "rolled", "round": r + 1, "dice": list(dice),
                       "d1": dice[0], "d2": dice[1], "d3": dice[2]})
        return new, events

    # --- a stalled player voted out (issue 15) ----------------------------------
    def remove_seat(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """The other players voted ``seat`` out: each kallax is filled on its own, so the others go
        on. The seat draws no more (its kallax is scored as it stands) and is ranked after every
        player still in; if it was the last one the round waited for, the round closes."""
        if state.finished:
            raise RuleError("common.error.game_over")
        if not 0 <= seat < state.players or seat in state.out:
            raise RuleError("common.error.not_a_player", game="-")
        if state.players - len(state.out) - 1 < 1:
            raise RuleError("ranta.error.too_few_left", min=1)
        placed = list(state.placed)
        placed[seat] = True
        new = replace(state, placed=tuple(placed), out=tuple(sorted((*state.out, seat))))
        events: list[Event] = [{"type": "seat_removed", "seat": seat}]
        if all(placed):
            return self._close_round(new, events)
        return new, events

    # --- information -----------------------------------------------------------
    def visible_items(self, state: State, owner: int, viewer: int | None) -> tuple[Item, ...]:
        """``owner``'s items that ``viewer`` may see: the current round's are the owner's own secret."""
        items = state.sheets[owner]
        if state.finished or viewer == owner:
            return items
        return tuple(it for it in items if it.round < state.round_no)

    def view(self, state: State, seat: int | None) -> View:
        sheets = []
        for owner in range(state.players):
            items = self.visible_items(state, owner, seat)
            sc = score(_items_data(items), state.mode)
            sheets.append({"seat": owner, "items": [it.to_view() for it in items], "score": sc["total"],
                           "breakdown": sc["breakdown"], "empty": sc["empty"]})
        res = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "mode": state.mode,
            "round": state.round_no,
            "rounds": self.rounds,
            "dice": list(state.dice),
            "dice_meaning": [DICE.meaning(f) for f in state.dice],
            "placed": list(state.placed),
            "out": list(state.out),
            "waiting": sorted(self.expected(state)),
            "finished": state.finished,
            "sheet": SHEET.to_view(),
            "faces": DICE.to_view(),
            "sheets": sheets,
            "result": res.to_dict() if res else None,
        }

    def preview(self, state: State, seat: int, action: Action) -> View:
        """What ``seat`` sees with ``action`` made, and nothing it may not know yet: the box (or mat)
        drawn in its own kallax alone, the round left open — the dice stay this round's, the next
        round's are never rolled, no other kallax is revealed. Raises the RuleError :meth:`apply` would.

        ``preview``: the cells drawn (and the box's category and mechanic), the seat's score before and
        after, and what each scoring rule adds or takes away."""
        kind, item, _ = self._check(state, seat, action)
        before = self.view(state, seat)["sheets"][seat]
        sheets, placed = list(state.sheets), list(state.placed)
        if item is not None:
            sheets[seat] = sheets[seat] + (item,)
        placed[seat] = True
        view = self.view(replace(state, sheets=tuple(sheets), placed=tuple(placed)), seat)
        after = view["sheets"][seat]
        change: dict[str, int] = {}
        for sign, sheet in ((-1, before), (1, after)):
            for entry in sheet["breakdown"]:
                change[entry["rule"]] = change.get(entry["rule"], 0) + sign * entry["points"]
        view["preview"] = {"type": kind, "cells": list(item.cells) if item else [],
                           "category": item.category if item else None, "mechanic": item.mechanic if item else None,
                           "before": before["score"], "after": after["score"],
                           "change": {rule: n for rule, n in change.items() if n}}
        return view

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        scored = [score(_items_data(items), state.mode) for items in state.sheets]
        # a seat voted out ranks after every player still in (then by score, fewer empty cells)
        ranks = rank_by([(seat not in state.out, s["total"], -s["empty"]) for seat, s in enumerate(scored)])
        return Result(scores=[s["total"] for s in scored], ranks=ranks,
                      details={"mode": state.mode, "empty": [s["empty"] for s in scored],
                               "breakdowns": [s["breakdown"] for s in scored],
                               "tie_break": "fewer_empty_cells"})

    # --- persistence -----------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        return {"schema": self.SCHEMA, "seed": state.seed, "players": state.players, "mode": state.mode,
                "round_no": state.round_no, "rolls": [list(r) for r in state.rolls],
                "sheets": [[it.to_dict() for it in items] for items in state.sheets],
                "placed": list(state.placed), "finished": state.finished,
                **({"out": list(state.out)} if state.out else {})}

    def from_dict(self, data: dict[str, Any]) -> State:
        data = unstamp_schema(self.name, data, self.SCHEMA)
        return State(seed=data["seed"], players=data["players"], mode=data["mode"], round_no=data["round_no"],
                     rolls=tuple(tuple(r) for r in data["rolls"]),
                     sheets=tuple(tuple(Item.from_dict(it) for it in items) for items in data["sheets"]),
                     placed=tuple(data["placed"]), finished=data["finished"], out=tuple(data.get("out", ())))

    # --- AI and defaults -------------------------------------------------------
    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """Greedy: the legal box or mat that maximises the sheet's score right now.

        Ties go to the bigger box, then the lower, then the more left-hand position.
        Level 0 plays the first legal box (or mat) without looking at the score.
        """
        actions = self.legal_actions(state, seat)
        if not actions:
            return self.default_action(state, seat)
        if level <= 0:
            return actions[0]
        base = _items_data(state.sheets[seat])
        best, best_key = actions[0], None
        for action in actions:
            if action["type"] == PASS:
                return action
            _, item, anchor = self._check(state, seat, action)
            assert item is not None and anchor is not None
            total = score(base + _items_data((item,)), state.mode)["total"]
            key = (total, len(item.cells), -anchor[1], -anchor[0])
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def forced_action(self, state: State, seat: int) -> Action | None:
        """The move ``seat`` has no choice about, which the session plays by itself: the pass of a
        player whose kallax is full (no cell left for a mat, so none for a box); None otherwise."""
        if seat not in self.expected(state) or self._anchors(state.sheets[seat], 1, 1):
            return None
        return {"type": PASS, "round": state.round_no}


    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        if self.is_over(after):
            return "undo.reason.game_over"
        return refusal_from_events(events, TAKEBACK_REVEALING)

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: a mat on the first supported empty cell in reading order from the bottom
        (A1, B1 ... F1, A2 ...); a pass when the kallax is full (no cell left at all)."""
        occupied = _occupied(state.sheets[seat])
        for cell in SHEET.cells:
            if cell not in occupied and SHEET.supported(cell, occupied):
                return {"type": MAT, "round": state.round_no, "cell": SHEET.name(cell)}
        return {"type": PASS, "round": state.round_no}


ENGINE = RantaEngine()
