"""Object cards: when each may be played (R2.6, R4.4, R5.4, R7.8) and what it does."""

from __future__ import annotations

from functools import cache

from lockdown_core import board, facts
from lockdown_core.actions import PlayCard
from lockdown_core.events import Event, Events
from lockdown_core.model import GameState
from lockdown_core.pieces import Step
from lockdown_core.windows import in_window

_REMOVES = {"baseball_bat": 1, "chainsaw": 2}

# Card plays are immutable values: the options hand out shared instances, built once.
_play = cache(PlayCard)


def playable(state: GameState, seat: int) -> list[PlayCard]:
    """Every card play open to `seat` right now, with its targets."""
    if not in_window(state, seat):
        return []
    return options_in_window(state, seat)


def options_in_window(state: GameState, seat: int) -> list[PlayCard]:
    """`playable` for a player already known to be among `window_players`."""
    hand = state.hands[seat]
    if not hand:
        return []
    step = state.step
    # Discussions first: most card windows of a game are.
    if step == Step.DISCUSSION:
        return [] if state.vote is None else _discussion_cards(state, seat, hand)
    if step == Step.WALKIE_WINDOW:
        if "walkie_talkie" in hand and seat not in state.dice_seen:
            return [_play(seat, "walkie_talkie")]
    elif step == Step.AFTER_MOVE and "energy_drink" in hand:
        return _energy_drinks(state, seat)
    return []


def _energy_drinks(state: GameState, seat: int) -> list[PlayCard]:
    # GameState.free_spot for every location, the characters' places read once.
    places = [c.location for c in state.characters]
    closed, locations = state.closed, state.rules.locations
    open_spots = []
    for loc in range(1, 7):
        spots = locations[loc - 1].character_spots
        if not closed[loc] and (spots is None or places.count(loc) < spots):
            open_spots.append(loc)
    return [
        _play(seat, "energy_drink", c.id, loc)
        for c in state.family(seat)
        if c.location > 0
        for loc in open_spots
        if loc != c.location
    ]


# Cards that can be played in a vote's discussion and in an attack's (R2.6, R7.8).
_VOTE_CARDS = frozenset(("gun",))
_ATTACK_CARDS = frozenset(
    ("gun", "baseball_bat", "chainsaw", "molotov_cocktail", "tin_can", "rotten_meat")
)


def _discussion_cards(state: GameState, seat: int, hand: list[str]) -> list[PlayCard]:
    vote = state.vote
    assert vote is not None
    if _VOTE_CARDS.isdisjoint(hand) if vote.kind != "attack" else _ATTACK_CARDS.isdisjoint(hand):
        # Nothing in this hand is ever played here: no need to look at the board.
        return []
    loc = vote.location
    mine_here = []
    exposed = []
    # One plain loop over a family of a few: cheaper than two comprehensions.
    for c in state.family(seat):
        if c.location == loc:
            mine_here.append(c)
            if not c.hidden:
                exposed.append(c)
    options: list[PlayCard] = []
    if "gun" in hand and exposed and _another_voter(state, seat, loc):
        options.append(_play(seat, "gun"))
    if vote.kind != "attack" or not mine_here:
        return options
    if state.monsters[loc] > 0:
        for card in ("baseball_bat", "chainsaw", "molotov_cocktail"):
            if card in hand:
                options.append(_play(seat, card))
        if "tin_can" in hand:
            options.extend(
                _play(seat, "tin_can", None, target)
                for target in range(1, 7)
                if target != loc and state.free_monster_spot(target)
            )
    if "rotten_meat" in hand:
        options.extend(_play(seat, "rotten_meat", c.id) for c in exposed)
    return options


def _another_voter(state: GameState, seat: int, loc: int) -> bool:
    """R2.6: a Gun is for a voter of a vote; with a single exposed owner there is none (R7.5)."""
    for c in state.characters:  # noqa: SIM110 (a plain loop costs less than any() here)
        if c.location == loc and not c.hidden and c.seat != seat:
            return True
    return False


def play(state: GameState, action: PlayCard, events: Events) -> None:
    """Apply a card already checked against `playable`."""
    seat, card = action.seat, action.card
    state.hands[seat].remove(card)
    state.played.append(card)
    data: dict[str, object] = {"player": seat, "card": card}
    if card == "walkie_talkie":
        state.dice_seen.add(seat)
        if events is not None:
            events.append(Event("card_played", data))
            events.append(Event("dice_seen", {"dice": list(state.dice)}, to=(seat,)))
        return
    if card == "gun":
        assert state.vote is not None
        state.vote.guns[seat] = state.vote.guns.get(seat, 0) + 1
        data["location"] = state.vote.location
        data["lasts"] = facts.gun_lasts(state.rules, state.vote.kind, state.vote.location)
    elif card == "energy_drink":
        assert action.character is not None
        assert action.location is not None
        character = state.characters[action.character]
        data.update(character=character.id, kind=character.kind, location=action.location)
        data["from"] = character.location
        character.location = action.location
    elif card == "rotten_meat":
        assert action.character is not None
        hidden = state.characters[action.character]
        hidden.hidden = True
        data.update(character=hidden.id, kind=hidden.kind)
    else:
        assert state.vote is not None
        loc = state.vote.location
        data["location"] = loc
        if card == "tin_can":
            assert action.location is not None
            state.monsters[loc] -= 1
            state.monsters[action.location] += 1
            data["to"] = action.location
        else:
            count = state.monsters[loc] if card == "molotov_cocktail" else _REMOVES[card]
            data["removed"] = board.remove_monsters(state, loc, count)
        data["monsters"] = state.monsters[loc]
    if events is not None:
        events.append(Event("card_played", data))


def begin_truck_choice(state: GameState, searcher: int, events: Events) -> None:
    """R3.2: the searcher draws from the truck (fewer cards once the deck runs low)."""
    count = min(state.rules.truck_draw, len(state.deck))
    state.drawn = [state.deck.pop() for _ in range(count)]
    state.step = Step.TRUCK_CHOICE
    state.mover = searcher
    state.next_pending = [searcher]
    if events is not None:
        events.append(
            Event("truck_searched", {"player": searcher, "drawn": count, "deck": len(state.deck)})
        )
        events.append(Event("truck_drawn", {"cards": list(state.drawn)}, to=(searcher,)))
