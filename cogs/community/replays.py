"""``/historique`` (issue 27): a game move by move, its journal, its animated summary, « Partager ».

The viewer is an ephemeral message: the public picture after a move, that move's narration, and
⏮ ◀ ▶ ⏭ and a select of the rounds; each click edits the message in place (UPDATE_MESSAGE). Its
components are :class:`ReplayControl` items whose custom id carries the server, the game and the
step shown (``ludibot-replay:<server>:<game>:s<step>:<verb>``): after a restart they still find
their game, and only in their own server. A viewer sent before the viewer stepped (issue 36) carries
a position (no ``s``): a Limit step is a tile, a position a placement, so its clicks are read as the
positions they meant (:func:`old_target`). Replays, pictures and animations come from
``bot.replays`` (:class:`bot.community.replay.ReplayService`), cached per game version.
"""

from __future__ import annotations

import asyncio
import bisect
import io
import json
import logging
import re
import time
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.cards import TABLE_ACCENT, Card, rgb
from bot.community import history
from bot.community.daily import daily_of, day_end, replay_open
from bot.community.notifier import timestamp
from bot.community.replay import (
    MOVES_PER_GROUP,
    STEP_BY_ROUND,
    Position,
    Replay,
    ReplayError,
    ReplayService,
    plain,
    ranking,
)
from bot.narrate import narrate
from bot.safe import Safe, allowed_mentions, escape
from bot.sessions import SessionError
from bot.storage import CANCELLED, FINISHED, LOBBY, EventRow, GameRow, ResultRow
from bot.translator import L
from bot.ui import lang, public_lang, refuse, send
from cogs.community.common import guild_of, title
from engines.base import RuleError
from render.common import seat_colour

log = logging.getLogger("ludibot.replay")

PREFIX = "ludibot-replay"
VERBS = ("first", "prev", "next", "last", "jump", "share")
#: one share per member and server per window (a server belongs to one process: its shard's)
SHARE_WINDOW = 300.0
#: the journal is shown in the message up to this many characters, else attached as a file
INLINE_LOG = 1700
MAX_OPTIONS = 25


def control_id(guild_id: int, game_id: int, step: int, verb: str) -> str:
    """A control's custom id; ``s``: the number is a step of :meth:`Replay.steps` (an id without it is
    an older viewer's, a position)."""
    return f"{PREFIX}:{guild_id}:{game_id}:s{step}:{verb}"


# --- words -------------------------------------------------------------------------------------
def group_label(kind: str, group: int, lg: str, last: int | None = None) -> str:
    """A round's name: « Manche 3 », « Tour 3 » (Lutinades), « Tuile 3 » (Limit: a round is a tile),
    « Coups 5 à 6 » (Tectonic, no rounds: a block of moves; ``last``, the game's last move, cuts the
    last block: « Coup 7 »)."""
    if kind == "lutinades":
        return i18n.t("replay.group.turn", lg, round=group)
    if kind in STEP_BY_ROUND:
        return i18n.t("replay.group.tile", lg, round=group)
    if kind == "tectonic":
        first, end = (group - 1) * MOVES_PER_GROUP + 1, group * MOVES_PER_GROUP
        if last is not None:
            end = min(end, last)
        if end <= first:
            return i18n.t("replay.group.move", lg, n=first)
        return i18n.t("replay.group.moves", lg, first=first, last=end)
    return i18n.t("replay.group.round", lg, round=group)


def shown(item: Replay, step: int) -> list[Position]:
    """The positions step ``step`` of the viewer shows at once: its own, and those since the previous
    step (Limit: every placement of the tile, revealed when the round closes)."""
    steps = item.steps()
    first = steps[step - 1] + 1 if step > 0 else 0
    return list(item.positions[first: steps[step] + 1])


def step_line(kind: str, item: Replay, step: int, lg: str) -> str:
    """What step ``step`` of ``n`` shows, in the same numbers as its picture: « **Coup 5 sur 29** ·
    Manche 2 » (the round that move was played in), « **Tuile 3 sur 44** » (Limit: a step is a tile),
    « **Coup 5 sur 68** » (Tectonic); « **Position de départ** »; the last step says the game is over."""
    steps = item.steps()
    pos = item.positions[steps[step]]
    if step == 0:
        return i18n.t("replay.viewer.position_start", lg)
    if kind in STEP_BY_ROUND:
        line = i18n.t("replay.viewer.tile", lg, round=pos.group, rounds=_rounds(item, steps[step]))
    elif kind == "tectonic":
        line = i18n.t("replay.viewer.move", lg, n=pos.n, total=len(item) - 1)
    else:
        line = i18n.t("replay.viewer.position", lg, n=pos.n, total=len(item) - 1,
                      group=group_label(kind, pos.group, lg))
    if pos.view.get("finished") is True:
        line += " · " + i18n.t("replay.viewer.end", lg)
    return line


