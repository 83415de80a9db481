"""The `cautious` level: what it does in positions where the sensible answer is clear,
that it plays legal games in every variant, and that it decides on its view alone.

Positions are 4-player games (families of Blocker, Leader, Weeper: seat s has
ids 3s, 3s+1, 3s+2) entered through the engine's own flow (lockdown_core.scenario).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from lockdown_core import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    Event,
    GameState,
    PlayCard,
    SearchTruck,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.ai import CautiousPlayer, make_player, play_game
from lockdown_core.ai.cautious import Board, rules_for
from tests.core.ai.helpers import cautious_choice, hidden_twin, position

# Seats 2 and 3 crowd the Supermarket (5): strong, out of the way, no hands.
BYSTANDERS = [
    {"blocker": 5, "leader": 5, "weeper": 5},
    {"blocker": 5, "leader": 5, "weeper": 5},
]


def attack_at_4(seat1: dict[str, Any], monsters: int, hands: list[list[str]]) -> GameState:
    """Seat 0's Weeper alone of its family at the Toy store (4) with seat 1's characters."""
    return position(
        4,
        {
            "characters": [{"blocker": 6, "leader": 6, "weeper": 4}, seat1, *BYSTANDERS],
            "monsters": {"4": monsters},
            "hands": hands,
            "badge": 0,
            "martyr": 2,
            "start": {"step": "attacks"},
        },
    )


def in_discussion_at_4(state: GameState) -> None:
    assert state.step == Step.DISCUSSION
    assert state.vote is not None
    assert state.vote.location == 4


# Cards ------------------------------------------------------------------------------


def test_no_gun_when_one_more_vote_cannot_change_who_is_devoured() -> None:
    """Seat 1 weighs 3 (Blocker 1 + Leader 2) against seat 0's 1: with a Gun seat 0 still
    gets 3 votes to seat 1's 2, so the Gun would be spent for nothing."""
    state = attack_at_4({"blocker": 4, "leader": 4, "weeper": 1}, 5, [["gun"], [], [], []])
    in_discussion_at_4(state)
    assert PlayCard(0, "gun") in legal_actions(state, 0)
    assert cautious_choice(state, 0) == Done(0)


def test_a_gun_when_it_turns_a_tie_into_safety() -> None:
    """1 vote against 1 is a tie the Martyr breaks; with a Gun seat 0 gives 2 to seat 1."""
    state = attack_at_4({"blocker": 4, "leader": 1, "weeper": 1}, 5, [["gun"], [], [], []])
    in_discussion_at_4(state)
    assert cautious_choice(state, 0) == PlayCard(0, "gun")


def test_a_weapon_that_stops_the_attack_the_cheapest_one() -> None:
    """5 Monsters against strength 4 (Weeper 1, Blocker 2, Leader 1): one Monster less
    ends the attack, so a Baseball bat does it and the Chainsaw is kept."""
    state = attack_at_4(
        {"blocker": 4, "leader": 4, "weeper": 1}, 5, [["chainsaw", "baseball_bat"], [], [], []]
    )
    in_discussion_at_4(state)
    assert cautious_choice(state, 0) == PlayCard(0, "baseball_bat")


def test_no_weapon_that_cannot_stop_the_attack() -> None:
    """6 Monsters against 4: one Baseball bat leaves 5 > 4, and every Monster leaves after
    the devouring anyway, so the bat would change nothing."""
    state = attack_at_4({"blocker": 4, "leader": 4, "weeper": 1}, 6, [["baseball_bat"], [], [], []])
    in_discussion_at_4(state)
    assert cautious_choice(state, 0) == Done(0)


def test_two_weapons_together_when_both_are_needed() -> None:
    state = attack_at_4(
        {"blocker": 4, "leader": 4, "weeper": 1}, 6, [["baseball_bat", "tin_can"], [], [], []]
    )
    in_discussion_at_4(state)
    first = cautious_choice(state, 0)
    assert isinstance(first, PlayCard)
    assert first.card in ("baseball_bat", "tin_can")
    apply(state, first)
    second = cautious_choice(state, 0)
    assert isinstance(second, PlayCard)
    assert {first.card, second.card} == {"baseball_bat", "tin_can"}
    apply(state, second)
    assert state.vote is None or state.vote.location != 4, "the attack at 4 was averted"


def test_rotten_meat_takes_its_only_exposed_character_out_of_the_vote() -> None:
    state = attack_at_4({"blocker": 4, "leader": 4, "weeper": 1}, 5, [["rotten_meat"], [], [], []])
    in_discussion_at_4(state)
    assert cautious_choice(state, 0) == PlayCard(0, "rotten_meat", character=2)


