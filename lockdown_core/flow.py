"""How the game moves on by itself between decisions.

Every function here is called once the step before it is complete; it does
the automatic work of RULES.md (rolls, Monster arrivals, reveals, attacks,
end of turn) and stops at the next step that waits for somebody.
"""

from __future__ import annotations

from functools import cache

from lockdown_core import board, facts
from lockdown_core.events import Event, Events
from lockdown_core.model import Character, GameState, Step, Vote
from lockdown_core.scoring import final_result

# Cards that can matter in each kind of discussion (R2.6, R7.8).
VOTE_CARDS = ("gun",)
ATTACK_CARDS = ("gun", "tin_can", "baseball_bat", "chainsaw", "molotov_cocktail", "rotten_meat")


# The card sets whose exhaustion closes a window, by index into `_CARD_SETS`.
_ATTACK, _VOTE, _WALKIE, _ENERGY = range(4)
_CARD_SETS = (ATTACK_CARDS, VOTE_CARDS, ("walkie_talkie",), ("energy_drink",))


def _all_played(state: GameState, which: int) -> bool:
    """Public knowledge: every copy of the cards of `_CARD_SETS[which]` is face up.

    Asked several times per action and changed only when a card is played, so the
    answers are kept with the `played` list (and its length) they were read from.
    """
    played = state.played
    cache = state.exhausted_cache
    if cache[0] is not played or cache[1] != len(played):
        cache[:] = [played, len(played), None, None, None, None]
    known: bool | None = cache[2 + which]
    if known is None:
        known = True
        copies = state.card_copies
        for card in _CARD_SETS[which]:
            if played.count(card) < copies.get(card, 0):
                known = False
                break
        cache[2 + which] = known
    return known


# Setup (R1) -----------------------------------------------------------------


def begin_placement(state: GameState, player: int, events: Events) -> None:
    """R1.4: the player rolls one die per character and will assign them."""
    count = len(state.living(player))
    state.step = Step.PLACEMENT
    state.mover = player
    state.next_pending = [player]
    state.dice = state.rng.roll(count)
    state.dice_revealed = True
    if events is not None:
        events.append(Event("placement_rolled", {"player": player, "dice": list(state.dice)}))


def after_placement(state: GameState, events: Events) -> None:
    order = state.orders[state.badge]
    index = order.index(state.mover) + 1
    if index < len(order):
        begin_placement(state, order[index], events)
        return
    state.dice = []
    state.dice_revealed = False
    count = state.rules.first_arrival_dice
    _arrivals(state, state.rng.roll(state.rules.start_dice if count is None else count), events)
    start_turn(state, events)


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


def begin_truck_choice(state: GameState, searcher: int, events: Events) -> None:
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
    players = window_players(state)
    if players:
        # The flow stops here: these seats are who is pending (see engine.apply_legal).
        state.next_pending = players
    else:
        begin_destinations(state, events)


def window_players(state: GameState) -> list[int]:
    """Who may still act in a discussion or a card window, from public facts only.

    The set depends on seats, positions and hand sizes, never on which cards
    are held, so how long a step lasts tells nobody what is in a hand.
    It is empty once every copy of the cards the step allows is face up: then
    nobody could act (R2.3), also in the middle of a window.
    """
    step = state.step
    hands = state.hands
    acted = state.acted
    if step == Step.DISCUSSION:
        vote = state.vote
        if vote is None:
            return []
        # Seats clockwise from the badge holder, each with a card and not yet done.
        order = state.orders[state.badge]
        if vote.kind == "attack":
            if _all_played(state, _ATTACK):
                return []
            loc = vote.location
            families = state.families()
            players = []
            # Seats with a card and not done, then only their own families looked at.
            for p in order:
                if hands[p] and p not in acted:
                    for c in families[p]:
                        if c.location == loc:
                            players.append(p)
                            break
            return players
        if _all_played(state, _VOTE):
            return []
        candidates = vote.candidates
        return [p for p in order if p in candidates and hands[p] and p not in acted]
    if step == Step.WALKIE_WINDOW:
        if _all_played(state, _WALKIE):
            return []
        return [p for p in range(state.players) if hands[p] and p not in acted]
    if step == Step.AFTER_MOVE:
        mover = state.mover
        if not hands[mover] or mover in acted or _all_played(state, _ENERGY):
            return []
        return [mover]
    return []


