""" "No cards this turn" outlives the process: it is stored with the seat, along with
the action it goes with, and a restarted table reads it back."""

from __future__ import annotations

from bot.storage.repository import GameRepository
from bot.table.store import AcceptedAction
from bot.table.stored_actions import StoredActions
from bot.table.stored_form import stored_seats
from lockdown_core import load_ruleset, new_game
from tests.storage.conftest import running_game


async def test_a_seats_card_pass_is_stored_with_the_next_action(games: GameRepository) -> None:
    game_id = await running_game(games)
    seats = stored_seats((await games.get_game(game_id)).seats)
    assert [s.no_cards_turn for s in seats] == [None] * 4
    actions = StoredActions(games)
    actions.remember(game_id, seats)
    state, _ = new_game(load_ruleset(), 4, 1)
    state.version = 1
    seats[1].no_cards_turn = 3  # the person clicked "No cards this turn" in turn 3
    await actions.record(
        AcceptedAction(game_id, 0, 1, {"type": "Done", "player": 1}, state, None, seats)
    )
    restarted = stored_seats((await games.get_game(game_id)).seats)
    assert [s.no_cards_turn for s in restarted] == [None, 3, None, None]
