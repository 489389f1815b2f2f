"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests of a discord.py bot.

Point an unmodified discord.py 2.x bot at it with::

    discord.http.Route.BASE = fake.api_base                               # "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)  # "ws://127.0.0.1:PORT/gateway"

and log in with ``fake.token``.  See api.py for the test API and README.md for details.
"""

from .api import Choices, DeadlineMissed, FakeDiscord, InteractionResult, NotConnected, Output
from .models import FakeAttachment, FakeChannel, FakeMessage, FakeUser, RegisteredCommand
from .server import ApiError, FakeDiscordServer, InteractionRecord

__all__ = [
    "ApiError",
    "Choices",
    "DeadlineMissed",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordServer",
    "FakeMessage",
    "FakeUser",
    "InteractionRecord",
    "InteractionResult",
    "NotConnected",
    "Output",
    "RegisteredCommand",
]


async def serve_until_signalled(stop) -> None:
    """Wait for SIGTERM or SIGINT, then ``await stop()`` (a standalone fake, or the sandbox it serves)."""
    import asyncio
    import contextlib
    import signal

    event = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, event.set)
    try:
        await event.wait()
    finally:
        await stop()
