"""R11.3 measured: a variant changes what its line says, and nothing else.

Same seeds, same AI seats, base rules against one variant: the games that the
variant cannot touch play out identically, and the figures it names move.
"""

from __future__ import annotations

import random

from lockdown_core import GameState, apply, legal_actions, load_ruleset, new_game, pending_seats
from lockdown_core.ai.autoplay import play_game
from lockdown_core.ai.kinds import make_player
from lockdown_core.ruleset import Ruleset

GAMES = 30
PLAYERS = 4


def ai_game(rules: Ruleset, seed: str) -> GameState:
    players = [make_player("random", s, f"{seed}/{s}") for s in range(PLAYERS)]
    return play_game(rules, players, seed).state


def keys_bonus(state: GameState, seat: int) -> int:
    """Keys of the truck in a survivor's hand (R9.2), counted once per card."""
    result = state.result
    assert result is not None
    alive = any(c.seat == seat and c.location for c in state.characters)
    return result["hands"][seat].count("keys_of_the_truck") if alive else 0


def test_spare_keys_doubles_the_keys_points_and_changes_nothing_else() -> None:
    base_rules, spare_rules = load_ruleset(), load_ruleset(["spare_keys"])
    base_keys = spare_keys = 0
    for game in range(GAMES):
        base = ai_game(base_rules, f"keys-{game}")
        spare = ai_game(spare_rules, f"keys-{game}")
        assert base.result is not None
        assert spare.result is not None
        assert spare.result["hands"] == base.result["hands"]
        assert spare.result["box"] == base.result["box"]
        assert [c.location for c in spare.characters] == [c.location for c in base.characters]
        for seat in range(PLAYERS):
            bonus = keys_bonus(base, seat)
            assert spare.result["scores"][seat] - base.result["scores"][seat] == bonus
            base_keys += bonus
            spare_keys += 2 * bonus
    assert base_keys > 0, "some game of the sample ends with keys in a survivor's hand"
    assert spare_keys / GAMES > base_keys / GAMES


def test_full_lot_never_holds_more_than_four_monsters_in_the_parking_lot() -> None:
    for rules, limit in ((load_ruleset(["full_lot"]), 4), (load_ruleset(), None)):
        parking = rules.parking_lot
        most = 0
        for game in range(GAMES):
            rng = random.Random(game)
            state, _ = new_game(rules, PLAYERS, f"lot-{game}")
            while state.result is None:
                seat = rng.choice(pending_seats(state))
                apply(state, rng.choice(legal_actions(state, seat)))
                most = max(most, state.monsters[parking])
        if limit is not None:
            assert most <= limit
            assert rules.location(parking).monster_spots == limit
        else:
            assert most > 4, "the base Parking lot does fill past 4 in this sample"
