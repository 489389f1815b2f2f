"""Every kind of picture the bot draws, from real game states, through the cogs' own hooks.

Each game is played by its AI from every option choice, with the fewest and the most players
and long names; the public picture and every seat's private picture are drawn at the start, in
the middle and at the end, plus the pictures the cogs draw outside the hooks (Range ta
Ludothèque's placement preview, Take it to the Limit's board between games, l'Invincible
Armada's previous round) and the community leaderboards. The picture tests
(``test_encoding.py``, ``test_phone.py``) walk this gallery.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import engines
from bot import i18n
from bot.render_pool import Picture, picture
from bot.storage import FINISHED, RUNNING, GameRow, Seat

#: Long display names (Discord allows 32 characters), accents included.
LONG_NAMES = ["Marie-Charlotte de Montmorency", "Jean-Baptiste Éloi Duchâteau", "Anne-Sophie Vanderbruggen",
              "Bartholomé Übermensch-Leclerc", "Zoé", "Maximilien Robespierre II", "Ève-Angélique Fontaine"]
#: The server of the community boards (user text, French whatever the language).
SERVER_NAME = "Le Grand Serveur des Ludothécaires"


#: the file name the animated summary takes on a result card (added under its pictures)
SUMMARY = "summary.webp"


@dataclass
class Shot:
    """One picture: a readable name (test ids), the job that draws it, and the card that shows it:
    the file names of every picture of that card, in order (this one's is its own ``name``), built
    into a :class:`bot.cards.Card` by :func:`card_of` as the bot builds it. A picture sent alone (a
    private view, a preview, a replay frame) is its card's only picture."""

    name: str
    job: Picture
    card: tuple[str, ...] = ()
    #: an animated summary (the job draws it): measured frame by frame (:func:`_summary_runs`)
    summary: bool = False

    def __post_init__(self) -> None:
        self.card = self.card or (self.name,)

    def draw(self) -> bytes | None:
        return self.job()


def _cog(kind: str):
    """The game's cog, built on a stand-in bot: only its rendering hooks are used."""
    import importlib

    module = importlib.import_module(f"cogs.{kind}.cog")
    cls = next(v for v in vars(module).values()
               if isinstance(v, type) and getattr(v, "kind", None) == kind and v.__module__ == module.__name__)
    return cls(SimpleNamespace(sessions=None))


def _row(kind: str, players: int, options: dict[str, Any], state: Any, over: bool) -> GameRow:
    now = time.time()
    return GameRow(id=4242, guild_id=1, channel_id=2, kind=kind, options=options,
                   status=FINISHED if over else RUNNING, state=None, version=7, seed=1,
                   creator_id=1, created_at=now, updated_at=now,
                   seats=[Seat(seat=i, user_id=100 + i, name=LONG_NAMES[i % len(LONG_NAMES)]) for i in range(players)])


def _play(kind: str, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """States from the start to the end of an AI game: first, middle, last (and the one before)."""
    engine = engines.get(kind)
    rng = random.Random(seed)
    state = engine.new_game(players, options, seed)
    states = [state]
    for _ in range(3000):
        if engine.is_over(state):
            break
        seat = rng.choice(sorted(engine.expected(state)))
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat))
        states.append(state)
    picks = {0, len(states) // 3, (2 * len(states)) // 3, len(states) - 2, len(states) - 1}
    return [states[i] for i in sorted(i for i in picks if i >= 0)]


def _fewest_players(engine, options: dict[str, Any]) -> int:
    return _most_players(engine, options, reverse=True)


def _most_players(engine, options: dict[str, Any], reverse: bool = False) -> int:
    """The most (fewest) players the options allow (some variants narrow the game's range)."""
    from engines.base import RuleError

    counts = range(engine.min_players, engine.max_players + 1)
    for players in counts if reverse else reversed(counts):
        try:
            engine.new_game(players, options, 1)
            return players
        except RuleError:
            continue
    return engine.min_players


def _variants(kind: str) -> list[dict[str, Any]]:
    """Every combination of the options' choices that some player count allows."""
    import itertools

    from engines.base import RuleError

    engine = engines.get(kind)
    named = [(opt.name, list(opt.choices or (opt.default,))) for opt in engine.options]
    out = []
    for combo in itertools.product(*(choices for _, choices in named)):
        options = {name: value for (name, _), value in zip(named, combo, strict=True)}
        for players in range(engine.min_players, engine.max_players + 1):
            try:
                engine.new_game(players, options, 1)
            except RuleError:
                continue
            out.append(options)
            break
    return out


def games_of(kind: str) -> list[tuple[dict[str, Any], int]]:
    """The games the gallery plays of ``kind``: ``(options, players)``, each variant with the fewest
    and the most players."""
    engine = engines.get(kind)
    return [(options, players) for options in _variants(kind)
            for players in sorted({_fewest_players(engine, options), _most_players(engine, options)})]


def game_shots(kind: str, langs: tuple[str, ...] = ("fr", "en"), only: tuple[int, ...] | None = None) -> Iterator[Shot]:
    """Every picture of ``kind``'s games (:func:`games_of`); ``only``: of those games, by index (a
    part of :data:`PARTS`)."""
    engine = engines.get(kind)
    cog = _cog(kind)
    games = games_of(kind)
    for options, players in (games if only is None else [games[i] for i in only]):
        states = _play(kind, players, options, seed=7 + players)
        yield from replay_shots(kind, cog, options, players, states, langs)
        for k, state in enumerate(states):
            over = engine.is_over(state)
            game = _row(kind, players, options, state, over)
            tag = f"{kind}-{'-'.join(map(str, options.values())) or 'default'}-{players}p-{k}"
            for lg in langs:
                # the public card's pictures (GameCog.public_files): the gallery's when the game draws
                # one (the final boards, one attachment each), else the one picture; at the end, the
                # animated summary is added under them (GameCog.attach_summary)
                jobs = cog.render_public_gallery(game, engine.view(state, None), lg)
                public = [f"{tag}-final-{i}-{lg}" for i in range(len(jobs))]
                job = cog.render_public(game, engine.view(state, None), lg)
                if job is not None:
                    role = "final" if job.fn.__name__ == "render_final" else "public"
                    # shown on the public card when there is no gallery, else alone (a replay's frame)
                    yield Shot(f"{tag}-{role}-{lg}", job, () if jobs else (f"{tag}-{role}-{lg}",) +
                               ((SUMMARY,) if over else ()))
                for name, job in zip(public, jobs, strict=True):
                    yield Shot(name, job, (*public, *((SUMMARY,) if over else ())))
                for seat in sorted({0, players - 1}) if lg == langs[0] else (0,):
                    job = cog.render_private(game, engine.view(state, seat), lg)
                    if job is not None:
                        yield Shot(f"{tag}-private{seat}-{lg}", job)
            yield from _extra_shots(kind, cog, game, engine, state, tag)


def replay_shots(kind: str, cog, options: dict[str, Any], players: int, states: list[Any],
                 langs: tuple[str, ...]) -> Iterator[Shot]:
    """The replay viewer's frames (``/historique``: one picture alone on its card) and the finished
    game's animated summary (under the result's pictures, alone in its gallery), drawn through the
    bot's own :class:`bot.community.replay.ReplayService` from a replay of ``states``."""
    from bot.community.replay import Position, Replay, ReplayService, ranking
    from bot.storage import ResultRow

    engine = engines.get(kind)
    final = states[-1]
    over = engine.is_over(final)
    game = _row(kind, players, options, final, over)
    item = Replay(game.id, kind, game.version,
                  tuple(Position(n, engine.view(s, None)) for n, s in enumerate(states)))
    service = ReplayService(SimpleNamespace(game_cogs={kind: cog}))
    tag = f"{kind}-{'-'.join(map(str, options.values())) or 'default'}-{players}p"
    for lg in langs:
        for i in range(len(item)):
            found = service.job(game, item, i, lg)
            if found is not None and found[0] == i:  # a position without its own picture shows the previous
                name = f"{tag}-{i}-replay-{lg}"
                yield Shot(name, found[1], (name,))
        if over:
            results = [ResultRow(game.id, s, 100 + s, 150 - 7 * s, s + 1) for s in range(players)]
            title = i18n.t("replay.animation.title", lg, game=i18n.t(f"{kind}.name.title", lg), id=game.id)
            job = service.animation_job(game, item, lg, ranking(game, [], results, lg, markdown=False), title)
            name = f"{tag}-summary-{lg}"
            yield Shot(name, job, (name,), summary=True)


def _extra_shots(kind: str, cog, game: GameRow, engine, state, tag: str) -> Iterator[Shot]:
    """Pictures the cogs draw outside the two hooks."""
    if kind == "ranta":
        from cogs.ranta.cog import assignment_of, render_labels
        from engines.ranta import BOX, MAT
        from render.ranta import render_sheet

        if engine.is_over(state):
            return
        view = engine.view(state, 0)
        for action in engine.legal_actions(state, 0) or []:
            cells = engine.action_cells(state, 0, action)
            if action["type"] == BOX:  # as the cog's preview draws it
                a = assignment_of(view, action["dice"])
                preview = {"cells": cells, "category": a["category"], "mechanic": a["mechanic"]}
            elif action["type"] == MAT:
                preview = cells
            else:
                continue
            yield Shot(f"{tag}-preview", picture(render_sheet, view, 0, game.names, preview, render_labels("fr")))
            return
    elif kind == "limit":
        from cogs.limit.cog import render_labels
        from render.limit import render_final

        view = engine.view(state, None)
        if view.get("final"):
            yield Shot(f"{tag}-between-games", picture(render_final, view, game.names, render_labels("fr")))
            boards = [f"{tag}-{b}-between-games" for b in range(len(view["boards"]))]  # one card (_post_boards)
            for b, name in enumerate(boards):
                yield Shot(name, picture(render_final, view, game.names, render_labels("fr"), b), tuple(boards))
    elif kind == "armada":
        from render.armada import render_board

        view = engine.view(state, None)
        if view.get("previous_round"):
            yield Shot(f"{tag}-previous-round", picture(render_board, view, game.names, "fr", True))


def community_shots(langs: tuple[str, ...] = ("fr", "en")) -> Iterator[Shot]:
    from cogs.community.boards import mode_label
    from cogs.community.common import title
    from render.leaderboard import render_leaderboard, render_records

    for lg in langs:
        labels = {k: i18n.t(f"community.board.{k}", lg) for k in ("rank", "player", "rating", "games", "wins",
                                                                   "best", "empty")}
        rows = [{"rank": i + 1, "player": LONG_NAMES[i % len(LONG_NAMES)], "rating": 1234 - 37 * i,
                 "games": 1520 - i, "wins": 733 - i, "best": 99999 - i} for i in range(20)]
        for kind in engines.available():
            subtitle = i18n.t("community.board.subtitle", lg, period=i18n.t("community.board.all", lg),
                              server=SERVER_NAME, count=len(rows))
            yield Shot(f"leaderboard-{kind}-{lg}", picture(render_leaderboard,
                                                           i18n.t("community.board.title", lg, game=title(kind, lg)),
                                                           subtitle, labels, rows, 3))
        yield Shot(f"leaderboard-empty-{lg}", picture(render_leaderboard, "—", "—", labels, [], None))
        rlabels = {k: i18n.t(f"community.records.{k}", lg) for k in ("rank", "player", "score", "mode", "date",
                                                                     "game", "empty")}
        for kind in engines.available():
            if engines.get(kind).min_players != 1:
                continue
            engine = engines.get(kind)
            choices = [{}] + [{opt.name: c} for opt in engine.options for c in (opt.choices or ())]
            records = [{"rank": i + 1, "player": LONG_NAMES[i % len(LONG_NAMES)], "score": 188 - i,
                        "game": 104242 + i, "date": "24/11/26",
                        "mode": mode_label(kind, choices[i % len(choices)], lg)} for i in range(10)]
            subtitle = i18n.t("community.records.subtitle", lg, server=SERVER_NAME,
                              count=len(records))
            yield Shot(f"records-{kind}-{lg}", picture(render_records,
                                                       i18n.t("community.records.title", lg, game=title(kind, lg)),
                                                       subtitle, rlabels, records))


#: the gallery in parts of about the same drawing time, so that ``make test``'s workers draw it side by
#: side: the picture tests take a part as their parameter, and the scheduler (tests/conftest.py) keeps
#: each part's tests of both picture modules in one worker, so that each part is drawn once in the run.
#: A part is a list of ``(kind, games)``: ``games`` the indexes of that kind's games it draws (see
#: :func:`game_shots`), None all of them; ``community``: the community boards. Measured on 2026-11-29
#: (CPU s): Limit 173 (a solo or two-player game 6-9, a six-player game 18-20), Range ta Ludothèque 34,
#: Ludime 14, Lutinades 11, Armada 7, Tectonic 6, Ludix 3, the community boards 2: six parts of 40-50 s.
PARTS: dict[str, tuple[tuple[str, tuple[int, ...] | None], ...]] = {
    "limit-1": (("limit", (0, 1, 3)),),
    "limit-2": (("limit", (2, 5, 7)),),
    "limit-3": (("limit", (4, 9, 11)),),
    "limit-4": (("limit", (6, 8, 10, 12, 13)),),
    "ranta-ludix-community": (("ranta", None), ("ludix", None), ("community", None)),
    "ludime-lutinades-armada-tectonic": (("ludime", None), ("lutinades", None), ("armada", None),
                                         ("tectonic", None)),
}


def kinds_of(part: str) -> set[str]:
    """The kinds (games, ``community``) whose pictures the gallery's ``part`` draws, all or some."""
    return {kind for kind, _ in PARTS[part]}


def part_of(kind: str) -> str:
    """The first part of :data:`PARTS` that draws some of ``kind``'s pictures."""
    return next(name for name in PARTS if kind in kinds_of(name))


def all_shots(part: str | None = None) -> Iterator[Shot]:
    """Every picture of the gallery, or those of one of its :data:`PARTS`."""
    if part is None:
        for kind in engines.available():
            yield from game_shots(kind)
        yield from community_shots()
        return
    for kind, games in PARTS[part]:
        yield from community_shots() if kind == "community" else game_shots(kind, only=games)


def first_of_each_kind(shots: list[Shot], key: Callable[[str], str]) -> list[Shot]:
    seen: dict[str, Shot] = {}
    for s in shots:
        seen.setdefault(key(s.name), s)
    return list(seen.values())


def card_of(names: tuple[str, ...]):
    """The card that shows the pictures ``names``, built as the bot builds it (:class:`bot.cards.Card`):
    its pictures, the animated summary added by :meth:`bot.cards.Card.with_picture` as
    ``GameCog.attach_summary`` adds it."""
    from bot.cards import Card

    card = Card(text="—", pictures=tuple(n for n in names if n != SUMMARY))
    return card.with_picture(SUMMARY) if SUMMARY in names else card


def recorded_shots(part: str | None = None) -> list[tuple[str, int, list]]:
    """Every picture of :func:`all_shots` (of one of its :data:`PARTS`), drawn once per test process
    while ``render.common`` records its texts: ``(name, width, text runs)`` (the picture tests share
    the walk)."""
    if part is None:
        return [shot for name in PARTS for shot in recorded_shots(name)]
    if part not in _RECORDED:
        _RECORDED[part] = list(_record_all(part))
    return _RECORDED[part]


def cards(part: str | None = None) -> dict[str, tuple[str, ...]]:
    """The card of every picture :func:`recorded_shots` drew: its name -> the names of its card's pictures."""
    recorded_shots(part)
    return dict(_CARDS)


_RECORDED: dict[str, list[tuple[str, int, list]]] = {}
_CARDS: dict[str, tuple[str, ...]] = {}


def _record_all(part: str) -> Iterator[tuple[str, int, list]]:
    import importlib
    import io

    from PIL import Image

    from render import common

    modules = [importlib.import_module(f"render.{m}") for m in
               ("armada", "leaderboard", "limit", "ludime", "ludix", "lutinades", "ranta", "tectonic")]
    def clear() -> None:
        for module in modules:  # cached tiles and layers would skip their drawing (and its recording)
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and value is not common.font:
                    value.cache_clear()

    for shot in all_shots(part):
        clear()
        if shot.summary:
            for name, width, runs in _summary_runs(shot, clear):
                _CARDS[name] = (name,)  # alone in its gallery, under the result's pictures
                yield name, width, runs
            continue
        with common.recording_text() as drawn:
            data = shot.draw()
        _CARDS[shot.name] = shot.card
        if data:
            yield shot.name, Image.open(io.BytesIO(data)).width, list(drawn)


def _summary_runs(shot: Shot, clear: Callable[[], None]) -> Iterator[tuple[str, int, list]]:
    """The texts of an animated summary as its frames show them: the animation is drawn (its frames'
    width, after any shrinking for its size budget), then each of its pictures is drawn again while
    recording, as the animation draws it (``FRAME_WIDTH``: Limit's boards are drawn at the frames'
    width), its texts scaled as :mod:`render.animation` scales the picture into the frame; the
    final ranking's band is drawn at the frames' width. Named ``<kind>-…-summary-<picture>-<lang>``
    (``-ranking-<lang>`` for the band: its words are the replay catalog's)."""
    import dataclasses
    import io

    from PIL import Image

    from render import animation, common

    drawn = shot.draw()
    assert drawn is not None, f"{shot.name}: no animated summary"
    data, _ = drawn
    width = Image.open(io.BytesIO(data)).width
    jobs, _order, ranking, title = shot.job.args
    stem, lg = shot.name.rsplit("-", 1)  # the language stays last (test_picture_words reads it there)
    for j, (fn, args, kwargs) in enumerate(jobs):
        clear()
        narrow = common.FRAME_WIDTH.set(animation.MAX_WIDTH)
        try:
            with common.recording_text() as runs:
                png = fn(*args, **kwargs)
        finally:
            common.FRAME_WIDTH.reset(narrow)
        if not png:
            continue
        pic = Image.open(io.BytesIO(png))
        k = animation.fitted_width(pic.width, pic.height, width) / pic.width
        yield f"{stem}-{j}-{lg}", width, [dataclasses.replace(r, size=r.size * k, ink=r.ink * k, halo=r.halo * k)
                                          for r in runs]
    with common.recording_text() as runs:
        animation._ranking_band(ranking, width, title)
    yield f"{stem}-ranking-{lg}", width, list(runs)
