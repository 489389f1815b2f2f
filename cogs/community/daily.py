"""``/defi-du-jour`` (issue 37): today's challenge of a game, or its daily and weekly boards — thin,
over bot/community/daily. The share card a finished challenge posts (« Jouer le défi ») is here too."""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import UTC, date, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.cards import TABLE_ACCENT, Card
from bot.community import daily
from bot.community.daily import DAY, WEEK, Board
from bot.gamecog import LEVEL_NAMES, player_of
from bot.safe import escape, ping
from bot.sessions import Outcome
from bot.storage import GameRow
from bot.threads import ensure_thread
from bot.translator import L
from bot.ui import Click, button, in_thread, lang, public_lang, send
from cogs.community.common import guild_of, server_name, title
from engines.base import RuleError
from render.leaderboard import render_daily

log = logging.getLogger("ludibot.daily")

#: the ``jeu`` option's choices: every game and variant a draw is shared in
CHOICES = [app_commands.Choice(name=L(f"community.daily.choice-{value.replace(':', '-')}"), value=value)
           for value in daily.challenges()]
BOARDS = [app_commands.Choice(name=L("community.daily.board-day"), value=DAY),
          app_commands.Choice(name=L("community.daily.board-week"), value=WEEK)]
#: the lines of the board's ranking written under its picture
TEXT_ROWS = 10
#: how long the answer to a challenge waits for its private thread before saying it is being opened (s):
#: well inside Discord's 3 s, the game already started
THREAD_WAIT = 1.5


def challenge_name(kind: str, variant: str, lg: str) -> str:
    return i18n.t("community.daily.name", lg, game=title(kind, lg),
                  variant=i18n.t(f"community.daily.variant-{kind}-{variant}", lg))


def day_words(day: str, lg: str) -> str:
    d = date.fromisoformat(day)
    return i18n.t("common.format.date", lg, date=datetime(d.year, d.month, d.day, 12, tzinfo=UTC))


def shape_line(kind: str, shape: dict[str, Any], lg: str) -> str | None:
    """The spoiler-free outline of a board, in words (:func:`bot.community.daily.shape`)."""
    if kind == "limit":
        lines = shape.get("lines") or {}
        return i18n.t("community.daily.shape-limit", lg, total=sum(lines.values()),
                      directions=" · ".join(f"{i18n.t(f'community.daily.direction-{d}', lg)} {n}"
                                            for d, n in sorted(lines.items())) or "—")
    if kind == "ranta":
        return i18n.t("community.daily.shape-ranta", lg, groups=shape.get("groups", 0), empty=shape.get("empty", 0))
    return None


class DailyCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def daily(self) -> daily.DailyChallenges:
        return self.bot.daily  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.daily.finished = self.share
        self.bot.router.register("*", "dailyplay", self.on_play)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        self.daily.finished = None
        self.bot.router.unregister_verb("dailyplay")  # type: ignore[attr-defined]

    @app_commands.command(name="defi-du-jour", description=L("community.daily.cmd"))
    @app_commands.describe(jeu=L("community.daily.cmd-jeu"), classement=L("community.daily.cmd-classement"))
    @app_commands.choices(jeu=CHOICES, classement=BOARDS)
    @app_commands.guild_only()
    async def defi_du_jour(self, interaction: discord.Interaction, jeu: str, classement: str | None = None) -> None:
        guild = guild_of(interaction)
        kind, variant = daily.parse(jeu)
        if classement is not None:
            await self.show_board(interaction, guild, kind, variant, classement)
            return
        await self.play(interaction, kind, variant)

    async def play(self, interaction: discord.Interaction, kind: str, variant: str) -> None:
        """Start today's challenge for the member: their solo game on the day's draw, answered with its
        first turn (a second attempt is refused by the service)."""
        cog = self.bot.game_cogs.get(kind)  # type: ignore[attr-defined]
        if cog is None:
            raise RuleError("tournament.error.game", game=kind)
        if in_thread(interaction):  # it is played in a private thread of its own, opened from a channel
            raise RuleError("community.daily.in_thread")
        cog.require_permissions(interaction, thread=True, private=True)
        player = player_of(interaction)
        outcome = await self.daily.start(player, interaction.channel_id, kind, variant)
        lg = await public_lang(interaction)
        name = challenge_name(kind, variant, lg)
        head = i18n.t("community.daily.started", lg, player=ping(player.user_id), challenge=name,
                      day=day_words(self.daily.today(), lg))
        # the private thread first: the answer says where to play, to the player only. Creating it may wait on
        # a rate limit: past THREAD_WAIT the answer says it is being opened (Discord's 3 s), and the link follows
        thread = asyncio.ensure_future(ensure_thread(self.bot, outcome.game, lg))
        await asyncio.wait([thread], timeout=THREAD_WAIT)
        challenge = challenge_name(kind, variant, lang(interaction))
        if not thread.done():
            await send(interaction, i18n.t("community.daily.opening", lang(interaction), challenge=challenge),
                       ephemeral=True)
        try:
            thread_id = await thread
        except discord.HTTPException:
            log.info("daily challenge %s: its thread could not be opened now", outcome.game.id)
        else:
            await send(interaction, i18n.t("community.daily.where", lang(interaction), thread=f"<#{thread_id}>",
                                           challenge=challenge), ephemeral=True)
        await cog.publish_started(interaction, outcome, lg, first=[head])

    async def on_play(self, click: Click) -> None:
        """« Jouer le défi » under a share card: that challenge for whoever clicks, if it is still today's."""
        info = daily.daily_of(click.game)
        if info is None:
            raise RuleError("common.error.forged_button")
        if info["day"] != self.daily.today():
            raise RuleError("community.daily.over", challenge=challenge_name(click.game.kind, info["variant"],
                                                                              lang(click.interaction)))
        await self.play(click.interaction, click.game.kind, info["variant"])

    # --- the boards ------------------------------------------------------------------------------
    def level_words(self, kind: str, lg: str) -> str:
        low, high = getattr(self.bot.sessions.engine(kind), "ai_levels", (1, 1))  # type: ignore[attr-defined]
        names = LEVEL_NAMES.get(high - low + 1, LEVEL_NAMES[3])
        return i18n.t(f"common.level.{names[-1]}", lg)

    def board_text(self, board: Board, lg: str) -> str:
        name = challenge_name(board.kind, board.variant, lg)
        first = daily.week_of(board.day)[0] if board.period == WEEK else board.day  # a week: its Monday
        lines = [i18n.t(f"community.daily.board-head-{board.period}", lg, challenge=name, day=day_words(first, lg)),
                 i18n.t("community.daily.played", lg, count=board.played)]
        level = self.level_words(board.kind, lg)
        lines.append(i18n.t("community.daily.mark", lg, level=level, score=board.mark) if board.mark is not None
                     else i18n.t("community.daily.mark_pending", lg, level=level))
        if not board.open:
            lines.append(i18n.t("community.daily.hidden", lg))
        for row in board.rows[:TEXT_ROWS]:
            if row.score is None:
                lines.append(i18n.t(f"community.daily.row-{row.status}", lg, player=escape(row.name)))
            else:
                lines.append(i18n.t("community.daily.row-week" if board.period == WEEK else "community.daily.row", lg,
                                    rank=row.rank, player=escape(row.name), score=row.score, days=row.days))
        return "\n".join(lines)

    def board_rows(self, board: Board, lg: str) -> tuple[list[dict[str, Any]], int | None]:
        """The picture's rows: the players (the viewer highlighted) and, on the day's board, the AI's mark
        in its place among the scores."""
        rows: list[dict[str, Any]] = []
        highlight = None
        mark_row = None
        if board.period == DAY and board.mark is not None:
            mark_row = {"rank": None, "player": i18n.t("community.daily.ai", lg, level=self.level_words(board.kind, lg)),
                        "score": board.mark, "days": ""}
        for i, row in enumerate(board.rows):
            if mark_row is not None and row.score is not None and row.score < board.mark:  # type: ignore[operator]
                rows.append(mark_row)
                mark_row = None
            if mark_row is not None and row.score is None:
                rows.append(mark_row)
                mark_row = None
            if i == board.viewer:
                highlight = len(rows)
            score = row.score if row.score is not None else i18n.t(f"community.daily.cell-{row.status}", lg)
            rows.append({"rank": row.rank, "player": row.name, "score": score, "days": row.days})
        if mark_row is not None:
            rows.append(mark_row)
        return rows, highlight

    async def show_board(self, interaction: discord.Interaction, guild: int, kind: str, variant: str,
                         period: str) -> None:
        """The daily or weekly board, privately (its scores depend on who asks)."""
        board = await self.daily.board(guild, kind, variant, period, interaction.user.id)
        lg = lang(interaction)
        rows, highlight = self.board_rows(board, lg)
        labels = {k: i18n.t(f"community.daily.col-{k}", lg) for k in ("rank", "player", "score", "days", "empty")}
        image = await self.bot.render_pool.run(  # type: ignore[attr-defined]
            render_daily, i18n.t(f"community.daily.board-title-{period}", lg, challenge=challenge_name(kind, variant, lg)),
            i18n.t(f"community.daily.board-subtitle-{period}", lg, day=day_words(board.day, lg),
                   server=server_name(interaction)), labels, rows, highlight, period == WEEK)
        await send(interaction, self.board_text(board, lg), ephemeral=True,
                   file=discord.File(io.BytesIO(image), filename=f"defi-{kind}-{variant}-{period}.png"))

    # --- a challenge's end: its share card --------------------------------------------------------
    async def share(self, game: GameRow, outcome: Outcome) -> None:
        """Post, in the challenge's channel, the player's score and a coarse outline of their board (no
        tile, no move), with « Jouer le défi » for whoever has not played yet."""
        info = daily.daily_of(game)
        cog = self.bot.game_cogs.get(game.kind)  # type: ignore[attr-defined]
        if info is None or cog is None or not game.seats:
            return
        lg = await cog.public_lang_of(game)
        seat = game.seats[0]
        result = outcome.result
        score = result.scores[0] if result is not None else None
        name = challenge_name(game.kind, info["variant"], lg)
        lines = [i18n.t("community.daily.share" if score is not None else "community.daily.share-resigned", lg,
                        player=ping(seat.user_id) if seat.user_id else escape(seat.name), challenge=name,
                        day=day_words(info["day"], lg), score=score if score is not None else 0)]
        if score is not None:
            view = await self.bot.sessions.public_view(game)  # type: ignore[attr-defined]
            details = dict(result.details or {}) if result is not None else {}
            words = shape_line(game.kind, daily.shape(game.kind, details, view), lg)
            if words:
                lines.append(words)
            mark = await self.bot.store.daily_mark(game.guild_id, info["day"], game.kind,  # type: ignore[attr-defined]
                                                   info["variant"])
            if mark is not None:
                lines.append(i18n.t("community.daily.share-mark", lg, level=self.level_words(game.kind, lg),
                                    mark=mark, beaten="yes" if score > mark else "tie" if score == mark else "no"))
        lines.append(i18n.t("community.daily.share-call", lg))
        card = Card(text="\n".join(lines), accent=TABLE_ACCENT,
                    groups=((button(game.id, "dailyplay", i18n.t("community.daily.button-play", lg),
                                    style=discord.ButtonStyle.primary, emoji="🎯"),),))
        try:
            await cog.post(game.channel_id, card=card, silent=True)
        except discord.HTTPException:
            log.info("daily challenge %s: its share card could not be posted", game.id)