def _rounds(item: Replay, index: int) -> int:
    """The rounds (tiles) of the game position ``index`` belongs to, as its table said."""
    for i in (index - 1, index):
        value = item.positions[max(i, 0)].view.get("rounds")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return max(p.group for p in item.positions)


def jump_entries(kind: str, item: Replay, lg: str) -> list[tuple[str, int]]:
    """« Aller à… »: ``(label, step)`` for every round (or block of moves), at most 25 (evenly spread,
    the first and the last kept); each names a step that exists, the one where that round begins
    (Limit: the step of that tile)."""
    steps = item.steps()
    at = {p: k for k, p in enumerate(steps)}
    last = len(item) - 1
    out: list[tuple[str, int]] = []
    for group, first in item.groups():
        if kind in STEP_BY_ROUND:
            end = _group_end(item, first)
            if end == 0:
                continue  # the start alone: ⏮ shows it
            out.append((group_label(kind, group, lg), at[end]))
            continue
        label = group_label(kind, group, lg, last)
        n = item.positions[first].n
        if kind == "tectonic":
            text = label if n else i18n.t("replay.select.option_start", lg, group=label)
        else:
            text = i18n.t("replay.select.option_start", lg, group=label) if n == 0 else \
                i18n.t("replay.select.option", lg, group=label, n=n)
        out.append((text, at[first]))
    if len(out) > MAX_OPTIONS:  # evenly spread, the first and the last kept
        spread = (len(out) - 1) / (MAX_OPTIONS - 1)
        out = [out[round(i * spread)] for i in range(MAX_OPTIONS)]
    return out


def _group_end(item: Replay, first: int) -> int:
    return _next_first(item, first) - 1


