"""`lockdown export`: a stored game as a file anyone can replay, or any game as a GIF.

`--game ID [--out FILE]` writes the seed and every action (the `ReplayLog`
form that `lockdown replay FILE` reads), so a finished game can be checked
anywhere: same seed, same actions, same game. The seed of a game still running
would reveal every hand and die to come, so such a game is only written with
`--running`, for the operator's own debugging.

`--gif FILE` draws the game told back instead (`bot.render.replay_gif`), from
`--game ID` or from a scenario or exported game file given as `SOURCE`; the
same game always gives the same bytes. The database and Pillow are imported
only by the form that needs them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.texts.lang import TERMINAL_LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", type=Path, nargs="?", help="a scenario or exported game file (with --gif)"
    )
    parser.add_argument("--game", type=int, help="the game's id in the database")
    parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
    parser.add_argument("--gif", type=Path, help="write the game as an animated GIF to this file")
    parser.add_argument(
        "--lang", choices=TERMINAL_LANGUAGES, default="en", help="language of the GIF (default en)"
    )
    parser.add_argument(
        "--running",
        action="store_true",
        help="also export a game that is not over (its seed reveals what is still secret)",
    )


def run(args: argparse.Namespace) -> int:
    if (args.source is None) == (args.game is None):
        print("lockdown export: give --game ID or a SOURCE file (one of them)", file=sys.stderr)
        return 2
    if args.source is not None:
        if args.gif is None:
            print("lockdown export: a SOURCE file is exported with --gif FILE", file=sys.stderr)
            return 2
        return _file_gif(args.source, args.gif, args.lang)
    return _stored(args)


def _stored(args: argparse.Namespace) -> int:
    import json

    from bot.cli.stored import StoredGameError, read_game
    from bot.storage.models import GameStatus

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
    if args.gif is not None:
        from bot.cli.gif_out import write_gif
        from bot.render.replay_gif import record_start

        return write_gif(record_start(stored.record), args.gif, args.lang, "export")
    data = {"title": f"Game {args.game} ({stored.status})", **stored.record.model_dump()}
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"game {args.game}: {len(stored.record.actions)} actions written to {args.out}")
    return 0


def _file_gif(source: Path, gif: Path, lang: str) -> int:
    from bot.cli.replay import load
    from bot.render.replay_gif import scenario_start
    from lockdown_core.scenario_format import ScenarioError

    try:
        start = scenario_start(load(source))
    except ScenarioError as exc:
        print(f"lockdown export: {exc}", file=sys.stderr)
        return 2
    from bot.cli.gif_out import write_gif

    return write_gif(start, gif, lang, "export")
