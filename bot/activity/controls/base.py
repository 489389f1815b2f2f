"""What every game's control answers with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Preview:
    """The seat's view with the move made (nothing it may not know) and the change in words: a catalog
    key and its parameters."""

    view: dict[str, Any]
    key: str
    params: dict[str, Any] = field(default_factory=dict)
