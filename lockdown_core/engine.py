"""`new_game` and `apply`: the only ways a game changes.

`apply` checks everything an action needs before it changes anything, so an
illegal action raises `IllegalAction` and leaves the state exactly as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from lockdown_core import cards, flow, moves, placement, votes, windows
from lockdown_core.actions import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    Timeout,
)
from lockdown_core.defaults import default_action
from lockdown_core.errors import IllegalAction
from lockdown_core.events import Event, Events
from lockdown_core.legal import (
    destination_options,
    is_pending,
    pending_players,
    placement_landing,
    truck_options,
)
from lockdown_core.model import UNPLACED, Character, GameState, Step
from lockdown_core.rng import Rng, seed_state
from lockdown_core.ruleset import RULES_REVISION, Ruleset


def seed_hash(seed: int | str) -> str:
    """The SHA-256 shown when a game starts, so the seed can be checked at the end."""
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def new_game(
    rules: Ruleset, players: int, seed: int | str, *, record: bool = True
) -> tuple[GameState, list[Event]]:
    """R1.1-R1.3, then the first placement roll (R1.4).

    With `record=False` no event is built and the list returned is empty, as with
    `apply_legal`: for a driver nobody reads the events of (the game is the same)."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(
            "bad_player_count", minimum=rules.min_players, maximum=rules.max_players
        )
    state = GameState(rules, players, Rng(seed_state(seed)))
    state.seed_hash = seed_hash(seed)
    family = rules.family_for(players)
    for player in range(players):
        for kind in family:
            state.characters.append(Character(len(state.characters), player, kind, UNPLACED))
    state.deck = rules.deck_list()
    state.rng.shuffle(state.deck)
    for _ in range(rules.start_cards):
        for player in range(players):
            if state.deck:
                state.hands[player].append(state.deck.pop())
    state.badge = state.rng.below(players)
    state.martyr = (state.badge + 1 + state.rng.below(players - 1)) % players
    if not record:
        placement.begin_placement(state, state.badge, None)
        return state, []
    events = [
        Event(
            "game_started",
            {
                "players": players,
                "badge": state.badge,
                "martyr": state.martyr,
                "seed_hash": state.seed_hash,
                "variants": list(rules.variants),
                "deck": len(state.deck),
            },
        )
    ]
    events.extend(
        Event("hand_dealt", {"cards": list(state.hands[p])}, to=(p,)) for p in range(players)
    )
    placement.begin_placement(state, state.badge, events)
    return state, events


