"""Tectonic: the engine (``ENGINE``), its board kernel (``core``) and AI (``ai``)."""

from engines.tectonic.engine import COLOURS, ENGINE, State, TectonicEngine

legal_sources = ENGINE.legal_sources
legal_destinations = ENGINE.legal_destinations
flip_choices = ENGINE.flip_choices

__all__ = ["COLOURS", "ENGINE", "State", "TectonicEngine", "flip_choices", "legal_destinations", "legal_sources"]
