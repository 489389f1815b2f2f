"""Message catalogs in Project Fluent: French first (the default), English second.

Catalogs live in ``data/locales/<domain>/<lang>.ftl``. The catalog key
``"ludix.error.not_your_turn"`` is the Fluent message ``error-not_your_turn`` in
``data/locales/ludix/<lang>.ftl`` (the first ``-`` of an id stands for the dot
between section and key; section names never contain ``-``). Parameters are
Fluent variables: ``t("ludix.event.turn", "fr", seat="Alice")`` fills ``$seat``.

Grammar the catalogs rely on:

* **Plurals** use Fluent's CLDR plural categories: ``{ $count -> [one] carte
  *[other] cartes }``. French puts 0 and 1 in ``one`` ("0 point perdu").
* **Elision** (French "d'Alice"/"de Bruno", "l'"/"le", "qu'"/"que") uses the
  custom function ``ELISION($name)``, which answers ``vowel`` or ``consonant``
  from how the name starts: a vowel (accents included) elides; ``h`` followed by
  a vowel elides ("d'Hélène", "d'Hugo": first names take the silent h); ``y``
  elides before a consonant ("d'Yves") and not before a vowel ("de Yann");
  anything else (digits, emoji, a Discord mention) does not. Any parameter can
  be passed to it; there is no list of "name" parameters to keep in sync.
* **Numbers** follow the language: floats are written with the locale's decimal
  separator ("0,01" in French); integers are written without digit grouping,
  because many are identifiers (game n°1234). **Dates** (``datetime``/``date``
  parameters) go through ``DATETIME()`` in the catalog ("24 nov. 2026").
* **Commands** are named with ``COMMAND("tectonic jouer")`` (the command's path by its base names,
  the names in code): once the process knows the command's id (:func:`set_command_ids`, from the
  sync or a fetch at start, see ``bot/commandids.py``) it writes Discord's command mention
  ``</tectonic jouer:<id>>``, which each client shows clickable, under the name of *its* language;
  until then it writes the name the message's language's clients see, as code (`` `/tectonic
  play` `` in English). Options stay text after it, in the message's language.

Unknown languages fall back to French; a key missing in English falls back to
French; a key missing everywhere is returned as is (and tests forbid that). A
parameter the caller forgot is shown as ``{name}``; formatting never raises.

TRANSITION (until every branch has been merged): a ``<lang>.toml`` catalog in
the old ``str.format`` format (``{name}`` placeholders, ``[section]`` tables) is
still read, beside or instead of the ``.ftl``; a key in both is taken from the
``.ftl``. ``scripts/toml_to_ftl.py --merge`` moves such keys into the ``.ftl``.
Remove the TOML branch of ``_domain`` once no ``.toml`` catalog remains.
"""

from __future__ import annotations

import hashlib
import re
import string
import threading
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import FluentNumber, fluent_number
from fluent.syntax import ast as ftl
from fluent.syntax.serializer import serialize_pattern

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
LANGS = ("fr", "en")
DEFAULT = "fr"
BABEL_LOCALE = {"fr": "fr_FR", "en": "en_US"}

VOWELS = set("aeiouyœæ")


def lang_of(locale: Any) -> str:
    """Map a Discord locale (``discord.Locale`` or its string such as ``en-US``) to ``fr``/``en``."""
    value = str(getattr(locale, "value", locale) or "")
    if value.startswith("en"):
        return "en"
    return DEFAULT


def _base_letter(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0].lower()


def starts_with_vowel_sound(name: Any) -> bool:
    """Whether French elides before ``name`` ("d'Alice", "d'Hélène", "d'Yves"; "de Bruno", "de Yann")."""
    text = str(getattr(name, "value", name) or "").lstrip("*_~` ")
    if not text or not text[0].isalpha():
        return False
    first = _base_letter(text[0])
    second = _base_letter(text[1]) if len(text) > 1 and text[1].isalpha() else ""
    if first == "h":
        return second in VOWELS - {"y"} and second != ""
    if first == "y":
        return second != "" and second not in VOWELS
    return first in VOWELS


