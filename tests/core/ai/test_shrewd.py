"""The `shrewd` level: it decides on its seat's view alone (every choice, remark and
rationale the same when what it cannot see is scrambled), replays exactly from its
seeds, plays legal games in every variant, and keeps its word small and true.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from lockdown_core import (
    Action,
    ChooseDestination,
    Designate,
    GameState,
    MoveCharacter,
    SearchTruck,
    Step,
    action_to_dict,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.ai import CautiousPlayer, make_player, play_game
from lockdown_core.ai.personas import PERSONAS
from lockdown_core.ai.shrewd import Budget, ShrewdPlayer
from lockdown_core.ai.talk import REMARK_KINDS
from tests.core.ai.helpers import hidden_twin


def seats_for(players: int, game: int, character: str = "warden") -> list[Any]:
    """Shrewd seats on even seats, cautious ones between (both watch their views)."""
    return [
        ShrewdPlayer(s, f"s/{game}/{s}", character)
        if s % 2 == 0
        else CautiousPlayer(s, f"c/{game}/{s}")
        for s in range(players)
    ]


# What it may not see -------------------------------------------------------------------

# Every variant, by the part of the game it changes, each tuple one game's variants:
# variants that set the same rule (start cards, the Weepers' Monsters, the end, the
# first arrival's dice) are played apart.
VARIANT_FAMILIES: dict[str, tuple[tuple[str, ...], ...]] = {
    "base": ((),),
    "hands and deck": (("armoury", "no_heroes", "hoarders", "rationing"), ("empty_hands",)),
    "dice": (("blind_cameras", "overrun"), ("quiet_mall",)),
    "ballots": (("open_ballots", "vendetta"),),
    "board": (("barricades", "full_lot", "big_families", "tough_crowd", "early_dusk"),),
    "points": (("creche", "spare_keys"), ("hush",)),
    "end": (("last_stand",), ("lone_survivor",)),
}
FAMILY_GAMES = [
    pytest.param(variants, id="+".join(variants) or family)
    for family, games in VARIANT_FAMILIES.items()
    for variants in games
]
# The worlds weighed do not matter to what it may see: fewer keep the sweep short.
SMALL = Budget(evaluations=20, least=2, most=4)


def test_the_families_hold_every_variant_once() -> None:
    """A new variant must join a family, so that the test below plays it."""
    played = [v for games in VARIANT_FAMILIES.values() for game in games for v in game]
    assert sorted(played) == sorted(load_variants())


@pytest.mark.parametrize("variants", FAMILY_GAMES)
def test_hidden_information_it_cannot_see_changes_no_choice_remark_or_rationale(
    variants: tuple[str, ...],
) -> None:
    """R12: at every decision, a twin position differing only in what the deciding seat
    cannot see (other hands, deck, box, truck, unseen dice, others' secret destinations
    and ballots, the generator) gives a shrewd seat the same view and the same legal
    actions, and the same AI (same seed, same events seen) the same action, the same
    remark and the same rationale; in every family of variants."""
    rules = load_ruleset(variants)
    players = 3 + len(variants) % 4
    character = sorted(PERSONAS)[len(variants) % len(PERSONAS)]
    rnd = random.Random(players)
    compared = remarks = 0
    state, events = new_game(rules, players, f"twin/{'+'.join(variants)}")
    seats = [
        ShrewdPlayer(s, f"s/{s}", character, SMALL) if s % 2 == 0 else CautiousPlayer(s, f"c/{s}")
        for s in range(players)
    ]
    for s, p in enumerate(seats):
        p.observe([e for e in events if e.visible_to(s)])
    while state.step != Step.GAME_OVER:
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        player = seats[seat]
        if isinstance(player, ShrewdPlayer):
            twin = hidden_twin(state, seat, rnd)
            assert view(twin, seat) == view(state, seat)
            assert legal_actions(twin, seat) == legal
            mind = copy.deepcopy(player)
            action = player.choose(view(state, seat), legal)
            assert mind.choose(view(twin, seat), legal_actions(twin, seat)) == action
            assert mind.remark == player.remark
            why = player.explain(view(state, None), legal, action)
            assert mind.explain(view(twin, None), legal_actions(twin, seat), action) == why
            compared += 1
            remarks += player.remark is not None
        else:
            action = player.choose(view(state, seat), legal)
        events = apply(state, action)
        for s, p in enumerate(seats):
            mine = [e for e in events if e.visible_to(s)]
            if mine:
                p.observe(mine)
    assert compared > 10
    assert remarks > 0, "the remarks were put to the test"


def test_a_game_replays_exactly_from_its_seeds() -> None:
    """The same seeds give the same game, action for action; another seed another one."""

    def record(seed: str) -> list[dict[str, Any]]:
        taken: list[Action] = []
        seats = [make_player("shrewd", s, f"{seed}/{s}") for s in range(5)]
        play_game(
            load_ruleset(()),
            seats,
            seed,
            observer=lambda action, _: taken.append(action) if action else None,
        )
        return [action_to_dict(a) for a in taken]

    first = record("replay")
    assert record("replay") == first
    assert record("replay/other") != first


@pytest.mark.parametrize("variant", ["", *load_variants()])
def test_shrewd_seats_play_legal_games_in_every_variant(variant: str) -> None:
    """The driver raises on an illegal choice or a game that never ends."""
    rules = load_ruleset((variant,) if variant else ())
    for game in range(2):
        players = 3 + (game * 3) % 4
        outcome = play_game(rules, seats_for(players, game), f"{variant}/{game}")
        assert outcome.state.step == Step.GAME_OVER


# What it says and why ------------------------------------------------------------------


class Listener:
    """Plays a game and keeps what one shrewd seat said, with the view it said it in."""

    def __init__(
        self, character: str, game: int, players: int = 5, variants: tuple[str, ...] = ()
    ) -> None:
        self.said: list[tuple[dict[str, Any], Action, Any]] = []
        self.seat = game % players
        self.player = ShrewdPlayer(self.seat, f"talk/{game}", character)
        seats: list[Any] = [
            self if s == self.seat else CautiousPlayer(s, f"talk/{game}/{s}")
            for s in range(players)
        ]
        self.uses_view = True
        play_game(load_ruleset(variants), seats, f"talk/{game}")

    def observe(self, events: Any) -> None:
        self.player.observe(events)

    def choose(self, seen: dict[str, Any], legal: list[Action]) -> Action:
        action = self.player.choose(seen, legal)
        if self.player.remark is not None:
            self.said.append((seen, action, self.player.remark))
        return action


def shrewd_decisions(
    game: int, players: int = 5, character: str = "warden"
) -> Iterator[tuple[GameState, int, list[Action], ShrewdPlayer, Action]]:
    """Plays a game of shrewd seats (even) and cautious ones; yields each decision of a
    shrewd seat before it is applied: the state, the seat, its legal actions, its
    player and the action it chose."""
    state, events = new_game(load_ruleset(), players, f"why/{game}")
    seats = seats_for(players, game, character)
    for s, p in enumerate(seats):
        p.observe([e for e in events if e.visible_to(s)])
    while state.step != Step.GAME_OVER:
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        player = seats[seat]
        action = player.choose(view(state, seat), legal)
        if isinstance(player, ShrewdPlayer):
            yield state, seat, legal, player, action
        events = apply(state, action)
        for s, p in enumerate(seats):
            mine = [e for e in events if e.visible_to(s)]
            if mine:
                p.observe(mine)


@pytest.mark.parametrize("character", ["warden", "trickster"])
def test_remarks_say_what_it_decided_once_a_step_and_never_a_card(character: str) -> None:
    """A vote remark names the candidate it designated and is secret until the reveal
    (R2.3: the base rules' ballots are secret), a gift remark the seat it gave to
    (never the card: only giver and receiver may know it, R3.4), whatever the persona;
    an intent, said in an attack's discussion before any ballot, names another
    candidate and is public; a truthful persona's announcement names exactly the
    locations of the dice it saw (R5.1's table talk), and with no dice seen it says
    nothing."""
    truthful = PERSONAS[character].lies == 0.0
    kinds: set[str] = set()
    for game in range(6):
        steps: set[tuple[int, str, int, int]] = set()
        listener = Listener(character, game)
        for seen, action, remark in listener.said:
            assert remark.kind in REMARK_KINDS
            vote = seen["vote"]
            where = vote["location"] if vote else 0
            step = (seen["turn"], str(seen["step"]), where, len(seen["cold_storage"]))
            assert step not in steps, "one remark a step"
            steps.add(step)
            kinds.add(remark.kind)
            assert "card" not in dict(remark.params)
            assert remark.secret == (remark.kind == "vote")
            if remark.kind == "vote":
                assert isinstance(action, Designate)
                assert remark.get("candidate") == action.candidate
            elif remark.kind == "intent":
                assert seen["step"] == Step.DISCUSSION
                assert vote["kind"] == "attack"
                assert remark.get("location") == vote["location"]
                assert remark.get("candidate") in vote["candidates"]
                assert remark.get("candidate") != listener.seat
            elif remark.kind == "gift":
                assert isinstance(action, SearchTruck)
                assert remark.get("to") == action.give_to
            elif remark.kind == "announce":
                assert seen["dice"] is not None
                if truthful:
                    assert remark.get("locations") == tuple(sorted(set(seen["dice"])))
            else:
                assert seen["dice"] is None
                if truthful:
                    assert remark.kind == "no_announcement", "a truthful persona never bluffs"
    assert {"vote", "gift"} <= kinds


def test_only_a_lying_persona_lies_and_only_about_the_monsters() -> None:
    """The trickster's announcements sometimes name other locations than its dice; the
    warden's never do (R5.1: the badge holder may announce truthfully or not)."""
    lies = {"warden": 0, "trickster": 0}
    for character in lies:
        for game in range(8):
            for seen, _, remark in Listener(character, game).said:
                if remark.kind == "announce" and seen["dice"] is not None:
                    lies[character] += remark.get("locations") != tuple(sorted(set(seen["dice"])))
                elif remark.kind == "announce_blind":
                    lies[character] += 1
    assert lies["warden"] == 0
    assert lies["trickster"] > 0


def test_only_a_lying_persona_bluffs_about_its_ballot_and_on_its_own_draw() -> None:
    """An intent is the ballot it would cast on what it knows in the discussion, or, as
    often as its persona lies, another candidate: the warden never bluffs, the trickster
    does; both say some."""
    said = {"warden": 0, "trickster": 0}
    bluffs = dict(said)
    for character in said:
        for game in range(10):
            listener = Listener(character, game, players=6)
            said[character] += sum(r.kind == "intent" for _, _, r in listener.said)
            bluffs[character] += listener.player.tally["bluffs"]
    assert said["warden"] > 0
    assert said["trickster"] > 0
    assert bluffs["warden"] == 0
    assert 0 < bluffs["trickster"] <= said["trickster"]


def test_a_rationale_gives_the_choice_its_loss_and_the_option_ranked_next() -> None:
    """Destinations and moves with a choice come with why: the option taken and its
    expected loss in points, the option it ranked next (another legal one) and its loss;
    with no other option, no runner-up. Any other decision has no reason to give."""
    seen = 0
    for game in range(3):
        for state, _, legal, player, action in shrewd_decisions(game):
            why = player.explain(view(state, None), legal, action)
            assert why is player.rationale
            if not isinstance(action, ChooseDestination | MoveCharacter) or len(legal) < 2:
                assert why is None
                continue
            assert why is not None
            if why.kind == "destination":
                assert isinstance(action, ChooseDestination)
                assert why.choice == action.location
            else:
                assert isinstance(action, MoveCharacter)
                assert why.choice == action.character
            assert why.expected >= 0.0
            assert why.expected == round(why.expected, 1)
            if why.runner_up is not None:
                assert why.runner_up != why.choice
                assert why.runner_up_expected is not None
                assert why.runner_up_expected >= 0.0
                seen += 1
    assert seen > 5


def test_a_rationale_tells_nothing_its_own_seat_keeps_secret() -> None:
    """The reason is shown to people (the practice panel, the recap) who must not learn
    the seat's hand, the dice only it saw or what it remembers of cards given and boxed:
    a twin position where all of these differ, explained by the same seat's AI that has
    seen nothing of the game, gives the same reason for the same choice."""
    compared = hands_changed = 0
    rnd = random.Random(3)
    for game in range(3):
        for state, seat, legal, player, action in shrewd_decisions(game):
            if not isinstance(action, ChooseDestination | MoveCharacter) or len(legal) < 2:
                continue
            # What the next seat cannot see: this seat's hand and dice among it.
            twin = hidden_twin(state, (seat + 1) % state.players, rnd)
            assert view(twin, None) == view(state, None)
            twin_legal = legal_actions(twin, seat)
            if action not in twin_legal:
                continue
            stranger = ShrewdPlayer(seat, player.seed, player.persona.key)
            why = player.explain(view(state, None), legal, action)
            assert stranger.explain(view(twin, None), twin_legal, action) == why
            compared += 1
            hands_changed += sorted(twin.hands[seat]) != sorted(state.hands[seat])
    assert compared > 20
    assert hands_changed > 10, "the seat's own hand was put to the test"


# Budget and personas ---------------------------------------------------------------------


def test_the_budget_bounds_the_worlds_weighed() -> None:
    budget = Budget(evaluations=60, least=4, most=12)
    assert budget.worlds(1) == 12
    assert budget.worlds(10) == 6
    assert budget.worlds(100) == 4


def test_personas_change_what_it_does() -> None:
    """Same seats, same seeds: the loyalist gives the truck's gifts to its allies and
    casts loyal ballots, the avenger casts grudge ballots, and their games differ."""
    tallies = {}
    for character in ("loyalist", "avenger"):
        total: dict[str, int] = {}
        for game in range(24):
            listener = Listener(character, game, players=6)
            for key, n in listener.player.tally.items():
                total[key] = total.get(key, 0) + n
        tallies[character] = total
    assert tallies["loyalist"].get("ally_gifts", 0) > 0
    assert tallies["avenger"].get("ally_gifts", 0) == 0
    assert tallies["avenger"].get("ballots_grudge", 0) > tallies["loyalist"].get(
        "ballots_grudge", 0
    )


def test_only_a_persona_that_fears_bad_worlds_gives_up_the_best_average() -> None:
    """Risk 1 (the gambler) looks at the average alone; the warden (risk 0.5) sometimes
    takes a worse average for a smaller spread of its losses over the worlds."""
    hedged = {}
    for character in ("gambler", "warden"):
        hedged[character] = sum(
            Listener(character, game).player.tally["hedged"] for game in range(6)
        )
    assert hedged["gambler"] == 0
    assert hedged["warden"] > 0


def test_an_unknown_persona_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown persona"):
        make_player("shrewd:nobody", 0, "x")
    with pytest.raises(ValueError, match="only the shrewd level"):
        make_player("cautious:warden", 0, "x")
