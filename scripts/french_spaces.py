"""Put a no-break space before « : » and a narrow no-break space before « ; », « ! », « ? », « % » in the French
catalogs (data/locales/*/fr.ftl), so that a line never breaks before those marks (French typography).

Only an ordinary space between a visible character and the mark is replaced; comments, indentation
(Fluent continuation lines) and everything else stay as they are. Run it again after adding French text:
``python scripts/french_spaces.py`` (``--check`` only lists what it would change and exits 1 if anything).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
NBSP, NNBSP = "\u00a0", "\u202f"
BEFORE = {":": NBSP, ";": NNBSP, "!": NNBSP, "?": NNBSP, "%": NNBSP}
SPACE_BEFORE_MARK = re.compile(r"(?<=\S) ([:;!?%])")


def fixed(line: str) -> str:
    if line.lstrip().startswith("#"):  # a comment is not shown to anyone
        return line
    return SPACE_BEFORE_MARK.sub(lambda m: BEFORE[m.group(1)] + m.group(1), line)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = 0
    for path in sorted(LOCALES.glob("*/fr.ftl")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        out = [fixed(line) for line in lines]
        n = sum(a != b for a, b in zip(lines, out, strict=True))
        if n:
            changed += n
            print(f"{path.relative_to(LOCALES.parent.parent)}: {n} line(s)")
            if not check:
                path.write_text("".join(out), encoding="utf-8")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
