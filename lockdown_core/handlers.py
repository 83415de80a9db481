"""What each action does (R1-R8), checked first unless the caller vouches for it.

One handler per action type, called by `engine.apply` (which checks that the
seat may act: `checked` False) or `engine.apply_legal` (the action came from
`legal_actions` on this very state: `checked` True). A refused action raises
`IllegalAction` before anything has changed.
"""

from __future__ import annotations

from lockdown_core import cards, flow, moves, placement, votes, windows
from lockdown_core.actions import (
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
)
from lockdown_core.errors import IllegalAction
from lockdown_core.events import Event, Events
from lockdown_core.legal import is_pending, placement_landing, truck_options
from lockdown_core.model import GameState
from lockdown_core.moves import destination_options
from lockdown_core.pieces import Step


def _expect(state: GameState, seat: int, *steps: str) -> None:
    if state.step not in steps:
        raise IllegalAction("wrong_step", step=state.step)
    if not is_pending(state, seat) and not _may_revise(state, seat):
        raise IllegalAction("not_your_turn")


def _may_revise(state: GameState, seat: int) -> bool:
    """Designations and secret destinations may change until their reveal."""
    if state.step == Step.DESIGNATION and state.vote is not None:
        return seat in votes.voters(state)
    if state.step == Step.DESTINATIONS:
        return seat != state.badge and state.has_characters(seat)
    return False


def place_family(state: GameState, action: PlaceFamily, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.PLACEMENT)
        family = sorted(c.id for c in state.living(action.seat))
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
                        "player": action.seat,
                        "character": character_id,
                        "kind": character.kind,
                        "die": die,
                        "location": character.location,
                    },
                )
            )
    placement.after_placement(state, events)


def done(state: GameState, action: Done, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)
    state.acted.add(action.seat)
    if events is not None:
        events.append(Event("player_done", {"player": action.seat, "step": state.step}))
    # Who apply_legal found pending at this very version, if it did. Read once (inline:
    # a hot path): the state is about to change, after which the list no longer
    # describes it (a Timeout applies several defaults within one version).
    kept = state.pending_cache
    state.pending_cache = None
    if kept is None or kept[0] != state.version:
        _close_window_if_over(state, events)
        return
    # A Done changes nothing but who has acted: the window is the one kept, less this seat.
    players = _without(kept[1], action.seat)
    if players:
        state.next_pending = players
    else:
        _end_window(state, events)


def _without(seats: list[int], seat: int) -> list[int]:
    """A new list of `seats` (each seat there once at most) less `seat`: a copy and a
    removal cost less than a comprehension, on the paths of most actions."""
    rest = seats.copy()
    if seat in rest:
        rest.remove(seat)
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


def play_card(state: GameState, action: PlayCard, events: Events, checked: bool) -> None:
    if not checked:
        if action.card not in state.hands[action.seat]:
            raise IllegalAction("card_not_in_hand", card=action.card)
        _expect(state, action.seat, Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)
        # _expect has checked that the player may act in this window.
        options = cards.options_in_window(state, action.seat)
        if action not in options:
            if any(o.card == action.card for o in options):
                raise IllegalAction("card_bad_target", card=action.card)
            raise IllegalAction("card_not_playable_now", card=action.card)
    cards.play(state, action, events)
    if state.rules.revision >= 2:
        _cancel_dones(state, action.seat, events)
    _close_window_if_over(state, events)


def _cancel_dones(state: GameState, seat: int, events: Events) -> None:
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
        keeps = seat in acted
        acted.clear()
        if keeps:
            acted.add(seat)
        return
    cancelled = sorted(acted - {seat})
    acted.difference_update(cancelled)
    again = [p for p in cancelled if windows.in_window(state, p)]
    if again:
        events.append(Event("done_cancelled", {"players": again, "step": state.step}))