def ELISION(name: Any) -> str:  # noqa: N802 - Fluent functions are upper case
    """Fluent selector: ``vowel`` when French elides before ``name``, else ``consonant``."""
    return "vowel" if starts_with_vowel_sound(name) else "consonant"


FUNCTIONS = {"ELISION": ELISION}

#: Discord's rule for command names (``\p{L}``/``\p{N}`` as ``str.isalnum``), lower case (bot.translator)
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
#: the ids Discord gave the application's top-level commands, by base name (empty until learnt)
_command_ids: dict[str, int] = {}


def set_command_ids(ids: Mapping[str, int]) -> bool:
    """Remember the ids of the top-level commands (base name -> id); True when they changed. Kept
    messages are forgotten then, so that no text written before keeps its command as plain text."""
    new = {str(name): int(cid) for name, cid in ids.items()}
    if new == _command_ids:
        return False
    _command_ids.clear()
    _command_ids.update(new)
    _formatted.cache_clear()
    return True


def command_ids() -> dict[str, int]:
    return dict(_command_ids)


def command_name(name: str, lang: str) -> str:
    """The name ``lang``'s clients see for the command (or group) whose base name is ``name``."""
    key = f"commands.command.{name}"
    if not has(key, lang):
        return name
    shown = t(key, lang)
    return shown if _COMMAND_NAME.match(shown) and shown == shown.lower() else name


def command(path: str, lang: str = DEFAULT) -> str:
    """The command ``path`` ("tectonic jouer": base names, group and subcommands) for a message in
    ``lang``: its mention when its id is known, else its name in ``lang`` as code."""
    parts = str(path).split()
    if not parts:
        return ""
    cid = _command_ids.get(parts[0])
    if cid is not None:
        return f"</{' '.join(parts)}:{cid}>"
    return "`/" + " ".join(command_name(part, lang) for part in parts) + "`"


@cache
def _functions(lang: str) -> dict[str, Any]:
    """The Fluent functions of ``lang``'s bundles: :data:`FUNCTIONS` and ``COMMAND``, which needs the language."""
    def COMMAND(path: Any) -> str:  # noqa: N802 - Fluent functions are upper case
        return command(str(path), lang)
    return {**FUNCTIONS, "COMMAND": COMMAND}


def key_of(domain: str, ident: str) -> str:
    """The catalog key of Fluent message ``ident`` in ``domain``."""
    return f"{domain}.{ident.replace('-', '.', 1)}"


def _ids(node: Any, kind: type, out: set[str]) -> set[str]:
    """The names of the Fluent nodes of ``kind`` inside ``node`` (variables, message references)."""
    if isinstance(node, kind):
        out.add(node.id.name)  # type: ignore[attr-defined]
    elif isinstance(node, ftl.BaseNode):
        for value in vars(node).values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ftl.BaseNode):
                    _ids(item, kind, out)
    return out


def _variables(node: Any, out: set[str]) -> set[str]:
    return _ids(node, ftl.VariableReference, out)


def _toml_flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _toml_flatten(key, v, out)
        else:
            out[key] = str(v)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def read_ftl(path: Path, domain: str | None = None) -> dict[str, ftl.Message]:
    """The messages of one ``.ftl`` file by catalog key; syntax errors raise ``ValueError``."""
    return _messages_of(_parse_ftl(path), path, domain)


def _parse_ftl(path: Path) -> FluentResource:
    return FluentResource(path.read_text(encoding="utf-8"))


def _messages_of(resource: FluentResource, path: Path, domain: str | None = None) -> dict[str, ftl.Message]:
    domain = domain or path.parent.name
    junk = [entry for entry in resource.body if isinstance(entry, ftl.Junk)]
    if junk:
        raise ValueError(f"{path}: Fluent syntax error near {junk[0].content[:80]!r}")
    return {key_of(domain, e.id.name): e for e in resource.body if isinstance(e, ftl.Message)}


