"""Shared by the closed-doors end-to-end tests (issue 13): nasty names, a recorder of every message
the bot sends (text and ``allowed_mentions`` at that moment), and the checks on them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from bot.safe import escape
from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot

LIVE_PING = re.compile(r"<@!?(\d+)>")
#: invisible characters the names carry; none may reach a message
HIDDEN = ("\u202e", "\u2066", "\u2069", "\u200d", "\ufeff")


def nasty_names(victim_id: int) -> dict[str, str]:
    """Display names as a hostile member picks them: another member's mention, a masked link,
    @everyone/@here, role and channel mentions, markdown, zero-width and right-to-left characters."""
    return {
        "alice": f"<@{victim_id}> **gras** @everyone \u202eecilA\u200d",
        "bruno": "[Cliquez ici](https://evil.example/x)\u2066",
        "chloe": "# @here <@&1234> <#5678> ||x||",
        "dave": "-# `code` ~~barré~~ > \ufeff1. liste",
    }


class Shown:
    """A fake user as the game tests' helpers see it: ``name`` is what the bot must show (the
    escaped display name); everything else, and what the fake sends, is the real user's."""

    def __init__(self, user: Any) -> None:
        self._user = user
        self.name = escape(user.name)

    def __getattr__(self, key: str) -> Any:
        return getattr(self._user, key)

    def __eq__(self, other: object) -> bool:
        return getattr(other, "id", None) == self._user.id

    def __hash__(self) -> int:
        return hash(self._user)


@dataclass
class Sent:
    event: str  # message_create / message_update
    message_id: int
    kind: str
    content: str
    allowed_mentions: dict[str, Any] | None
    visible_to: int | None


class Recorder:
    """Every message the bot creates or edits, as it was at that moment."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.sent: list[Sent] = []
        fake.listeners.append(self)

    def __call__(self, event: str, obj: Any) -> None:
        if event not in ("message_create", "message_update") or getattr(obj, "kind", "") == "user":
            return
        am = obj.allowed_mentions
        self.sent.append(Sent(event, obj.id, obj.kind, obj.content or "", dict(am) if am else am,
                              obj.visible_to))


def check_sent(recorder: Recorder, names: list[str], victim_id: int, players: set[int]) -> int:
    """No message pings, links or formats through a name; ``allowed_mentions`` names exactly the
    users the bot itself pinged (on a new message; an edit pings nobody). Returns how many
    messages were checked."""
    for s in recorder.sent:
        text = s.content
        where = (s.event, s.kind, text[:300])
        assert not re.search(r"@(everyone|here)", text), where
        assert "<@&" not in text and "<#5678>" not in text, where
        assert "](https://evil" not in text and "https://evil" not in text, where
        assert "**gras**" not in text and "||x||" not in text and "~~barré~~" not in text and "`code`" not in text, \
            where
        assert not any(h in text for h in HIDDEN), where
        assert not any(line.lstrip().startswith(("# @", "-# `", "> ")) for line in text.splitlines()), where
        live = {int(x) for x in LIVE_PING.findall(text)}
        assert victim_id not in live, where  # a nickname "<@id>" never pings that member
        assert live <= players, where
        am = s.allowed_mentions
        if am is None and not text:
            continue  # a deferral (« réfléchit… » or a silent update): no text, nothing that could ping
        assert am is not None, where
        assert not set(am.get("parse", [])) & {"everyone", "roles", "users"}, (am, where)
        users = {int(u) for u in am.get("users", [])}
        assert am.get("roles", []) == [] and not am.get("replied_user"), (am, where)
        if s.event == "message_create":
            assert users == live, (am, where)
        else:
            assert users <= live, (am, where)
    for name in names:  # the names did reach the messages, escaped
        shown = escape(name)
        assert any(shown in s.content for s in recorder.sent), (name, shown)
    return len(recorder.sent)


async def make_world(tmp_path, *, nasty: bool = True, guilds: int = 1, dev_guild: bool = True, crowd: int = 0,
                     env: dict[str, str] | None = None):
    """The default server (channels jeux, autre) with Alice, Bruno, Chloé, Dave and Modo (Manage
    Server); ``nasty``: the first four wear the nasty names. ``guilds=2`` adds the server Club
    (channel jeux) with Zoé (Manage Server there) and Yann; the bot's commands are then global.
    ``crowd``: that many more members of the default server (``u.crowd``)."""
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    modo = fake.add_user("Modo", locale="fr", manage_guild=True)
    names = nasty_names(modo.id) if nasty else {"alice": "Alice", "bruno": "Bruno", "chloe": "Chloé",
                                                 "dave": "Dave"}
    u = SimpleNamespace(
        modo=modo,
        alice=fake.add_user(names["alice"], locale="fr"),
        bruno=fake.add_user(names["bruno"], locale="fr"),
        chloe=fake.add_user(names["chloe"], locale="fr"),
        dave=fake.add_user(names["dave"], locale="en-US"),
    )
    club = None
    if guilds > 1:
        club = fake.add_guild("Club", channels=["jeux"])
        u.zoe = fake.add_user("Zoé", guilds=[club], manage_guild=True)
        u.yann = fake.add_user("Yann", guilds=[club])
    u.crowd = [fake.add_user(f"Joueur {i}", locale="fr") for i in range(crowd)]
    recorder = Recorder(fake)
    await fake.start()
    extra = {} if dev_guild and guilds == 1 else {"LUDIBOT_DEV_GUILD": ""}
    extra.update(env or {})
    bot = await start_bot(fake, tmp_path, extra_env=extra)
    return SimpleNamespace(fake=fake, bot=bot, u=u, tmp=tmp_path, rec=recorder, names=names, club=club)