def test_no_rotten_meat_once_the_location_is_no_longer_under_attack() -> None:
    """Seat 1's Chainsaw leaves 3 Monsters against strength 4: the attack is over, so
    hiding a character would waste the card."""
    state = attack_at_4(
        {"blocker": 4, "leader": 4, "weeper": 1}, 5, [["rotten_meat"], ["chainsaw"], [], []]
    )
    in_discussion_at_4(state)
    apply(state, PlayCard(1, "chainsaw"))
    assert state.step == Step.DISCUSSION
    assert PlayCard(0, "rotten_meat", character=2) in legal_actions(state, 0)
    assert cautious_choice(state, 0) == Done(0)


def test_no_gun_in_a_truck_vote() -> None:
    """Guns are kept for attacks, where they protect a character."""
    state = position(
        4,
        {
            "characters": [
                {"blocker": 6, "leader": 1, "weeper": 1},
                {"blocker": 6, "leader": 2, "weeper": 2},
                *BYSTANDERS,
            ],
            "hands": [["gun"], ["gun"], [], []],
            "badge": 0,
            "start": {"step": "turn"},
        },
    )
    assert state.step == Step.DISCUSSION
    assert state.vote is not None
    assert state.vote.kind == "truck"
    assert cautious_choice(state, 0) == Done(0)


# Votes and the devoured ---------------------------------------------------------------


def three_way_attack(martyr: int = 3) -> GameState:
    """Seats 0, 1 and 2 exposed at 4; seat 1 leads in points (15), seat 2 has 3."""
    return position(
        4,
        {
            "characters": [
                {"blocker": 6, "leader": 6, "weeper": 4},
                {"blocker": 4, "leader": 2, "weeper": 2},
                {"blocker": "cold", "leader": 4, "weeper": "cold"},
                {"blocker": 5, "leader": 5, "weeper": 5},
            ],
            "monsters": {"4": 6},
            "badge": 0,
            "martyr": martyr,
            "start": {"step": "attacks"},
        },
    )


def test_an_attack_vote_goes_against_the_leader_in_points() -> None:
    state = three_way_attack()
    assert state.step == Step.DESIGNATION
    assert cautious_choice(state, 0) == Designate(0, 1)


def test_an_attack_vote_goes_against_whoever_voted_against_it() -> None:
    state = three_way_attack()
    grudge = Event(
        "designations_revealed",
        {"vote": "attack", "location": 2, "designations": {"1": 2, "2": 0}},
    )
    assert cautious_choice(state, 0, [grudge]) == Designate(0, 2)


def test_the_martyr_never_breaks_a_tie_against_itself() -> None:
    """Seat 0 (1 vote) and seat 2 (Leader, 2 votes) tie at 2; seat 0 holds the Martyr."""
    state = three_way_attack(martyr=0)
    apply(state, Designate(0, 2))
    apply(state, Designate(1, 2))
    apply(state, Designate(2, 0))
    assert state.step == Step.TIEBREAK
    assert state.vote is not None
    assert sorted(state.vote.tied) == [0, 2]
    assert cautious_choice(state, 0) == BreakTie(0, 2)


def test_the_devoured_character_is_the_cheapest() -> None:
    """R7.5: seat 0 alone at 4 chooses; it gives up its Leader (3) before Blocker and Weeper."""
    state = position(
        4,
        {
            "characters": [
                {"blocker": 4, "leader": 4, "weeper": 4},
                *BYSTANDERS,
                {"blocker": 2, "leader": 2, "weeper": 2},
            ],
            "monsters": {"4": 6},
            "badge": 1,
            "start": {"step": "attacks"},
        },
    )
    assert state.step == Step.DEVOUR
    assert cautious_choice(state, 0) == Devour(0, 1)


# Moves and the truck ----------------------------------------------------------------


def test_moves_its_weeper_away_from_where_the_dice_it_saw_bring_monsters() -> None:
    """The badge holder saw four 4s; its Weeper is alone at the Toy store (4)."""
    state = position(
        4,
        {
            "characters": [
                {"blocker": 6, "leader": 6, "weeper": 4},
                *BYSTANDERS,
                {"blocker": 1, "leader": 1, "weeper": 2},
            ],
            "badge": 0,
            "start": {"step": "destinations", "dice": [4, 4, 4, 4], "dice_seen": [0]},
        },
    )
    assert state.step == Step.BADGE_DESTINATION
    choice = cautious_choice(state, 0)
    assert isinstance(choice, ChooseDestination)
    assert choice.location != 4
    apply(state, choice)
    apply(state, Timeout())
    if state.step == Step.MOVE and state.mover == 0:
        apply(state, cautious_choice(state, 0))
    assert state.characters[2].location != 4


