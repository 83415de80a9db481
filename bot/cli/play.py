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
from bot.table.choices import arrange, group_label, label
from bot.table.codes import encode
from bot.table.presenter import Update
from bot.table.scheduler import AsyncioScheduler
from bot.table.seats import Seat
from bot.table.table import AiFactory, Table, TableConfig
from bot.table.timers import MAX_SECONDS, Timers
from bot.texts import t
from bot.texts.narrate import describe
from bot.texts.panel_text import family_lines, hand_lines, now_lines, private_lines
from bot.texts.rules_text import unseen_dice
from lockdown_core import (
    Action,
    GameState,
    legal_actions,
    load_ruleset,
    new_game,
    pending_players,
)
from lockdown_core.ai import make_player

ReadLine = Callable[[], Awaitable[str]]
Write = Callable[[str], None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        default=4,
        choices=range(load_ruleset().min_players, load_ruleset().max_players + 1),
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
    keyboard = Keyboard(read_line)
    try:
        while not table.finished:
            if seat not in pending_players(table.state):
                presenter.changed.clear()
                await presenter.changed.wait()
                continue
            await _ask(table, seat, presenter, keyboard, write)
    finally:
        keyboard.close()
        await scheduler.close()
    write(t(lang, "play.seed", seed=seed))
    return table


def seeded_ai(seed: int) -> AiFactory:
    """AI seats whose choices follow from the game's seed, so that a game can be played
    again, with the same answers, to the same end. (On Discord each AI seat draws a
    seed of its own: its choices are stored as actions, which is what replays read.)"""
    return lambda kind, seat: make_player(kind, seat, f"{seed}/ai/{seat}")


class Keyboard:
    """The person's next line, read in the background so the menu can be redrawn meanwhile.

    One read is pending at a time; a line typed while a new menu is being
    drawn answers that new menu, which is the one on screen.
    """

    def __init__(self, read_line: ReadLine) -> None:
        self.read_line = read_line
        self.pending: asyncio.Task[str] | None = None

    async def answer(self, table: Table, token: str, changed: asyncio.Event) -> str | None:
        """The next line typed, or None as soon as the game has left the step shown."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.read_line())
        while True:
            changed.clear()
            if table.token != token:
                return None
            moved = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait({self.pending, moved}, return_when=asyncio.FIRST_COMPLETED)
            moved.cancel()
            if self.pending in done:
                line, self.pending = self.pending.result(), None
                return line

    def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()


Menu = list[tuple[str, str, list[Action]]]


def menu_of(legal: list[Action], state: GameState, narrowed: str) -> Menu:
    """`(number, code, actions)` per choice; a choice of locations is numbered by the
    locations themselves, so "4" is always the Toy store whatever else is open."""
    shown = list(arrange(legal, state, narrowed).items())
    places = [getattr(actions[0], "location", None) for _, actions in shown]
    by_place = all(len(a) == 1 for _, a in shown) and all(isinstance(p, int) for p in places)
    if by_place and len(set(places)) == len(places):
        return [(str(p), code, a) for p, (code, a) in zip(places, shown, strict=True)]
    return [(str(n), code, a) for n, (code, a) in enumerate(shown, start=1)]


def plain(line: str) -> str:
    """A panel line for a terminal: Discord's bold marks dropped."""
    return line.replace("**", "")


async def _ask(
    table: Table, seat: int, presenter: TerminalPresenter, keyboard: Keyboard, write: Write
) -> None:
    """Show the choices of your seat, read one, and hand it to the table.

    Only a seat the game waits for is asked: a ballot already cast stands
    (on Discord it may still be changed from the panel). The menu is drawn
    again whenever the game moves on while you think (an AI seat played a
    card, the step ended), and an answer is only ever read against the menu
    on screen: the table refuses it if the step has changed since.
    """
    say = presenter.say
    names = presenter.names
    narrowed = ""
    while True:
        state = table.state
        legal = legal_actions(state, seat)
        if seat not in pending_players(state) or not legal:
            return
        token = table.token
        menu = menu_of(legal, state, narrowed)
        for line in now_lines(presenter.lang, state, names):
            write(line)
        unseen = unseen_dice(presenter.lang, state, seat)
        if unseen is not None:
            write("  » " + unseen)
        for number, code, actions in menu:
            single = len(actions) == 1 and encode(actions[0], state.rules) == code
            text = (
                label(actions[0], state, names, say, narrowed)
                if single
                else group_label(code, actions, state, names, say)
            )
            write(f"  {number}. {text}")
        if narrowed:
            write(say("play.back"))
        write(say("play.prompt"))
        answer = await keyboard.answer(table, token, presenter.changed)
        if answer is None:
            write(say("play.moved_on"))
            narrowed = ""
            continue
        answer = answer.strip().lower()
        if answer in ("b", "board"):
            for line in board_lines(table.view_for(None), names, say):
                write(line)
            continue
        if answer in ("h", "hand"):
            _show_hand(table, seat, presenter, write)
            continue
        if answer in ("q", "quit"):
            raise SystemExit(0)
        if answer in ("0", "back") and narrowed:
            narrowed = ""
            continue
        chosen = next((entry for entry in menu if entry[0] == answer), None)
        if chosen is None:
            write(say("play.bad_choice", choices=", ".join(n for n, _, _ in menu)))
            continue
        _, code, actions = chosen
        if len(actions) > 1 or encode(actions[0], state.rules) != code:
            narrowed = code
            continue
        if await _submit(table, token, actions[0], write, say):
            return
        narrowed = ""


def _show_hand(table: Table, seat: int, presenter: TerminalPresenter, write: Write) -> None:
    """The panel of Discord's My hand, as terminal lines: cards, secrets, your family."""
    lang, state = presenter.lang, table.state
    data = table.view_for(seat)
    write(presenter.say("panel.hand", count=len(data["hand"])))
    for line in hand_lines(lang, data["hand"], state) or [presenter.say("panel.empty_hand")]:
        write("  " + plain(line))
    for line in private_lines(lang, state, data, seat, presenter.names):
        write("  » " + line)
    write(presenter.say("panel.kinds"))
    for line in family_lines(lang, state):
        write("  " + plain(line))


async def _submit(
    table: Table, token: str, action: Action, write: Write, say: Callable[..., str]
) -> bool:
    """Play `action` for the step the menu was drawn for; False if the table refused it."""
    reply = await table.act(1, token, lambda _seat: action)
    if not reply.ok:
        write(say(reply.key, **reply.params))
    return reply.ok


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