def in_window(state: GameState, player: int) -> bool:
    """`player in window_players(state)`, checked for that one seat (a hot path)."""
    if not 0 <= player < state.players or not state.hands[player] or player in state.acted:
        return False
    step = state.step
    if step == Step.DISCUSSION:
        vote = state.vote
        if vote is None:
            return False
        if vote.kind == "attack":
            loc = vote.location
            here = loc in [c.location for c in state.family(player)]
            return here and not _all_played(state, _ATTACK)
        return player in vote.candidates and not _all_played(state, _VOTE)
    if step == Step.WALKIE_WINDOW:
        return not _all_played(state, _WALKIE)
    if step == Step.AFTER_MOVE:
        return player == state.mover and not _all_played(state, _ENERGY)
    return False


def begin_destinations(state: GameState, events: Events) -> None:
    """R5.1: the badge holder chooses first, in the open."""
    state.acted = set()
    state.destinations = {}
    if open_destinations(state, state.badge):
        state.step = Step.BADGE_DESTINATION
        state.mover = state.badge
        state.next_pending = [state.badge]
        return
    begin_secret_destinations(state, events)


def begin_secret_destinations(state: GameState, events: Events) -> None:
    state.step = Step.DESTINATIONS
    players = destination_players(state)
    if players:
        state.next_pending = players
    else:
        reveal_destinations(state, events)


def destination_options(state: GameState, player: int) -> list[int]:
    """R5.2: open locations where the player has a character that is not there yet.

    Empty for a seat with no character (R8.6), and also for one whose every
    character is in the only open location (the Parking lot, once 1-5 are
    closed): that seat has no destination and no move this turn.
    """
    return list(open_destinations(state, player))


def open_destinations(state: GameState, player: int) -> tuple[int, ...]:
    """`destination_options` as a shared tuple, for the paths that only read it: every
    destination step asks it of each seat."""
    first = 0
    for c in state.family(player):
        loc = c.location
        if loc > 0:
            if not first:
                first = loc
            elif loc != first:
                # With characters in two places or more, every open location qualifies.
                return _open_places(tuple(state.closed), 0)
    if not first:
        return ()
    return _open_places(tuple(state.closed), first)


@cache
def _open_places(closed: tuple[bool, ...], but: int) -> tuple[int, ...]:
    """The locations 1-6 not closed, less `but` (0 for none): a few hundred patterns."""
    return tuple(loc for loc in range(1, 7) if not closed[loc] and loc != but)


def destination_players(state: GameState) -> list[int]:
    """Seats that still owe a secret destination (R5.1, R8.6)."""
    chosen = state.destinations
    return [p for p in range(state.players) if p not in chosen and open_destinations(state, p)]


def owes_destination(state: GameState, player: int) -> bool:
    """`player in destination_players(state)`, checked for that one seat."""
    return (
        0 <= player < state.players
        and player not in state.destinations
        and bool(open_destinations(state, player))
    )


def reveal_destinations(state: GameState, events: Events) -> None:
    """R5.3: every destination and the dice, all at once."""
    if events is not None:
        events.append(
            Event(
                "destinations_revealed",
                {
                    "destinations": {str(p): d for p, d in sorted(state.destinations.items())},
                    "dice": list(state.dice),
                },
            )
        )
    state.dice_revealed = True
    movers = [p for p in state.orders[state.badge] if p in state.destinations]
    if not movers:
        monsters_arrive(state, events)
        return
    begin_move(state, movers[0], events)


def begin_move(state: GameState, player: int, events: Events) -> None:
    """R5.4: the player's move; with one possible character it is made at once."""
    state.step = Step.MOVE
    state.mover = player
    options = move_options(state, player)
    if len(options) > 1:
        state.next_pending = [player]
        return
    if options:
        move_character(state, player, options[0], "move", events)
    else:
        if events is not None:
            events.append(Event("no_move", {"player": player}))
    begin_after_move(state, events)


def move_target(state: GameState, player: int) -> int:
    """Where the player's move takes a character (R5.4): their destination, or
    the Parking lot when the destination is full."""
    dest = state.destinations[player]
    return dest if state.free_spot(dest) else state.rules.parking_lot


def move_options(state: GameState, player: int) -> list[int]:
    """Characters the player may move now (R5.4), as ids.

    Never one already at the destination: with a free spot it has nowhere to
    go, and when the destination is full it stays too (R5.5), so only a
    character elsewhere, and not in the Parking lot, is sent there. Empty when
    nothing can move. A log stored under revision 1 replays with the old
    reading, where a character at a full destination was sent to the Parking lot.
    """
    if state.rules.revision < 2:
        to = move_target(state, player)
        return [c.id for c in state.family(player) if c.location and c.location != to]
    dest = state.destinations[player]
    parking = state.rules.parking_lot
    # Excluded: the destination, and the Parking lot when the move would lead there
    # (a full destination). Whether it is full is asked only of a family that has
    # somebody in the Parking lot, since it changes nothing for the others.
    options = []
    parked = False
    # One plain loop over a family of a few: cheaper than comprehensions.
    for c in state.family(player):
        loc = c.location
        if loc and loc != dest:
            options.append(c.id)
            parked = parked or loc == parking
    if parked and not state.free_spot(dest):
        return [i for i in options if state.characters[i].location != parking]
    return options


