"""What the shrewd AI believes and predicts: card counting from what its seat saw,
worlds that agree with the public hand sizes, grudges and help from revealed ballots,
and the chance of being devoured for each ballot it could cast (R2.4)."""

from __future__ import annotations

import random
from collections import Counter

from lockdown_core import Event, load_ruleset, new_game, view
from lockdown_core.ai.belief import Belief, removal, sample_dice
from lockdown_core.ai.votes import danger


def opening(seat: int = 0) -> dict:
    state, _ = new_game(load_ruleset(("hoarders",)), 4, "belief")
    return view(state, seat)


def test_unknown_cards_are_the_deck_less_what_it_saw_leave_it() -> None:
    """R12.2: its hand, the cards played, those it boxed and the one it gave are not in
    anybody else's unknown hand; everything else of the deck may be."""
    seen = opening()
    belief = Belief(0, 0.5)
    deck = Counter(load_ruleset(("hoarders",)).deck_list())
    assert Counter(belief.unknown_cards(seen)) == deck - Counter(seen["hand"])
    belief.observe(
        [
            Event("truck_drawn", {"cards": ["gun", "chainsaw", "tin_can"]}, to=(0,)),
            Event("card_kept", {"card": "chainsaw"}, to=(0,)),
            Event("card_gift", {"card": "gun", "from": 0, "to": 2}, to=(0, 2)),
            Event("truck_done", {"player": 0, "boxed": 1, "deck": 10}),
        ]
    )
    seen = {**seen, "hand": [*seen["hand"], "chainsaw"], "played": ["energy_drink"]}
    expected = deck - Counter(seen["hand"]) - Counter(["tin_can", "gun", "energy_drink"])
    assert Counter(belief.unknown_cards(seen)) == expected
    # Once seat 2 plays a Gun, the one it got is no longer known to be in its hand.
    belief.observe([Event("card_played", {"player": 2, "card": "gun"})])
    seen["played"] = ["energy_drink", "gun"]
    assert Counter(belief.unknown_cards(seen)) == expected


def test_sampled_hands_keep_its_own_the_public_sizes_and_what_it_gave() -> None:
    seen = opening()
    belief = Belief(0, 0.5)
    belief.observe([Event("card_gift", {"card": "molotov_cocktail", "from": 0, "to": 3})])
    pool = belief.unknown_cards(seen)
    for draw in range(20):
        hands = belief.sample_hands(seen, pool, random.Random(draw))
        assert [len(h) for h in hands] == seen["hand_sizes"]
        assert hands[0] == seen["hand"]
        assert "molotov_cocktail" in hands[3]
        everyone = Counter(card for h in hands[1:] for card in h)
        assert not everyone - Counter(pool) - Counter(["molotov_cocktail"])


def test_dice_it_saw_are_kept_and_others_rolled() -> None:
    rnd = random.Random(1)
    assert sample_dice({"dice": [2, 5], "dice_count": 2}, rnd) == [2, 5]
    rolled = [sample_dice({"dice": None, "dice_count": 4}, rnd) for _ in range(50)]
    assert all(len(d) == 4 and set(d) <= set(range(1, 7)) for d in rolled)
    assert len({tuple(d) for d in rolled}) > 1


def test_removal_counts_the_monsters_a_hand_can_take_out() -> None:
    """R7.8: a Baseball bat 1, a Chainsaw 2, a Tin can 1; a Molotov all of them."""
    assert removal(["baseball_bat", "chainsaw", "gun"]) == 3
    assert removal(["tin_can"]) == 1
    assert removal(["molotov_cocktail"]) >= 6
    assert removal(["rotten_meat", "keys_of_the_truck"]) == 0


def test_grudges_and_help_come_from_revealed_ballots_and_fade_each_turn() -> None:
    belief = Belief(0, 0.5)
    ballots = {"0": 1, "1": 0, "2": 1, "3": 1}
    totals = {"0": 1, "1": 3}
    belief.observe(
        [
            Event(
                "designations_revealed",
                {"vote": "attack", "location": 2, "designations": ballots, "totals": totals},
            )
        ]
    )
    assert belief.grudge(0, 1) == 1.0, "seat 1 voted against seat 0"
    assert belief.grudge(1, 2) == 1.0
    assert belief.grudge(1, 0) == 1.0
    assert belief.help[2] == 1, "seat 2 sent the Monsters elsewhere while 0 was a candidate"
    assert belief.help[1] == 0
    belief.observe([Event("turn_started", {"turn": 2})])
    assert belief.grudge(0, 1) == 0.5


def test_danger_of_each_ballot() -> None:
    """R2.4: alone on top it is devoured; in a tie the Martyr chooses (never against
    itself when it holds the token); below the top, safe."""
    weight = {0: 1, 1: 2, 2: 1}
    ballots = {1: 0, 2: 1}
    # Seat 1 (2) sends them to 0, seat 2 (1) to seat 1: 0 has 2, 1 has 1 before its ballot.
    assert danger(0, 1, ballots, weight, martyr=2) == 0.5
    assert danger(0, 2, ballots, weight, martyr=2) == 1.0
    assert danger(0, 1, ballots, weight, martyr=0) == 0.0
    assert danger(0, 1, {1: 2, 2: 1}, weight, martyr=2) == 0.0
