"""`lockdown play`: the same table as on Discord, in a terminal, against AI seats.

It reuses the table, the catalog and the choice lists of the bot, so trying
the game here is trying the real thing. Timers are long: nobody is rushed at
a keyboard, and the AI seats answer after a short pause.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Awaitable, Callable

from bot.render.board_text import board_lines
from bot.table.choices import arrange, label
from bot.table.codes import encode
from bot.table.presenter import Update
from bot.table.scheduler import AsyncioScheduler
from bot.table.seats import Seat
from bot.table.table import AiFactory, Table, TableConfig
from bot.table.timers import MAX_SECONDS, Timers
from bot.texts import t
from bot.texts.narrate import describe
from lockdown_core import Action, legal_actions, load_ruleset, new_game, pending_players
from lockdown_core.ai import make_player

NAME = "play"
HELP = "play a game in this terminal, you at one seat and AI seats at the others"

ReadLine = Callable[[], Awaitable[str]]
Write = Callable[[str], None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        default=4,
        choices=range(3, 7),
        help="number of seats, 3 to 6 (default 4)",
    )
    parser.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the same seed and the same answers play the same game again",
    )
    parser.add_argument("--lang", choices=("en", "fr"), default="en", help="language")
    parser.add_argument(
        "--ai",
        choices=("random", "cautious"),
        default="cautious",
        help="level of the AI seats (default cautious)",
    )


class TerminalPresenter:
    """Prints what the channel would show, and what only your seat may see."""

    def __init__(self, write: Write, lang: str, names: list[str], seat: int) -> None:
        self.write = write
        self.lang = lang
        self.names = names
        self.seat = seat
        self.changed = asyncio.Event()

    def say(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    async def show(self, table: Table, update: Update) -> None:
        # One stream, in order: a card you are handed shows where it was handed over.
        for event in update.seen_by(self.seat):
            if event.public:
                self.write(describe(event, self.lang, self.names))
            else:
                self.write("  » " + describe(event, self.lang, self.names, seat=self.seat))
        for notice in update.notices:
            params = dict(notice.params)
            if "seat" in params:
                params["name"] = self.names[int(str(params["seat"]))]
            self.write(self.say(notice.key, **params))
        self.changed.set()


async def play_game(
    players: int,
    seat: int,
    seed: int,
    lang: str,
    ai: str,
    read_line: ReadLine,
    write: Write,
    ai_delay: float = 0.3,
) -> Table:
    """Run one game to its end with one person at `seat` (0-based)."""
    names = [
        t(lang, "play.you") if i == seat else t(lang, "play.ai_name", number=i + 1)
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
    state, events = new_game(load_ruleset(), players, seed)
    config = TableConfig(timers=long, ai_delay=ai_delay)
    table = Table(0, state, seats, presenter, scheduler, seeded_ai(seed), config)
    write(t(lang, "play.welcome", seat=seat + 1, players=players, seed_hash=state.seed_hash))
    await table.begin(events)
    try:
        while not table.finished:
            if seat not in pending_players(table.state):
                presenter.changed.clear()
                await presenter.changed.wait()
                continue
            await _ask(table, seat, presenter, read_line, write)
    finally:
        await scheduler.close()
    write(t(lang, "play.seed", seed=seed))
    return table


def seeded_ai(seed: int) -> AiFactory:
    """AI seats whose choices follow from the game's seed, so that a game can be played
    again, with the same answers, to the same end. (On Discord each AI seat draws a
    seed of its own: its choices are stored as actions, which is what replays read.)"""
    return lambda kind, seat: make_player(kind, seat, f"{seed}/ai/{seat}")


async def _ask(
    table: Table, seat: int, presenter: TerminalPresenter, read_line: ReadLine, write: Write
) -> None:
    """Show the choices of your seat, read one, and hand it to the table.

    Only a seat the game waits for is asked: a ballot already cast stands
    (on Discord it may still be changed from the panel).
    """
    say = presenter.say
    narrowed = ""
    while True:
        legal = legal_actions(table.state, seat)
        if seat not in pending_players(table.state) or not legal:
            return
        shown = list(arrange(legal, table.state, narrowed).items())
        write(say(f"step.{table.state.step}.help"))
        for number, (key, actions) in enumerate(shown, start=1):
            text = label(actions[0], table.state, presenter.names, say)
            single = len(actions) == 1 and encode(actions[0], table.state.rules) == key
            write(f"  {number}. {text if single else say('panel.more', choice=text)}")
        write(say("play.prompt"))
        answer = (await read_line()).strip().lower()
        if answer in ("b", "board"):
            for line in board_lines(table.view_for(None), presenter.names, say):
                write(line)
            continue
        if answer in ("h", "hand"):
            hand = table.view_for(seat)["hand"]
            write(say("play.hand", cards=", ".join(say(f"card.{c}") for c in hand) or "-"))
            continue
        if answer in ("q", "quit"):
            raise SystemExit(0)
        if not answer.isdigit() or not 1 <= int(answer) <= len(shown):
            write(say("play.bad_choice", count=len(shown)))
            continue
        key, actions = shown[int(answer) - 1]
        if len(actions) > 1 or encode(actions[0], table.state.rules) != key:
            narrowed = key
            continue
        await _submit(table, actions[0], write, say)
        return


async def _submit(table: Table, action: Action, write: Write, say: Callable[..., str]) -> None:
    reply = await table.act(1, table.token, lambda _seat: action)
    if not reply.ok:
        write(say(reply.key, **reply.params))


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.seat <= args.players:
        print(t(args.lang, "play.bad_seat", players=args.players), file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)

    async def read_line() -> str:
        line: str = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if not line:
            raise SystemExit(0)
        return line

    asyncio.run(
        play_game(
            args.players,
            args.seat - 1,
            seed,
            args.lang,
            args.ai,
            read_line,
            lambda text: print(text, flush=True),
        )
    )
    return 0