def old_target(item: Replay, shown: int, verb: str, values: list[str], game: GameRow) -> int:
    """The step a click of an older viewer asks for (its custom id and its select's values are
    positions, ``shown`` the one it shows): the position it meant, then the step that shows it — ▶
    the first step at or past the next position, ◀ the last at or before the previous one, a round of
    « Aller à… » the step that shows its first position. The same as :meth:`ReplayCog.target` for
    every game but Limit (a step per position)."""
    steps = item.steps()
    if verb == "jump":
        if len(values) != 1 or not values[0].isdigit():
            raise RuleError("common.error.forged_button")
        wanted = int(values[0])
    else:
        wanted = {"first": 0, "prev": shown - 1, "next": shown + 1, "last": len(item) - 1}[verb]
    if not 0 <= wanted < len(item):
        raise RuleError("replay.error.bad_position", game=game.id, total=len(steps))
    if verb == "prev":
        return bisect.bisect_right(steps, wanted) - 1  # steps[0] is the start: always one
    return bisect.bisect_left(steps, wanted)  # the last step is the last position: always one


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
                    template=r"ludibot-replay:(?P<guild>[0-9]{1,20}):(?P<game>[0-9]{1,18}):(?P<unit>s?)(?P<pos>[0-9]{1,7})"
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
        self.check_daily(game, interaction.user.id)
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
            steps = item.steps()
            card, files = await self.card(game, item, len(steps) - 1, lg)
            try:
                await interaction.response.send_message(files=files, view=card.layout(), ephemeral=True,
                                                        allowed_mentions=allowed_mentions(card.text))
            except discord.NotFound:  # the interaction expired before the answer (Unknown interaction)
                log.warning("/historique %s: the interaction expired before the viewer", game.id)
                return
            if len(steps) > 1:
                self.replays.warm(game, item, steps[-2], lg, step=0)
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
        head = i18n.t("replay.log.head", lg, game=title(game.kind, lg), id=game.id,
                      players=", ".join(escape(n) for n in game.names))
        lines = [f"**{head}**", *([note] if note else [])]
        inline = history.replay_lines(game, rows, lg)
        final = ([i18n.t("replay.log.final", lg)] + ranking(game, rows, results, lg)) if game.status == FINISHED \
            else []
        files: list[discord.File] = []
        pictures: list[str] = []
        attached: list[str] = []
        body = "\n".join([i18n.t("replay.log.inline", lg), *inline])
        if len(body) <= INLINE_LOG:
            lines.append(body)
        else:
            key = "replay.log.attached" if game.status == FINISHED else "replay.log.attached_running"
            lines.append(i18n.t(key, lg, count=len(rows)))
            name = f"ludibot-{game.kind}-{game.id}.txt"
            files.append(discord.File(io.BytesIO(journal_text(game, rows, results, lg).encode()), filename=name))
            attached.append(name)  # a File component of its own, under the text
        lines += final
        controls: list[discord.ui.Item] = []
        if game.status == FINISHED and item is not None:
            anim = await self._animation(game, rows, results, lg)
            if anim is not None:
                cog = getattr(self.bot, "game_cogs", {}).get(game.kind)
                if cog is not None:  # a result card a restart left without its summary gets it now
                    asyncio.ensure_future(cog.complete_result(game))
                name = f"ludibot-{game.kind}-{game.id}.{anim.ext}"
                files.append(discord.File(io.BytesIO(anim.data), filename=name))
                pictures.append(name)  # in the gallery, where it animates
                lines.append(i18n.t("replay.animation.caption", lg, frames=anim.frames))
                controls.append(discord.ui.Button(label=i18n.t("replay.button.share", lg), emoji="📣",
                                                  style=discord.ButtonStyle.primary,
                                                  custom_id=control_id(game.guild_id or 0, game.id, 0, "share")))
            else:
                lines.append(i18n.t("replay.animation.none", lg))
        card = Card(text="\n".join(lines), accent=TABLE_ACCENT, pictures=tuple(pictures), files=tuple(attached),
                    groups=(tuple(controls),))
        # a follow-up of the viewer, or the answer itself when the game cannot be replayed
        await send(interaction, card=card, files=files, ephemeral=True)

    async def _animation(self, game: GameRow, rows: list[EventRow], results: list[ResultRow], lg: str):
        try:
            return await self.replays.summary(game, lg, rows, results)
        except ReplayError:
            return None
        except Exception:  # the journal is still worth showing without its animation
            log.exception("could not draw the animation of game %s", game.id)
            return None

    # --- the viewer card -------------------------------------------------------------------
    def text(self, game: GameRow, item: Replay, step: int, lg: str) -> str:
        """The viewer's words at step ``step``: the game, where the step is (:func:`step_line`), and
        what happened in it."""
        if game.status == FINISHED:
            status = i18n.t("replay.viewer.finished", lg, when=timestamp(game.updated_at))
        else:
            status = i18n.t("replay.viewer.running", lg, total=len(item) - 1)
        head = i18n.t("replay.viewer.head", lg, game=title(game.kind, lg), id=game.id,
                      players=", ".join(escape(n) for n in game.names), status=status)
        if step == 0:
            told = [i18n.t("replay.viewer.start", lg)]
        else:
            told = []
            for pos in shown(item, step):
                if pos.action.get("type") == "forfeit" and pos.seat is not None and 0 <= pos.seat < len(game.names):
                    told.append(i18n.t("community.history.forfeit", lg, player=escape(game.names[pos.seat])))
                else:
                    told += narrate(game.kind, list(pos.events), game.names, lg, viewer=None, limit=12)
                if pos.action.get("_by") == "timeout":
                    told.append(i18n.t("replay.viewer.by_timeout", lg))
            if not told:
                told = [i18n.t("replay.viewer.secret", lg)]
            told = told[-12:]
        return "\n".join([head, step_line(game.kind, item, step, lg), *told])

    def controls(self, game: GameRow, item: Replay, step: int, lg: str) -> list[list[discord.ui.Item]]:
        """⏮ ◀ ▶ ⏭, then « Aller à… » (a group each: never in one row)."""
        guild = game.guild_id or 0
        last = len(item.steps()) - 1
        tiles = "_tile" if game.kind in STEP_BY_ROUND else ""  # Limit steps a tile at a time, and says so
        moves: list[discord.ui.Item] = [
            discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary, disabled=off,
                              custom_id=control_id(guild, game.id, step, verb),
                              label=i18n.t(f"replay.button.{verb}{tiles if verb != 'first' else ''}", lg))
            for verb, emoji, off in (("first", "⏮️", step == 0), ("prev", "◀️", step == 0),
                                     ("next", "▶️", step >= last), ("last", "⏭️", step >= last))]
        entries = jump_entries(game.kind, item, lg)
        if len(entries) < 2:
            return [moves]
        current = max((k for _, k in entries if k <= step), default=entries[0][1])
        options = [discord.SelectOption(label=text[:100], value=str(k), default=k == current) for text, k in entries]
        jump = discord.ui.Select(custom_id=control_id(guild, game.id, step, "jump"),
                                 placeholder=i18n.t("replay.select.placeholder", lg)[:150], options=options)
        return [moves, [jump]]

    async def card(self, game: GameRow, item: Replay, step: int, lg: str) -> tuple[Card, list[discord.File]]:
        """The viewer at step ``step``: a card (the accent of the seat whose move it shows), its
        picture in the gallery, its controls."""
        pos = item.positions[item.steps()[step]]
        image = await self.replays.picture(game, item, item.steps()[step], lg)
        text = self.text(game, item, step, lg)
        name = f"{game.kind}-{game.id}-{pos.n}.png"
        files = [discord.File(io.BytesIO(image), filename=name)] if image else []
        if not files:
            text = f"{text}\n{i18n.t('replay.viewer.no_picture', lg)}"
        seats = {p.seat for p in shown(item, step)} if step else set()
        accent = rgb(seat_colour(next(iter(seats)))) if len(seats) == 1 and None not in seats else TABLE_ACCENT
        card = Card(text=text, accent=accent, pictures=(name,) if files else (),
                    groups=tuple(tuple(g) for g in self.controls(game, item, step, lg)))
        return card, files

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
            self.check_daily(game, interaction.user.id)
            if m["verb"] == "share":
                await self.share(interaction, game)
                return
            item = await self.replays.get(game)
            values = [str(v) for v in data.get("values", [])]
            if m["unit"] == "s":
                step = self.target(item, int(m["pos"]), m["verb"], values, game)
            else:  # a viewer sent before steps: its number and its select's values are positions
                step = old_target(item, int(m["pos"]), m["verb"], values, game)
            lg = lang(interaction)
            card, files = await self.card(game, item, step, lg)
            await interaction.response.edit_message(attachments=files, view=card.layout(),
                                                    allowed_mentions=allowed_mentions(card.text))
            steps = item.steps()
            ahead = step + (-1 if m["verb"] in ("prev", "last") else 1)
            if 0 <= ahead < len(steps):
                self.replays.warm(game, item, steps[ahead], lg, step=0)
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

    def check_daily(self, game: GameRow, user_id: int) -> None:
        """A daily challenge's replay is its player's until the day is over (issue 37)."""
        if not replay_open(game, user_id, getattr(self.bot, "clock", time.time)()):
            raise RuleError("community.daily.replay_closed", game=game.id,
                            until=f"<t:{int(day_end(daily_of(game)['day']))}:R>")

    @staticmethod
    def target(item: Replay, shown: int, verb: str, values: list[str], game: GameRow) -> int:
        """The step a click asks for, from the one the message shows."""
        last = len(item.steps()) - 1
        if verb == "jump":
            if len(values) != 1 or not values[0].isdigit():  # one step is chosen: none or several is forged
                raise RuleError("common.error.forged_button")
            wanted = int(values[0])
        else:
            wanted = {"first": 0, "prev": shown - 1, "next": shown + 1, "last": last}[verb]
        if not 0 <= wanted <= last:
            raise RuleError("replay.error.bad_position", game=game.id, total=last + 1)
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
        name = f"ludibot-{game.kind}-{game.id}.{anim.ext}"
        winners = [r.seat for r in results if r.rank == 1 and 0 <= r.seat < len(game.seats)]
        accent = rgb(seat_colour(winners[0])) if len(winners) == 1 else TABLE_ACCENT  # the winner's colour
        card = Card(text="\n".join(lines), accent=accent, pictures=(name,))
        await send(interaction, card=card, files=[discord.File(io.BytesIO(anim.data), filename=name)])
        if len(self._shared) > 10_000:
            self._shared = {k: v for k, v in self._shared.items() if now - v < SHARE_WINDOW}


def _next_first(item: Replay, first: int) -> int:
    group = item.positions[first].group
    i = first
    while i < len(item) and item.positions[i].group == group:
        i += 1
    return i

