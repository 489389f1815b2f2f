"""``python -m bot``: run Ludibot (see the README)."""

from __future__ import annotations

import base64
import os
import sys

from bot import i18n
from bot.config import ConfigError, load_settings


def console_lang() -> str:
    for var in ("LUDIBOT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "en" if value.lower().startswith("en") else "fr"
    return "fr"


def application_id_from_token(token: str) -> str | None:
    """A bot token starts with the base64 of the bot's id (= its application id)."""
    head = token.split(".", 1)[0]
    try:
        value = base64.b64decode(head + "=" * (-len(head) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    return value if value.isdigit() else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    lg = console_lang()
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(i18n.t(exc.key, lg, **exc.params), file=sys.stderr)
        return 2
    if argv and argv[0] in ("backup", "migrate-db"):
        from bot import dbtools

        if argv[0] == "backup":
            if len(argv) > 2:
                print(i18n.t("storage.backup.usage", lg), file=sys.stderr)
                return 2
            return dbtools.backup(settings.db_path, argv[1] if len(argv) == 2 else None, lg)
        return dbtools.migrate_db(settings.db_path, argv[1:], lg)
    if argv:
        print(i18n.t("storage.usage", lg), file=sys.stderr)
        return 2
    from bot.client import REQUIRED_PERMISSIONS, invite_url

    if not settings.token:
        print(i18n.t("config.no_token", lg, invite=invite_url("<APPLICATION_ID>"),
                     permissions=REQUIRED_PERMISSIONS), file=sys.stderr)
        return 2

    from bot.dbtools import check_database

    # migrations (after an automatic backup) and the refusal of a database from a newer release, up front
    status = check_database(settings.db_path, lg)
    if status:
        return status

    import discord

    from bot.client import Ludibot, apply_endpoints
    from bot.logs import setup_logging

    setup_logging(settings.log_level, secrets=(settings.token,))
    apply_endpoints(settings)
    import logging

    log = logging.getLogger("ludibot")
    log.info("starting", extra={"command": "start"})
    log.info("settings %s", settings.redacted())
    app_id = application_id_from_token(settings.token)
    if app_id and settings.uses_real_discord:
        log.info("invite url %s", invite_url(app_id))
    from bot import loop
    from bot.gateway import EXIT_FATAL, fatal_message

    log.info("event loop %s", loop.install())
    bot = Ludibot(settings)
    _profile_if_asked(os.environ.get("LUDIBOT_PROFILE"))
    try:
        bot.run(settings.token, log_handler=None)
    except (discord.LoginFailure, discord.PrivilegedIntentsRequired, discord.ConnectionClosed) as exc:
        key, params = fatal_message(exc) or ("config.bad_token", {})
        log.error("stopped: %s", key, extra={"command": "stop"})
        print(i18n.t(key, lg, **params), file=sys.stderr)
        return EXIT_FATAL
    except KeyboardInterrupt:
        return 0
    return 0


def _profile_if_asked(path: str | None) -> None:
    """For benchmarks (``LUDIBOT_PROFILE=<file>``): profile the event loop's thread with cProfile, on
    the thread's CPU time, and write the statistics to ``<file>`` when the process is told to stop
    (SIGTERM); SIGUSR1 starts the profile again (a benchmark's warm-up left out). Not for production:
    profiling slows every call."""
    if not path:
        return
    import cProfile
    import signal
    import time

    profiler = [cProfile.Profile(time.thread_time)]

    def restart(*_: object) -> None:  # SIGUSR1: start again from here (after a warm-up)
        profiler[0].disable()
        profiler[0] = cProfile.Profile(time.thread_time)
        profiler[0].enable()

    def dump(*_: object) -> None:
        profiler[0].disable()
        profiler[0].dump_stats(path)
        os._exit(0)

    signal.signal(signal.SIGUSR1, restart)
    signal.signal(signal.SIGTERM, dump)
    profiler[0].enable()


if __name__ == "__main__":
    sys.exit(main())
