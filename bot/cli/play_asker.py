"""The person's seat at the terminal table: the menus of the steps the game waits on them
for, the keys between them (board, hand, rules, quit), and what the person chose handed
to the table. `lockdown play` (bot/cli/play.py) runs the game around it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.cli.keyboard import Keyboard
from bot.cli.play_log import TerminalPresenter
from bot.cli.play_menu import (
    DONE_KEY,
    entry_text,
    menu_choices,
    menu_of,
    menu_signature,
    offered_cards,
    single,
)
from bot.render.board_text import board_lines
from bot.table.table import Table
from bot.texts import t
from bot.texts.panel_text import family_lines, hand_lines, now_lines, private_lines
from bot.texts.rules_text import rules_sections, unseen_dice
from bot.texts.teach import teach_lines
from lockdown_core import Action, GameState, Step, legal_actions, pending_seats


@dataclass(frozen=True)
class Options:
    """How the person plays: whether each step is explained, and, at a terminal, how
    its typed-ahead input is dropped before each menu (None: scripted input, all kept)."""

    teach: bool = False
    flush: Callable[[], None] | None = None
    save: Path | None = None
    # The AI seats' own seed (`run` draws one when none is given).
    ai_seed: int = 0


class Quit(Exception):
    """The person chose to leave the game (q, or the end of the input, confirmed)."""


def plain(line: str) -> str:
    """A panel line for a terminal: Discord's bold marks dropped."""
    return line.replace("**", "")


