"""Entry point of the `lockdown` console script: one subcommand per registered module.

The subcommands are listed here by module name rather than discovered, so that
adding one is a visible, reviewed change and `lockdown --help` never depends on
which files happen to lie in the folder. See `bot/cli/__init__.py` for what a
command module provides.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

COMMAND_MODULES: tuple[str, ...] = (
    "bot.cli.export",
    "bot.cli.play",
    "bot.cli.replay",
    "bot.cli.simulate",
    "bot.cli.version",
)


@dataclass(frozen=True)
class Command:
    """What `main` needs from one command module."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def load_command(module_name: str) -> Command:
    """Import a command module; a TypeError names the module and what it lacks."""
    module = importlib.import_module(module_name)
    missing = [
        attr for attr in ("NAME", "HELP", "add_arguments", "run") if not hasattr(module, attr)
    ]
    if missing:
        raise TypeError(f"command module {module_name} lacks {', '.join(missing)}")
    return Command(module.NAME, module.HELP, module.add_arguments, module.run)


def build_parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lockdown",
        description="Lockdown in the terminal: the tools around the game that need no Discord.",
    )
    subparsers = parser.add_subparsers(
        dest="cli_command", metavar="COMMAND", required=True, title="commands"
    )
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(sub)
    return parser


def dispatch(argv: Sequence[str] | None, modules: Sequence[str] = COMMAND_MODULES) -> int:
    """Parse `argv`, run the chosen command and return its exit status."""
    commands = {command.name: command for command in map(load_command, modules)}
    args = build_parser(list(commands.values())).parse_args(argv)
    try:
        return commands[args.cli_command].run(args)
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the `lockdown` console script."""
    sys.exit(dispatch(argv))
