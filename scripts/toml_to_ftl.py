"""Convert a ``str.format`` TOML catalog into a Project Fluent (``.ftl``) file.

    python scripts/toml_to_ftl.py data/locales/ludix/fr.toml [...]   # writes fr.ftl beside it
    python scripts/toml_to_ftl.py --merge data/locales/ludix/fr.toml # appends keys the .ftl lacks

Key mapping (see ``bot/i18n.py``): the catalog key ``<domain>.<section>.<key>``
lives in ``data/locales/<domain>/<lang>.ftl`` as the message id
``<section>-<key>`` (a key directly under the domain keeps its name). Section
names never contain ``-``, so the first ``-`` of an id is the dot again.

``{name}`` becomes ``{ $name }``; braces and the characters Fluent reserves at
the start of a continuation line are escaped as string literals. Plural and
elision selectors are not invented here: add them by hand in the ``.ftl``
(the French file uses ``NUMBER``-free ``$count ->`` plurals and ``ELISION($x)``).
With ``--merge`` the TOML file is deleted once all its keys are in the ``.ftl``.
"""

from __future__ import annotations

import argparse
import re
import string
import sys
import tomllib
from pathlib import Path

ID = re.compile(r"^[a-zA-Z][a-zA-Z0-9_-]*$")


def flatten(table: dict, prefix: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            if "-" in k:
                raise ValueError(f"section {key!r}: section names may not contain '-'")
            out.extend(flatten(v, key))
        else:
            out.append((key, str(v)))
    return out


def fluent_id(key: str) -> str:
    ident = key.replace(".", "-", 1)
    if "." in ident or not ID.match(ident) or ("." not in key and "-" in key):
        raise ValueError(f"catalog key {key!r} cannot become a Fluent id")
    return ident


def _escape_text(text: str) -> str:
    return re.sub(r"[{}]", lambda m: '{"' + m.group(0) + '"}', text)


def pattern(template: str) -> str:
    """A str.format template as a Fluent pattern (possibly multi-line, indented)."""
    pieces: list[str] = []
    for literal, field, spec, conv in string.Formatter().parse(template):
        pieces.append(_escape_text(literal))
        if field is not None:
            if spec or conv or not ID.match(field):
                raise ValueError(f"unsupported placeholder {{{field}}} in {template!r}")
            pieces.append("{ $" + field + " }")
    text = "".join(pieces)
    lines = text.split("\n")
    out = []
    for line in lines:
        if line.startswith(" "):
            line = '{" "}' + line[1:]
        if len(lines) > 1 and line[:1] in ("[", "*", "."):
            line = '{"' + line[0] + '"}' + line[1:]
        out.append(line)
    if len(out) == 1:
        return out[0] if out[0] else '{""}'
    return "\n" + "\n".join(("    " + line) if line else "" for line in out)


def convert(entries: list[tuple[str, str]]) -> str:
    blocks: list[str] = []
    section = None
    for key, value in entries:
        sec = key.split(".", 1)[0] if "." in key else ""
        if sec != section:
            section = sec
            blocks.append(f"\n## {sec or 'general'}\n")
        value_ftl = pattern(value)
        sep = "" if value_ftl.startswith("\n") else " "
        blocks.append(f"{fluent_id(key)} ={sep}{value_ftl}\n")
    return "".join(blocks).lstrip("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--merge", action="store_true", help="append missing keys to an existing .ftl")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.files:
        with path.open("rb") as fh:
            entries = flatten(tomllib.load(fh))
        target = path.with_suffix(".ftl")
        if args.merge and target.exists():
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from bot import i18n  # noqa: PLC0415 - only for --merge
            known = {key.split(".", 1)[1] for key in i18n.read_ftl(target)}  # without the domain
            new = [(k, v) for k, v in entries if k not in known]
            if new:
                with target.open("a", encoding="utf-8") as fh:
                    fh.write("\n" + convert(new))
            print(f"{path}: {len(new)} new keys appended to {target}")
            path.unlink()
        else:
            target.write_text(convert(entries), encoding="utf-8")
            print(f"{path} -> {target} ({len(entries)} keys)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
