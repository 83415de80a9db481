"""`lockdown-web`: the game pages, served by uvicorn from the bot's database.

Its own process, so a page read never competes with a game for the bot's
event loop, and as many copies as wanted can run behind a proxy: every copy
reads the same database and signs addresses with the same `WEB_SECRET`. The
database is opened read-only: a page never writes.
"""

from __future__ import annotations

import sys

import uvicorn
from pydantic import ValidationError

from bot.settings import (
    Settings,
    StartupError,
    ensure_driver_installed,
    load_settings,
    settings_problems,
)
from bot.storage.database import Database
from bot.web.app import create_app


def serve(settings: Settings) -> None:
    """Serve until stopped (SIGINT, SIGTERM); the application closes the database."""
    database = Database(settings.database_url, read_only=True)
    app = create_app(settings, database)
    config = uvicorn.Config(
        app,
        host=settings.web_host,
        port=settings.web_port,
        proxy_headers=True,
        forwarded_allow_ips=settings.web_forwarded_allow_ips,
        server_header=False,
        log_level=settings.log_level.lower(),
        access_log=False,
    )
    uvicorn.Server(config).run()


def main() -> int:
    try:
        settings = load_settings()
        ensure_driver_installed(settings)
    except ValidationError as exc:
        for line in settings_problems(exc):
            print(f"lockdown-web: {line}", file=sys.stderr)
        return 2
    except StartupError as exc:
        print(f"lockdown-web: {exc.sentence}", file=sys.stderr)
        return exc.status
    if settings.web_secret is None:
        print(
            "lockdown-web: WEB_SECRET: not set; set at least 32 random characters, the "
            "same as the bot's (docs/game-pages.md)",
            file=sys.stderr,
        )
        return 2
    serve(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
