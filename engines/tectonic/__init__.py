"""Tectonic: the engine (``ENGINE``), its board kernel (``core``) and AI (``ai``)."""

from engines.tectonic.engine import COLOURS, ENGINE, State, TectonicEngine

legal_sources = ENGINE.legal_sources
legal_destinations = ENGINE.legal_destinations
flip_choices = ENGINE.flip_choices

__all__ = ["COLOURS", "ENGINE", "State", "TectonicEngine", "flip_choices", "legal_destinations", "legal_sources"]

# the registry (``engines.get``) loads this package: it plugs the AI into the engine (the AI module
# depends on the engine, the engine never imports its AI)
from engines.tectonic import ai as _ai  # noqa: E402

ENGINE.ai = _ai.play
