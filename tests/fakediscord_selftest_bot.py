"""A tiny, ordinary discord.py bot used to prove the fake Discord works end to end.

Run as a subprocess with FAKE_API_BASE, FAKE_GATEWAY_URL and TOKEN in the environment
(FAKE_GUILD_ID optional: adds a guild-only command).  The only fake-specific lines are
the two URL assignments below.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys

import discord
import yarl
from discord import app_commands
from discord.ext import commands

discord.http.Route.BASE = os.environ["FAKE_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_GATEWAY_URL"])

TOKEN = os.environ["TOKEN"]
GUILD_ID = int(os.environ.get("FAKE_GUILD_ID") or 0) or None
WORDS = ["ALLER", "ALLONGER", "ALPAGA", "BATEAU", "BALLON", "CHAT"]


def make_png(text: str) -> io.BytesIO:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (160, 40), "white")
    ImageDraw.Draw(img).text((5, 12), text, fill="black")
    buf = io.BytesIO()
    img.save(buf, "PNG")
    buf.seek(0)
    return buf


class PingButton(discord.ui.DynamicItem[discord.ui.Button], template=r"st:ping:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Ping", style=discord.ButtonStyle.primary, custom_id=f"st:ping:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        png = make_png(f"pong {self.n} {interaction.user.display_name}")
        await interaction.response.send_message(
            f"pong {self.n} for {interaction.user.display_name} pid={os.getpid()}",
            file=discord.File(png, filename="pong.png"),
            ephemeral=True,
        )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"st:pick:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"st:pick:{n}", placeholder="Choisir une direction",
            options=[discord.SelectOption(label="Est", value="E"), discord.SelectOption(label="Ouest", value="W")],
        ))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"picked {self.item.values} by {interaction.user.display_name}")


class RefreshButton(discord.ui.DynamicItem[discord.ui.Button], template=r"st:refresh:(?P<n>\d+)"):
    """Deferred update (callback 6) then edit of @original, which is the clicked message."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Refresh", style=discord.ButtonStyle.secondary,
                                           custom_id=f"st:refresh:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"refreshed {self.n} by {interaction.user.display_name}")


class WordModal(discord.ui.Modal, title="Proposer un mot"):
    mot = discord.ui.TextInput(label="Mot", custom_id="st:modal:mot", max_length=15)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"modal={self.mot.value}", ephemeral=True)


class CardModal(discord.ui.Modal, title="Poser un mot"):
    """A modal in the Components V2 style: a text display, labels holding a text input and a select."""

    hand = discord.ui.TextDisplay("Votre main\u00a0: **A B E T U**")
    word = discord.ui.Label(text="Mot", description="Lettres de votre main",
                            component=discord.ui.TextInput(custom_id="st:card:word", min_length=2, max_length=8))
    way = discord.ui.Label(text="Sens", component=discord.ui.Select(custom_id="st:card:way", options=[
        discord.SelectOption(label="Horizontal", value="h"), discord.SelectOption(label="Vertical", value="v")]))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        word = self.word.component.value  # type: ignore[union-attr]
        way = self.way.component.values  # type: ignore[union-attr]
        await interaction.response.send_message(f"card-modal word={word} way={','.join(way)}", ephemeral=True)