#: where each entry of a catalog begins: a message's id at the start of a line (a pattern's other lines are
#: indented, or begin with a select's ``[`` ``*`` or a placeable's ``}``)
_ENTRY = re.compile(r"^(?=[a-zA-Z][a-zA-Z0-9_-]*[ \t]*=)", re.MULTILINE)


def _entries(text: str) -> dict[str, str]:
    """Fluent message id -> the text of its entry (the comments after it included), the first of a
    duplicated id kept as Fluent keeps it."""
    starts = [m.start() for m in _ENTRY.finditer(text)]
    out: dict[str, str] = {}
    for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
        chunk = text[begin:end]
        out.setdefault(chunk[:chunk.index("=")].strip(), chunk)
    return out


@dataclass
class _Domain:
    """A domain's catalog in one language. Its messages are parsed one by one, at their first use: a
    process formats a few hundred of the catalogs' thousands of messages, and parsing them all took
    0.7 s of CPU at every start (``test_i18n`` parses every file whole, and checks each entry read
    alone against it)."""

    name: str
    path: Path
    bundle: FluentBundle
    source: dict[str, str] = field(default_factory=dict)  # catalog key -> the text of its Fluent entry
    messages: dict[str, ftl.Message] = field(default_factory=dict)  # catalog key -> Fluent message, parsed
    templates: dict[str, str] = field(default_factory=dict)  # TRANSITION: TOML str.format templates
    lock: threading.Lock = field(default_factory=threading.Lock)

    def has(self, key: str) -> bool:
        return key in self.source or key in self.templates

    def message(self, key: str) -> ftl.Message:
        """Fluent message ``key`` (one of :attr:`source`), parsed and added to the bundle with the
        messages it refers to."""
        found = self.messages.get(key)
        if found is not None:
            return found
        with self.lock:
            found = self.messages.get(key)
            if found is None:
                resource = FluentResource(self.source[key])
                found = _messages_of(resource, self.path, self.name)[key]
                self.bundle.add_resource(resource)
                self.messages[key] = found
        for ref in _ids(found, ftl.MessageReference, set()):  # (outside the lock: each takes it for its own)
            ref_key = key_of(self.name, ref)
            if ref_key in self.source:
                self.message(ref_key)
        return found

    def every_message(self) -> dict[str, ftl.Message]:
        return {key: self.message(key) for key in self.source}


@cache
def _domain(domain: str, lang: str) -> _Domain:
    folder = LOCALES / domain
    bundle = FluentBundle([BABEL_LOCALE.get(lang, lang)], functions=_functions(lang), use_isolating=False)
    ftl_path = folder / f"{lang}.ftl"
    loaded = _Domain(domain, ftl_path, bundle)
    if ftl_path.exists():
        loaded.source = {key_of(domain, ident): chunk
                         for ident, chunk in _entries(ftl_path.read_text(encoding="utf-8")).items()}
    toml_path = folder / f"{lang}.toml"  # TRANSITION: str.format catalogs not yet converted
    if toml_path.exists():
        with toml_path.open("rb") as fh:
            flat: dict[str, str] = {}
            _toml_flatten(domain, tomllib.load(fh), flat)
        loaded.templates = {k: v for k, v in flat.items() if k not in loaded.source}
    return loaded


@cache
def _domains_in(root: Path) -> tuple[str, ...]:
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir())) if root.is_dir() else ()


def domains() -> tuple[str, ...]:
    """The catalog domains (folders of ``data/locales``), listed once."""
    return _domains_in(LOCALES)


def _lookup(key: str, lang: str) -> _Domain | None:
    domain = key.split(".", 1)[0]
    if domain not in domains():
        return None
    loaded = _domain(domain, lang)
    return loaded if loaded.has(key) else None


def keys(lang: str) -> list[str]:
    """Every key of every domain for ``lang`` (none of their messages parsed)."""
    return [key for domain in domains() for key in (*_domain(domain, lang).source, *_domain(domain, lang).templates)]


