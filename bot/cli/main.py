"""Entry point of the `lockdown` console script: one subcommand per registered module.

The subcommands are listed here with their one-line help, rather than
discovered or read from their modules, so that `lockdown --help` imports none
of them and `lockdown replay FILE` imports only the replay command: a module
that needs the database or Pillow costs nothing to the commands that do not.
Adding a command is a visible, reviewed change to `COMMANDS`. See
`bot/cli/__init__.py` for what a command module provides.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn


@dataclass(frozen=True)
class Listing:
    """A subcommand as `lockdown --help` shows it, before its module is imported."""

    name: str
    module: str
    help: str


COMMANDS: tuple[Listing, ...] = (
    Listing(
        "board",
        "bot.cli.board",
        "draw the board of a game (saved, stored or a seed) at any step, with its alt text",
    ),
    Listing(
        "export",
        "bot.cli.export",
        "write a stored game (seed and actions) to a file that `lockdown replay` plays back",
    ),
    Listing(
        "play",
        "bot.cli.play",
        "play a game in this terminal, you at one seat and AI seats at the others",
    ),
    Listing(
        "replay",
        "bot.cli.replay",
        "replay a scenario file or a recorded game and print its public log",
    ),
    Listing(
        "simulate",
        "bot.cli.simulate",
        "play many games between AI seats and report win rates, lengths and errors",
    ),
    Listing(
        "version",
        "bot.cli.version",
        "print the version of lockdown-bot and of the Python running it",
    ),
)


@dataclass(frozen=True)
class Command:
    """What `main` needs from one command module, once it is imported."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def load_command(listing: Listing) -> Command:
    """Import a command module; a TypeError names the module and what it lacks."""
    module = importlib.import_module(listing.module)
    missing = [attr for attr in ("add_arguments", "run") if not hasattr(module, attr)]
    if missing:
        raise TypeError(f"command module {listing.module} lacks {', '.join(missing)}")
    return Command(module.add_arguments, module.run)


def chosen(argv: Sequence[str], commands: Sequence[Listing]) -> Listing | None:
    """The command named on the line, found before parsing so that only its module loads.

    The top-level parser has no options of its own besides `--help`, so the
    first word not starting with `-` is the command, if it is one.
    """
    by_name = {listing.name: listing for listing in commands}
    for word in argv:
        if not word.startswith("-"):
            return by_name.get(word)
    return None


def build_parser(
    commands: Sequence[Listing], loaded: dict[str, Command]
) -> argparse.ArgumentParser:
    """Every command is listed; only the `loaded` ones get their options."""
    parser = argparse.ArgumentParser(
        prog="lockdown",
        description="Lockdown in the terminal: the tools around the game that need no Discord.",
    )
    subparsers = parser.add_subparsers(
        dest="cli_command", metavar="COMMAND", required=True, title="commands"
    )
    for listing in commands:
        sub = subparsers.add_parser(listing.name, help=listing.help, description=listing.help)
        if listing.name in loaded:
            loaded[listing.name].add_arguments(sub)
    return parser


def dispatch(argv: Sequence[str] | None, commands: Sequence[Listing] = COMMANDS) -> int:
    """Parse `argv`, run the chosen command and return its exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    listing = chosen(words, commands)
    loaded = {} if listing is None else {listing.name: load_command(listing)}
    args = build_parser(commands, loaded).parse_args(words)
    try:
        return loaded[args.cli_command].run(args)
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the `lockdown` console script."""
    sys.exit(dispatch(argv))
