"""`lockdown export --game ID [--out FILE]`: a stored game as a file anyone can replay.

The file holds the seed and every action (the `GameRecord` form that
`lockdown replay FILE` reads), so a finished game can be checked anywhere:
same seed, same actions, same game. The seed of a game still running would
reveal every hand and die to come, so such a game is only written with
`--running`, for the operator's own debugging.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.cli.stored import StoredGameError, read_game
from bot.storage.tables import GameStatus

NAME = "export"
HELP = "write a stored game (seed and actions) to a file that `lockdown replay` plays back"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", type=int, required=True, help="the game's id in the database")
    parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
    parser.add_argument(
        "--running",
        action="store_true",
        help="also export a game that is not over (its seed reveals what is still secret)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        stored = read_game(args.game)
    except StoredGameError as exc:
        print(f"lockdown export: {exc}", file=sys.stderr)
        return 2
    if stored.status != GameStatus.FINISHED and not args.running:
        print(
            f"lockdown export: game {args.game} is {stored.status}; its seed is still secret "
            "(add --running to export it anyway)",
            file=sys.stderr,
        )
        return 2
    data = {"title": f"Game {args.game} ({stored.status})", **stored.record.model_dump()}
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"game {args.game}: {len(stored.record.actions)} actions written to {args.out}")
    return 0
