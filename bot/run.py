"""`lockdown-bot`: start the game master on Discord.

This module only reads the settings, explains what is missing, sets up logging
and hands over to `bot.app.run_bot`. `bot.app` is imported late so that
`--help` and the missing-token hint answer at once, without loading discord.py.
"""

from __future__ import annotations

import argparse
import logging
import sys
import textwrap
from collections.abc import Sequence
from typing import NoReturn

from pydantic import ValidationError

from bot.settings import Settings, ensure_database_folder, load_settings, settings_problems

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

NO_TOKEN = (
    "lockdown-bot needs a Discord bot token: create an application at "
    "https://discord.com/developers/applications, copy its bot token (Bot page) into "
    "DISCORD_TOKEN in a .env file in this folder (see .env.example), or try the game "
    "without Discord with `uv run lockdown play`."
)

log = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    """The command line: no options yet, but a --help that documents the settings."""
    settings_help = "\n".join(
        textwrap.fill(
            f"{name.upper()}: {field.description}",
            width=78,
            initial_indent="  ",
            subsequent_indent="      ",
        )
        for name, field in Settings.model_fields.items()
    )
    return argparse.ArgumentParser(
        prog="lockdown-bot",
        description=textwrap.fill(
            "Run the Lockdown game master on Discord: log in with the bot token, "
            "register the /lockdown slash commands and run the games of every server "
            "the bot is in, until stopped with Ctrl-C or SIGTERM.",
            width=78,
        ),
        epilog=(
            "settings, read from the environment or from a .env file in the current "
            f"folder (see .env.example):\n{settings_help}\n\n"
            "To try the game without Discord: lockdown play"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def configure_logging(settings: Settings) -> None:
    """One handler on the root logger, so discord.py's logs and ours look alike on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(settings.log_level)


def start(argv: Sequence[str] | None = None) -> int:
    """Everything `main` does, returning the exit status instead of exiting."""
    build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except ValidationError as exc:
        print("lockdown-bot: invalid settings (environment or .env):", file=sys.stderr)
        for line in settings_problems(exc):
            print(f"  {line}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings)
    ensure_database_folder(settings)
    log.info("Starting; database %s", settings.database_url_for_logs())

    from bot.app import run_bot

    run_bot(settings)
    return 0


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the `lockdown-bot` console script."""
    sys.exit(start(argv))
