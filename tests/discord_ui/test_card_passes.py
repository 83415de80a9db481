""" "No cards this turn": the bot says Done for the seat in that turn's card windows."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from typing import Any

from bot.discord_ui.game.passes import CARD_WINDOWS, CardPasses, PassingPresenter
from bot.table.presenter import Update
from bot.table.seats import Seat
from bot.table.table import Table, TableConfig
from lockdown_core import Done, legal_actions, load_ruleset, new_game, pending_seats
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


class CountedPasses(CardPasses):
    """Counts the Done it says for a seat, by step."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        self.said.append(self._step)
        super()._spawn(work)

    def answer(self, table: Table, update: Update) -> None:
        self._step = table.token
        super().answer(table, update)


async def test_a_seat_passing_on_cards_is_answered_in_every_window_without_a_timeout() -> None:
    state, events = new_game(load_ruleset(), 4, 3)
    seats = [Seat(0, "Ana", user_id=100)] + [
        Seat(i, f"AI {i}", ai_kind="random") for i in (1, 2, 3)
    ]
    scheduler = ManualScheduler()
    passes = CountedPasses()
    shown = RecordingPresenter()
    table = Table(
        1,
        state,
        seats,
        PassingPresenter(shown, passes),
        scheduler,
        ai_factory=lambda kind, index, _seed: RandomSeat(index),
        config=TableConfig(ai_delay=1.0),
    )
    await table.begin(events)
    rng = random.Random(3)
    clicked: set[str] = set()
    for _ in range(3000):
        if table.finished:
            break
        for _ in range(5):
            await asyncio.sleep(0)  # a pass's Done on its way, if any
        state = table.state
        if 0 in pending_seats(state):
            legal = legal_actions(state, 0)
            if state.step in CARD_WINDOWS:
                # Asked in a window only while not passing yet: then the button's click.
                assert not passes.passing(table, 0, state.turn), "a passing seat left waiting"
                passes.hold(table, 0, state.turn)
                clicked.add(table.token)
                choice = Done(0)
            else:
                choice = rng.choice([a for a in legal if not isinstance(a, Done)] or legal)
            assert (await table.act(100, table.token, lambda seat, a=choice: a)).ok
            continue
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now() + 0.01)
    assert table.finished
    assert clicked, "no card window asked the seat: the test saw nothing"
    assert set(passes.said) - clicked, "no later window of a passing turn was answered"
    # Every window the seat passed on ended without waiting for its timer.
    assert "timeout" not in [e.kind for u in shown.updates for e in u.public]