def card_view(turn: int, user_id: int) -> discord.ui.LayoutView:
    """A game card: container with an accent, text with a ping, a section with a thumbnail, a gallery,
    a separator, a file, buttons (one opens the modal above, one edits the card)."""

    class Card(discord.ui.LayoutView):
        pass

    view = Card(timeout=None)
    box = discord.ui.Container(accent_colour=discord.Colour(0x3366FF))
    box.add_item(discord.ui.TextDisplay(f"## Tour {turn}\n<@{user_id}>, à vous"))
    box.add_item(discord.ui.Section(discord.ui.TextDisplay("Alice — 12 points"),
                                    accessory=discord.ui.Thumbnail("attachment://seat.png")))
    box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://board{turn}.png", description="plateau")))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.File("attachment://log.txt"))
    row = discord.ui.ActionRow()
    nxt = discord.ui.Button(label="Suivant", custom_id=f"st:card:next:{turn}", style=discord.ButtonStyle.primary)
    word = discord.ui.Button(label="Poser un mot", custom_id="st:card:modal")

    async def on_next(interaction: discord.Interaction) -> None:
        files = [discord.File(make_png(f"board {turn + 1}"), f"board{turn + 1}.png"),
                 discord.File(make_png("seat"), "seat.png"), discord.File(io.BytesIO(b"log"), "log.txt")]
        await interaction.response.edit_message(view=card_view(turn + 1, interaction.user.id), attachments=files)

    async def on_word(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(CardModal())

    nxt.callback = on_next
    word.callback = on_word
    row.add_item(nxt)
    row.add_item(word)
    box.add_item(row)
    view.add_item(box)
    return view


group = app_commands.Group(name="selftest", description="Self-test commands")


@group.command(name="start", description="Post a message with a persistent button")
@app_commands.describe(target="Target score", label="A label")
@app_commands.choices(mode=[app_commands.Choice(name="Rapide", value="fast"),
                            app_commands.Choice(name="Lent", value="slow")])
async def start(interaction: discord.Interaction, target: app_commands.Range[int, 1, 1000], label: str,
                flag: bool = False, other: discord.Member | None = None,
                mode: app_commands.Choice[str] | None = None) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(PingButton(target))
    view.add_item(RefreshButton(target))
    view.add_item(PickSelect(target))
    await interaction.response.send_message(
        f"start target={target} label={label} flag={flag} other={other.id if other else None} "
        f"mode={mode.value if mode else None}",
        view=view,
    )


@group.command(name="word", description="Deferred answer with follow-ups")
async def word(interaction: discord.Interaction, mot: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(0.05)
    await interaction.followup.send(f"mot={mot}")  # replaces the "thinking" message (stays ephemeral)
    await interaction.followup.send("second (ephemeral)", ephemeral=True)
    await interaction.followup.send("third (public)")


@word.autocomplete("mot")
async def word_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current.upper())][:25]


