""" "No cards this turn": a seat's private choice that the bot says Done for it in the
card windows left this turn (the Walkie-talkie step, the Energy drink after a move).

A card window waits on every seat holding any card, so that how long it lasts
tells nobody who holds which; most have nothing to play there and let the
timer run. Everyone a window asks is offered this choice, whatever their cards,
and the Done it makes is an ordinary Done: the window ends when everyone asked
has answered, as it always did, and its public side is the same.

The choice is the seat's (`Seat.no_cards_turn`), stored with the seat when the
action it goes with is (the Done it makes at once): a restarted bot still answers
the rest of that turn's windows for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.table.presenter import Update
from bot.table.table import Presenter, Table
from lockdown_core import Done, Step, legal_actions

# The windows the choice covers: the ones where a card is the only thing to do.
CARD_WINDOWS = (Step.WALKIE_WINDOW, Step.AFTER_MOVE)
# The code of the choice on a panel's button (`ids.ACT`); no action has this letter.
NO_CARDS = "Z"


class CardPasses:
    """Answers the card windows of the seats that pass on cards (`Seat.no_cards_turn`)."""

    def __init__(self) -> None:
        # The step each game's windows were last answered in: each is answered once.
        self._answered: dict[int, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def hold(self, table: Table, seat: int, turn: int) -> None:
        """The seat passes on cards for `turn`; stored with the next action the table
        records (the Done the choice makes)."""
        table.seats[seat].no_cards_turn = turn

    def passing(self, table: Table, seat: int, turn: int) -> bool:
        return table.seats[seat].no_cards_turn == turn

    def offered(self, table: Table, seat: int) -> bool:
        """The choice is on the seat's panel: asked in a card window, not passing yet."""
        state = table.state
        return (
            state.step in CARD_WINDOWS
            and not self.passing(table, seat, state.turn)
            and Done(seat) in legal_actions(state, seat)
        )

    def answer(self, table: Table, update: Update) -> None:
        """Done for each person asked by this update's card window who passes this turn;
        played after the update is shown (the table's lock is held while it is)."""
        state = table.state
        token = table.token
        if state.step not in CARD_WINDOWS or self._answered.get(table.game_id) == token:
            return
        self._answered[table.game_id] = token
        for index in update.prompts:
            user_id = table.seats[index].user_id
            if user_id is None or not self.passing(table, index, state.turn):
                continue
            self._spawn(table.act(user_id, token, Done))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class PassingPresenter:
    """A table's presenter that, after showing each update, answers for the seats that
    pass on cards this turn."""

    def __init__(self, inner: Presenter, passes: CardPasses) -> None:
        self.inner = inner
        self.passes = passes

    async def show(self, table: Table, update: Update) -> None:
        await self.inner.show(table, update)
        self.passes.answer(table, update)
