"""Take it to the Limit — the engine (Peter Burley, Burley Games).

Rules: ../shared/rules/take-it-to-the-limit.md and docs/rules/limit.md.

The bot is the announcer: it shuffles the tile pool once per game (from the
seed) and announces one tile per round. The game is **simultaneous**: every
board owner places the announced tile on their own boards; the round closes
when all have (``expected`` = the seats still to act). Other players'
placements of the current tile stay hidden until the round closes.

Boards are indexed 0..B-1. Without pairs board ``b`` belongs to seat ``b``; with
``paires`` seats ``2b`` and ``2b+1`` share board ``b`` (either may act for it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from engines.base import (
    Action,
    Event,
    Option,
    Phrase,
    Result,
    RuleError,
    View,
    check_new_game,
    derive_rng,
    plugged_ai,
    rank_by,
    refusal_from_events,
    stamp_schema,
    unstamp_schema,
)
from engines.limit.boards import (
    BIG_ORCHID,
    BIG_ORCHID_CAPACITY,
    DECHETTERIE,
    MAX_BOARDS,
    NEXUS,
    ORCHIDEE,
    PASS_NAME,
    PENALTY_THRESHOLD,
    SPEC,
    Board,
)
from engines.limit.scoring import (
    dechetterie_value,
    relocation_gain,
    relocation_options,
    score_board,
    shared_penalties,
    threshold_penalty,
)
from engines.limit.tiles import ALL_TILE_IDS, MOON_IDS, SUN_IDS, TILES, normalise_tile_id

PLACE, RELOCATE, OVER = "place", "relocate", "over"
PENDING = "?"  # fills[b]: the owner passed the tile, the holder has not placed it yet

STANDARD = "standard"
LOWEST = "dechetterie-basse"
PASS = "passe-dechetterie"
NO_DECHETTERIE = "sans-dechetterie"
ORCHID_64 = "orchidee-64"
NEXUS_VARIANTS = (STANDARD, LOWEST, PASS, NO_DECHETTERIE)
ORCHID_VARIANTS = (STANDARD, ORCHID_64)
SUNS, MOONS = "soleil", "lune"

DECH_CAPACITY = len(DECHETTERIE.names)


#: the moves that can never be taken back (issue 26): the one that closed a round (the next
#: tile turned up), a game of the series scored
TAKEBACK_REVEALING = {"announced": "undo.reason.tile", "round_closed": "undo.reason.round_closed",
                      "game_scored": "undo.reason.round_scored", "next_game": "undo.reason.round_scored"}


@dataclass(frozen=True)

class State:
    seed: int
    players: int
    plateau: str  # "nexus" | "orchidee"
    variante: str
    tuiles: str  # "soleil" | "lune" (Orchidée standard only)
    paires: bool
    serie: int  # games in the series
    game_no: int = 0  # 0-based game of the series
    deck: tuple[str, ...] = ()  # this game's shuffled pool; deck[round_no - 1] is announced
    round_no: int = 1
    phase: str = PLACE
    boards: tuple[dict[str, str], ...] = ()  # per board: position -> tile id (hexes, X cells, holes)
    orchids: tuple[tuple[str, ...], ...] = ()  # per board: tiles on the big orchid
    moves: tuple[str | None, ...] = ()  # per board: position chosen this round (None = not yet)
    fills: tuple[str | None, ...] = ()  # per owner board (pass variant): None, PENDING or the X cell
    holders: tuple[int, ...] = ()  # per board: the board that places its Déchetterie tiles
    relocations: tuple[dict[str, str] | None, ...] = ()  # per board, in the relocation phase
    totals: tuple[int, ...] = ()  # per board, summed over finished games of the series
    history: tuple[dict[str, Any], ...] = ()  # per finished game: cells, breakdowns, scores
    finished: bool = False


def _upper(raw: Any) -> str | None:
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, int):
        raw = str(raw)
    if not isinstance(raw, str):
        return None
    return raw.strip().upper()


class LimitEngine:
    name = "limit"
    min_players = 1
    max_players = 2 * MAX_BOARDS  # 12 players only in pairs; at most 6 boards
    has_ai = True
    ai_levels = (1, 1)  # the AI levels a lobby may ask for
    simultaneous = True
    SCHEMA = 1
    options = (
        Option("plateau", "nexus", choices=("nexus", "orchidee")),
        Option("variante", STANDARD, choices=(STANDARD, LOWEST, PASS, NO_DECHETTERIE, ORCHID_64)),
        Option("tuiles", SUNS, choices=(SUNS, MOONS)),
        Option("paires", False),
        Option("serie", 1, minimum=1, maximum=10),
    )

    # --- rules of this game, from the options ------------------------------------
    @staticmethod
    def n_boards(state: State) -> int:
        return len(state.boards)

    @staticmethod
    def board_of(state: State, seat: int) -> int:
        return seat // 2 if state.paires else seat

    @staticmethod
    def seats_of(state: State, board: int) -> list[int]:
        return [2 * board, 2 * board + 1] if state.paires else [board]

    @staticmethod
    def main_board(state: State) -> Board:
        return NEXUS if state.plateau == "nexus" else ORCHIDEE

    @staticmethod
    def has_dechetterie(state: State) -> bool:
        return state.plateau == "nexus" and state.variante != NO_DECHETTERIE

    @staticmethod
    def passes(state: State) -> bool:
        return state.variante == PASS

    @staticmethod
    def rays(state: State) -> bool:
        return state.plateau == "nexus" or state.variante == ORCHID_64

    @staticmethod
    def rounds(state: State) -> int:
        per = SPEC["tiles_per_game"]
        if state.plateau == "orchidee":
            return per["orchidee"]
        return per["nexus"] if state.variante != NO_DECHETTERIE else per["nexus_sans_dechetterie"]

    @staticmethod
    def pool(state: State) -> tuple[str, ...]:
        if state.plateau == "orchidee" and state.variante == STANDARD:
            return SUN_IDS if state.tuiles == SUNS else MOON_IDS
        return ALL_TILE_IDS

    def current_tile(self, state: State) -> str | None:
        if state.finished or state.phase != PLACE:
            return None
        return state.deck[state.round_no - 1]

    def _deck(self, state: State, game_no: int) -> tuple[str, ...]:
        deck = list(self.pool(state))
        derive_rng(state.seed, "deck", game_no).shuffle(deck)
        return tuple(deck)

    # --- setup -----------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        plateau, variante = opts["plateau"], opts["variante"]
        if variante not in (NEXUS_VARIANTS if plateau == "nexus" else ORCHID_VARIANTS):
            raise RuleError("limit.error.variant_board", variante=Phrase(f"limit.choice.{variante}"),
                            plateau=Phrase(f"limit.board.{plateau}"))
        if opts["tuiles"] != SUNS and not (plateau == "orchidee" and variante == STANDARD):
            raise RuleError("limit.error.tiles_option", tuiles=Phrase(f"limit.choice.{opts['tuiles']}"),
                            variante=Phrase(f"limit.choice.{variante}"), plateau=Phrase(f"limit.board.{plateau}"))
        if opts["paires"] and players % 2:
            raise RuleError("limit.error.pairs_even", count=players)
        boards = players // 2 if opts["paires"] else players
        if boards > MAX_BOARDS:
            raise RuleError("limit.error.too_many_boards", count=boards, max=MAX_BOARDS)
        if variante in (LOWEST, PASS) and boards < 2:
            raise RuleError("limit.error.variant_needs_boards", variante=Phrase(f"limit.choice.{variante}"), min=2)
        state = State(seed=seed, players=players, plateau=plateau, variante=variante, tuiles=opts["tuiles"],
                      paires=opts["paires"], serie=opts["serie"], totals=(0,) * boards)
        return self._start_game(state, 0, list(range(boards)))

    def _start_game(self, state: State, game_no: int, order: list[int]) -> State:
        """Fresh boards and deck; ``order`` ranks boards for the pass variant (each
        passes its Déchetterie to the next in ``order``, the last to the first)."""
        n = len(order)
        holders = [0] * n
        for k, b in enumerate(order):
            holders[b] = order[(k + 1) % n]
        state = replace(state, game_no=game_no, round_no=1, phase=PLACE, boards=tuple({} for _ in range(n)),
                        orchids=((),) * n, moves=(None,) * n, fills=(None,) * n,
                        holders=tuple(holders) if self.passes(state) else tuple(range(n)),
                        relocations=(None,) * n)
        return replace(state, deck=self._deck(state, game_no))

    # --- who acts ----------------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        if state.finished:
            return set()
        boards: set[int] = set()
        if state.phase == PLACE:
            boards = {b for b, m in enumerate(state.moves) if m is None}
            boards |= {state.holders[b] for b, f in enumerate(state.fills) if f == PENDING}
        elif state.phase == RELOCATE:
            boards = {b for b, r in enumerate(state.relocations) if r is None}
        return {s for b in boards for s in self.seats_of(state, b)}

    def _place_positions(self, state: State, b: int) -> list[str]:
        """Free positions of board ``b`` for the announced tile: the Déchetterie (or
        ``X`` when it is passed, or the big orchid ``O``) first, then the hexes."""
        cells = state.boards[b]
        out: list[str] = []
        if state.plateau == "nexus":
            if self.has_dechetterie(state):
                if self.passes(state):
                    if self._dech_count(state, b) < DECH_CAPACITY:
                        out.append(PASS_NAME)
                else:
                    out += [x for x in DECHETTERIE.names if x not in cells]
        elif len(state.orchids[b]) < BIG_ORCHID_CAPACITY:
            out.append(BIG_ORCHID)
        out += [n for n in self.main_board(state).names if n not in cells]
        return out

    @staticmethod
    def _dech_count(state: State, b: int) -> int:
        cells = state.boards[b]
        return sum(1 for x in DECHETTERIE.names if x in cells) + (1 if state.fills[b] == PENDING else 0)

    def legal_positions(self, state: State, seat: int) -> list[str]:
        """Where ``seat`` may place the announced tile now (empty if it may not place)."""
        if state.finished or state.phase != PLACE or not 0 <= seat < state.players:
            return []
        b = self.board_of(state, seat)
        if state.moves[b] is not None:
            return []
        return self._place_positions(state, b)

    def pending_fills(self, state: State, seat: int) -> list[int]:
        """Pass variant: the boards whose passed tile ``seat`` must place on their Déchetterie."""
        if state.finished or state.phase != PLACE or not 0 <= seat < state.players:
            return []
        me = self.board_of(state, seat)
        return [b for b, f in enumerate(state.fills) if f == PENDING and state.holders[b] == me]

    def fill_positions(self, state: State, owner: int) -> list[str]:
        cells = state.boards[owner]
        return [x for x in DECHETTERIE.names if x not in cells]

    def relocation_choices(self, state: State, board: int) -> list[dict[str, Any]]:
        """Every relocation of ``board``'s big-orchid tiles with its exact gain, best first."""
        cells = state.boards[board]
        return relocation_options(self._main_cells(state, cells), state.orchids[board], self.rays(state))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.finished or not 0 <= seat < state.players:
            return []
        b = self.board_of(state, seat)
        if state.phase == RELOCATE:
            if state.relocations[b] is not None:
                return []
            return [{"type": "relocate", "moves": o["moves"]} for o in self.relocation_choices(state, b)]
        tile = self.current_tile(state)
        out: list[Action] = [{"type": "place", "tile": tile, "position": p} for p in self.legal_positions(state, seat)]
        for owner in self.pending_fills(state, seat):
            out += [{"type": "fill", "board": owner, "tile": tile, "position": p}
                    for p in self.fill_positions(state, owner)]
        return out

    # --- moves -----------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.finished:
            raise RuleError("common.error.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise RuleError("limit.error.no_seat", seat=seat)
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "place":
            return self._place(state, seat, action)
        if kind == "fill":
            return self._fill(state, seat, action)
        if kind == "relocate":
            return self._relocate(state, seat, action)
        raise RuleError("common.error.unknown_action", action=str(kind))

    def _checked_tile(self, state: State, action: Action) -> str:
        if state.phase == RELOCATE:
            raise RuleError("limit.error.relocation_phase")
        if "tile" not in action:
            raise RuleError("limit.error.missing_field", field="tile")
        raw = action["tile"]
        tid = normalise_tile_id(raw)
        if tid is None:
            raise RuleError("limit.error.unknown_tile", tile=str(raw))
        current = self.current_tile(state)
        if tid != current:
            raise RuleError("limit.error.stale_tile", tile=tid, current=current)
        return tid

    def _checked_position(self, action: Action) -> str:
        if "position" not in action:
            raise RuleError("limit.error.missing_field", field="position")
        pos = _upper(action["position"])
        if not pos:
            raise RuleError("limit.error.unknown_position", position=str(action["position"]))
        return pos

    def _place(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        state, events = self._stage_place(state, seat, action)
        return self._after_move(state, seat, events)

    def _stage_place(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The placement on the seat's board alone, the round left open (what :meth:`preview` shows)."""
        tid = self._checked_tile(state, action)
        b = self.board_of(state, seat)
        if state.moves[b] is not None:
            raise RuleError("limit.error.already_placed", tile=tid, position=state.moves[b])
        pos = self._checked_position(action)
        cells = state.boards[b]
        main = self.main_board(state)
        nexus = state.plateau == "nexus"
        if pos in main.name_set:
            if pos in cells:
                raise RuleError("limit.error.occupied", position=pos, tile=cells[pos])
        elif nexus and pos in DECHETTERIE.name_set:
            if not self.has_dechetterie(state):
                raise RuleError("limit.error.no_dechetterie", position=pos)
            if self.passes(state):
                raise RuleError("limit.error.passed_dechetterie", position=pos, name=PASS_NAME)
            if pos in cells:
                raise RuleError("limit.error.occupied", position=pos, tile=cells[pos])
        elif nexus and pos == PASS_NAME:
            if not self.has_dechetterie(state):
                raise RuleError("limit.error.no_dechetterie", position=pos)
            if not self.passes(state):
                raise RuleError("limit.error.dechetterie_cell", position=pos)
            if self._dech_count(state, b) >= DECH_CAPACITY:
                raise RuleError("limit.error.dechetterie_full", position=pos)
        elif not nexus and pos == BIG_ORCHID:
            if len(state.orchids[b]) >= BIG_ORCHID_CAPACITY:
                raise RuleError("limit.error.orchid_full", position=pos, capacity=BIG_ORCHID_CAPACITY)
        elif not nexus and pos in ORCHIDEE.hole_names:
            raise RuleError("limit.error.hole_at_end", position=pos)
        elif pos in NEXUS.name_set or pos in ORCHIDEE.name_set or pos in (BIG_ORCHID, *ORCHIDEE.hole_names) \
                or pos in DECHETTERIE.name_set or pos == PASS_NAME:
            raise RuleError("limit.error.wrong_board", position=pos, plateau=Phrase(f"limit.board.{state.plateau}"))
        else:
            raise RuleError("limit.error.unknown_position", position=pos)

        moves = list(state.moves)
        moves[b] = pos
        events: list[Event] = []
        if pos == PASS_NAME:
            fills = list(state.fills)
            fills[b] = PENDING
            state = replace(state, moves=tuple(moves), fills=tuple(fills))
            holder = state.holders[b]
            for hs in self.seats_of(state, holder):
                events.append({"type": "passed", "seat": seat, "board": b, "holder": holder, "tile": tid,
                               "private_to": hs})
        elif pos == BIG_ORCHID:
            orchids = list(state.orchids)
            orchids[b] = (*orchids[b], tid)
            state = replace(state, moves=tuple(moves), orchids=tuple(orchids))
        else:
            boards = list(state.boards)
            boards[b] = {**cells, pos: tid}
            state = replace(state, moves=tuple(moves), boards=tuple(boards))
        events.insert(0, {"type": "placed", "seat": seat, "board": b, "tile": tid, "position": pos,
                          "round": state.round_no, "private_to": seat})
        return state, events

    def _fill(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        state, events = self._stage_fill(state, seat, action)
        return self._after_move(state, seat, events)

    def _stage_fill(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not self.passes(state):
            raise RuleError("limit.error.no_fill", variante=Phrase(f"limit.choice.{state.variante}"))
        tid = self._checked_tile(state, action)
        owner = action.get("board")
        if isinstance(owner, bool) or not isinstance(owner, int) or not 0 <= owner < self.n_boards(state):
            raise RuleError("limit.error.bad_board", board=str(owner))
        me = self.board_of(state, seat)
        if state.holders[owner] != me:
            raise RuleError("limit.error.not_holder", board=owner, holder=state.holders[owner])
        if state.fills[owner] != PENDING:
            raise RuleError("limit.error.no_fill_pending", board=owner)
        pos = self._checked_position(action)
        cells = state.boards[owner]
        if pos not in DECHETTERIE.name_set:
            raise RuleError("limit.error.not_dechetterie_cell", position=pos)
        if pos in cells:
            raise RuleError("limit.error.occupied", position=pos, tile=cells[pos])
        boards = list(state.boards)
        boards[owner] = {**cells, pos: tid}
        fills = list(state.fills)
        fills[owner] = pos
        state = replace(state, boards=tuple(boards), fills=tuple(fills))
        events: list[Event] = [{"type": "filled", "seat": seat, "board": owner, "tile": tid, "position": pos,
                                "private_to": seat}]
        return state, events

    def _after_move(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        waiting = self.expected(state)
        if waiting:
            events.append({"type": "waiting", "seat": seat, "remaining": len(waiting),
                           "waiting": sorted(waiting)})
            return state, events
        return self._close_round(state, events)

    def _close_round(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        tile = self.current_tile(state)
        placements = []
        for b, pos in enumerate(state.moves):
            entry: dict[str, Any] = {"board": b, "position": pos}
            if pos == PASS_NAME:
                entry["fill"] = state.fills[b]
            placements.append(entry)
        n = self.n_boards(state)
        events.append({"type": "round_closed", "round": state.round_no, "tile": tile, "placements": placements,
                       "boards": n})
        if state.round_no >= self.rounds(state):
            if state.plateau == "orchidee":
                state = replace(state, phase=RELOCATE, moves=(None,) * n, fills=(None,) * n,
                                relocations=(None,) * n)
                events.append({"type": "relocation", "game": state.game_no + 1})
                return state, events
            return self._score_game(state, events)
        state = replace(state, round_no=state.round_no + 1, moves=(None,) * n, fills=(None,) * n)
        events.append(self._announce_event(state))
        return state, events

    def _announce_event(self, state: State) -> Event:
        tile = self.current_tile(state)
        return {"type": "announced", "tile": tile, "round": state.round_no, "rounds": self.rounds(state),
                "game": state.game_no + 1, "sun": TILES[tile].sun, "bonus": TILES[tile].bonus}

    def _relocate(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != RELOCATE:
            raise RuleError("limit.error.not_relocation_phase")
        b = self.board_of(state, seat)
        if state.relocations[b] is not None:
            raise RuleError("limit.error.already_relocated")
        raw = action.get("moves", {})
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise RuleError("limit.error.bad_moves", moves=str(raw))
        moves: dict[str, str] = {}
        orchid = state.orchids[b]
        for hole_raw, tile_raw in raw.items():
            hole = _upper(hole_raw)
            if hole not in ORCHIDEE.hole_names:
                raise RuleError("limit.error.bad_hole", hole=str(hole_raw))
            if hole in moves:
                raise RuleError("limit.error.hole_twice", hole=hole)
            tid = normalise_tile_id(tile_raw)
            if tid is None or tid not in orchid:
                raise RuleError("limit.error.tile_not_on_orchid", tile=str(tile_raw))
            if tid in moves.values():
                raise RuleError("limit.error.tile_twice", tile=tid)
            moves[hole] = tid
        cells = state.boards[b]
        gain = relocation_gain(self._main_cells(state, cells), moves, self.rays(state))
        boards = list(state.boards)
        boards[b] = {**cells, **moves}
        relocations = list(state.relocations)
        relocations[b] = dict(sorted(moves.items()))
        state = replace(state, boards=tuple(boards), relocations=tuple(relocations))
        events: list[Event] = [{"type": "relocated", "seat": seat, "board": b, "moves": dict(sorted(moves.items())),
                                "moved": len(moves), "gain": gain}]
        if any(r is None for r in state.relocations):
            return state, events
        return self._score_game(state, events)

    # --- scoring ---------------------------------------------------------------
    def _main_cells(self, state: State, cells: dict[str, str]) -> dict[str, str]:
        if state.plateau == "nexus":
            return {k: v for k, v in cells.items() if k in NEXUS.name_set}
        return dict(cells)

    def breakdown(self, state: State, cells: dict[str, str], orchid: tuple[str, ...] = ()) -> dict[str, Any]:
        """Score of one board's cells (before any shared penalty): per-rule items and total."""
        main = self.main_board(state)
        out = score_board(main, self._main_cells(state, cells), self.rays(state))
        if self.has_dechetterie(state):
            out["dechetterie"] = dechetterie_value({k: v for k, v in cells.items() if k in DECHETTERIE.name_set})
        if state.plateau == "orchidee":
            out["unplaced"] = [t for t in orchid if t not in cells.values()]
        return out

    def _penalties(self, state: State, values: list[int]) -> list[int]:
        if not self.has_dechetterie(state):
            return [0] * len(values)
        if state.variante == LOWEST:
            return shared_penalties(values, lowest=True)
        if state.variante == PASS:
            return shared_penalties(values, lowest=False)
        return [threshold_penalty(v) for v in values]

    def final_breakdowns(self, state: State) -> list[dict[str, Any]]:
        """Every board's complete breakdown including the Déchetterie penalty."""
        outs = [self.breakdown(state, cells, orchid) for cells, orchid in zip(state.boards, state.orchids, strict=True)]
        return self._with_penalties(state, outs)

    def _with_penalties(self, state: State, outs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``outs`` (one breakdown a board) with the Déchetterie penalty each would pay at the game's end."""
        if self.has_dechetterie(state):
            values = [o["dechetterie"]["value"] for o in outs]
            pens = self._penalties(state, values)
            rule = {LOWEST: "lowest", PASS: "highest"}.get(state.variante, "threshold")
            for o, p in zip(outs, pens, strict=True):
                o["items"]["penalty"] = -p
                o["total"] = sum(o["items"].values())
                # why it was paid, for the players: the value, and the threshold or the value it matched
                o["penalty_reason"] = {"rule": rule, "value": o["dechetterie"]["value"], "threshold": PENALTY_THRESHOLD,
                                       "shared": sum(1 for q in pens if q)} if p else None
        return outs

    def _score_game(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        outs = self.final_breakdowns(state)
        scores = [o["total"] for o in outs]
        totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
        record = {"game": state.game_no + 1, "scores": scores, "totals": list(totals),
                  "holders": list(state.holders) if self.passes(state) else None,
                  "cells": [dict(c) for c in state.boards], "orchids": [list(o) for o in state.orchids],
                  "relocations": [r for r in state.relocations] if state.plateau == "orchidee" else None,
                  "breakdowns": outs}
        state = replace(state, totals=totals, history=(*state.history, record))
        events.append({"type": "game_scored", "game": state.game_no + 1, "games": state.serie,
                       "scores": scores, "totals": list(totals)})
        if state.game_no + 1 < state.serie:
            # Pass order for the next game follows the standings (highest total first).
            order = sorted(range(len(totals)), key=lambda b: (-totals[b], b))
            state = self._start_game(state, state.game_no + 1, order)
            events.append({"type": "next_game", "game": state.game_no + 1, "games": state.serie})
            events.append(self._announce_event(state))
            return state, events
        state = replace(state, phase=OVER, finished=True, moves=(None,) * len(totals), fills=(None,) * len(totals))
        res = self.result(state)
        events.append({"type": "game_over", "winners": res.winners if res else [], "scores": res.scores if res else []})
        return state, events

    # --- information -----------------------------------------------------------
    def _visible_board(self, state: State, b: int, viewer: int | None) -> tuple[dict[str, str], list[str]]:
        """Board ``b`` as ``viewer`` (a board index or None) sees it: this round's
        placement of another board is hidden until the round closes; the holder of a
        passed Déchetterie sees what it placed there."""
        cells = dict(state.boards[b])
        orchid = list(state.orchids[b])
        tile = self.current_tile(state)
        if tile is None or viewer == b:
            return cells, orchid
        for pos in [p for p, t in cells.items() if t == tile]:
            if viewer == state.holders[b] and self.passes(state) and pos in DECHETTERIE.name_set:
                continue
            del cells[pos]
        if tile in orchid:
            orchid.remove(tile)
        return cells, orchid

    def view(self, state: State, seat: int | None) -> View:
        viewer = self.board_of(state, seat) if seat is not None and 0 <= seat < state.players else None
        main = self.main_board(state)
        tile = self.current_tile(state)
        used: set[str] = set()
        boards = []
        for b in range(self.n_boards(state)):
            cells, orchid = self._visible_board(state, b, viewer)
            used |= set(cells.values()) | set(orchid)
            entry: dict[str, Any] = {
                "board": b,
                "seats": self.seats_of(state, b),
                "cells": cells,
                "orchid": orchid,
                "placed": state.phase == PLACE and state.moves[b] is not None,
                "holder": state.holders[b] if self.passes(state) else None,
                "relocated": state.relocations[b],
                "score": self.breakdown(state, cells, tuple(orchid)),
                "total": state.totals[b],
            }
            if viewer == b and state.phase == PLACE:
                entry["this_round"] = state.moves[b]
            boards.append(entry)
        if tile:
            used.add(tile)
        announced = list(state.deck[: state.round_no]) if state.phase == PLACE and not state.finished else []
        legal = self.legal_positions(state, seat) if seat is not None else []
        fills = []
        if seat is not None:
            fills = [{"board": o, "seats": self.seats_of(state, o), "legal": self.fill_positions(state, o)}
                     for o in self.pending_fills(state, seat)]
        relocation = None
        if seat is not None and viewer is not None and state.phase == RELOCATE:
            opts = self.relocation_choices(state, viewer)
            relocation = {"done": state.relocations[viewer] is not None, "best": opts[0], "options": opts,
                          "orchid": list(state.orchids[viewer])}
        layout = {
            "main": main.layout(),
            "dechetterie": DECHETTERIE.layout() if self.has_dechetterie(state) else None,
            "big_orchid": {"name": BIG_ORCHID, "capacity": BIG_ORCHID_CAPACITY} if state.plateau == "orchidee" else None,
            "pass_name": PASS_NAME if self.passes(state) else None,
        }
        final = None
        if state.history and (state.finished or state.round_no == 1 and state.phase == PLACE):
            final = state.history[-1]
        for rec in state.history:
            for c in rec["cells"]:
                used |= set(c.values())
            for o in rec["orchids"]:
                used |= set(o)
        res = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "board": viewer,
            "players": state.players,
            "boards_count": self.n_boards(state),
            "options": {"plateau": state.plateau, "variante": state.variante, "tuiles": state.tuiles,
                        "paires": state.paires, "serie": state.serie},
            "plateau": state.plateau,
            "variante": state.variante,
            "rays": self.rays(state),
            "game_no": state.game_no + 1,
            "games": state.serie,
            "round": state.round_no,
            "rounds": self.rounds(state),
            "phase": state.phase,
            "tile": TILES[tile].view() if tile else None,
            "announced": announced,
            "expected": sorted(self.expected(state)),
            "waiting_boards": [b for b, m in enumerate(state.moves) if m is None] if state.phase == PLACE else [],
            "legal": legal,
            "fills": fills,
            "relocation": relocation,
            "layout": layout,
            "boards": boards,
            "tiles": {t: TILES[t].view() for t in sorted(used)},
            "totals": list(state.totals),
            "history": [{"game": r["game"], "scores": r["scores"], "totals": r["totals"]} for r in state.history],
            "final": final,
            "finished": state.finished,
            "result": res.to_dict() if res else None,
        }

    def preview(self, state: State, seat: int, action: Action) -> View:
        """What ``seat`` sees with ``action`` made, and nothing it may not know yet: the placement (or
        the fill of a passed Déchetterie) staged on that board alone, the round left open — the
        announced tile stays the one being placed, no tile is drawn, no other board is revealed.
        Raises the RuleError :meth:`apply` would.

        The previewed board's ``score`` is what it would score if the game ended now, the
        Déchetterie penalty included (against the other boards as ``seat`` sees them, for the
        variants that compare them); ``preview`` says so: the board, the totals before and after, the
        penalty and why (the Déchetterie's value, the threshold)."""
        if state.finished:
            raise RuleError("common.error.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise RuleError("limit.error.no_seat", seat=seat)
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "place":
            staged, _ = self._stage_place(state, seat, action)
            board = self.board_of(state, seat)
        elif kind == "fill":
            staged, _ = self._stage_fill(state, seat, action)
            board = action["board"]
        else:
            raise RuleError("common.error.unknown_action", action=str(kind))
        before = self._ending(state, self.view(state, seat))
        view = self.view(staged, seat)
        after = self._ending(state, view)
        view["boards"][board]["score"] = after[board]
        old, new = before[board]["total"], after[board]["total"]
        penalty = -after[board]["items"].get("penalty", 0)
        view["preview"] = {"board": board, "tile": self.current_tile(state), "position": self._checked_position(action),
                           "before": old, "after": new, "gain": new - old, "penalty": penalty,
                           "penalty_reason": after[board].get("penalty_reason"),
                           "dechetterie": (after[board].get("dechetterie") or {}).get("value")}
        return view

    def _ending(self, state: State, view: View) -> list[dict[str, Any]]:
        """Each board of ``view`` scored as it would be if the game ended now (its Déchetterie penalty
        included), from what the view shows: the breakdowns of :meth:`view`, penalised."""
        return self._with_penalties(state, [dict(b["score"], items=dict(b["score"]["items"]))
                                            for b in view["boards"]])

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        scores = [state.totals[self.board_of(state, s)] for s in range(state.players)]
        return Result(scores=list(scores), ranks=rank_by([(s,) for s in scores]),
                      details={"boards": list(state.totals),
                               "seats_of_board": [self.seats_of(state, b) for b in range(self.n_boards(state))],
                               "games": [{"game": r["game"], "scores": r["scores"]} for r in state.history]})

    # --- persistence -----------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        d = asdict(state)
        return stamp_schema(d, self.SCHEMA)

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        d["deck"] = tuple(d["deck"])
        d["boards"] = tuple(dict(b) for b in d["boards"])
        d["orchids"] = tuple(tuple(o) for o in d["orchids"])
        d["moves"] = tuple(d["moves"])
        d["fills"] = tuple(d["fills"])
        d["holders"] = tuple(d["holders"])
        d["relocations"] = tuple(None if r is None else dict(r) for r in d["relocations"])
        d["totals"] = tuple(d["totals"])
        d["history"] = tuple(d["history"])
        return State(**d)

    # --- AI and defaults -------------------------------------------------------

    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        if self.is_over(after):
            return "undo.reason.game_over"
        return refusal_from_events(events, TAKEBACK_REVEALING)

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: the first legal position (the Déchetterie, ``X`` or the big orchid
        while there is room, else the first free hex); a pending fill goes to the first
        free Déchetterie cell; the relocation step takes the best relocation."""
        if state.phase == RELOCATE:
            b = self.board_of(state, seat)
            if state.finished or state.relocations[b] is not None:
                raise RuleError("limit.error.already_relocated")
            return {"type": "relocate", "moves": self.relocation_choices(state, b)[0]["moves"]}
        legal = self.legal_positions(state, seat)
        if legal:
            return {"type": "place", "tile": self.current_tile(state), "position": legal[0]}
        for owner in self.pending_fills(state, seat):
            return {"type": "fill", "board": owner, "tile": self.current_tile(state),
                    "position": self.fill_positions(state, owner)[0]}
        raise RuleError("common.error.not_your_turn")

    #: the AI (``engines.limit.ai.play``), plugged in by the game's package (``engines/limit/__init__.py``):
    #: an AI depends on its engine, the engine never imports its AI
    ai: Callable[[LimitEngine, State, int, int], Action] | None = None

    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """Greedy: the position where the tile best extends still-pure lines."""
        return plugged_ai(self)(self, state, seat, level)


ENGINE = LimitEngine()


def legal_positions(state: State, seat: int) -> list[str]:
    """Position names where ``seat`` may place the announced tile (Déchetterie / ``X``
    / big orchid ``O`` first, then the main-board hexes)."""
    return ENGINE.legal_positions(state, seat)
