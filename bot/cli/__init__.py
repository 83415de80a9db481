"""`lockdown`: the terminal tool, everything around the game that needs no Discord.

Each subcommand is one module of this package, registered by name in
`bot.cli.main.COMMAND_MODULES`, and exposes:

- `NAME: str`, the word typed after `lockdown`;
- `HELP: str`, one line for `lockdown --help`;
- `add_arguments(parser: argparse.ArgumentParser) -> None`, its own options;
- `run(args: argparse.Namespace) -> int`, the work, returning the exit status.

Every registered module is imported for `lockdown --help`, so keep heavy
imports (discord.py, Pillow, the database) inside `run`.
"""
