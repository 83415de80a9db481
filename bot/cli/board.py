"""`lockdown board GAME [--step N]`: the board picture of any game at any step, and its
alt text, as the board message would show them.

GAME is a file (a game saved by `lockdown play --save`, exported by `lockdown
export`, or a scenario), a game's id in the bot's database, or `seed:S` for a
new game of that seed (with `--step`, seeded random seats play it on). Only
the public view is drawn and described, as on Discord: a step of a game still
running shows nothing its players could not see then. Seats are named by number.
"""

from __future__ import annotations

import argparse
import sys
from itertools import islice
from pathlib import Path

from bot.cli.simulate_text import environment_lang
from bot.render.describe import board_description
from bot.render.labels import board_png
from bot.render.replay_gif import Move, Start, record_start, scenario_start
from bot.texts import t
from bot.texts.lang import TERMINAL_LANGUAGES
from lockdown_core import IllegalAction, apply, facts, load_ruleset, new_game, view
from lockdown_core.ai.autoplay import RandomTable
from lockdown_core.ruleset import RULES_REVISION

SEED = "seed:"


class NoGame(Exception):
    """GAME names nothing that can be drawn; the message says why."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a saved or exported game file, a game's id in the bot's database (DATABASE_URL), "
        "or seed:S for a new game of seed S",
    )
    parser.add_argument(
        "--step",
        type=int,
        default=None,
        help="the board after this many actions (default: the last; 0 is the start)",
    )
    parser.add_argument(
        "--players", type=int, default=4, help="with seed:S, the number of seats (default 4)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("board.png"),
        help="the PNG to write (default board.png); the alt text goes beside it, as .txt",
    )
    parser.add_argument(
        "--lang",
        choices=TERMINAL_LANGUAGES,
        default=None,
        help="language of the picture (default: the terminal's, LANG, else en)",
    )


def run(args: argparse.Namespace) -> int:
    lang = args.lang or environment_lang()
    if args.step is not None and args.step < 0:
        print("lockdown board: --step must be 0 or more", file=sys.stderr)
        return 2
    try:
        state, _, moves = start_of(args.game, args.players, args.step)
        step = len(moves) if args.step is None else args.step
        if step > len(moves):
            raise NoGame(f"the game has {len(moves)} actions: --step goes from 0 to {len(moves)}")
        for action, revision in moves[:step]:
            apply(state, action, revision)
    except (NoGame, IllegalAction) as exc:
        print(f"lockdown board: {exc}", file=sys.stderr)
        return 2
    names = [t(lang, "board.seat", number=seat + 1) for seat in range(state.players)]
    data = view(state, None)

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    args.out.write_bytes(board_png(data, state.rules, names, say))
    alt = args.out.with_suffix(".txt")
    alt.write_text(board_description(data, state.rules, names, lang) + "\n", encoding="utf-8")
    print(f"step {step} of {len(moves)}: {args.out} (alt text: {alt})")
    return 0


def start_of(game: str, players: int, step: int | None) -> Start:
    """The game GAME names, at its start, with the moves that play it on."""
    if game.startswith(SEED):
        return _seeded(game.removeprefix(SEED), players, step)
    path = Path(game)
    if path.exists():
        from bot.cli.replay import load
        from lockdown_core.scenario_format import ScenarioError

        try:
            return scenario_start(load(path))
        except ScenarioError as exc:
            raise NoGame(str(exc)) from exc
    if game.isdigit():
        from bot.cli.stored import StoredGameError, read_game

        try:
            return record_start(read_game(int(game)).record)
        except StoredGameError as exc:
            raise NoGame(str(exc)) from exc
    raise NoGame(f"{game!r} is no file, no game id and no seed:S")


def _seeded(seed: str, players: int, step: int | None) -> Start:
    """A new game of `seed`; with `step`, that many actions of seeded random seats (the
    seats play a copy, so the start is returned untouched)."""
    rules = load_ruleset()
    seats = facts.player_range(rules)
    if players not in seats:
        raise NoGame(f"--players must be {seats[0]} to {seats[-1]}")
    number: int | str = int(seed) if seed.isdigit() else seed
    state, events = new_game(rules, players, number)
    ahead, _ = new_game(rules, players, number)
    moves: list[Move] = []
    for action, _ in islice(RandomTable(number).play(ahead), step):
        moves.append((action, RULES_REVISION))
    return state, events, moves