def designate(state: GameState, action: Designate, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.DESIGNATION)
    vote = state.vote
    assert vote is not None
    if not checked and action.candidate not in vote.candidates:
        raise IllegalAction("not_a_candidate")
    designations = vote.designations
    designations[action.seat] = action.candidate
    # votes.voters without its copy: read here, never changed.
    voters = vote.candidates
    if state.rules.open_ballots:
        if events is not None:
            events.append(
                Event("designation_cast", {"player": action.seat, "candidate": action.candidate})
            )
    else:
        if events is not None:
            events.append(
                Event("designation_receipt", {"candidate": action.candidate}, to=(action.seat,))
            )
            events.append(
                Event(
                    "designation_count",
                    {"designated": len(designations), "voters": len(voters)},
                )
            )
    kept = state.pending_cache  # read once, as in done
    state.pending_cache = None
    if len(designations) == len(voters):
        flow.reveal_designations(state, events)
    elif kept is not None and kept[0] == state.version:
        # Only this seat's ballot changed: the voters kept, less this one.
        state.next_pending = _without(kept[1], action.seat)
    else:
        state.next_pending = [p for p in voters if p not in designations]


def break_tie(state: GameState, action: BreakTie, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.TIEBREAK)
    assert state.vote is not None
    if not checked and action.candidate not in state.vote.tied:
        raise IllegalAction("not_tied")
    if events is not None:
        events.append(
            Event(
                "tie_broken", {"player": action.seat, "winner": action.candidate, "random": False}
            )
        )
    flow.resolve_vote(state, action.candidate, events)


def search_truck(state: GameState, action: SearchTruck, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.TRUCK_CHOICE)
        if action not in truck_options(state, action.seat):
            raise IllegalAction("truck_choice_invalid")
    drawn, seat = state.drawn, action.seat
    if action.keep is not None:
        state.hands[seat].append(drawn[action.keep])
        if events is not None:
            events.append(Event("card_kept", {"card": drawn[action.keep]}, to=(seat,)))
    if action.give is not None and action.give_to is not None:
        card = drawn[action.give]
        state.hands[action.give_to].append(card)
        if events is not None:
            events.append(Event("card_given", {"player": seat, "to": action.give_to}))
            events.append(
                Event(
                    "card_gift",
                    {"card": card, "from": seat, "to": action.give_to},
                    to=(seat, action.give_to),
                )
            )
    boxed = [c for i, c in enumerate(drawn) if i not in (action.keep, action.give)]
    state.box.extend(boxed)
    state.drawn = []
    if events is not None:
        events.append(
            Event("truck_done", {"player": seat, "boxed": len(boxed), "deck": len(state.deck)})
        )
    flow.begin_badge(state, events)


def choose_destination(
    state: GameState, action: ChooseDestination, events: Events, checked: bool
) -> None:
    if not checked:
        _expect(state, action.seat, Step.BADGE_DESTINATION, Step.DESTINATIONS)
        if action.location not in destination_options(state, action.seat):
            raise IllegalAction("destination_not_allowed", location=action.location)
    state.destinations[action.seat] = action.location
    if state.step == Step.BADGE_DESTINATION:
        if events is not None:
            events.append(
                Event("badge_destination", {"player": action.seat, "location": action.location})
            )
        flow.begin_secret_destinations(state, events)
        return
    if events is not None:
        events.append(
            Event("destination_receipt", {"location": action.location}, to=(action.seat,))
        )
        events.append(Event("destination_locked", {"player": action.seat}))
    kept = state.pending_cache  # read once, as in done
    state.pending_cache = None
    if kept is None or kept[0] != state.version:
        waiting = moves.destination_players(state)
    else:
        # Only this seat's choice changed: it owes nothing more, nobody else is affected.
        waiting = _without(kept[1], action.seat)
    if waiting:
        state.next_pending = waiting
    else:
        flow.reveal_destinations(state, events)


def move(state: GameState, action: MoveCharacter, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.MOVE)
        if action.character not in moves.move_options(state, action.seat):
            raise IllegalAction("character_cannot_move")
    moves.move_character(state, action.seat, action.character, "move", events)
    flow.begin_after_move(state, events)


def devour(state: GameState, action: Devour, events: Events, checked: bool) -> None:
    if not checked:
        _expect(state, action.seat, Step.DEVOUR)
        if action.character not in votes.devour_options(state, action.seat):
            raise IllegalAction("character_cannot_be_devoured")
    flow.finish_devour(state, action.character, events)
