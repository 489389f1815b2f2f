"""Build the Ludime French lexicon from the Dicollecte (Grammalecte) hunspell dictionary.

Run once, by hand, on a machine with hunspell (the bot never needs it)::

    apt-get install hunspell-fr-comprehensive hunspell-tools hunspell
    .venv/bin/python scripts/build_lexicon.py

Pipeline (docs/rules/ludime.md, "Lexicon"):

1. read ``fr.dic`` and drop every stem whose only part of speech is an
   interjection (``po:interj`` on all its entries: vroum, badaboum...), and the
   unit symbols (entries with the SI-prefix flag ``U.``: m, g, lx, mol... whose
   expansions km, kg, nlx, kmol are abbreviations, not words);
2. expand the remaining stems with ``unmunch`` (every affixed form);
3. keep the forms written entirely in lower-case letters (no capital: proper
   nouns and acronyms; no apostrophe, hyphen, digit, dot: elisions, compounds);
4. confirm each form with ``hunspell -G`` against the original dictionary
   (``unmunch`` also emits forms hunspell itself refuses);
5. strip accents, write Œ as OE and Æ as AE, upper-case, keep keys made of A-Z;
6. save the distinct keys as a marisa-trie in ``data/ludime/lexicon.marisa``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIC = Path("/usr/share/hunspell/fr.dic")
DEFAULT_OUT = ROOT / "data" / "ludime" / "lexicon.marisa"
KEY_RE = re.compile(r"[A-Z]+")


def normalize(form: str) -> str:
    """``défrichées`` -> ``DEFRICHEES``, ``œuvre`` -> ``OEUVRE`` (same rule as engines.ludime.lexicon)."""
    form = form.replace("œ", "oe").replace("Œ", "OE").replace("æ", "ae").replace("Æ", "AE")
    decomposed = unicodedata.normalize("NFD", form)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def parse_entry(line: str) -> tuple[str, list[str]] | None:
    """``allumer/a0p+() po:v1__t_q_zz`` -> ``("allumer", ["v1__t_q_zz"])``."""
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        return None
    fields = line.split()
    stem = fields[0].split("/", 1)[0]
    pos = [f[3:] for f in fields[1:] if f.startswith("po:")]
    return stem, pos


def drop_interjections(dic_lines: list[str]) -> tuple[list[str], set[str]]:
    """The dictionary lines without the stems that are only interjections."""
    kinds: dict[str, set[str]] = {}
    for line in dic_lines:
        entry = parse_entry(line)
        if entry:
            stem, pos = entry
            kinds.setdefault(stem, set()).update(pos or ["?"])
    dropped = {stem for stem, pos in kinds.items() if pos == {"interj"}}
    kept = []
    for line in dic_lines:
        entry = parse_entry(line)
        if entry and entry[0] not in dropped:
            kept.append(line if line.endswith("\n") else line + "\n")
    return kept, dropped


def drop_unit_symbols(dic_lines: list[str]) -> tuple[list[str], list[str]]:
    """The dictionary lines without the unit symbols (flag ``U.``, the SI prefixes: km, kg, nlx...).

    Only those lines go: a word that is also a unit symbol keeps its own entry (``cal/S.()``,
    a callus, stays; ``cal/U.`` the calorie symbol goes).
    """
    kept, dropped = [], []
    for line in dic_lines:
        head = line.split(None, 1)[0] if line.strip() else ""
        flags = head.split("/", 1)[1] if "/" in head else ""
        pairs = {flags[i:i + 2] for i in range(0, len(flags), 2)}  # FLAG long: two characters each
        (dropped if "U." in pairs else kept).append(line)
    return kept, [line.split("/", 1)[0] for line in dropped]


def is_lower_letters(form: str) -> bool:
    return form.isalpha() and form == form.lower()


def build(dic: Path, aff: Path, out: Path) -> int:
    started = time.time()
    lines = dic.read_text(encoding="utf-8").splitlines(keepends=True)
    body = lines[1:]  # first line: the entry count
    kept, dropped = drop_interjections(body)
    print(f"{len(body)} entries, {len(dropped)} interjection-only stems dropped", file=sys.stderr)
    kept, units = drop_unit_symbols(kept)
    print(f"{len(units)} unit symbols dropped: {' '.join(units)}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        tmp_dic = Path(tmp) / "stems.dic"
        tmp_dic.write_text(f"{len(kept)}\n" + "".join(kept), encoding="utf-8")
        unmunched = subprocess.run(["unmunch", str(tmp_dic), str(aff)], capture_output=True, check=True).stdout
    candidates = set()
    for raw in unmunched.decode("utf-8", "replace").splitlines():
        form = raw.split("/", 1)[0].strip()
        if form and is_lower_letters(form):
            candidates.add(form)
    print(f"unmunch: {len(candidates)} lower-case letter-only forms", file=sys.stderr)

    dict_base = str(dic.with_suffix(""))
    confirmed = subprocess.run(["hunspell", "-i", "utf-8", "-d", dict_base, "-G"],
                               input="\n".join(sorted(candidates)).encode("utf-8"),
                               capture_output=True, check=True).stdout.decode("utf-8").split()
    confirmed_set = set(confirmed) & candidates
    print(f"hunspell -G: {len(confirmed_set)} forms confirmed", file=sys.stderr)

    keys = {k for k in (normalize(f) for f in confirmed_set) if KEY_RE.fullmatch(k)}
    print(f"{len(keys)} distinct keys", file=sys.stderr)

    import marisa_trie  # a project dependency; imported here so --help works without it

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = out.with_suffix(".tmp")
    marisa_trie.Trie(sorted(keys)).save(str(tmp_out))
    os.replace(tmp_out, out)
    print(f"wrote {out} ({out.stat().st_size} bytes) in {time.time() - started:.1f} s", file=sys.stderr)
    return len(keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dic", type=Path, default=DEFAULT_DIC, help="hunspell .dic (default: %(default)s)")
    parser.add_argument("--aff", type=Path, default=None, help="hunspell .aff (default: next to --dic)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output trie (default: %(default)s)")
    args = parser.parse_args(argv)
    aff = args.aff or args.dic.with_suffix(".aff")
    build(args.dic, aff, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