def fingerprint() -> str:
    """A digest of every catalog's files: the same while no text of any language changed."""
    digest = hashlib.sha256()
    for path in sorted(LOCALES.glob("*/*.*")):
        if path.suffix in (".ftl", ".toml"):
            digest.update(f"{path.relative_to(LOCALES)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every key of every domain for ``lang`` with its source text (Fluent pattern or TOML template)."""
    out: dict[str, str] = {}
    for domain in domains():
        loaded = _domain(domain, lang)
        for key, message in loaded.every_message().items():
            out[key] = serialize_pattern(message.value).strip() if message.value is not None else ""
        out.update(loaded.templates)
    return out


@cache
def variables(key: str, lang: str = DEFAULT) -> frozenset[str]:
    """The parameters message ``key`` uses in ``lang`` (empty if the key does not exist)."""
    loaded = _lookup(key, lang)
    if loaded is None:
        return frozenset()
    if key in loaded.source:
        return frozenset(_variables(loaded.message(key), set()))
    return frozenset(_fields(loaded.templates[key]))


def has(key: str, lang: str = DEFAULT) -> bool:
    return _lookup(key, lang) is not None


def _is_phrase(value: Any) -> bool:
    """An ``engines.base.Phrase``: a catalog text (a variant's name...) given as a parameter."""
    return isinstance(getattr(value, "key", None), str) and isinstance(getattr(value, "params", None), tuple)


def _is_phrases(value: Any) -> bool:
    """A tuple of phrases: a list of catalog texts, joined in the reader's language."""
    return isinstance(value, tuple) and bool(value) and all(_is_phrase(v) for v in value)


def _argument(value: Any, lang: str) -> Any:
    if _is_phrase(value):
        return t(value.key, lang, **dict(value.params))  # written in the reader's language
    if _is_phrases(value):
        return ", ".join(_argument(v, lang) for v in value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return fluent_number(value, useGrouping=False)
    if isinstance(value, float | Decimal | FluentNumber):
        return fluent_number(value)
    if isinstance(value, str | date):  # dates and datetimes: Fluent's DATETIME writes them the language's way
        return value
    return str(value)


class _SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, lang: str = DEFAULT, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    Messages are pure functions of their key, language and parameters, and most are asked again
    and again (button labels, turn lines, the same numbers): the last results are kept (bounded),
    so a move does not pay Fluent and Babel for texts it already wrote."""
    if all(value is None or isinstance(value, _PLAIN) or _is_phrase(value) or _is_phrases(value)
           for value in params.values()):
        try:
            return _formatted(key, lang, tuple((name, type(value), value) for name, value in sorted(params.items())))
        except TypeError:  # a phrase whose parameters cannot be a cache key
            pass
    return _format(key, lang, params)  # other objects (their text may change): formatted each time


#: immutable parameter types (escaped text is a ``str`` too): their value says all of their text,
#: so a kept message stays right
_PLAIN = (str, int, float, Decimal, date)


@lru_cache(maxsize=8192)
def _formatted(key: str, lang: str, items: tuple[tuple[str, type, Any], ...]) -> str:
    return _format(key, lang, {name: value for name, _, value in items})


def _format(key: str, lang: str, params: dict[str, Any]) -> str:
    loaded = _lookup(key, lang)
    if loaded is None and lang != DEFAULT:
        lang = DEFAULT
        loaded = _lookup(key, lang)
    if loaded is None:
        return key
    if key in loaded.templates:
        plain = {name: _argument(v, lang) if _is_phrase(v) or _is_phrases(v) else v for name, v in params.items()}
        return loaded.templates[key].format_map(_SafeDict(plain))
    message = loaded.message(key)
    args = {name: _argument(value, lang) for name, value in params.items()}
    for name in variables(key, lang):
        args.setdefault(name, "{" + name + "}")
    bundle_message = loaded.bundle.get_message(message.id.name)
    if bundle_message.value is None:
        return ""
    text, _errors = loaded.bundle.format_pattern(bundle_message.value, args)
    return text if isinstance(text, str) else str(getattr(text, "name", "") or key)


__all__ = ["DEFAULT", "ELISION", "LANGS", "catalog", "command", "command_ids", "command_name", "fingerprint", "has",
           "keys", "lang_of", "set_command_ids", "starts_with_vowel_sound", "t", "variables"]
