"""One sampled world's arrival and attacks (`worlds.py`): R6.1's dice, R6.2's and R6.3's
extra Monsters, R7.2's attack, R7.8's weapons in the hands there, and who loses what.

Seat s's family is Blocker 3s, Leader 3s+1, Weeper 3s+2 (4 players).
"""

from __future__ import annotations

from typing import Any

import pytest

from lockdown_core import view
from lockdown_core.ai.tables import tables_for
from lockdown_core.ai.worlds import CARD_COST, STOPPED, WorldBoard
from tests.core.ai.helpers import position


def board() -> WorldBoard:
    """Seat 0's Weeper alone at the Toy store (4), its Blocker alone at the Restrooms (1),
    its Leader with seat 1's family at the Clothing store (2); the others far away."""
    state = position(
        4,
        {
            "characters": [
                {"blocker": 1, "leader": 2, "weeper": 4},
                {"blocker": 2, "leader": 2, "weeper": 2},
                {"blocker": 5, "leader": 5, "weeper": 5},
                {"blocker": 3, "leader": 3, "weeper": 3},
            ],
            "badge": 0,
            "martyr": 2,
            "start": {"step": "attacks"},
        },
    )
    seen: dict[str, Any] = view(state, 0)
    seen["monsters"] = [0] * 6
    seen["supply"] = 25
    seen["cold_storage"] = []
    return WorldBoard(seen, tables_for(()))


def test_r7_2_a_die_on_its_weeper_alone_costs_it_the_weeper() -> None:
    """Dice 4,6,6,6: one Monster at 4, one more there for the Weepers tied at one each
    (R6.2): 2 against strength 1, and seat 0 alone there loses its Weeper (7). Nobody
    stands in the Parking lot, so its three Monsters cost nothing."""
    world = board()
    loss = world.losses(world.locs, [4, 6, 6, 6], [0, 0, 0, 0], [0, 1])
    assert loss == [pytest.approx(7.0), 0.0]


def test_r7_2_four_monsters_on_its_blocker() -> None:
    """Dice 1,1,1,1: 4 Monsters against its Blocker's strength 2 at the Restrooms; at the
    Toy store the Weeper's extra Monster alone (1) does not beat strength 1."""
    world = board()
    assert world.losses(world.locs, [1, 1, 1, 1], [0, 0, 0, 0], [0]) == [pytest.approx(5.0)]


def test_r7_8_a_weapon_in_its_hand_mostly_stops_the_attack_at_a_price() -> None:
    world = board()
    loss = world.losses(world.locs, [4, 6, 6, 6], [1, 0, 0, 0], [0])
    assert loss == [pytest.approx((1 - STOPPED) * 7.0 + CARD_COST * 1)]


def test_moving_the_weeper_away_is_what_the_world_rewards() -> None:
    """The same world with its Weeper moved to the Supermarket (5), among six strong
    characters: nothing is lost there."""
    world = board()
    moved = list(world.locs)
    moved[world.index[2]] = 5
    assert world.losses(moved, [4, 6, 6, 6], [0, 0, 0, 0], [0]) == [0.0]


def test_r6_3_the_most_crowded_location_draws_one_more_monster() -> None:
    """The Clothing store holds 4 (the most): with 4 dice on it, 4 + 1 (its Weeper,
    R6.2) + 1 (R6.3) = 6 beat strength 5; seat 0's Leader (3) and seat 1 (weight 4
    against 2) share the attack by the inverse of their weights."""
    world = board()
    loss = world.losses(world.locs, [2, 2, 2, 2], [0, 0, 0, 0], [0, 1])
    # Weights there: seat 0 has 2 (Leader), seat 1 has 4 (Blocker 1, Leader 2, Weeper 1).
    share0 = (1 / 2) / (1 / 2 + 1 / 4)
    assert loss[0] == pytest.approx(share0 * 3)
    assert loss[1] == pytest.approx((1 - share0) * 3, rel=1e-9)
