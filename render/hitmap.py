"""A picture and its hit map: where the renderer drew every cell, tile or point a touch may name.

A renderer that the board's page shows takes an optional ``hits`` dict and fills it while it draws
(region id → polygon, in the picture's pixels), from the same layout code that draws: no second
copy of the geometry. :func:`with_hits` runs such a renderer as one picklable job of the render pool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Polygon = list[list[float]]


def with_hits(fn: Callable[..., bytes], args: Sequence[Any] = (),
              kwargs: Mapping[str, Any] | None = None) -> tuple[bytes, dict[str, Polygon]]:
    """``fn(*args, **kwargs, hits=…)``: its PNG and its hit map (coordinates rounded to 0.1 px)."""
    hits: dict[str, list] = {}
    png = fn(*args, **dict(kwargs or {}), hits=hits)
    return png, {rid: [[round(float(x), 1), round(float(y), 1)] for x, y in poly] for rid, poly in hits.items()}


def centroid(poly: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The mean of a polygon's vertices (inside it for the convex regions the renderers draw)."""
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)