def move_character(
    state: GameState, player: int, character_id: int, reason: str, events: Events
) -> None:
    character = state.characters[character_id]
    dest = state.destinations[player]
    to = move_target(state, player)
    if events is not None:
        events.append(
            Event(
                "character_moved",
                {
                    "player": player,
                    "character": character_id,
                    "kind": character.kind,
                    "from": character.location,
                    "to": to,
                    "reason": reason if to == dest else "full",
                },
            )
        )
    character.location = to


def begin_after_move(state: GameState, events: Events) -> None:
    """Right after their move a player may drink Energy drinks (R5.4)."""
    state.step = Step.AFTER_MOVE
    state.acted = set()
    mover = state.mover
    # window_players of this step, where nobody has acted yet: after every move.
    if state.hands[mover] and not _all_played(state, _ENERGY):
        state.next_pending = [mover]
    else:
        next_mover(state, events)


def next_mover(state: GameState, events: Events) -> None:
    """The next seat clockwise from the badge holder, after the one who just moved,
    that chose a destination (R5.4); once all have moved, the Monsters arrive."""
    order = state.orders[state.badge]
    destinations = state.destinations
    for player in order[order.index(state.mover) + 1 :]:
        if player in destinations:
            begin_move(state, player, events)
            return
    monsters_arrive(state, events)


# Phase 5 (R6) -----------------------------------------------------------------


def monsters_arrive(state: GameState, events: Events) -> None:
    _arrivals(state, state.dice, events)
    state.attack_location = 0
    next_attack(state, events)


def _arrivals(state: GameState, dice: list[int], events: Events) -> None:
    """R6.1-R6.3 (and R1.5): one Monster per die, then Weepers, then the crowd."""
    if events is not None:
        events.append(Event("monsters_arrive", {"dice": list(dice)}))
    for die in dice:
        board.place_monster(state, die, "die", events)
    specs = state.kind_specs
    weepers = [0] * 7
    crowd = [0] * 7
    for c in state.characters:
        loc = c.location
        if loc:
            crowd[loc] += 1
            if specs[c.kind].attracts_monsters:
                weepers[loc] += 1
    for counts, reason, amount in (
        (weepers, "weepers", state.rules.weeper_monsters),
        (crowd, "crowd", facts.CROWD_MONSTERS),
    ):
        most = max(counts)
        if most == 0 or amount == 0:
            continue
        for loc in range(1, 7):
            if counts[loc] == most:
                for _ in range(amount):
                    board.place_monster(state, loc, reason, events)


# Phase 6 (R7) -----------------------------------------------------------------


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
    if _all_hidden(present):
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


def _all_hidden(characters: list[Character]) -> bool:
    """Whether every one of `characters` is hidden (True for none at all)."""
    for c in characters:  # noqa: SIM110 (a plain loop costs less than all() on a generator)
        if not c.hidden:
            return False
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
    candidates = _exposed_owners(state, loc)
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
    begin_designation(state, events)


def _exposed_owners(state: GameState, loc: int) -> list[int]:
    """Players with a non-hidden character at `loc`, clockwise from the badge holder."""
    owners = set()
    # A plain loop: cheaper than a comprehension, and every vote starts here.
    for c in state.characters:
        if c.location == loc and not c.hidden:
            owners.add(c.owner)
    if len(owners) < 2:
        # Nobody or one seat: no order to put them in.
        return list(owners)
    return [p for p in state.orders[state.badge] if p in owners]


def begin_devour(state: GameState, player: int, events: Events) -> None:
    state.step = Step.DEVOUR
    state.mover = player
    options = devour_options(state, player)
    if len(options) == 1:
        finish_devour(state, options[0], events)
    else:
        state.next_pending = [player]


def devour_options(state: GameState, player: int) -> list[int]:
    assert state.vote is not None
    loc = state.vote.location
    return [c.id for c in state.family(player) if c.location == loc and not c.hidden]


def finish_devour(state: GameState, character_id: int, events: Events) -> None:
    """R7.4/R7.7 after the choice, then the next location or Parking round."""
    vote = state.vote
    assert vote is not None
    character = state.characters[character_id]
    loc = vote.location
    board.devour(state, character, events, _martyr_for(state, character.owner))
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


