"""How the game moves on by itself between decisions.

Every function here is called once the step before it is complete; it does
the automatic work of docs/rules.md (rolls, Monster arrivals, reveals, attacks,
end of turn) and stops at the next step that waits for somebody.
"""

from __future__ import annotations

from lockdown_core import board, cards, facts, moves, stall, votes, windows
from lockdown_core.events import Event, Events
from lockdown_core.model import GameState
from lockdown_core.pieces import Step, Vote
from lockdown_core.scoring import final_result

# Turn structure ---------------------------------------------------------------


def start_turn(state: GameState, events: Events) -> None:
    state.turn += 1
    state.dice = []
    state.dice_seen = set()
    state.dice_revealed = False
    state.destinations = {}
    state.badge_won = False
    if events is not None:
        events.append(Event("turn_started", {"turn": state.turn}))
    _begin_truck(state, events)


def _begin_truck(state: GameState, events: Events) -> None:
    """R3.1: no search with nobody in the Parking lot or an empty deck."""
    parking = state.rules.parking_lot
    if not state.deck or not state.at(parking):
        reason = "empty_deck" if not state.deck else "empty_parking"
        if events is not None:
            events.append(Event("truck_skipped", {"reason": reason}))
        begin_badge(state, events)
        return
    _start_vote(state, "truck", parking, {}, events)


def begin_badge(state: GameState, events: Events) -> None:
    """R4.1/R4.2: a vote in the Surveillance room, or the holder keeps the badge."""
    room = state.rules.surveillance_room
    if state.at(room):
        _start_vote(state, "badge", room, {}, events)
        return
    if events is not None:
        events.append(Event("badge_kept", {"player": state.badge}))
    roll_arrival_dice(state, events)


def take_badge(state: GameState, winner: int, events: Events) -> None:
    if events is not None:
        events.append(Event("badge_taken", {"player": winner, "from": state.badge}))
    state.badge = winner
    state.badge_won = True
    roll_arrival_dice(state, events)


def roll_arrival_dice(state: GameState, events: Events) -> None:
    """R4.3: a secret roll; the holder sees it only with a badge won this turn."""
    state.dice = state.rng.roll(board.dice_count(state))
    state.dice_seen = set()
    if events is not None:
        events.append(Event("dice_rolled", {"player": state.badge, "count": len(state.dice)}))
    if state.badge_won and state.rules.badge_sees_dice:
        state.dice_seen.add(state.badge)
        if events is not None:
            events.append(Event("dice_seen", {"dice": list(state.dice)}, to=(state.badge,)))
    _begin_walkie_window(state, events)


def _begin_walkie_window(state: GameState, events: Events) -> None:
    """R4.4: a short window where anyone may play a Walkie-talkie."""
    state.step = Step.WALKIE_WINDOW
    state.acted = set()
    players = windows.window_players(state)
    if players:
        # The flow stops here: these seats are who is pending (see engine.apply_legal).
        state.next_pending = players
    else:
        begin_destinations(state, events)


def begin_destinations(state: GameState, events: Events) -> None:
    """R5.1: the badge holder chooses first, in the open."""
    state.acted = set()
    state.destinations = {}
    if moves.open_destinations(state, state.badge):
        state.step = Step.BADGE_DESTINATION
        state.mover = state.badge
        state.next_pending = [state.badge]
        return
    begin_secret_destinations(state, events)


def begin_secret_destinations(state: GameState, events: Events) -> None:
    state.step = Step.DESTINATIONS
    players = moves.destination_players(state)
    if players:
        state.next_pending = players
    else:
        reveal_destinations(state, events)


def reveal_destinations(state: GameState, events: Events) -> None:
    """R5.3, then the first move (R5.4) or, with nobody moving, the Monsters."""
    movers = moves.reveal_destinations(state, events)
    if not movers:
        monsters_arrive(state, events)
        return
    begin_move(state, movers[0], events)


