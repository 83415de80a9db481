"""`lockdown-bot`: start the game master on Discord, or run one deploy step.

This module only reads the settings, explains what is missing, sets up logging
and hands over to `bot.app`. `bot.app` is imported late so that `--help` and
the missing-token hint answer at once, without loading discord.py.

`lockdown-bot migrate` and `lockdown-bot sync-commands` are the steps a deploy
runs once, before starting (or while running) the bot processes: the
migrations under an advisory lock, the slash commands registered with Discord.
`lockdown-bot backup FILE` copies a SQLite database while the bot runs, and
`lockdown-bot restore FILE` puts such a copy back while it is stopped.
A problem that stops the start (a setting, the database, the token) is one
sentence on stderr and exit status 2 (a setting to correct) or 1 (the world
outside); the traceback only with LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from pydantic import ValidationError

from bot.ops.logs import configure_logging
from bot.settings import (
    Settings,
    StartupError,
    ensure_database_folder,
    ensure_driver_installed,
    load_settings,
    settings_problems,
)

COMMANDS = {
    "run": "run the game master (the default)",
    "invite": "print the links that invite the bot to a server, then exit",
    "migrate": "bring the database's schema to this version, then exit",
    "sync-commands": "register the /lockdown slash commands with Discord, then exit",
    "backup": "copy the SQLite database to FILE, a new file, even while the bot runs",
    "restore": "replace the SQLite database with the backup FILE (the bot stopped)",
}
# The commands that take FILE, and those that run without a Discord token.
WITH_FILE = ("backup", "restore")
WITHOUT_TOKEN = ("migrate", "backup", "restore")

NO_TOKEN = (
    "lockdown-bot needs a Discord bot token: create an application at "
    "https://discord.com/developers/applications, copy its bot token (Bot page) into "
    "DISCORD_TOKEN in a .env file in this folder (see .env.example), then run "
    "`lockdown-bot invite` for the link that adds the bot to your server (README, "
    '"Invite the bot to a server"). Or try the game without Discord with '
    "`uv run lockdown play`."
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
    parser = argparse.ArgumentParser(
        prog="lockdown-bot",
        description=textwrap.fill(
            "Run the Lockdown game master on Discord: log in with the bot token, "
            "register the /lockdown slash commands and run the games of every server "
            "the bot is in (or of its shards), until stopped with Ctrl-C or SIGTERM.",
            width=78,
        ),
        epilog=(
            "settings, read from the environment or from a .env file in the current "
            f"folder (see .env.example):\n{settings_help}\n\n"
            "To try the game without Discord: lockdown play"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=list(COMMANDS),
        help="; ".join(f"{name}: {what}" for name, what in COMMANDS.items()),
    )
    parser.add_argument(
        "file", nargs="?", type=Path, metavar="FILE", help="the backup file (backup, restore)"
    )
    return parser


def start(argv: Sequence[str] | None = None) -> int:
    """Everything `main` does, returning the exit status instead of exiting."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command, file = args.command, args.file
    if (command in WITH_FILE) != (file is not None):
        parser.error(
            f"{command} needs a FILE" if command in WITH_FILE else f"{command} takes no FILE"
        )
    try:
        settings = load_settings()
    except ValidationError as exc:
        problems = settings_problems(exc)
        if len(problems) == 1:
            print(f"lockdown-bot: {problems[0]}", file=sys.stderr)
        else:
            print("lockdown-bot: invalid settings (environment or .env):", file=sys.stderr)
            for line in problems:
                print(f"  {line}", file=sys.stderr)
        return 2
    except StartupError as exc:
        print(f"lockdown-bot: {exc.sentence}", file=sys.stderr)
        return exc.status
    if settings.discord_token is None and command not in WITHOUT_TOKEN:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    token = settings.discord_token
    configure_logging(
        settings.log_level,
        settings.log_format,
        secrets=[token.get_secret_value()] if token is not None else [],
    )
    try:
        return _run(command, settings, file)
    except StartupError as exc:
        log.debug("start-up failed", exc_info=True)
        print(f"lockdown-bot: {exc.sentence}", file=sys.stderr)
        return exc.status


def _run(command: str, settings: Settings, file: Path | None) -> int:
    if file is not None:
        return _copy(command, settings, file)
    if command == "invite":
        return _invite(settings)
    ensure_driver_installed(settings)
    ensure_database_folder(settings)
    log.info("Starting %s; database %s", command, settings.database_url_for_logs())

    from bot.app import migrate_database, run_bot, sync_commands

    if command == "migrate":
        migrate_database(settings)
    elif command == "sync-commands":
        sync_commands(settings)
    else:
        run_bot(settings)
    return 0


def _invite(settings: Settings) -> int:
    """`invite`: the two invitation links, built from the application the token belongs
    to; nothing is asked of Discord."""
    from bot.discord_ui.invitation import application_id_of, invitation_link

    assert settings.discord_token is not None
    application_id = application_id_of(settings.discord_token.get_secret_value())
    if application_id is None:
        print(
            "lockdown-bot: DISCORD_TOKEN is not shaped like a bot token (copy it again from "
            "the Bot page of the developer portal)",
            file=sys.stderr,
        )
        return 2
    print(f"Invite the bot to a server:\n  {invitation_link(application_id)}")
    print(f"With game nights (Manage Events):\n  {invitation_link(application_id, nights=True)}")
    return 0


def _copy(command: str, settings: Settings, file: Path) -> int:
    """`backup FILE` or `restore FILE`: one line on stdout saying what was copied where."""
    from bot.ops.backup import backup, restore

    if command == "backup":
        print(f"backed up {backup(settings, file)}")
    else:
        print(f"restored {asyncio.run(restore(settings, file))}")
    return 0


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the `lockdown-bot` console script."""
    sys.exit(start(argv))
