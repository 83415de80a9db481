"""Board operations shared by several steps: Monsters, devouring, closing.

Each function mutates the state and appends the events it causes; callers
have already checked legality, so nothing here can fail half-way.
"""

from __future__ import annotations

from lockdown_core import facts
from lockdown_core.events import Event, Events
from lockdown_core.model import GameState
from lockdown_core.pieces import COLD, Character


def place_monster(state: GameState, loc: int, reason: str, events: Events) -> None:
    """R6.1 placement and runoff: closed or full goes to the Parking lot, else lost. A
    Monster turned away says why (`turned_away`: "closed" or "full")."""
    # GameState.free_monster_spot, inline: a turn places dozens of Monsters.
    closed, monsters, locations = state.closed, state.monsters, state.rules.locations
    target, turned_away = loc, ""
    if closed[loc] or monsters[loc] >= locations[loc - 1].monster_spots:
        target = state.rules.parking_lot
        turned_away = "closed" if closed[loc] else "full"
    if (
        state.supply <= 0
        or closed[target]
        or monsters[target] >= locations[target - 1].monster_spots
    ):
        if events is not None:
            events.append(Event("monster_not_placed", {"location": loc, "reason": reason}))
        return
    state.supply -= 1
    monsters[target] += 1
    if events is not None:
        data: dict[str, object] = {"location": target, "intended": loc, "reason": reason}
        if turned_away:
            # Why it did not stay: the story says it (R6.1), each cause once.
            data["turned_away"] = turned_away
        events.append(Event("monster_added", data))


def remove_monsters(state: GameState, loc: int, count: int) -> int:
    """Send up to `count` Monsters of a location back to the supply; returns how many."""
    removed = min(count, state.monsters[loc])
    state.monsters[loc] -= removed
    state.supply += removed
    return removed


def strength_at(state: GameState, loc: int) -> int:
    """R7.2: every character counts, hidden ones included."""
    specs = state.kind_specs
    return sum(specs[c.kind].strength for c in state.characters if c.location == loc)


def attack_uses_equal(state: GameState) -> bool:
    """R8.4 row 1 (or the Early dusk variant) turns R7.2's > into >=."""
    return state.rules.attack_at_equal_from_start or state.rows_triggered[0]


def under_attack(state: GameState, loc: int) -> bool:
    """R7.2 for locations 1-5."""
    monsters = state.monsters[loc]
    if monsters == 0:
        return False
    specs = state.kind_specs
    # strength_at and whether anyone is there, in one plain loop over the characters
    # (cheaper than a comprehension: asked of every location after every arrival).
    strength = 0
    anyone = False
    for c in state.characters:
        if c.location == loc:
            anyone = True
            strength += specs[c.kind].strength
    if not anyone:
        return False
    # attack_uses_equal and facts.gets_in, inline: asked of every location after every
    # arrival.
    if state.rules.attack_at_equal_from_start or state.rows_triggered[0]:
        return monsters >= strength
    return monsters > strength


def dice_count(state: GameState) -> int:
    """Arrival dice: the start dice plus one per Cold storage row after the first (R8.4)."""
    return facts.arrival_dice(state.rules, state.rows_triggered)


def value(state: GameState, character: Character) -> int:
    return state.kind_specs[character.kind].points


def lowest_value(state: GameState, characters: list[Character]) -> Character:
    """Default choices (R5.4, R7.9) take the lowest-value character, lowest id on a tie."""
    return min(characters, key=lambda c: (value(state, c), c.id))


def devour(state: GameState, character: Character, events: Events, martyr: int) -> None:
    """R8.1-R8.4: into the Cold storage; the Martyr token and maybe the badge move."""
    loc = character.location
    character.location = COLD
    character.hidden = False
    state.cold_storage.append(character.id)
    if events is not None:
        events.append(
            Event(
                "character_devoured",
                {
                    "character": character.id,
                    "owner": character.seat,
                    "kind": character.kind,
                    "location": loc,
                },
            )
        )
    if state.martyr != martyr and events is not None:
        events.append(Event("martyr_taken", {"player": martyr, "from": state.martyr}))
    state.martyr = martyr
    seat = character.seat
    if state.badge == seat and not state.has_characters(seat):
        for heir in state.clockwise_from(seat)[1:]:
            if state.has_characters(heir):
                if events is not None:
                    events.append(Event("badge_passed", {"from": seat, "to": heir}))
                state.badge = heir
                break
    _check_rows(state, events)


def _check_rows(state: GameState, events: Events) -> None:
    filled = len(state.cold_storage)
    total = 0
    for row, size in enumerate(state.rules.cold_storage_rows):
        total += size
        if filled >= total and not state.rows_triggered[row]:
            state.rows_triggered[row] = True
            if events is not None:
                # What the row changes rides with it: a reader needs no ruleset (R8.4).
                effect = facts.row_effect(state.rules, row + 1)
                events.append(Event("cold_row_filled", {"row": row + 1, "effect": effect}))


def close_full_locations(state: GameState, events: Events) -> None:
    """R8.5: a location 1-5 holding the closing number of Monsters shuts for good."""
    parking = state.rules.parking_lot
    limit = facts.closes_at(state.rules)
    for loc in range(1, 7):
        if loc == parking or state.closed[loc] or state.monsters[loc] < limit:
            continue
        moved = [c.id for c in state.characters if c.location == loc]
        for c in state.characters:
            if c.location == loc:
                c.location = parking
        returned = remove_monsters(state, loc, state.monsters[loc])
        state.closed[loc] = True
        if events is not None:
            events.append(
                Event(
                    "location_closed", {"location": loc, "characters": moved, "monsters": returned}
                )
            )


def arrivals(state: GameState, dice: list[int], events: Events) -> None:
    """R6.1-R6.3 (and R1.5): one Monster per die, then Weepers, then the crowd."""
    if events is not None:
        events.append(Event("monsters_arrive", {"dice": list(dice)}))
    for die in dice:
        place_monster(state, die, "die", events)
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
                    place_monster(state, loc, reason, events)


def all_hidden(characters: list[Character]) -> bool:
    """Whether every one of `characters` is hidden (True for none at all)."""
    for c in characters:  # noqa: SIM110 (a plain loop costs less than all() on a generator)
        if not c.hidden:
            return False
    return True


def any_living(family: list[Character]) -> bool:
    """`GameState.has_characters`, for a family already in hand."""
    for c in family:  # noqa: SIM110 (a plain loop costs less than any() on a generator)
        if c.location:
            return True
    return False
