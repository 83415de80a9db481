"""`lockdown`: the terminal tool, everything around the game that needs no Discord.

Each subcommand is one module of this package, listed with its name and its
one-line help in `bot.cli.main.COMMANDS`, and exposes:

- `add_arguments(parser: argparse.ArgumentParser) -> None`, its own options;
- `run(args: argparse.Namespace) -> int`, the work, returning the exit status.

Only the module of the command typed is imported (`lockdown --help` imports
none), so a command pays for its own imports and no other's; an import that
only one path of a command needs (the database for `replay --game`) belongs in
that path.
"""