@group.command(name="edit", description="Answer then edit the answer")
async def edit(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("v1")
    await interaction.edit_original_response(content="v2", attachments=[discord.File(make_png("v2"), "v2.png")])
    original = await interaction.original_response()
    await interaction.followup.send(f"original is {original.content}", ephemeral=True)


@group.command(name="dm", description="Send yourself a DM")
async def dm(interaction: discord.Interaction) -> None:
    await interaction.user.send("secret DM", file=discord.File(make_png("secret"), "secret.png"))
    await interaction.response.send_message("DM sent", ephemeral=True)


@group.command(name="announce", description="Deferred public answer plus a channel post")
async def announce(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.channel.send("announce", file=discord.File(make_png("board"), "board.png"))
    await interaction.followup.send("done")


@group.command(name="slow", description="Answer after a delay")
async def slow(interaction: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    await interaction.response.send_message("late answer")


@group.command(name="card", description="Post a Components V2 card")
async def card(interaction: discord.Interaction) -> None:
    files = [discord.File(make_png("board 1"), "board1.png"), discord.File(make_png("seat"), "seat.png"),
             discord.File(io.BytesIO(b"log"), "log.txt")]
    await interaction.response.send_message(view=card_view(1, interaction.user.id), files=files,
                                            allowed_mentions=discord.AllowedMentions(users=[interaction.user]))


@group.command(name="tocard", description="A legacy message turned into a card by an edit")
async def tocard(interaction: discord.Interaction, clear: bool) -> None:
    await interaction.response.send_message("legacy text")
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("now a card"))
    try:
        if clear:
            await interaction.edit_original_response(content=None, view=view)
        else:
            await interaction.edit_original_response(view=view)
    except discord.HTTPException as exc:
        await interaction.followup.send(f"refused {exc.status} {exc.code}", ephemeral=True)


@group.command(name="emoji", description="Create (once) an application emoji and use it")
async def emoji(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.defer()
    client = interaction.client
    existing = {e.name: e for e in await client.fetch_application_emojis()}
    made = existing.get(name)
    if made is None:
        png = make_png(name).getvalue()
        try:
            made = await client.create_application_emoji(name=name, image=png)
        except discord.HTTPException as exc:
            await interaction.followup.send(f"refused {exc.status} {exc.code}")
            return
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Lancer", emoji=made, custom_id=f"st:emoji:{made.id}"))
    await interaction.followup.send(f"{made} created={made.id not in {e.id for e in existing.values()}}", view=view)


@group.command(name="modal", description="Open a modal")
async def modal(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(WordModal())


@group.command(name="whoami", description="Echo what the interaction says about you")
async def whoami(interaction: discord.Interaction) -> None:
    perms = interaction.permissions
    await interaction.response.send_message(
        f"user={interaction.user.id} locale={interaction.locale.value} guild_locale="
        f"{interaction.guild_locale.value if interaction.guild_locale else None} manage_guild={perms.manage_guild} "
        f"channel={getattr(interaction.channel, 'name', None)} guild={interaction.guild.name if interaction.guild else None} "
        f"member={isinstance(interaction.user, discord.Member)}",
        ephemeral=True,
    )


@group.command(name="perms", description="What the bot may do here (interaction.app_permissions)")
async def perms(interaction: discord.Interaction) -> None:
    ap = interaction.app_permissions
    channel = interaction.channel
    await interaction.response.send_message(
        f"view={ap.view_channel} send={ap.send_messages} threads={ap.send_messages_in_threads} "
        f"files={ap.attach_files} embeds={ap.embed_links} history={ap.read_message_history} "
        f"channel={getattr(channel, 'name', None)} type={getattr(channel, 'type', None)}",
        ephemeral=True,
    )


@group.command(name="latency", description="The gateway latency discord.py measured")
async def latency(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"latency={interaction.client.latency:.3f}", ephemeral=True)


@group.command(name="burst", description="Post n channel messages at once (rate limits)")
async def burst(interaction: discord.Interaction, n: int) -> None:
    await interaction.response.send_message(f"posting {n}", ephemeral=True)
    channel = interaction.channel
    results = await asyncio.gather(*(channel.send(f"burst {i}") for i in range(n)), return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    await interaction.followup.send(f"burst done failed={len(failed)}", ephemeral=True)


@app_commands.command(name="gadmin", description="Guild-only admin command")
@app_commands.default_permissions(manage_guild=True)
async def gadmin(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"admin ok manage_guild={interaction.permissions.manage_guild}",
                                            ephemeral=True)


SHARDS = int(os.environ.get("SELFTEST_SHARDS") or 0)  # >0: an AutoShardedBot with that many shards
BASE = commands.AutoShardedBot if SHARDS else commands.Bot


class SelfTestBot(BASE):
    def __init__(self) -> None:
        kwargs = {"shard_count": SHARDS} if SHARDS else {}
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **kwargs)

    async def before_identify_hook(self, shard_id, *, initial=False) -> None:
        return None  # the fake grants max_concurrency = shard count: no 5 s wait between shards

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PingButton, RefreshButton, PickSelect)
        self.tree.add_command(group)
        if GUILD_ID:
            self.tree.add_command(gadmin, guild=discord.Object(GUILD_ID))
        await self.tree.sync()
        if GUILD_ID:
            await self.tree.sync(guild=discord.Object(GUILD_ID))
        print(f"SYNCED pid={os.getpid()}", flush=True)

    async def on_ready(self) -> None:
        print(f"READY {self.user} guilds={[g.name for g in self.guilds]}", flush=True)

    async def on_resumed(self) -> None:
        print("RESUMED", flush=True)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        print(f"guild_create {guild.id} shard={guild.shard_id}", flush=True)

    async def on_shard_ready(self, shard_id: int) -> None:
        print(f"SHARD_READY {shard_id} guilds={sorted(g.id for g in self.guilds if g.shard_id == shard_id)}",
              flush=True)


def main() -> int:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    SelfTestBot().run(TOKEN, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
