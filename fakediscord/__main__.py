"""Run the fake Discord as a standalone loopback server.

    python -m fakediscord --users Alice,Bruno,Chloé --channels jeux --port 8765 [--state fake.json]

It prints the settings to give the bot (API base, gateway URL, token) and serves until
interrupted.  GET http://127.0.0.1:PORT/_fake/state returns a JSON snapshot of everything.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from . import serve_until_signalled
from .api import FakeDiscord


async def _serve(args: argparse.Namespace) -> None:
    channels = [c for c in args.channels.split(",") if c]
    fake = FakeDiscord(guild_name=args.guild, channels=channels, port=args.port, token=args.token,
                       state_path=args.state, shards=args.shards, clock_speed=args.clock_speed)
    guilds = [fake.guild] + [fake.add_guild(name, channels=channels, locale=args.locale)
                             for name in args.more_guilds.split(",") if name]
    admins = {a for a in args.admins.split(",") if a}
    for name in (u for u in args.users.split(",") if u):
        fake.add_user(name, locale=args.locale, manage_guild=name in admins, guilds=guilds)
    await fake.start()
    print(f"DISCORD_API_BASE={fake.api_base}")
    print(f"DISCORD_GATEWAY_URL={fake.gateway_url}")
    print(f"DISCORD_TOKEN={fake.token}")
    print(f"FAKE_GUILD_ID={fake.guild_id}", flush=True)
    await serve_until_signalled(fake.stop)


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m fakediscord", description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--guild", default="Ludibot Sandbox")
    p.add_argument("--channels", default="jeux")
    p.add_argument("--users", default="Alice,Bruno,Chloé")
    p.add_argument("--admins", default="", help="comma-separated user names with Manage Server")
    p.add_argument("--locale", default="fr")
    p.add_argument("--token", default=None)
    p.add_argument("--more-guilds", default="", help="comma-separated names of more servers (same channels)")
    p.add_argument("--shards", type=int, default=1, help="the shard count GET /gateway/bot recommends")
    p.add_argument("--clock-speed", type=float, default=1.0, help="rate-limit windows and token expiry run faster")
    p.add_argument("--state", default=None, help="JSON file keeping users/channels/messages/commands across runs")
    args = p.parse_args()
    logging.basicConfig(level=logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
