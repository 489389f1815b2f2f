"""Ludime lexicon benchmark: load time, added memory, lookups per second (and the engine's move latency).

Run: ``.venv/bin/python -m bench.bench_ludime_lexicon``. Budgets (issue 3): load < 0.5 s,
< 60 MB of added memory. The plain ``set`` of every key is measured as the baseline to beat.
Memory is the growth of the process's resident set (VmRSS): the trie lives in C memory,
which ``tracemalloc`` does not see.
"""

from __future__ import annotations

import gc
import gzip
import random
import statistics
import sys
import time
from pathlib import Path

LOAD_BUDGET_S = 0.5
MEMORY_BUDGET_MB = 60.0
LOOKUPS = 200_000


def rss_mb() -> float:
    """Resident set size of this process, in MB (Linux), 0 elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def probes(keys: list[str], n: int) -> list[str]:
    """Half real words, half near misses (one letter changed), in random order."""
    rng = random.Random(3)
    out = []
    for _ in range(n // 2):
        w = rng.choice(keys)
        out.append(w)
        i = rng.randrange(len(w))
        out.append(w[:i] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + w[i + 1:])
    rng.shuffle(out)
    return out


def rate(fn, words: list[str]) -> float:
    start = time.perf_counter()
    for w in words:
        fn(w)
    return len(words) / (time.perf_counter() - start)


def measure() -> dict:
    """Every figure: ``rows`` of (structure, load s, added MB, lookups/s, file bytes), the key count,
    the engine's apply() of a 3-word play (median and p99 ms), and whether the budgets hold."""
    import marisa_trie

    from engines.ludime.lexicon import LEXICON_PATH

    rows = []
    gc.collect()
    base = rss_mb()
    start = time.perf_counter()
    trie = marisa_trie.Trie()
    trie.load(str(LEXICON_PATH))
    load_s = time.perf_counter() - start
    trie_mb = rss_mb() - base
    keys = trie.keys()
    words = probes(keys, LOOKUPS)
    trie_rate = rate(trie.__contains__, words)
    rows.append(("marisa-trie (shipped)", load_s, trie_mb, trie_rate, LEXICON_PATH.stat().st_size))

    from engines.ludime import is_word

    is_word("CHAUFFER")  # first call loads the process-wide trie
    rows.append(("is_word() (normalize + trie)", None, None, rate(is_word, words), None))

    # baseline: the same keys as a gzipped sorted list loaded into a Python set
    blob = gzip.compress("\n".join(keys).encode(), compresslevel=9)
    del keys
    gc.collect()
    base = rss_mb()
    start = time.perf_counter()
    plain = set(gzip.decompress(blob).decode().split("\n"))
    set_s = time.perf_counter() - start
    set_mb = rss_mb() - base
    rows.append(("set from gzip list (baseline)", set_s, set_mb, rate(plain.__contains__, words), len(blob)))

    # the engine's part of a /ludime poser: apply() of a several-word play action
    from dataclasses import replace

    from engines.ludime import ENGINE

    state = ENGINE.new_game(3, None, 1)
    state = replace(state, dealer=0, current=0, phase="play", turns=(1, 1, 1),
                    hands=(tuple(sorted("PASSEAIUSEDRAMESK")),) + state.hands[1:])
    times = []
    for _ in range(2000):
        t = time.perf_counter()
        ENGINE.apply(state, 0, {"type": "play", "words": ["PASSE", "SUA", "DRAMES"]})
        times.append(time.perf_counter() - t)
    times.sort()
    return {"rows": rows, "keys": len(trie), "apply_median_ms": statistics.median(times) * 1000,
            "apply_p99_ms": times[int(len(times) * 0.99)] * 1000,
            "ok": load_s < LOAD_BUDGET_S and trie_mb < MEMORY_BUDGET_MB}


def markdown(figures: dict) -> str:
    """The figures as a Markdown table (for the README)."""
    lines = [f"### Ludime lexicon ({figures['keys']:,} keys)", "",
             "| structure | load ms | added MB | lookups/s | file KB |", "|---|---|---|---|---|"]
    for name, load, mb, per_s, size in figures["rows"]:
        lines.append(f"| {name} | {'-' if load is None else f'{load * 1000:.1f}'} | "
                     f"{'-' if mb is None else f'{mb:.1f}'} | {per_s:,.0f} | "
                     f"{'-' if size is None else f'{size / 1024:.0f}'} |")
    lines += ["", f"engine `apply()` of a 3-word play: median {figures['apply_median_ms']:.3f} ms, "
                  f"p99 {figures['apply_p99_ms']:.3f} ms. Budgets: load < {LOAD_BUDGET_S * 1000:.0f} ms, "
                  f"< {MEMORY_BUDGET_MB:.0f} MB added -> {'OK' if figures['ok'] else 'OVER BUDGET'}."]
    return "\n".join(lines)


def main() -> int:
    figures = measure()
    rows = figures["rows"]
    print(f"Ludime lexicon: {figures['keys']:,} keys, Python {sys.version.split()[0]}")
    print(f"{'structure':32} {'load ms':>8} {'added MB':>9} {'lookups/s':>11} {'file KB':>8}")
    for name, load, mb, per_s, size in rows:
        load_txt = f"{load * 1000:8.1f}" if load is not None else f"{'-':>8}"
        mb_txt = f"{mb:9.1f}" if mb is not None else f"{'-':>9}"
        size_txt = f"{size / 1024:8.0f}" if size is not None else f"{'-':>8}"
        print(f"{name:32} {load_txt} {mb_txt} {per_s:11,.0f} {size_txt}")
    print(f"engine apply(play 3 words): median {figures['apply_median_ms']:.3f} ms, "
          f"p99 {figures['apply_p99_ms']:.3f} ms")
    ok = figures["ok"]
    print(f"budgets: load < {LOAD_BUDGET_S * 1000:.0f} ms, < {MEMORY_BUDGET_MB:.0f} MB added -> "
          f"{'OK' if ok else 'OVER BUDGET'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
