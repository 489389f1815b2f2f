"""The fake Discord lives in ``bot/fakediscord`` (the sandbox ships it); tests may import it from here too."""

from bot.fakediscord import *  # noqa: F401,F403
from bot.fakediscord import (  # noqa: F401
    Choices,
    DeadlineMissed,
    FakeDiscord,
    InteractionResult,
    NotConnected,
    Output,
)
