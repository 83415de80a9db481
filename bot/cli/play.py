"""`lockdown play`: the same table as on Discord, in a terminal, against AI seats.

It reuses the table, the catalog and the choice lists of the bot, so trying
the game here is trying the real thing. Timers are long: nobody is rushed at
a keyboard, and the AI seats answer after a short pause. With `--teach`, each
step is explained before its choices: what is decided, what each option
does, which rules apply.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.keyboard import Keyboard, ReadLine, terminal_flush
from bot.cli.play_asker import Asker, Options, Quit
from bot.cli.play_log import TerminalPresenter, terminal_writer
from bot.cli.saved_game import SavedGameError, SavedLog, TerminalSetup, read_saved
from bot.table.scheduler import AsyncioScheduler
from bot.table.seats import Seat
from bot.table.table import Table
from bot.table.talk import replay_with_talk
from bot.table.timers import MAX_SECONDS, TableConfig, Timers
from bot.texts import catalog, t
from bot.texts.catalog import FALLBACK, LANGUAGES, and_list
from bot.texts.lang import TERMINAL_LANGUAGES
from lockdown_core import (
    ReplayLog,
    facts,
    load_ruleset,
    new_game,
    pending_seats,
)
from lockdown_core.ai import AI_KINDS, make_player

Write = Callable[[str], None]
# A new game's seats and AI level when the command line does not say.
PLAYERS, AI = 4, "cautious"
# What `--resume` takes from the saved file, and so refuses on the command line.
RESUMED = ("players", "seat", "seed", "ai_seed", "ai", "save")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The keys between choices, read from the catalogs, each language's own.
    keys = ["play.keys.board", "play.keys.hand", "play.keys.rules"]
    keys += ["play.keys.quit", "play.keys.yes"]

    def first_keys(lang: str) -> list[str]:
        return [t(lang, key).split(",")[0] for key in keys]

    board, hand, rules, leave, yes = first_keys(FALLBACK)
    others = "; ".join(
        f"{t(lang, f'lang.{lang}')}: {and_list(FALLBACK, first_keys(lang))}"
        for lang in LANGUAGES
        if lang != FALLBACK
    )
    parser.epilog = (
        "Keys during the game: a choice's key (a location is its own number, a seat too, "
        f"Done is 0); {board} the board, {hand} your hand, {rules} this game's rules, "
        f"{leave} to leave (it asks first: {yes} to confirm). In the other languages: "
        f"{others}."
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=facts.player_range(load_ruleset()),
        help=f"number of seats (default {PLAYERS})",
    )
    parser.add_argument("--seat", type=int, help="your seat, from 1 (default 1)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the same seeds and the same answers play the same game again",
    )
    parser.add_argument(
        "--ai-seed",
        type=int,
        default=None,
        help="the AI seats' own seed, apart from the game's (both are shown at the end)",
    )
    parser.add_argument(
        "--lang",
        choices=TERMINAL_LANGUAGES,
        default=None,
        help="language (default: the terminal's, LANG, else en)",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="keep the game in FILE as it is played, for `lockdown replay FILE --gif` "
        "and `lockdown board FILE`",
    )
    parser.add_argument(
        "--ai",
        choices=AI_KINDS,
        help=f"level of the AI seats: random, cautious or shrewd, the strongest (default {AI})",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="go on with a game saved with --save FILE, from where it was left, saving on in "
        "FILE (its seeds, seats and AI level are the file's)",
    )
    parser.add_argument(
        "--teach",
        action="store_true",
        help="explain every step: what is decided, what each choice does, which rules apply",
    )


async def play_game(
    players: int,
    seat: int,
    seed: int | str,
    lang: str,
    ai: str,
    read_line: ReadLine,
    write: Write,
    ai_delay: float = 0.3,
    options: Options | None = None,
    past: ReplayLog | None = None,
) -> Table:
    """Run one game to its end with one person at `seat` (0-based): a new one, or the
    game `past` recorded so far (`--resume`), which goes on from where it was left."""
    options = options or Options()
    names = [
        t(lang, "play.you", number=i + 1) if i == seat else t(lang, "ai.name", number=i + 1)
        for i in range(players)
    ]
    seats = [
        Seat(i, names[i], user_id=1 if i == seat else None, ai_kind=None if i == seat else ai)
        for i in range(players)
    ]
    presenter = TerminalPresenter(write, lang, names, seat)
    scheduler = AsyncioScheduler()
    long = Timers(
        discussion=MAX_SECONDS, designation=MAX_SECONDS, destination=MAX_SECONDS, other=MAX_SECONDS
    )
    if past is None:
        log = ReplayLog(players=players, seed=seed)
        state, events = new_game(load_ruleset(), players, seed)
    else:
        log = past
        state, events = replay_with_talk(past)
    config = TableConfig(timers=long, ai_delay=ai_delay)
    store = None
    if options.save is not None:
        store = SavedLog(options.save, log, TerminalSetup(seat, ai, options.ai_seed))
    table = Table(
        0, state, seats, presenter, scheduler, make_player, config, store, options.ai_seed
    )
    welcome = {"name": names[seat], "seat": seat + 1, "players": players}
    write(t(lang, "play.welcome", seed=seed, ai_seed=options.ai_seed, **welcome))
    if past is None:
        await table.begin(events)
    else:
        # The AI seats see the game so far again, as they saw it: they go on as they would have.
        table.recall(events)
        write(t(lang, "play.resumed", actions=catalog().count(lang, "action", len(past.actions))))
        await table.begin([])
    keyboard = Keyboard(read_line, options.flush)
    asker = Asker(table, seat, presenter, keyboard, options)
    try:
        while not table.finished:
            if seat not in pending_seats(table.state):
                presenter.changed.clear()
                await presenter.changed.wait()
                continue
            await asker.ask()
    except Quit:
        write(t(lang, "play.quit"))
    finally:
        keyboard.close()
        await scheduler.close()
    again = {"seed": seed, "ai_seed": options.ai_seed, "ai": ai, "players": players}
    again["seat"] = seat + 1
    write(t(lang, "play.again", **again))
    if options.save is not None:
        write(t(lang, "play.saved", file=options.save))
    elif not table.finished:
        write(t(lang, "play.unsaved"))
    return table


def run(args: argparse.Namespace) -> int:
    from bot.cli.simulate_text import environment_lang

    lang = args.lang or environment_lang()
    past: ReplayLog | None = None
    if args.resume is not None:
        # A resumed game is the file's: its seeds, seats and AI level, saved on in it.
        given = [name for name in RESUMED if getattr(args, name) is not None]
        if given:
            named = and_list(lang, ["--" + name.replace("_", "-") for name in given])
            print(t(lang, "play.resume.alone", options=named), file=sys.stderr)
            return 2
        try:
            past, setup = read_saved(args.resume)
        except SavedGameError as exc:
            print(t(lang, exc.key, **exc.params), file=sys.stderr)
            return 2
        players, seat, seed, ai, ai_seed = (
            past.players,
            setup.seat,
            past.seed,
            setup.ai,
            setup.ai_seed,
        )
    else:
        players = args.players or PLAYERS
        seat = (args.seat if args.seat is not None else 1) - 1
        if not 0 <= seat < players:
            print(t(lang, "play.bad_seat", players=players), file=sys.stderr)
            return 2
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        # Drawn apart from the game's seed, as a table draws its AI seats' seed.
        ai_seed = args.ai_seed if args.ai_seed is not None else secrets.randbits(32)
        ai = args.ai or AI

    async def read_line() -> str:
        line: str = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if not line:
            raise EOFError
        return line

    save = args.resume or args.save
    options = Options(teach=args.teach, flush=terminal_flush(), save=save, ai_seed=ai_seed)
    asyncio.run(
        play_game(
            players, seat, seed, lang, ai, read_line, terminal_writer(), options=options, past=past
        )
    )
    return 0
