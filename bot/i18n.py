"""Message catalogs: French first (the default), English second.

Catalogs live in ``data/locales/<domain>/<lang>.toml``; a key
``"ludix.error.not_your_turn"`` is looked up as ``[error] not_your_turn`` in
``data/locales/ludix/<lang>.toml``. Values are ``str.format`` templates.
Unknown languages fall back to French; a key missing in English falls back to
French; a key missing everywhere is returned as is (and tests forbid that).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
LANGS = ("fr", "en")
DEFAULT = "fr"


def lang_of(locale: Any) -> str:
    """Map a Discord locale (``discord.Locale`` or its string such as ``en-US``) to ``fr``/``en``."""
    value = str(getattr(locale, "value", locale) or "")
    if value.startswith("en"):
        return "en"
    return DEFAULT


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _flatten(key, v, out)
        else:
            out[key] = str(v)


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every key of every domain for ``lang``, flattened (``domain.section.key``)."""
    out: dict[str, str] = {}
    if not LOCALES.is_dir():
        return out
    for domain_dir in sorted(p for p in LOCALES.iterdir() if p.is_dir()):
        path = domain_dir / f"{lang}.toml"
        if path.exists():
            with path.open("rb") as fh:
                _flatten(domain_dir.name, tomllib.load(fh), out)
    return out


class _SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalog(lang)


def t(key: str, lang: str = DEFAULT, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in."""
    template = catalog(lang).get(key)
    if template is None and lang != DEFAULT:
        template = catalog(DEFAULT).get(key)
    if template is None:
        return key
    return template.format_map(_SafeDict(params))
