"""The fake Discord the sandbox runs on (the same one the end-to-end tests use)."""

from tests.fakediscord import FakeDiscord  # noqa: F401