def _martyr_for(state: GameState, owner: int) -> int:
    """R8.2, or the Vendetta variant: the heaviest voter against the victim."""
    vote = state.vote
    if state.rules.martyr_rule != "vendetta" or vote is None or not vote.revealed:
        return owner
    weights = weights_of(state, vote)
    against = {v: weights[v] for v, c in vote.designations.items() if c == owner}
    if not against:
        return owner
    heaviest = max(against.values())
    top = [v for v, w in against.items() if w == heaviest]
    return top[0] if len(top) == 1 else owner


def end_of_turn(state: GameState, events: Events) -> None:
    """R8.5 then R9.1."""
    for c in state.characters:
        c.hidden = False
    state.vote = None
    board.close_full_locations(state, events)
    threshold = facts.end_threshold(state.rules, state.players)
    if threshold is None:
        over = len([family for family in state.families() if _any_living(family)]) <= 1
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
    start_turn(state, events)


def _any_living(family: list[Character]) -> bool:
    """`GameState.has_characters`, for a family already in hand."""
    for c in family:  # noqa: SIM110 (a plain loop costs less than any() on a generator)
        if c.location:
            return True
    return False


# Votes (R2) -------------------------------------------------------------------


def _start_vote(
    state: GameState, kind: str, loc: int, guns: dict[int, int], events: Events
) -> None:
    vote = Vote(kind, loc)
    vote.guns = guns
    vote.candidates = _exposed_owners(state, loc)
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
    assert state.vote is not None
    state.step = Step.DISCUSSION
    state.acted = set()
    players = window_players(state)
    if events is not None:
        events.append(
            Event(
                "discussion_started",
                {
                    "vote": state.vote.kind,
                    "location": state.vote.location,
                    # A list of its own: the pending seats are kept apart (next_pending).
                    "players": list(players),
                },
            )
        )
    if players:
        state.next_pending = players
    else:
        end_discussion(state, events)


def end_discussion(state: GameState, events: Events) -> None:
    assert state.vote is not None
    if state.vote.kind == "attack":
        after_attack_discussion(state, events)
    else:
        begin_designation(state, events)


def begin_designation(state: GameState, events: Events) -> None:
    assert state.vote is not None
    state.step = Step.DESIGNATION
    state.vote.designations = {}
    # Nobody has designated yet: every voter is pending (see engine.apply_legal).
    state.next_pending = voters(state)
    if events is not None:
        events.append(
            Event(
                "designation_started",
                {
                    "vote": state.vote.kind,
                    "location": state.vote.location,
                    "voters": voters(state),
                    "candidates": list(state.vote.candidates),
                },
            )
        )


def voters(state: GameState) -> list[int]:
    """R2.1: voters are the candidates' set for every kind of vote we hold."""
    assert state.vote is not None
    return list(state.vote.candidates)


def weights_of(state: GameState, vote: Vote) -> dict[int, int]:
    """R2.1/R2.6: votes of non-hidden characters there, plus Guns played."""
    specs = state.kind_specs
    weights = dict.fromkeys(vote.candidates, 0)
    loc = vote.location
    families = state.families()
    # Only the voters' own families can weigh: a few characters rather than all.
    for player in weights:
        for c in families[player]:
            if c.location == loc and not c.hidden:
                weights[player] += specs[c.kind].votes
    for player, guns in vote.guns.items():
        if player in weights:
            weights[player] += guns
    return weights


def reveal_designations(state: GameState, events: Events) -> None:
    """R2.3/R2.4: everything at once, then the winner or the Martyr's tie-break."""
    vote = state.vote
    assert vote is not None
    vote.revealed = True
    weights = weights_of(state, vote)
    totals = dict.fromkeys(vote.candidates, 0)
    for voter, candidate in vote.designations.items():
        totals[candidate] += weights[voter]
    best = max(totals.values())
    tied = [p for p in vote.candidates if totals[p] == best]
    if events is not None:
        events.append(
            Event(
                "designations_revealed",
                {
                    "vote": vote.kind,
                    "location": vote.location,
                    "designations": {str(v): c for v, c in sorted(vote.designations.items())},
                    "weights": {str(v): w for v, w in weights.items()},
                    "totals": {str(p): t for p, t in totals.items()},
                },
            )
        )
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
        begin_truck_choice(state, winner, events)
    elif vote.kind == "badge":
        state.vote = None
        take_badge(state, winner, events)
    else:
        begin_devour(state, winner, events)
