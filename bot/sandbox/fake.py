"""The fake Discord the sandbox runs on (the same one the end-to-end tests use)."""

from bot.fakediscord import FakeDiscord  # noqa: F401
