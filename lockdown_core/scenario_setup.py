"""A scenario's starting state: a position entered through the engine's own flow.

A position is set piece by piece and then entered through the flow functions,
so that it starts exactly as a real game would reach it; a scenario without
a position starts a fresh game from its seed.
"""

from __future__ import annotations

from collections import Counter

from lockdown_core import facts, flow, placement
from lockdown_core.engine import new_game, seed_hash
from lockdown_core.errors import DataError
from lockdown_core.events import Event
from lockdown_core.model import GameState
from lockdown_core.pieces import COLD, UNPLACED, Character
from lockdown_core.rng import Rng, seed_state
from lockdown_core.ruleset import load_ruleset
from lockdown_core.scenario_format import PLACE_CODES, Position, Scenario, ScenarioError


def build(scenario: Scenario) -> tuple[GameState, list[Event]]:
    """The starting state and the events that led to it; raises ScenarioError."""
    try:
        rules = load_ruleset(scenario.variants)
    except DataError as exc:
        raise ScenarioError(f"variants: {exc}") from exc
    if scenario.players not in facts.player_range(rules):
        raise ScenarioError(
            f"players: must be {rules.min_players} to {rules.max_players}, got {scenario.players}"
        )
    seed = 0 if scenario.seed is None else scenario.seed
    if scenario.position is None:
        return new_game(rules, scenario.players, seed)
    state = GameState(rules, scenario.players, Rng(seed_state(seed)))
    state.seed_hash = seed_hash(seed)
    _set_position(state, scenario.position)
    state.rng.forced_dice = list(scenario.dice)
    events: list[Event] = []
    _enter(state, scenario.position, events)
    return state, events


def _set_position(state: GameState, pos: Position) -> None:
    rules = state.rules
    players = state.players
    _set_characters(state, pos)
    for name, seat in (("badge", pos.badge), ("martyr", pos.martyr)):
        if seat >= players:
            raise ScenarioError(f"position.{name}: seat {seat} does not exist")
    state.badge, state.martyr = pos.badge, pos.martyr
    for loc in pos.closed:
        state.closed[loc] = True
    for loc, count in pos.monsters.items():
        spots = rules.location(loc).monster_spots
        if state.closed[loc] and count:
            raise ScenarioError(f"position.monsters.{loc}: location {loc} is closed")
        if count > spots:
            raise ScenarioError(f"position.monsters.{loc}: {count} Monsters, {spots} spots")
        state.monsters[loc] = count
    on_board = sum(state.monsters)
    if on_board > rules.monster_tokens:
        raise ScenarioError(f"position.monsters: {on_board} Monsters on the board, too many")
    free = rules.monster_tokens - on_board
    if pos.supply is not None and pos.supply > free:
        raise ScenarioError(f"position.supply: at most {free} with {on_board} on the board")
    state.supply = free if pos.supply is None else pos.supply
    _set_cards(state, pos)


def _set_characters(state: GameState, pos: Position) -> None:
    rules = state.rules
    family = rules.family_for(state.players)
    if len(pos.characters) != state.players:
        raise ScenarioError(
            f"position.characters: one entry per seat ({state.players}), got {len(pos.characters)}"
        )
    for seat, places in enumerate(pos.characters):
        for kind in places:
            if kind not in family:
                raise ScenarioError(
                    f"position.characters.{seat}.{kind}: not in this game's family "
                    f"({', '.join(family)})"
                )
        for kind in family:
            if kind not in places:
                raise ScenarioError(f"position.characters.{seat}.{kind}: missing")
            place = places[kind]
            loc = PLACE_CODES[place] if isinstance(place, str) else place
            state.characters.append(Character(len(state.characters), seat, kind, loc))
    for loc in range(1, 7):
        here = len(state.at(loc))
        spots = rules.location(loc).character_spots
        if here and loc in pos.closed:
            raise ScenarioError(f"position.characters: location {loc} is closed")
        if spots is not None and here > spots:
            raise ScenarioError(
                f"position.characters: {here} characters at location {loc}, {spots} spots"
            )
    # R8.1: Cold storage fills in id order here; R8.4's rows follow from the count.
    state.cold_storage = [c.id for c in state.characters if c.location == COLD]
    total = 0
    for row, size in enumerate(rules.cold_storage_rows):
        total += size
        state.rows_triggered[row] = len(state.cold_storage) >= total


def _set_cards(state: GameState, pos: Position) -> None:
    rules = state.rules
    copies = {c.key: c.copies for c in rules.cards}
    hands = pos.hands if pos.hands is not None else [[] for _ in range(state.players)]
    if len(hands) != state.players:
        raise ScenarioError(
            f"position.hands: one entry per seat ({state.players}), got {len(hands)}"
        )
    used: Counter[str] = Counter()
    places: list[tuple[str, list[str]]] = [(f"hands.{i}", h) for i, h in enumerate(hands)]
    places += [("box", pos.box), ("played", pos.played)]
    if pos.deck is not None:
        places.append(("deck", pos.deck))
    for name, cards in places:
        for card in cards:
            if card not in copies:
                raise ScenarioError(f"position.{name}: unknown card {card!r}")
            used[card] += 1
            if used[card] > copies[card]:
                raise ScenarioError(
                    f"position.{name}: more {card} than the deck's {copies[card]} copies"
                )
    state.hands = [list(h) for h in hands]
    state.box = list(pos.box)
    state.played = list(pos.played)
    if pos.deck is not None:
        # The engine draws from the end of its list; files list the top card first.
        state.deck = list(reversed(pos.deck))
    else:
        state.deck = list((Counter(rules.deck_list()) - used).elements())
        state.rng.shuffle(state.deck)


def _enter(state: GameState, pos: Position, events: list[Event]) -> None:
    """Reach the start step through the engine's own flow, as a real game would."""
    start = pos.start
    step = start.step
    unplaced = [c for c in state.characters if c.location == UNPLACED]
    if step == "placement":
        seat = state.badge if start.seat is None else start.seat
        if seat >= state.players or not any(c.seat == seat for c in unplaced):
            raise ScenarioError(f"position.start.seat: seat {seat} has nobody to place")
    elif unplaced:
        raise ScenarioError("position.characters: 'unplaced' only with the placement step")
    if start.dice is not None and step not in ("destinations", "arrivals", "attacks"):
        raise ScenarioError("position.start.dice: only for destinations, arrivals and attacks")
    if start.dice is None and step in ("destinations", "arrivals"):
        raise ScenarioError(f"position.start.dice: required to start at {step}")
    if start.dice_seen and step != "destinations":
        raise ScenarioError("position.start.dice_seen: only for the destinations step")
    if start.seat is not None and step != "placement":
        raise ScenarioError("position.start.seat: only for the placement step")
    state.turn = pos.turn
    state.dice = list(start.dice or [])
    if step == "placement":
        state.turn = 0
        placement.begin_placement(state, seat, events)
    elif step == "turn":
        state.turn = pos.turn - 1
        flow.start_turn(state, events)
    elif step == "badge":
        flow.begin_badge(state, events)
    elif step == "destinations":
        state.dice_seen = set(start.dice_seen)
        flow.begin_destinations(state, events)
    elif step == "arrivals":
        state.dice_revealed = True
        flow.monsters_arrive(state, events)
    elif step == "attacks":
        state.dice_revealed = True
        state.attack_location = 0
        flow.next_attack(state, events)
    else:
        flow.end_of_turn(state, events)
