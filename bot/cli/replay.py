"""`lockdown replay FILE`: play a scenario or a recorded game and print its public log.

A recorded game (seed + actions, the `ReplayLog` JSON) is a scenario without a
position, so the same command checks fair play (the seed and the public log
reproduce every shuffle and die) and runs the rule scenarios of tests/scenarios.
Exit codes: 0 all expectations hold, 1 one failed, 2 the file is malformed.

Lines come from the message catalog, as in the game's thread, with seats
named by number.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from bot.cli.saved_game import scenario_data
from bot.render.board_text import board_lines
from bot.texts import catalog, t
from bot.texts.catalog import and_list
from bot.texts.lang import TERMINAL_LANGUAGES
from bot.texts.narrate import describe
from lockdown_core import Event, GameState, IllegalAction, replay, view
from lockdown_core.scenario import run as run_scenario
from lockdown_core.scenario_format import Scenario, ScenarioError, parse_scenario


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, nargs="?", help="scenario or recorded game (JSON)")
    parser.add_argument(
        "--game",
        type=int,
        help="a game from the bot's database (DATABASE_URL) instead of a file: its public log",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only failures and the final summary"
    )
    parser.add_argument(
        "--gif",
        type=Path,
        metavar="OUT.gif",
        help="also draw the game told back as an animated GIF (a terminal game saved with "
        "`lockdown play --save`, an exported game or a scenario)",
    )
    parser.add_argument(
        "--lang", choices=TERMINAL_LANGUAGES, default="en", help="language of the GIF (default en)"
    )


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.game is None):
        print("lockdown replay: give a FILE or --game ID (one of them)", file=sys.stderr)
        return 2
    if args.game is not None:
        if args.gif is not None:
            print(
                "lockdown replay: a stored game's GIF is `lockdown export --game ID --gif`",
                file=sys.stderr,
            )
            return 2
        return replay_stored(args.game, quiet=args.quiet, out=sys.stdout, err=sys.stderr)
    status = replay_file(args.file, quiet=args.quiet, out=sys.stdout, err=sys.stderr)
    if status == 2 or args.gif is None:
        return status
    from bot.cli.gif_out import write_gif  # Pillow: only for the GIF
    from bot.render.replay_gif import scenario_start

    return write_gif(scenario_start(load(args.file)), args.gif, args.lang, "replay") or status


def replay_stored(game_id: int, *, quiet: bool, out: TextIO, err: TextIO) -> int:
    """A stored game (finished or running) played again from its seed and log: public lines only.

    The seed stays in the database; only what the thread showed is printed.
    The database layer is imported here, not at the top: replaying a file
    never needs SQLAlchemy, and importing it would triple the command's start.
    """
    from bot.cli.stored import StoredGameError, read_game

    try:
        stored = read_game(game_id)
        state, events = replay(stored.record)
    except (StoredGameError, IllegalAction) as exc:
        print(f"cannot replay game {game_id}: {exc}", file=err)
        return 2
    print(f"Game {game_id} ({stored.status}), {len(stored.record.actions)} actions", file=out)
    if not quiet:
        for event in events:
            if event.to is None:
                print(describe_public(event, state), file=out)
        print(file=out)
    for line in summary(state):
        print(line, file=out)
    return 0


def load(path: Path) -> Scenario:
    """Read and validate a file; ScenarioError names the file and the bad field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot be read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not JSON: {exc}") from exc
    try:
        return parse_scenario(scenario_data(data))
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from exc


def replay_file(path: Path, *, quiet: bool, out: TextIO, err: TextIO) -> int:
    """Print the public log, the final position and any failure; returns the exit status."""
    try:
        scenario = load(path)
        result = run_scenario(scenario)
    except ScenarioError as exc:
        print(f"malformed: {exc}", file=err)
        return 2
    if not quiet:
        for event in result.public_log:
            print(describe_public(event, result.state), file=out)
        print(file=out)
    for line in summary(result.state):
        print(line, file=out)
    if not result.ok:
        print(file=out)
        for failure in result.failures:
            print(f"FAILED {failure}", file=out)
        return 1
    return 0


# The public log, in the catalog's words -------------------------------------------


def _names(state: GameState, lang: str) -> list[str]:
    return [t(lang, "replay.seat", number=seat + 1) for seat in range(state.players)]


def describe_public(event: Event, state: GameState, lang: str = "en") -> str:
    """The line the game's thread showed for a public event."""
    return describe(event, lang, _names(state, lang))


def summary(state: GameState, lang: str = "en") -> list[str]:
    """The final position as the board's text shows it, then the scores once it is over."""
    names = _names(state, lang)

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    lines = [say("replay.position", turn=state.turn, step=say(f"step.{state.step}.name"))]
    lines.extend("  " + line for line in board_lines(view(state, None), names, lang))
    if state.result is not None:
        scores = and_list(
            lang,
            [
                say("board.final_score", name=names[p], points=catalog().count(lang, "point", n))
                for p, n in enumerate(state.result["scores"])
            ],
        )
        winners = and_list(lang, [names[p] for p in state.result["winners"]])
        lines.append("  " + say("replay.scores", scores=scores, winners=winners))
    return lines
