"""Container health check: exit 0 when the bot's /healthz answers 200 (database reachable, every shard
connected), 1 otherwise. Standard library only (the slim image has no curl)."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    port = os.environ.get("LUDIBOT_METRICS_PORT") or "9108"
    host = os.environ.get("LUDIBOT_METRICS_HOST") or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=4) as resp:
            return 0 if resp.status == 200 else 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
