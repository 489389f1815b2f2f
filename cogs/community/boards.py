"""``/classement``, ``/records``, ``/profil``, ``/parties``: thin, over bot/community (``/historique``: replays.py)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from datetime import UTC, datetime
from statistics import median
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n
from bot.cards import TABLE_ACCENT, Card, rgb
from bot.community import seasons, strength
from bot.community.daily import day_of
from bot.community.notifier import jump_link, timestamp
from bot.community.ratings import display
from bot.gamecog import level_name
from bot.safe import escape
from bot.translator import L
from bot.ui import Click, lang, public_lang, send
from cogs.community.common import game_choices, guild_of, one_game, server_name, title
from engines.base import RuleError
from render.common import seat_colour
from render.leaderboard import render_leaderboard, render_records

log = logging.getLogger("ludibot.community")

DAY = 86400.0
PERIODS = {"semaine": ("week", 7 * DAY), "mois": ("month", 30 * DAY), "tout": ("all", None)}
BOARD_SIZE = 20
RECORDS_SIZE = 10
MAX_LISTED = 20
MOVE_SAMPLE = 200  # the player's latest moves the median time per move reads
LIST_BUDGET = 2000  # a Discord message
SEASONS_WAIT = 0.4  # seconds /profil waits for season tables not cached yet


def duration(seconds: float, lg: str) -> str:
    """A time in words, in its largest sensible unit ("45 secondes", "12 minutes", "3 heures", "2 jours")."""
    for key, size, upto in (("seconds", 1, 90), ("minutes", 60, 90 * 60), ("hours", 3600, 36 * 3600)):
        if seconds < upto:
            return i18n.t(f"community.profile.{key}", lg, n=max(0, round(seconds / size)))
    return i18n.t("community.profile.days", lg, n=round(seconds / DAY))


def _png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def mode_label(kind: str, options: dict[str, Any], lg: str) -> str:
    """A solo record's mode, in words: each option's value as the game's catalog names it
    (``ranta.mode.expert``, ``limit.choice.orchidee``…), the defaults left out."""
    def word(value: Any) -> str:
        for key in (f"{kind}.mode.{value}", f"{kind}.board.{value}", f"{kind}.choice.{value}"):
            if i18n.has(key):
                return i18n.t(key, lg)
        return str(value)

    engine = engines.get(kind)
    defaults = {opt.name: opt.default for opt in engine.options}
    words = [word(value) for name, value in options.items() if name not in defaults or value != defaults[name]]
    if not words and engine.options:  # all defaults: the first option's name for them
        words = [word(options.get(engine.options[0].name, engine.options[0].default))]
    return " · ".join(words)


class BoardsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.store = bot.store  # type: ignore[attr-defined]
        self.sessions = bot.sessions  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        # « Profil » beside a seat of every game's card (issue 24)
        self.bot.router.register("*", "profile", self.on_profile_button)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        self.bot.router.unregister_verb("profile")  # type: ignore[attr-defined]

    # --- /classement -------------------------------------------------------------------
    @app_commands.command(name="classement", description=L("community.cmd.classement"))
    @app_commands.describe(jeu=L("community.cmd.jeu"), periode=L("community.cmd.periode"),
                           saison=L("tournament.cmd.saison"))
    @app_commands.choices(periode=[app_commands.Choice(name=L("community.choice.week"), value="semaine"),
                                   app_commands.Choice(name=L("community.choice.month"), value="mois"),
                                   app_commands.Choice(name=L("community.choice.all"), value="tout")])
    @app_commands.guild_only()
    async def classement(self, interaction: discord.Interaction, jeu: str, periode: str = "tout",
                         saison: str | None = None) -> None:
        guild = guild_of(interaction)
        kind = one_game(jeu)
        if periode not in PERIODS:
            raise RuleError("community.error.bad_period", period=periode[:30])
        lg = await public_lang(interaction)
        if saison is not None:  # a season's own table (issue 28): its games only, a fresh start
            board = self.bot.seasons  # type: ignore[attr-defined]
            season_period = await board.period(guild)
            season = seasons.parse(saison, season_period, time.time())
            if season is None:
                raise RuleError("tournament.error.season", value=escape(saison, limit=20),
                                example=seasons.season_at(time.time(), season_period).label)
            season_rows = (await board.table(guild, kind, season))[:BOARD_SIZE]
            periode = season.label
            period = i18n.t("tournament.season.board", lg, season=season.name(lg))
            caption = i18n.t("tournament.season.caption", lg, game=title(kind, lg), season=season.name(lg))
            table = [{"rank": i + 1, "player": r.name, "rating": r.rating, "games": r.games, "wins": r.wins,
                      "best": None} for i, r in enumerate(season_rows)]
            users = [r.user_id for r in season_rows]
        else:
            key, span = PERIODS[periode]
            since = time.time() - span if span else None
            rows = await self.store.leaderboard(guild, kind, since, BOARD_SIZE)
            period = i18n.t(f"community.board.{key}", lg)
            caption = i18n.t("community.board.caption", lg, game=title(kind, lg), period=key)
            table = [{"rank": i + 1, "player": r.name, "rating": display(r.ordinal), "games": r.games,
                      "wins": r.wins, "best": r.best_score} for i, r in enumerate(rows)]
            users = [r.user_id for r in rows]
        labels = {k: i18n.t(f"community.board.{k}", lg) for k in ("rank", "player", "rating", "games", "wins",
                                                                    "best", "empty")}
        mine = next((i for i, u in enumerate(users) if u == interaction.user.id), None)
        image = await self.bot.render_pool.run(  # type: ignore[attr-defined]
            render_leaderboard, i18n.t("community.board.title", lg, game=title(kind, lg)),
            i18n.t("community.board.subtitle", lg, period=period, server=server_name(interaction), count=len(table)),
            labels, table, mine)
        await send(interaction, caption, file=_png(image, f"classement-{kind}-{periode}.png"))

    @classement.autocomplete("jeu")
    async def _classement_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current)

    @classement.autocomplete("saison")
    async def _classement_saison(self, interaction: discord.Interaction, current: str):
        if interaction.guild_id is None:
            return []
        lg = lang(interaction)
        period = await self.bot.seasons.period(interaction.guild_id)  # type: ignore[attr-defined]
        wanted = current.strip().lower()
        return [app_commands.Choice(name=s.name(lg)[:100], value=s.label)
                for s in seasons.recent(time.time(), period, 12) if not wanted or wanted in s.label
                or wanted in s.name(lg).lower()][:25]

    # --- /records ------------------------------------------------------------------------
    @app_commands.command(name="records", description=L("community.cmd.records"))
    @app_commands.describe(jeu=L("community.cmd.jeu"))
    @app_commands.guild_only()
    async def records(self, interaction: discord.Interaction, jeu: str) -> None:
        guild = guild_of(interaction)
        kind = one_game(jeu)
        lg = await public_lang(interaction)
        if self.sessions.engine(kind).min_players != 1:
            raise RuleError("community.error.no_solo", game=title(kind, lang(interaction)))
        # today's daily challenges wait for the day's end: their scores stay hidden until then (issue 37)
        rows = await self.store.solo_records(guild, kind, RECORDS_SIZE, hide_daily=self.today())
        labels = {k: i18n.t(f"community.records.{k}", lg) for k in ("rank", "player", "score", "mode", "date",
                                                                     "game", "empty")}
        table = [{"rank": i + 1, "player": r["name"], "score": r["score"], "game": r["game_id"],
                  "mode": mode_label(kind, r.get("options") or {}, lg),
                  "date": i18n.t("common.format.date", lg, date=datetime.fromtimestamp(r["finished_at"], UTC))}
                 for i, r in enumerate(rows)]
        image = await self.bot.render_pool.run(  # type: ignore[attr-defined]
            render_records, i18n.t("community.records.title", lg, game=title(kind, lg)),
            i18n.t("community.records.subtitle", lg, server=server_name(interaction), count=len(rows)), labels, table)
        await send(interaction, i18n.t("community.records.caption", lg, game=title(kind, lg)),
                   file=_png(image, f"records-{kind}.png"))

    @records.autocomplete("jeu")
    async def _records_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current, solo_only=True)

    # --- /profil -------------------------------------------------------------------------
    @app_commands.command(name="profil", description=L("community.cmd.profil"))
    @app_commands.describe(membre=L("community.cmd.membre"))
    @app_commands.guild_only()
    async def profil(self, interaction: discord.Interaction, membre: discord.User | None = None) -> None:
        guild = guild_of(interaction)
        who = membre or interaction.user
        name = escape(getattr(who, "display_name", None) or who.name)
        await send(interaction, card=Card(text=await self.profile_text(guild, who.id, name, server_name(interaction),
                                                                       await public_lang(interaction)),
                                          accent=TABLE_ACCENT))

    async def on_profile_button(self, click: Click) -> None:
        """« Profil » beside a seat of a game's card (issue 24): that player's profile on this server,
        privately, in the clicker's language. The game was found in this server and channel (the
        dispatcher's scope): a button carried to another server finds no game there."""
        game, interaction = click.game, click.interaction
        try:
            seat = game.seats[int(click.arg or "")]
        except (ValueError, IndexError):
            raise RuleError("common.error.forged_button") from None
        if game.guild_id is None or game.guild_id != interaction.guild_id:
            raise RuleError("common.error.no_such_game", game=game.id)
        if seat.user_id is None:  # a bot's seat: its level and how strong it was measured (issue 37)
            await send(interaction, card=Card(text=self.ai_profile_text(game.kind, seat, lang(interaction)),
                                              accent=rgb(seat_colour(int(click.arg or 0)))), ephemeral=True)
            return
        text = await self.profile_text(game.guild_id, seat.user_id, escape(seat.name), server_name(interaction),
                                       lang(interaction), interaction.user.id)
        await send(interaction, card=Card(text=text, accent=rgb(seat_colour(int(click.arg or 0)))), ephemeral=True)

    @staticmethod
    def ai_profile_text(kind: str, seat: Any, lg: str) -> str:
        """An AI seat's profile: the bot's level and that level's measured strength."""
        levels = getattr(engines.get(kind), "ai_levels", (1, 1))

        def name_of(level: int) -> str:
            return i18n.t(level_name(levels, level).key, lg)

        level = seat.ai_level or levels[0]
        game = i18n.t(f"{kind}.name.title", lg)
        # a game with one level names none, as its seat's button (« 🤖 IA ») and its start command do
        head = (i18n.t("community.profile.ai_head", lg, name=escape(seat.name), level=name_of(level), game=game)
                if levels[1] > levels[0] else i18n.t("community.profile.ai_head_only", lg, name=escape(seat.name),
                                                     game=game))
        found = strength.lines(kind, level, name_of, lg)
        return "\n".join([head, *(found or [i18n.t("community.profile.ai_none", lg)]),
                          *([f"-# {i18n.t('community.profile.ai_note', lg)}"] if found else [])])

    def today(self) -> str:
        """Today's UTC day (the daily challenges' day), by the bot's clock."""
        return day_of(getattr(self.bot, "clock", time.time)())

    async def profile_text(self, guild: int, user_id: int, name: str, server: str, lg: str,
                           viewer: int | None = None) -> str:
        """A member's profile on a server (``name`` escaped): ratings and ranks, completion, pace,
        seasons, solo records, recent games."""
        ratings = await self.store.player_ratings(guild, user_id)
        # today's daily challenges (issue 37): in a member's own private profile only (« Profil »), else after the day
        hide = None if viewer == user_id else self.today()
        solo = await self.store.player_solo_best(guild, user_id, hide_daily=hide)
        recent = await self.store.player_recent(guild, user_id, 5, hide_daily=hide)
        finished, cancelled, forfeited = await self.store.player_completion(guild, user_id)
        waits = await self.store.move_times(guild, user_id, MOVE_SAMPLE)
        if not (ratings or solo or recent or finished or cancelled or forfeited or waits):
            return i18n.t("community.profile.empty", lg, name=name)
        none = i18n.t("community.profile.no_score", lg)
        lines = [i18n.t("community.profile.head", lg, name=name, server=server)]
        ended = finished + cancelled + forfeited
        if ended:
            # floored: 100 % only when every one was seen through
            lines.append(i18n.t("community.profile.completion", lg, percent=100 * finished // ended,
                                finished=finished, total=ended, cancelled=cancelled, forfeited=forfeited))
        if waits:
            lines.append(i18n.t("community.profile.median", lg, duration=duration(median(waits), lg),
                                moves=len(waits)))
        for row, position, total in ratings:
            lines.append(i18n.t("community.profile.game_line", lg, game=title(row.kind, lg),
                                rating=display(row.ordinal), rank=position, total=total, games=row.games,
                                wins=row.wins, best=none if row.best_score is None else row.best_score))
        board = getattr(self.bot, "seasons", None)
        placed = []
        if board is not None and ratings:  # the member's place in this season and the last (issue 28)
            # bounded: a season table not computed yet goes on in the background (cached for the next
            # /profil) and this answer goes without it, inside Discord's 3 seconds
            task = asyncio.ensure_future(board.player_seasons(guild, user_id, [r.kind for r, _, _ in ratings]))
            try:
                placed = await asyncio.wait_for(asyncio.shield(task), SEASONS_WAIT)
            except TimeoutError:
                log.info("/profil: season tables of server %s still being computed", guild)
            for season, kind, position, total, row in placed:
                lines.append(i18n.t("tournament.profile.season_line", lg, season=season.name(lg),
                                    game=title(kind, lg), rank=position, total=total, rating=row.rating,
                                    games=row.games))
        for kind, (best, count) in sorted(solo.items()):
            lines.append(i18n.t("community.profile.solo_line", lg, game=title(kind, lg),
                                best=none if best is None else best, games=count))
        if recent:
            lines.append(i18n.t("community.profile.recent_head", lg))
            for g in recent:
                key = "community.profile.recent_solo_line" if g["solo"] else "community.profile.recent_line"
                score = "" if g["score"] is None else i18n.t("community.profile.points", lg, score=g["score"])
                lines.append(i18n.t(key, lg, id=g["game_id"], game=title(g["kind"], lg), rank=g["rank"],
                                    players=g["players"], score=score, when=timestamp(g["finished_at"])))
        return "\n".join(lines)

    # --- /parties ------------------------------------------------------------------------
    @app_commands.command(name="parties", description=L("community.cmd.parties"))
    @app_commands.guild_only()
    async def parties(self, interaction: discord.Interaction) -> None:
        """The caller's games first (where it is their turn, across the server's channels), then the
        server's other running games; never another server's."""
        guild = guild_of(interaction)
        lg = lang(interaction)
        # the turn columns, two indexed queries with a limit: never every running game's state
        turns = await self.store.turn_lists(guild, interaction.user.id, MAX_LISTED)
        if not turns.mine_total and not turns.others_total:
            await send(interaction, i18n.t("community.games.empty", lg), ephemeral=True)
            return
        mine: list[tuple[float, int, str]] = []
        others: list[tuple[float, int, str]] = []
        for g in turns.mine:
            link = f"[{i18n.t('community.games.link', lg)}](<{jump_link(g)}>)"  # type: ignore[arg-type]
            mine.append((g.since, g.game_id, i18n.t("community.games.mine_line", lg, game=title(g.kind, lg),
                                                     id=g.game_id, channel=g.thread_id or g.channel_id,
                                                     since=timestamp(g.since), link=link)))
        for g in turns.others:
            link = f"[{i18n.t('community.games.link', lg)}](<{jump_link(g)}>)"  # type: ignore[arg-type]
            players = ", ".join(escape(n) for n in g.waiting) or i18n.t("community.games.nobody", lg)
            others.append((g.since, g.game_id, i18n.t("community.games.line", lg, game=title(g.kind, lg),
                                                       id=g.game_id, channel=g.thread_id or g.channel_id,
                                                       players=players, since=timestamp(g.since), link=link)))
        sections = []
        if mine:
            sections.append((i18n.t("community.games.mine_head", lg, count=turns.mine_total), mine))
        if others:
            key = "community.games.others_head" if mine else "community.games.head"
            sections.append((i18n.t(key, lg, count=turns.others_total), others))
        total = turns.mine_total + turns.others_total
        await send(interaction, self._bounded(sections, lg, total), ephemeral=True)

    @staticmethod
    def _bounded(sections: list[tuple[str, list[tuple[float, int, str]]]], lg: str, total: int | None = None) -> str:
        """The sections' heads and lines within one message (2,000 characters, ``MAX_LISTED`` games),
        then how many games were left out (of ``total``, by default the lines given)."""
        lines: list[str] = []
        if total is None:
            total = sum(len(items) for _, items in sections)
        room = LIST_BUDGET - len(i18n.t("community.games.more", lg, count=total)) - 1
        shown = 0
        for head, items in sections:
            if shown >= MAX_LISTED or len(head) + len(items[0][2]) + 2 > room:
                break
            lines.append(head)
            room -= len(head) + 1
            for _, _, line in items:
                if shown >= MAX_LISTED or len(line) + 1 > room:
                    room = 0  # nothing after a game left out: the list stays in its order
                    break
                lines.append(line)
                room -= len(line) + 1
                shown += 1
        if shown < total:
            lines.append(i18n.t("community.games.more", lg, count=total - shown))
        return "\n".join(lines)