def apply(state: GameState, action: Action, revision: int = RULES_REVISION) -> list[Event]:
    """Apply one action; on IllegalAction nothing has changed.

    `revision` is the rules revision the action was played under: only the replay
    of a log stored before the current one passes an older revision, so that the
    action leads where it led when it was played (see `ruleset.RULES_REVISION`).
    """
    if state.step == Step.GAME_OVER:
        raise IllegalAction("game_over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("malformed_action")
    if not isinstance(action, Timeout) and not 0 <= action.player < state.players:
        raise IllegalAction("not_seated")
    events: list[Event] = []
    rules = state.rules
    if revision == rules.revision:
        handler(state, action, events, False)
    else:
        state.rules = rules.model_copy(update={"revision": revision})
        try:
            handler(state, action, events, False)
        finally:
            state.rules = rules
    state.next_pending = None
    state.version += 1
    return events


def apply_legal(state: GameState, action: Action, *, record: bool = True) -> list[Event]:
    """`apply` for an action the caller took from `legal_actions(state, action.player)`
    on this very state (the simulator's driver), under the current rules revision.

    Every legal action passes `apply`'s checks, so they are skipped: they were
    about a third of the cost of a simulated action. Anything else must go
    through `apply`, which refuses what is not legal. With `record=False` no
    event is built and the list returned is empty: for a driver whose seats and
    observers read none (the state changes exactly as with events).
    """
    events: list[Event] = []
    state.next_pending = None
    _HANDLERS[type(action)](state, action, events if record else None, True)
    known = state.next_pending
    state.next_pending = None
    state.version += 1
    # The seats the handler found pending last are pending_players' answer now.
    state.pending_cache = None if known is None else (state.version, known)
    return events


def _expect(state: GameState, player: int, *steps: str) -> None:
    if state.step not in steps:
        raise IllegalAction("wrong_step", step=state.step)
    if not is_pending(state, player) and not _may_revise(state, player):
        raise IllegalAction("not_your_turn")


def _may_revise(state: GameState, player: int) -> bool:
    """Designations and secret destinations may change until their reveal."""
    if state.step == Step.DESIGNATION and state.vote is not None:
        return player in votes.voters(state)
    if state.step == Step.DESTINATIONS:
        return player != state.badge and state.has_characters(player)
    return False


def _place_family(state: GameState, action: PlaceFamily, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.PLACEMENT)
        family = sorted(c.id for c in state.living(action.player))
        if sorted(action.order) != family or len(action.order) != len(state.dice):
            raise IllegalAction("placement_must_use_each_die_once")
    lands = placement_landing(state, action.order)
    for die, character_id, location in zip(state.dice, action.order, lands, strict=True):
        character = state.characters[character_id]
        character.location = location
        if events is not None:
            events.append(
                Event(
                    "character_placed",
                    {
                        "player": action.player,
                        "character": character_id,
                        "kind": character.kind,
                        "die": die,
                        "location": character.location,
                    },
                )
            )
    placement.after_placement(state, events)


def _done(state: GameState, action: Done, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)
    state.acted.add(action.player)
    if events is not None:
        events.append(Event("player_done", {"player": action.player, "step": state.step}))
    # Who apply_legal found pending at this very version, if it did. Read once (inline:
    # a hot path): the state is about to change, after which the list no longer
    # describes it (a Timeout applies several defaults within one version).
    kept = state.pending_cache
    state.pending_cache = None
    if kept is None or kept[0] != state.version:
        _close_window_if_over(state, events)
        return
    # A Done changes nothing but who has acted: the window is the one kept, less this seat.
    players = _without(kept[1], action.player)
    if players:
        state.next_pending = players
    else:
        _end_window(state, events)


def _without(seats: list[int], player: int) -> list[int]:
    """A new list of `seats` (each seat there once at most) less `player`: a copy and a
    removal cost less than a comprehension, on the paths of most actions."""
    rest = seats.copy()
    if player in rest:
        rest.remove(player)
    return rest


def _close_window_if_over(state: GameState, events: Events) -> None:
    """The last thing its callers do: an open window's seats are who is pending next."""
    players = windows.window_players(state)
    if players:
        state.next_pending = players
        return
    _end_window(state, events)


def _end_window(state: GameState, events: Events) -> None:
    """Nobody may act in the window any more: the flow goes on."""
    if state.step == Step.DISCUSSION:
        flow.end_discussion(state, events)
    elif state.step == Step.WALKIE_WINDOW:
        flow.begin_destinations(state, events)
    else:
        flow.next_mover(state, events)


def _play_card(state: GameState, action: PlayCard, events: Events, checked: bool) -> None:
    if not checked:
        if action.card not in state.hands[action.player]:
            raise IllegalAction("card_not_in_hand", card=action.card)
        _expect(state, action.player, Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)
        # _expect has checked that the player may act in this window.
        options = cards.options_in_window(state, action.player)
        if action not in options:
            if any(o.card == action.card for o in options):
                raise IllegalAction("card_bad_target", card=action.card)
            raise IllegalAction("card_not_playable_now", card=action.card)
    cards.play(state, action, events)
    if state.rules.revision >= 2:
        _cancel_dones(state, action.player, events)
    _close_window_if_over(state, events)


def _cancel_dones(state: GameState, player: int, events: Events) -> None:
    """R2.3: a card cancels every other player's Done, so that each may answer it,
    as at a real table (a log stored under revision 1 replays without this).

    The event names the seats asked again, for the table (which gives them time
    to answer) and the board; a seat the card left with nothing to do is not.
    """
    acted = state.acted
    if not acted:
        return
    if events is None:
        # Only the event needs to know who is asked again.
        keeps = player in acted
        acted.clear()
        if keeps:
            acted.add(player)
        return
    cancelled = sorted(acted - {player})
    acted.difference_update(cancelled)
    again = [p for p in cancelled if windows.in_window(state, p)]
    if again:
        events.append(Event("done_cancelled", {"players": again, "step": state.step}))


def _designate(state: GameState, action: Designate, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.DESIGNATION)
    vote = state.vote
    assert vote is not None
    if not checked and action.candidate not in vote.candidates:
        raise IllegalAction("not_a_candidate")
    designations = vote.designations
    designations[action.player] = action.candidate
    # votes.voters without its copy: read here, never changed.
    voters = vote.candidates
    if state.rules.open_ballots:
        if events is not None:
            events.append(
                Event("designation_cast", {"player": action.player, "candidate": action.candidate})
            )
    else:
        if events is not None:
            events.append(
                Event("designation_receipt", {"candidate": action.candidate}, to=(action.player,))
            )
            events.append(
                Event(
                    "designation_count",
                    {"designated": len(designations), "voters": len(voters)},
                )
            )
    kept = state.pending_cache  # read once, as in _done
    state.pending_cache = None
    if len(designations) == len(voters):
        flow.reveal_designations(state, events)
    elif kept is not None and kept[0] == state.version:
        # Only this seat's ballot changed: the voters kept, less this one.
        state.next_pending = _without(kept[1], action.player)
    else:
        state.next_pending = [p for p in voters if p not in designations]


def _break_tie(state: GameState, action: BreakTie, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.TIEBREAK)
    assert state.vote is not None
    if not checked and action.candidate not in state.vote.tied:
        raise IllegalAction("not_tied")
    if events is not None:
        events.append(
            Event(
                "tie_broken", {"player": action.player, "winner": action.candidate, "random": False}
            )
        )
    flow.resolve_vote(state, action.candidate, events)


def _search_truck(state: GameState, action: SearchTruck, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.TRUCK_CHOICE)
        if action not in truck_options(state, action.player):
            raise IllegalAction("truck_choice_invalid")
    drawn, player = state.drawn, action.player
    if action.keep is not None:
        state.hands[player].append(drawn[action.keep])
        if events is not None:
            events.append(Event("card_kept", {"card": drawn[action.keep]}, to=(player,)))
    if action.give is not None and action.give_to is not None:
        card = drawn[action.give]
        state.hands[action.give_to].append(card)
        if events is not None:
            events.append(Event("card_given", {"player": player, "to": action.give_to}))
            events.append(
                Event(
                    "card_gift",
                    {"card": card, "from": player, "to": action.give_to},
                    to=(player, action.give_to),
                )
            )
    boxed = [c for i, c in enumerate(drawn) if i not in (action.keep, action.give)]
    state.box.extend(boxed)
    state.drawn = []
    if events is not None:
        events.append(
            Event("truck_done", {"player": player, "boxed": len(boxed), "deck": len(state.deck)})
        )
    flow.begin_badge(state, events)


def _choose_destination(
    state: GameState, action: ChooseDestination, events: Events, checked: bool
) -> None:
    if not checked:
        _expect(state, action.player, Step.BADGE_DESTINATION, Step.DESTINATIONS)
        if action.location not in destination_options(state, action.player):
            raise IllegalAction("destination_not_allowed", location=action.location)
    state.destinations[action.player] = action.location
    if state.step == Step.BADGE_DESTINATION:
        if events is not None:
            events.append(
                Event("badge_destination", {"player": action.player, "location": action.location})
            )
        flow.begin_secret_destinations(state, events)
        return
    if events is not None:
        events.append(
            Event("destination_receipt", {"location": action.location}, to=(action.player,))
        )
        events.append(Event("destination_locked", {"player": action.player}))
    kept = state.pending_cache  # read once, as in _done
    state.pending_cache = None
    if kept is None or kept[0] != state.version:
        waiting = moves.destination_players(state)
    else:
        # Only this seat's choice changed: it owes nothing more, nobody else is affected.
        waiting = _without(kept[1], action.player)
    if waiting:
        state.next_pending = waiting
    else:
        flow.reveal_destinations(state, events)


def _move(state: GameState, action: MoveCharacter, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.MOVE)
        if action.character not in moves.move_options(state, action.player):
            raise IllegalAction("character_cannot_move")
    moves.move_character(state, action.player, action.character, "move", events)
    flow.begin_after_move(state, events)


def _devour(state: GameState, action: Devour, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.player, Step.DEVOUR)
        if action.character not in votes.devour_options(state, action.player):
            raise IllegalAction("character_cannot_be_devoured")
    flow.finish_devour(state, action.character, events)


def _timeout(state: GameState, action: Timeout, events: Events, checked: bool) -> None:
    """The step's timer ran out: RULES.md's default for everyone still pending."""
    step = state.step
    waiting = pending_players(state)
    if events is not None:
        events.append(Event("timeout", {"step": step, "players": waiting}))
    if step == Step.DISCUSSION:
        flow.end_discussion(state, events)
    elif step == Step.WALKIE_WINDOW:
        flow.begin_destinations(state, events)
    elif step == Step.AFTER_MOVE:
        flow.next_mover(state, events)
    elif step == Step.DESIGNATION:
        flow.reveal_designations(state, events)
    elif step == Step.TIEBREAK:
        assert state.vote is not None
        winner = state.rng.choice(state.vote.tied)
        if events is not None:
            events.append(
                Event("tie_broken", {"player": state.martyr, "winner": winner, "random": True})
            )
        flow.resolve_vote(state, winner, events)
    else:
        for player in waiting:
            default = default_action(state, player)
            assert default is not None
            _HANDLERS[type(default)](state, default, events, False)
    # A default's handler may have noted who was pending before the flow moved on.
    state.next_pending = None


_HANDLERS: dict[type[Any], Callable[[GameState, Any, Events, bool], None]] = {
    PlaceFamily: _place_family,
    Done: _done,
    PlayCard: _play_card,
    Designate: _designate,
    BreakTie: _break_tie,
    SearchTruck: _search_truck,
    ChooseDestination: _choose_destination,
    MoveCharacter: _move,
    Devour: _devour,
    Timeout: _timeout,
}
