"""``make bench``: run every benchmark and print its Markdown tables (for the README).

The AI benchmarks (win rates, 200 games per level, several minutes each; the Limit and Ranta AI scores,
about two hours) run only with ``--full``.
"""

from __future__ import annotations

import subprocess
import sys
import time

QUICK = ["bench_ludix", "bench_render", "bench_publication", "bench_ludime_lexicon", "bench_ludime", "bench_ranta",
         "bench_limit", "bench_lutinades", "bench_armada", "bench_tectonic", "bench_community", "bench_catchup",
         "bench_throughput", "bench_processes", "bench_store_moves", "bench_storage", "bench_replay",
         "bench_tournament", "bench_bytes", "bench_activity"]
FULL = ["bench_armada_ai", "bench_tectonic_ai", "bench_ai", "bench_ai_load"]


def main(argv: list[str]) -> int:
    names = QUICK + (FULL if "--full" in argv else [])
    failed = []
    for name in names:
        print(f"\n## {name}\n", flush=True)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", f"bench.{name}"], check=False)
        print(f"\n({name}: {time.perf_counter() - t0:.0f} s, exit {proc.returncode})", flush=True)
        if proc.returncode:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
