""" "No cards this turn" is offered, and held, in card windows only: a click forged in
another step changes nothing and says why."""

from __future__ import annotations

import pytest

from bot.discord_ui.game import passes
from lockdown_core import IllegalAction, Step, pending_seats
from tests.table.test_card_passes import table_of, walkie_window
from tests.table.test_table import humans, make_table


async def test_the_pass_is_held_in_a_card_window_for_the_turn_under_way() -> None:
    state, seats = walkie_window()
    table = table_of(state, seats)
    await table.begin([])
    assert passes.offered(table, 0)
    passes.hold(table, 0)
    assert seats[0].no_cards_turn == table.state.turn
    assert not passes.offered(table, 0), "offered until chosen"
    assert not passes.offered(table, 3), "the AI seat without cards is not asked"


async def test_a_pass_forged_outside_a_card_window_is_refused() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin([])
    assert table.state.step not in (Step.WALKIE_WINDOW, Step.AFTER_MOVE)
    seat = pending_seats(table.state)[0]
    with pytest.raises(IllegalAction) as refused:
        passes.hold(table, seat)
    assert refused.value.key == "wrong_step"
    assert table.seats[seat].no_cards_turn is None