class Asker:
    """Your seat's menus: shows the choices, reads one, hands it to the table."""

    def __init__(
        self,
        table: Table,
        seat: int,
        presenter: TerminalPresenter,
        keyboard: Keyboard,
        options: Options,
    ) -> None:
        self.table = table
        self.seat = seat
        self.presenter = presenter
        self.keyboard = keyboard
        self.teach = options.teach
        # Only a person at a terminal can be asked again after the end of the input.
        self.interactive = options.flush is not None
        self.write = presenter.write
        self.say = presenter.say
        # The menu last explained (--teach): a lesson is shown again only when it changed.
        self.taught: tuple[object, ...] | None = None

    async def ask(self) -> None:
        """One answer from the person, for a step the game waits on them for.

        Only a seat the game waits for is asked: a ballot already cast stands
        (on Discord it may still be changed from the panel). The menu is drawn
        again whenever the game changes it while you think (an AI seat played a
        card, the step ended); what was typed before a menu appeared is dropped,
        and an answer is only ever read against the menu on screen: the table
        refuses it if the step has changed since.
        """
        table, seat, say, write = self.table, self.seat, self.say, self.write
        narrowed = ""
        while True:
            state = table.state
            legal = legal_actions(state, seat)
            if seat not in pending_seats(state) or not legal:
                return
            token, signature = table.token, menu_signature(state, seat)
            menu = menu_of(legal, state, narrowed)
            self._draw(menu, narrowed)
            self.keyboard.discard()

            def still(token: str = token, signature: tuple[object, ...] = signature) -> bool:
                return table.token == token and menu_signature(table.state, seat) == signature

            try:
                answer = await self.keyboard.answer(still, self.presenter.changed)
            except EOFError:
                await self._leave(ended=True)
                continue
            if answer is None:
                write(say("play.moved_on"))
                narrowed = ""
                continue
            answer = answer.strip().lower()
            if answer in self.say("play.keys.quit").split(","):
                await self._leave(ended=False)
                continue
            if self._command(answer):
                continue
            if answer in (DONE_KEY, "back") and narrowed:
                narrowed = ""
                continue
            chosen = next((entry for entry in menu if entry[0] == answer), None)
            if chosen is None:
                write(say("play.bad_choice", choices=menu_choices(self.presenter.lang, menu)))
                continue
            _, code, actions = chosen
            if not single(actions, code, state):
                narrowed = code
                continue
            names = self.presenter.names
            text = entry_text(code, actions, state, names, self.presenter.lang, narrowed)
            if await self._submit(token, actions[0], text):
                return
            narrowed = ""

    def _draw(self, menu: list[tuple[str, str, list[Action]]], narrowed: str) -> None:
        """The step's help (or its lesson), your secret about the dice, the choices."""
        state, lang, names = self.table.state, self.presenter.lang, self.presenter.names
        signature = (self.table.token, menu_signature(state, self.seat))
        teach = self.teach and signature != self.taught
        if teach:
            self.taught = signature
        for line in above_menu(lang, state, self.seat, names, teach):
            self.write(line)
        unseen = unseen_dice(lang, state, self.seat)
        if unseen is not None:
            self.write("  » " + unseen)
        for key, code, actions in menu:
            self.write(f"  {key}. {entry_text(code, actions, state, names, lang, narrowed)}")
        for line in hand_lines(lang, offered_cards(menu, state), state):
            self.write("     " + plain(line))
        if narrowed:
            self.write(self.say("play.back"))
        self.write(self.say("play.prompt"))

    def _command(self, answer: str) -> bool:
        """b, h, r, q: the board, your hand, this game's rules, quit. True if it was one."""
        if answer in self.say("play.keys.board").split(","):
            names = self.presenter.names
            for line in board_lines(self.table.view_for(None), names, self.presenter.lang):
                self.write(line)
        elif answer in self.say("play.keys.hand").split(","):
            self._show_hand()
        elif answer in self.say("play.keys.rules").split(","):
            state = self.table.state
            for title, text in rules_sections(self.presenter.lang, state.rules, state):
                self.write(plain(title))
                for line in text.splitlines():
                    self.write("  " + plain(line))
        else:
            return False
        return True

    def _show_hand(self) -> None:
        """The panel of Discord's My hand, as terminal lines: cards, secrets, your family."""
        lang, state, seat, write = self.presenter.lang, self.table.state, self.seat, self.write
        data = self.table.view_for(seat)
        write(self.say("panel.hand", count=len(data["hand"])))
        for line in hand_lines(lang, data["hand"], state) or [self.say("panel.empty_hand")]:
            write("  " + plain(line))
        for line in private_lines(lang, state, data, seat, self.presenter.names):
            write("  » " + line)
        write(self.say("panel.kinds"))
        for line in family_lines(lang, state):
            write("  " + plain(line))

    async def _leave(self, ended: bool) -> None:
        """q, or the end of the input: asked once more at a terminal, then Quit. Input that
        ended with no terminal behind it (a script ran out) leaves at once."""
        if ended and not self.interactive:
            raise Quit
        self.write(self.say("play.quit_confirm"))
        try:
            line = await self.keyboard.answer(lambda: True, asyncio.Event())
        except EOFError:
            raise Quit from None
        if line is not None and line.strip().lower() in self.say("play.keys.yes").split(","):
            raise Quit

    async def _submit(self, token: str, action: Action, text: str) -> bool:
        """Play `action` for the step the menu was drawn for, saying what was recorded before
        what it caused; False if the table refused it."""

        def build(_seat: int) -> Action:
            # Under the table's lock: the next lines shown are this action's.
            self.presenter.receipt = self.say("receipt.recorded", choice=text)
            return action

        reply = await self.table.act(1, token, build)
        if not reply.ok:
            self.presenter.receipt = None
            self.write(self.say(reply.key, **reply.params))
            return False
        if self.presenter.receipt is not None:  # nothing was shown since: say it now
            self.write(self.presenter.receipt)
            self.presenter.receipt = None
        return True


def above_menu(
    lang: str, state: GameState, seat: int, names: Sequence[str], teach: bool
) -> list[str]:
    """What is said above a menu: the step's lesson (`teach`), then its help, in words
    true at this table. Discord's say what a terminal does not have: a thread to talk
    in, an idle seat (a menu is drawn only when the game waits on the person), a
    secret destination that can be changed until the reveal (here it is final)."""
    lines = []
    if teach:
        idle = {t(lang, "teach.watch"), t(lang, "teach.discussion.idle")}
        for line in teach_lines(lang, state, seat, names):
            lines.append(t(lang, "play.teach.menu") if line in idle else plain(line))
    told = now_lines(lang, state, names)
    if state.step == Step.DESTINATIONS:
        told[0] = t(lang, "play.help.destinations")
    return lines + told
