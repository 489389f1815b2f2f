"""Picture texts from the Fluent catalogs (``data/locales/<domain>/<lang>.ftl``).

render/ may not import bot/, so this reads the catalog itself: every message of
one section as a ``str.format`` template (a Fluent variable ``$n`` becomes
``{n}``). Only for the short labels drawn on pictures, which use no selectors.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast as ftl

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"


def _variables(node: object, out: set[str]) -> set[str]:
    if isinstance(node, ftl.VariableReference):
        out.add(node.id.name)
    elif isinstance(node, ftl.BaseNode):
        for value in vars(node).values():
            for item in value if isinstance(value, list) else [value]:
                _variables(item, out)
    return out


@lru_cache(maxsize=32)
def section(domain: str, lang: str, name: str) -> dict[str, str]:
    """The ``[name]`` messages of ``domain`` in ``lang`` (French if unknown), by key, as templates."""
    path = LOCALES / domain / f"{lang}.ftl"
    if not path.exists():
        path = LOCALES / domain / "fr.ftl"
    resource = FluentResource(path.read_text(encoding="utf-8"))
    bundle = FluentBundle([lang], use_isolating=False)
    bundle.add_resource(resource)
    out: dict[str, str] = {}
    prefix = name + "-"
    for entry in resource.body:
        if isinstance(entry, ftl.Message) and entry.id.name.startswith(prefix) and entry.value is not None:
            args = {v: "{" + v + "}" for v in _variables(entry, set())}
            text, _ = bundle.format_pattern(bundle.get_message(entry.id.name).value, args)
            out[entry.id.name[len(prefix):]] = str(text)
    return out