def begin_move(state: GameState, seat: int, events: Events) -> None:
    """R5.4: the player's move; with one possible character it is made at once."""
    state.step = Step.MOVE
    state.mover = seat
    options = moves.move_options(state, seat)
    if len(options) > 1:
        state.next_pending = [seat]
        return
    if options:
        moves.move_character(state, seat, options[0], "move", events)
    else:
        if events is not None:
            events.append(Event("no_move", {"player": seat}))
    begin_after_move(state, events)


def begin_after_move(state: GameState, events: Events) -> None:
    """Right after their move a player may drink Energy drinks (R5.4)."""
    state.step = Step.AFTER_MOVE
    state.acted = set()
    mover = state.mover
    if windows.mover_may_drink(state):
        state.next_pending = [mover]
    else:
        next_mover(state, events)


def next_mover(state: GameState, events: Events) -> None:
    """The next seat clockwise from the badge holder, after the one who just moved,
    that chose a destination (R5.4); once all have moved, the Monsters arrive."""
    order = state.orders[state.badge]
    destinations = state.destinations
    for seat in order[order.index(state.mover) + 1 :]:
        if seat in destinations:
            begin_move(state, seat, events)
            return
    monsters_arrive(state, events)


# Step 5 (R6) ------------------------------------------------------------------


def monsters_arrive(state: GameState, events: Events) -> None:
    board.arrivals(state, state.dice, events)
    state.attack_location = 0
    next_attack(state, events)


# Step 6 (R7) ------------------------------------------------------------------


def next_attack(state: GameState, events: Events) -> None:
    """R7.1: resolve locations in order; stop at the first one that needs somebody."""
    parking = state.rules.parking_lot
    loc = state.attack_location
    while True:
        if loc == parking:
            if _parking_round(state, events):
                return
            end_of_turn(state, events)
            return
        loc += 1
        state.attack_location = loc
        if loc == parking:
            state.vote = None
            continue
        if board.under_attack(state, loc):
            if events is not None:
                events.append(
                    Event(
                        "attack_started",
                        {
                            "location": loc,
                            "monsters": state.monsters[loc],
                            "strength": board.strength_at(state, loc),
                        },
                    )
                )
            _start_vote(state, "attack", loc, {}, events)
            return


def _parking_round(state: GameState, events: Events) -> bool:
    """R7.7: one round of the Parking lot attack; False once it is over."""
    parking = state.rules.parking_lot
    ongoing = state.vote is not None and state.vote.location == parking
    present = state.at(parking)
    if state.monsters[parking] == 0 or (not present and not ongoing):
        state.vote = None
        return False
    if board.all_hidden(present):
        returned = board.remove_monsters(state, parking, state.monsters[parking])
        if events is not None:
            events.append(Event("monsters_left", {"location": parking, "monsters": returned}))
        state.vote = None
        return False
    guns: dict[int, int] = {}
    if ongoing and state.vote is not None:
        guns = dict(state.vote.guns)
    else:
        if events is not None:
            events.append(
                Event(
                    "attack_started",
                    {"location": parking, "monsters": state.monsters[parking], "strength": 0},
                )
            )
    _start_vote(state, "attack", parking, guns, events)
    return True


def after_attack_discussion(state: GameState, events: Events) -> None:
    """R7.3-R7.6 and R7.7 once the discussion of an attack is over."""
    assert state.vote is not None
    loc = state.vote.location
    parking = state.rules.parking_lot
    if loc != parking and not board.under_attack(state, loc):
        if events is not None:
            events.append(Event("attack_averted", {"location": loc}))
        next_attack(state, events)
        return
    if loc == parking and state.monsters[parking] == 0:
        if events is not None:
            events.append(Event("attack_averted", {"location": loc}))
        next_attack(state, events)
        return
    candidates = votes.exposed_seats(state, loc)
    if not candidates:
        returned = board.remove_monsters(state, loc, state.monsters[loc])
        if events is not None:
            events.append(Event("nobody_found", {"location": loc, "monsters": returned}))
        state.vote = None
        next_attack(state, events)
        return
    state.vote.candidates = candidates
    if len(candidates) == 1:
        begin_devour(state, candidates[0], events)
        return
    votes.begin_designation(state, events)


