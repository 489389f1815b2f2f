"""``/historique`` (issue 27): a game move by move, its journal, its animated summary, « Partager ».

The viewer is an ephemeral message: the public picture after a move, that move's narration, and
⏮ ◀ ▶ ⏭ and a select of the rounds; each click edits the message in place (UPDATE_MESSAGE). Its
components are :class:`ReplayControl` items whose custom id carries the server, the game and the
position shown (``ludibot-replay:<server>:<game>:<position>:<verb>``): after a restart they still
find their game, and only in their own server. Replays, pictures and animations come from
``bot.replays`` (:class:`bot.community.replay.ReplayService`), cached per game version.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import time
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.community import history
from bot.community.notifier import timestamp
from bot.community.replay import Replay, ReplayError, ReplayService, plain, ranking
from bot.narrate import narrate
from bot.safe import Safe, allowed_mentions, escape
from bot.sessions import SessionError
from bot.storage import CANCELLED, FINISHED, LOBBY, EventRow, GameRow, ResultRow
from bot.translator import L
from bot.ui import lang, public_lang, refuse, send
from cogs.community.common import guild_of, title
from engines.base import RuleError

log = logging.getLogger("ludibot.replay")

PREFIX = "ludibot-replay"
VERBS = ("first", "prev", "next", "last", "jump", "share")
#: one share per member and server per window (a server belongs to one process: its shard's)
SHARE_WINDOW = 300.0
#: the journal is shown in the message up to this many characters, else attached as a file
INLINE_LOG = 1700
MAX_OPTIONS = 25


def control_id(guild_id: int, game_id: int, position: int, verb: str) -> str:
    return f"{PREFIX}:{guild_id}:{game_id}:{position}:{verb}"


# --- words -------------------------------------------------------------------------------------
def group_label(kind: str, group: int, lg: str) -> str:
    if kind == "lutinades":
        return i18n.t("replay.group.turn", lg, round=group)
    if kind == "tectonic":
        from bot.community.replay import MOVES_PER_GROUP

        return i18n.t("replay.group.moves", lg, first=(group - 1) * MOVES_PER_GROUP + 1,
                      last=group * MOVES_PER_GROUP)
    return i18n.t("replay.group.round", lg, round=group)


def journal_text(game: GameRow, rows: list[EventRow], results: list[ResultRow], lg: str) -> str:
    """The journal as a text file reads: no markdown, no Discord timestamps, dates written out."""
    when = datetime.fromtimestamp(game.updated_at, UTC)
    status = "replay.log.finished" if game.status == FINISHED else "replay.log.running"
    out = [i18n.t("replay.log.head", lg, game=title(game.kind, lg), id=game.id, players=", ".join(game.names)),
           i18n.t(status, lg, when=when), ""]
    out += [plain(line) for line in history.replay_lines(game, rows, lg, key="replay.log.line")]
    if game.status == FINISHED:
        out += ["", i18n.t("replay.log.final_file", lg)]
        out += ranking(game, rows, results, lg, markdown=False)
    return "\n".join(out) + "\n"


# --- the persistent controls -------------------------------------------------------------------
class ReplayControl(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"ludibot-replay:(?P<guild>[0-9]{1,20}):(?P<game>[0-9]{1,18}):(?P<pos>[0-9]{1,7})"
                             r":(?P<verb>first|prev|next|last|jump|share)"):
    """Every button and select of a replay viewer (persistent: the custom id carries everything)."""

    def __init__(self, item: discord.ui.Item) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str], /) -> ReplayControl:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        cog = interaction.client.get_cog("ReplayCog")  # type: ignore[attr-defined]
        if cog is None:
            await refuse(interaction, "common.error.forged_button")
            return
        await cog.on_control(interaction)


CONTROL = re.compile(ReplayControl.__discord_ui_compiled_template__.pattern)  # type: ignore[attr-defined]


class ReplayCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.store = bot.store  # type: ignore[attr-defined]
        self.sessions = bot.sessions  # type: ignore[attr-defined]
        if getattr(bot, "replays", None) is None:
            bot.replays = ReplayService(bot)  # type: ignore[attr-defined]
        self.replays: ReplayService = bot.replays  # type: ignore[attr-defined]
        self._shared: dict[tuple[int, int], float] = {}  # (server, member) -> when they last shared

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplayControl)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplayControl)

    # --- /historique ---------------------------------------------------------------------
    @app_commands.command(name="historique", description=L("community.cmd.historique"))
    @app_commands.rename(fmt="format")
    @app_commands.describe(partie=L("community.cmd.partie"), fmt=L("community.cmd.format"))
    @app_commands.choices(fmt=[app_commands.Choice(name=L("community.choice.text"), value="texte"),
                               app_commands.Choice(name=L("community.choice.json"), value="json")])
    @app_commands.guild_only()
    async def historique(self, interaction: discord.Interaction, partie: int, fmt: str = "texte") -> None:
        guild = guild_of(interaction)
        if fmt not in ("texte", "json"):
            raise RuleError("community.error.bad_format", format=fmt[:30])
        game = await self.sessions.get_in(partie, guild, broken_ok=True)  # another server's does not exist here
        if game.status == CANCELLED:
            raise SessionError("common.error.game_cancelled", game=game.id)
        if game.status == LOBBY:
            raise RuleError("replay.error.not_started", game=game.id)
        lg = lang(interaction)
        if fmt == "json":
            if game.status != FINISHED:
                raise RuleError("community.error.not_finished", game=game.id)
            rows = await self.store.events(game.id)
            results = await self.store.results(game.id)
            doc = history.export(game, rows, results, viewer_seat=game.seat_of(interaction.user.id))
            data = json.dumps(doc, ensure_ascii=False, indent=2).encode()
            await send(interaction, i18n.t("community.history.json_ready", lg, id=game.id), ephemeral=True,
                       file=discord.File(io.BytesIO(data), filename=f"ludibot-{game.kind}-{game.id}.json"))
            return
        # the viewer answers at once (a replay is milliseconds, its picture one drawing); the journal
        # and the animation (a second or so in a worker) follow
        rows = await self.store.events(game.id)
        results = await self.store.results(game.id) if game.status == FINISHED else []
        item: Replay | None
        try:
            item = await self.replays.get(game)
        except ReplayError as err:
            item, note = None, i18n.t(err.key, lg, **err.params)
        else:
            note = None
        if item is not None:
            content, files, view = await self.card(game, item, len(item) - 1, lg)
            try:
                await interaction.response.send_message(content=content, files=files, view=view, ephemeral=True,
                                                        allowed_mentions=allowed_mentions(content))
            except discord.NotFound:  # the interaction expired before the answer (Unknown interaction)
                log.warning("/historique %s: the interaction expired before the viewer", game.id)
                return
            self.replays.warm(game, item, len(item) - 1, lg, step=-1)
            self.replays.warm(game, item, -1, lg)  # ⏮'s start position
        await self._journal(interaction, game, rows, results, item, lg, note)

    @historique.autocomplete("partie")
    async def _historique_partie(self, interaction: discord.Interaction, current: str):
        if interaction.guild_id is None:
            return []
        lg = lang(interaction)
        found = await self.store.finished_games(interaction.guild_id, 25, current.strip())
        out = []
        for g in found:
            label = i18n.t("community.history.choice", lg, id=g["id"], game=title(g["kind"], lg),
                           players=", ".join(g["names"]))
            out.append(app_commands.Choice(name=label[:100], value=g["id"]))
        return out

    async def _journal(self, interaction: discord.Interaction, game: GameRow, rows: list[EventRow],
                       results: list[ResultRow], item: Replay | None, lg: str, note: str | None) -> None:
        """The second message: the journal (inline when short, else a text file), the ranking, the
        animated summary of a finished game and its « Partager » button."""
        lines = [note] if note else []
        inline = history.replay_lines(game, rows, lg)
        final = ([i18n.t("replay.log.final", lg)] + ranking(game, rows, results, lg)) if game.status == FINISHED \
            else []
        files: list[discord.File] = []
        body = "\n".join([i18n.t("replay.log.inline", lg), *inline])
        if len(body) <= INLINE_LOG:
            lines.append(body)
        else:
            key = "replay.log.attached" if game.status == FINISHED else "replay.log.attached_running"
            lines.append(i18n.t(key, lg, count=len(rows)))
            files.append(discord.File(io.BytesIO(journal_text(game, rows, results, lg).encode()),
                                      filename=f"ludibot-{game.kind}-{game.id}.txt"))
        lines += final
        view = None
        if game.status == FINISHED and item is not None:
            anim = await self._animation(game, rows, results, lg)
            if anim is not None:
                cog = getattr(self.bot, "game_cogs", {}).get(game.kind)
                if cog is not None:  # a result card a restart left without its summary gets it now
                    asyncio.ensure_future(cog.complete_result(game))
                files.append(discord.File(io.BytesIO(anim.data), filename=f"ludibot-{game.kind}-{game.id}.{anim.ext}"))
                lines.append(i18n.t("replay.animation.caption", lg, frames=anim.frames))
                view = discord.ui.View(timeout=None)
                view.add_item(discord.ui.Button(label=i18n.t("replay.button.share", lg), emoji="📣",
                                                style=discord.ButtonStyle.primary,
                                                custom_id=control_id(game.guild_id or 0, game.id, 0, "share")))
                view.stop()  # inert: its button is a DynamicItem (ReplayControl); discord.py keeps no copy
            else:
                lines.append(i18n.t("replay.animation.none", lg))
        content = "\n".join(lines)[:2000]
        kwargs: dict[str, Any] = {"content": content, "ephemeral": True, "allowed_mentions": allowed_mentions(content)}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:  # no viewer (a game that cannot be replayed): the journal is the answer
            await interaction.response.send_message(**kwargs)

    async def _animation(self, game: GameRow, rows: list[EventRow], results: list[ResultRow], lg: str):
        try:
            return await self.replays.summary(game, lg, rows, results)
        except ReplayError:
            return None
        except Exception:  # the journal is still worth showing without its animation
            log.exception("could not draw the animation of game %s", game.id)
            return None

    # --- the viewer card -------------------------------------------------------------------
    def text(self, game: GameRow, item: Replay, index: int, lg: str) -> str:
        pos = item.positions[index]
        if game.status == FINISHED:
            status = i18n.t("replay.viewer.finished", lg, when=timestamp(game.updated_at))
        else:
            status = i18n.t("replay.viewer.running", lg, total=len(item) - 1)
        head = i18n.t("replay.viewer.head", lg, game=title(game.kind, lg), id=game.id,
                      players=", ".join(escape(n) for n in game.names), status=status)
        group = group_label(game.kind, pos.group, lg)
        if pos.n == 0:
            where = i18n.t("replay.viewer.position_start", lg, group=group)
            told = [i18n.t("replay.viewer.start", lg)]
        else:
            where = i18n.t("replay.viewer.position", lg, n=pos.n, total=len(item) - 1, group=group)
            told = narrate(game.kind, list(pos.events), game.names, lg, viewer=None, limit=12)
            if pos.action.get("type") == "forfeit":
                told = [i18n.t("community.history.forfeit", lg, player=escape(game.names[pos.seat]))] \
                    if pos.seat is not None and 0 <= pos.seat < len(game.names) else told
            if not told:
                told = [i18n.t("replay.viewer.secret", lg)]
            by = pos.action.get("_by")
            if by == "timeout":
                told.append(i18n.t("replay.viewer.by_timeout", lg))
        return "\n".join([head, where, *told])[:2000]

    def controls(self, game: GameRow, item: Replay, index: int, lg: str) -> discord.ui.View:
        guild = game.guild_id or 0
        last = len(item) - 1
        view = discord.ui.View(timeout=None)
        for verb, emoji, off in (("first", "⏮️", index == 0), ("prev", "◀️", index == 0),
                                 ("next", "▶️", index >= last), ("last", "⏭️", index >= last)):
            view.add_item(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary, disabled=off,
                                            custom_id=control_id(guild, game.id, index, verb),
                                            label=i18n.t(f"replay.button.{verb}", lg)))
        groups = item.groups()
        if len(groups) > 1:
            if len(groups) > MAX_OPTIONS:  # evenly spread, the first and the last kept
                step = (len(groups) - 1) / (MAX_OPTIONS - 1)
                groups = [groups[round(i * step)] for i in range(MAX_OPTIONS)]
            options = []
            for group, first in groups:
                label = group_label(game.kind, group, lg)
                n = item.positions[first].n
                text = i18n.t("replay.select.option_start", lg, group=label) if n == 0 else \
                    i18n.t("replay.select.option", lg, group=label, n=n)
                options.append(discord.SelectOption(label=text[:100], value=str(first),
                                                    default=first <= index < _next_first(item, first)))
            view.add_item(discord.ui.Select(custom_id=control_id(guild, game.id, index, "jump"),
                                            placeholder=i18n.t("replay.select.placeholder", lg)[:150],
                                            options=options))
        view.stop()  # inert: its buttons are DynamicItems (ReplayControl); discord.py keeps no copy
        return view

    async def card(self, game: GameRow, item: Replay, index: int, lg: str
                   ) -> tuple[str, list[discord.File], discord.ui.View]:
        image = await self.replays.picture(game, item, index, lg)
        text = self.text(game, item, index, lg)
        files = [discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-{item.positions[index].n}.png")] \
            if image else []
        if not files:
            text = f"{text}\n{i18n.t('replay.viewer.no_picture', lg)}"[:2000]
        return text, files, self.controls(game, item, index, lg)

    # --- clicks ----------------------------------------------------------------------------
    async def on_control(self, interaction: discord.Interaction) -> None:
        t0 = time.perf_counter()
        data = interaction.data or {}
        m = CONTROL.fullmatch(str(data.get("custom_id", "")))
        if m is None:
            await refuse(interaction, "common.error.forged_button")
            return
        try:
            if interaction.guild_id is None or int(m["guild"]) != interaction.guild_id:
                raise RuleError("replay.error.wrong_server", game=int(m["game"]))
            game = await self.sessions.get_in(int(m["game"]), interaction.guild_id, broken_ok=True)
            if game.status == CANCELLED:
                raise SessionError("common.error.game_cancelled", game=game.id)
            if game.status == LOBBY:
                raise RuleError("replay.error.not_started", game=game.id)
            if m["verb"] == "share":
                await self.share(interaction, game)
                return
            item = await self.replays.get(game)
            index = self.target(item, int(m["pos"]), m["verb"], [str(v) for v in data.get("values", [])], game)
            lg = lang(interaction)
            content, files, view = await self.card(game, item, index, lg)
            await interaction.response.edit_message(content=content, attachments=files, view=view,
                                                    allowed_mentions=allowed_mentions(content))
            self.replays.warm(game, item, index, lg, step=-1 if m["verb"] in ("prev", "last") else 1)
        except RuleError as err:
            await refuse(interaction, err)
        except discord.NotFound:
            log.warning("a replay click expired before its answer")
        except Exception:
            log.exception("replay control %s failed", data.get("custom_id"))
            await refuse(interaction, "common.error.internal")
        finally:
            from bot import metrics

            metrics.observe_command(f"component replay {m['verb'] if m else '?'}", time.perf_counter() - t0)

    @staticmethod
    def target(item: Replay, shown: int, verb: str, values: list[str], game: GameRow) -> int:
        """The position a click asks for, from the one the message shows."""
        last = len(item) - 1
        if verb == "jump":
            if len(values) != 1 or not values[0].isdigit():  # one step is chosen: none or several is forged
                raise RuleError("common.error.forged_button")
            wanted = int(values[0])
        else:
            wanted = {"first": 0, "prev": shown - 1, "next": shown + 1, "last": last}[verb]
        if not 0 <= wanted <= last:
            raise RuleError("replay.error.bad_position", game=game.id, total=len(item))
        return wanted

    async def share(self, interaction: discord.Interaction, game: GameRow) -> None:
        """Post the animation and the result publicly in this channel (once per window per member)."""
        if game.status != FINISHED:
            raise RuleError("replay.error.share_unfinished", game=game.id)
        key = (interaction.guild_id or 0, interaction.user.id)
        now = time.time()
        last = self._shared.get(key)
        if last is not None and now - last < SHARE_WINDOW:
            raise RuleError("replay.error.share_wait", minutes=int(SHARE_WINDOW // 60),
                            when=Safe(timestamp(last + SHARE_WINDOW)))
        await self.replays.get(game)  # a game that cannot be replayed is refused here, privately
        glg = await public_lang(interaction)
        rows = await self.store.events(game.id)
        results = await self.store.results(game.id)
        self._shared[key] = now  # booked before drawing: a double click does not post twice
        anim = self.replays.drawn_summary(game, glg)
        if anim is None:  # not drawn yet in this language: Discord waits while a worker draws it
            await interaction.response.defer(thinking=True)
            anim = await self._animation(game, rows, results, glg)
        if anim is None:
            self._shared.pop(key, None)
            raise RuleError("replay.error.share_no_animation", game=game.id)
        who = escape(getattr(interaction.user, "display_name", None) or interaction.user.name)
        lines = [i18n.t("replay.share.post", glg, player=who, id=game.id, game=title(game.kind, glg)),
                 *ranking(game, rows, results, glg)]
        content = "\n".join(lines)[:2000]
        file = discord.File(io.BytesIO(anim.data), filename=f"ludibot-{game.kind}-{game.id}.{anim.ext}")
        if interaction.response.is_done():
            await interaction.followup.send(content=content, allowed_mentions=allowed_mentions(content), file=file)
        else:
            await interaction.response.send_message(content=content, allowed_mentions=allowed_mentions(content),
                                                    file=file)
        if len(self._shared) > 10_000:
            self._shared = {k: v for k, v in self._shared.items() if now - v < SHARE_WINDOW}


def _next_first(item: Replay, first: int) -> int:
    group = item.positions[first].group
    i = first
    while i < len(item) and item.positions[i].group == group:
        i += 1
    return i

