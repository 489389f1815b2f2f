"""``make run``: the real bot when a token is configured, otherwise the local sandbox.

``python -m bot`` alone always runs the real bot (and explains how to get a token when
there is none); this launcher is what the README's run command uses.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot import i18n
from bot.__main__ import console_lang
from bot.__main__ import main as run_bot
from bot.config import ConfigError, load_settings


def main() -> int:
    lang = console_lang()
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(i18n.t(exc.key, lang, **exc.params), file=sys.stderr)
        return 2
    if settings.token:
        return run_bot()
    from bot.client import REQUIRED_PERMISSIONS, invite_url
    from sandbox.server import serve

    print(i18n.t("config.no_token", lang, invite=invite_url("<APPLICATION_ID>"), permissions=REQUIRED_PERMISSIONS),
          file=sys.stderr)
    print("\n" + i18n.t("sandbox.console.no_token", lang), file=sys.stderr)
    port = int(os.environ.get("LUDIBOT_SANDBOX_PORT", "8080"))
    data_dir = Path(os.environ.get("LUDIBOT_SANDBOX_DIR", "sandbox-data")).resolve()
    try:
        asyncio.run(serve(data_dir, port, lang))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