def test_keeps_the_best_card_and_gives_the_worst_to_a_seat_without_characters() -> None:
    state = position(
        4,
        {
            "characters": [
                {"blocker": 6, "leader": 1, "weeper": 1},
                {"blocker": 2, "leader": 2, "weeper": 2},
                {"blocker": 5, "leader": 5, "weeper": 5},
                {"blocker": "cold", "leader": "cold", "weeper": "cold"},
            ],
            "deck": ["walkie_talkie", "molotov_cocktail", "gun"],
            "badge": 0,
            "start": {"step": "turn"},
        },
    )
    assert state.step == Step.TRUCK_CHOICE
    assert sorted(state.drawn) == ["gun", "molotov_cocktail", "walkie_talkie"]
    choice = cautious_choice(state, 0)
    assert isinstance(choice, SearchTruck)
    assert choice.keep is not None
    assert choice.give is not None
    assert state.drawn[choice.keep] == "molotov_cocktail"
    assert state.drawn[choice.give] == "walkie_talkie"
    assert choice.give_to == 3


# Whole games ----------------------------------------------------------------------


class Checked:
    """A cautious AI whose every choice is checked against the view it was given."""

    uses_view = True

    def __init__(self, seat: int, seed: str) -> None:
        self.inner = CautiousPlayer(seat, seed)
        self.seat = seat
        self.cards = 0

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)

    def choose(self, seen: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        action = self.inner.choose(seen, legal)
        board = Board(seen, rules_for(tuple(seen["variants"])))
        vote = seen["vote"]
        if isinstance(action, Designate) and vote["kind"] == "attack":
            assert action.candidate != self.seat, "never sends the Monsters to itself"
        if isinstance(action, Devour):
            options = [a.character for a in legal if isinstance(a, Devour)]
            assert board.points(action.character) == min(board.points(c) for c in options)
        if isinstance(action, PlayCard):
            self.cards += 1
            if action.card in ("rotten_meat", "baseball_bat", "chainsaw", "tin_can", "gun"):
                loc = vote["location"]
                assert vote["kind"] == "attack", f"{action.card} outside an attack"
                assert board.under_attack(loc), f"{action.card} with no attack going on"
                mine = [c for c in board.exposed(loc) if board.chars[c]["owner"] == self.seat]
                assert mine, f"{action.card} with no exposed character of its own there"
        return action


@pytest.mark.parametrize("variant", ["", *load_variants()])
def test_cautious_seats_play_legal_sensible_games_in_every_variant(variant: str) -> None:
    """The driver raises on an illegal choice; `Checked` on a senseless one."""
    rules = load_ruleset((variant,) if variant else ())
    cards = 0
    for game in range(6):
        players = 3 + game % 4
        seats: list[Any] = []
        for s in range(players):
            if (s + game) % 2:
                seats.append(make_player("random", s, f"{variant}/{game}/{s}"))
            else:
                seats.append(Checked(s, f"{variant}/{game}/{s}"))
        outcome = play_game(rules, seats, f"{variant}/{game}")
        assert outcome.state.step == Step.GAME_OVER
        cards += sum(s.cards for s in seats if isinstance(s, Checked))
    if variant != "empty_hands":
        assert cards > 0, "the checks on cards were put to the test"


# Hidden information -------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variants"), [(4, ()), (6, ("hoarders",)), (3, ("armoury",))])
def test_hidden_information_it_cannot_see_does_not_change_its_choice(
    players: int, variants: tuple[str, ...]
) -> None:
    """At every decision of cautious games, a twin position differing only in what the
    deciding seat cannot see gives that seat the same view, the same legal actions and
    so the same choice from the same AI (same seed, same events seen)."""
    rules = load_ruleset(variants)
    rnd = random.Random(players)
    compared = 0
    for game in range(2):
        state, events = new_game(rules, players, f"twin/{game}")
        seats = [CautiousPlayer(s, f"twin/{game}/{s}") for s in range(players)]
        for s, p in enumerate(seats):
            p.observe([e for e in events if e.visible_to(s)])
        while state.step != Step.GAME_OVER:
            seat = pending_seats(state)[0]
            legal = legal_actions(state, seat)
            twin = hidden_twin(state, seat, rnd)
            assert view(twin, seat) == view(state, seat)
            assert legal_actions(twin, seat) == legal
            mind = copy.deepcopy(seats[seat])
            action = seats[seat].choose(view(state, seat), legal)
            assert mind.choose(view(twin, seat), legal_actions(twin, seat)) == action
            compared += 1
            events = apply(state, action)
            for s, p in enumerate(seats):
                mine = [e for e in events if e.visible_to(s)]
                if mine:
                    p.observe(mine)
    assert compared > 100