def begin_devour(state: GameState, seat: int, events: Events) -> None:
    state.step = Step.DEVOUR
    state.mover = seat
    options = votes.devour_options(state, seat)
    if len(options) == 1:
        finish_devour(state, options[0], events)
    else:
        state.next_pending = [seat]


def finish_devour(state: GameState, character_id: int, events: Events) -> None:
    """R7.4/R7.7 after the choice, then the next location or Parking round."""
    vote = state.vote
    assert vote is not None
    character = state.characters[character_id]
    loc = vote.location
    board.devour(state, character, events, votes.martyr_for(state, character.seat))
    if loc == state.rules.parking_lot:
        board.remove_monsters(state, loc, 1)
        if events is not None:
            events.append(
                Event("monster_removed", {"location": loc, "remaining": state.monsters[loc]})
            )
    else:
        returned = board.remove_monsters(state, loc, state.monsters[loc])
        if events is not None:
            events.append(Event("monsters_left", {"location": loc, "monsters": returned}))
        state.vote = None
    next_attack(state, events)


def end_of_turn(state: GameState, events: Events) -> None:
    """R8.5, R9.1, then R9.4's count of still turns."""
    for c in state.characters:
        c.hidden = False
    state.vote = None
    board.close_full_locations(state, events)
    threshold = facts.end_threshold(state.rules, state.players)
    if threshold is None:
        over = len([family for family in state.families() if board.any_living(family)]) <= 1
    else:
        # Each rule counts only what it reads: this runs at the end of every turn.
        over = len([c for c in state.characters if c.location]) <= threshold
    if over:
        state.step = Step.GAME_OVER
        state.result = final_result(state)
        if events is not None:
            events.append(Event("game_over", state.result))
        return
    if events is not None:
        events.append(Event("turn_ended", {"turn": state.turn}))
    stall.count_turn(state, events)
    start_turn(state, events)


# Votes (R2) -------------------------------------------------------------------


def _start_vote(
    state: GameState, kind: str, loc: int, guns: dict[int, int], events: Events
) -> None:
    vote = Vote(kind, loc)
    vote.guns = guns
    vote.candidates = votes.exposed_seats(state, loc)
    state.vote = vote
    if kind != "attack" and len(vote.candidates) == 1:
        # R2.5: a single candidate wins without discussion or designation.
        if events is not None:
            events.append(
                Event(
                    "vote_unopposed", {"vote": kind, "location": loc, "winner": vote.candidates[0]}
                )
            )
        resolve_vote(state, vote.candidates[0], events)
        return
    begin_discussion(state, events)


def begin_discussion(state: GameState, events: Events) -> None:
    players = votes.open_discussion(state, events)
    if players:
        state.next_pending = players
    else:
        end_discussion(state, events)


def end_discussion(state: GameState, events: Events) -> None:
    assert state.vote is not None
    if state.vote.kind == "attack":
        after_attack_discussion(state, events)
    else:
        votes.begin_designation(state, events)


def reveal_designations(state: GameState, events: Events) -> None:
    """R2.3/R2.4: everything at once, then the winner or the Martyr's tie-break."""
    vote = state.vote
    assert vote is not None
    tied = votes.reveal(state, events)
    if len(tied) == 1:
        resolve_vote(state, tied[0], events)
        return
    vote.tied = tied
    state.step = Step.TIEBREAK
    state.mover = state.martyr
    state.next_pending = [state.martyr]
    if events is not None:
        events.append(Event("tie", {"tied": tied, "martyr": state.martyr}))


def resolve_vote(state: GameState, winner: int, events: Events) -> None:
    vote = state.vote
    assert vote is not None
    if events is not None:
        events.append(
            Event("vote_won", {"vote": vote.kind, "location": vote.location, "winner": winner})
        )
    if vote.kind == "truck":
        state.vote = None
        cards.begin_truck_choice(state, winner, events)
    elif vote.kind == "badge":
        state.vote = None
        take_badge(state, winner, events)
    else:
        begin_devour(state, winner, events)
