"""Picture texts from the Fluent catalogs (``data/locales/<domain>/<lang>.ftl``).

render/ may not import bot/, so this reads the catalog itself: every message of
one section as a ``str.format`` template (a Fluent variable ``$n`` becomes
``{n}``) for the short labels drawn on pictures that use no selectors, and
:func:`message` for a text whose words follow a number (plurals).
"""

from __future__ import annotations

import re
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


@lru_cache(maxsize=32)
def _bundle(domain: str, lang: str) -> tuple[FluentBundle, frozenset[str]]:
    """The ``domain`` catalog in ``lang`` (French if unknown) and the ids of its messages that
    choose a variant (a plural, ``$n ->``)."""
    path = LOCALES / domain / f"{lang}.ftl"
    if not path.exists():
        lang, path = "fr", LOCALES / domain / "fr.ftl"
    resource = FluentResource(path.read_text(encoding="utf-8"))
    bundle = FluentBundle([lang], use_isolating=False)
    bundle.add_resource(resource)
    selecting = frozenset(entry.id.name for entry in resource.body
                          if isinstance(entry, ftl.Message) and _selects(entry))
    return bundle, selecting


def _selects(node: object) -> bool:
    if isinstance(node, ftl.SelectExpression):
        return True
    if isinstance(node, ftl.BaseNode):
        return any(_selects(item) for value in vars(node).values()
                   for item in (value if isinstance(value, list) else [value]))
    return False


#: a message's first line in a catalog: its id at the start of the line (a term's starts with ``-``)
_ENTRY = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)[ \t]*=", re.MULTILINE)


@lru_cache(maxsize=32)
def _selecting(domain: str, lang: str) -> frozenset[str]:
    """The ids of the messages of the ``domain`` catalog in ``lang`` (French if unknown) that may choose a
    variant, read off its text: every select expression has its ``->``, so none is missed; a ``->`` in a
    message's words would only send that message through :func:`message`, which formats it right anyway.
    Parsing the catalog (:func:`_bundle`) cost 0.1 s of the first picture a worker drew of a game, its
    animated summary's too (issue 27); it now waits for a message that chooses a variant."""
    path = LOCALES / domain / f"{lang}.ftl"
    if not path.exists():
        path = LOCALES / domain / "fr.ftl"
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))
    starts = list(_ENTRY.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return frozenset(m.group(1) for m, end in zip(starts, ends, strict=True) if "->" in text[m.end():end])


def selects(domain: str, lang: str, key: str) -> bool:
    """Whether the message ``key`` (``"rule.empty_cells"`` or ``"rule-empty_cells"``) chooses a
    variant by its parameters (a plural): a template of its default variant would be wrong."""
    return key.replace(".", "-") in _selecting(domain, lang)


def message(domain: str, lang: str, key: str, **params: object) -> str | None:
    """The message ``key`` of ``domain`` in ``lang`` with ``params``, its plurals chosen by the
    language's rules (French puts 0 and 1 in the singular: « 0 point », « 1 case vide »), or None
    when the catalog lacks it. Numbers are given as numbers so that they select their variant."""
    bundle, _ = _bundle(domain, lang)
    msg_id = key.replace(".", "-")
    if not bundle.has_message(msg_id):
        return None
    pattern = bundle.get_message(msg_id).value
    if pattern is None:
        return None
    text, _errors = bundle.format_pattern(pattern, dict(params))
    return str(text)
