"""Scenario files: a position, forced dice, actions and expectations (docs/scenarios.md).

A scenario either sets up a position and enters it through the engine's own
flow functions, so that it starts exactly as a real game would reach it, or
starts a fresh game from a seed, which makes a recorded game (`GameRecord`)
a scenario too: that is how `lockdown replay` checks a finished game's
fairness from its seed and its action log.

Pure: the caller reads the file and passes the parsed JSON.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    Tag,
    TypeAdapter,
    ValidationError,
)

from lockdown_core import flow, placement
from lockdown_core.actions import (
    ACTION_TYPES,
    REVISION_KEY,
    Action,
    action_revision,
    action_to_dict,
)
from lockdown_core.engine import apply, new_game, seed_hash
from lockdown_core.epilogues import epilogue_to_unlock
from lockdown_core.errors import DataError, IllegalAction
from lockdown_core.events import Event
from lockdown_core.legal import legal_actions, pending_players
from lockdown_core.model import COLD, UNPLACED, Character, GameState
from lockdown_core.rng import Rng, seed_state
from lockdown_core.ruleset import RULES_REVISION, load_ruleset


class ScenarioError(Exception):
    """A malformed scenario, or a position that cannot exist; the message starts with the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Die = Annotated[int, Field(ge=1, le=6)]
Seat = Annotated[int, Field(ge=0, le=5)]


def _place(value: object) -> int | str:
    """A character's place: a location 1-6, "cold" (devoured) or "unplaced" (setup)."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
        return value
    if value in ("cold", "unplaced"):
        return str(value)
    raise ValueError(f"{value!r} is not a location 1-6, 'cold' or 'unplaced'")


Place = Annotated[int | str, PlainValidator(_place)]
# A character named by its owner and kind, "2:weeper" (one kind per family).
Ref = Annotated[str, Field(pattern=r"^[0-9]+:[a-z_]+$")]

_PLACE_CODES = {"cold": COLD, "unplaced": UNPLACED}

_ACTION_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    name: TypeAdapter(cls) for name, cls in ACTION_TYPES.items()
}


@dataclass(frozen=True)
class Played:
    """An action of the file and the rules revision it says it was played under
    (`"rules"`, as a stored log marks it; None when the file does not say)."""

    action: Action
    revision: int | None


def _parse_action(value: object) -> Played:
    """An action in `action_to_dict` form, checked field by field (unknown fields refused)."""
    if not isinstance(value, dict):
        raise ValueError("an action is an object with a 'type'")
    data = dict(value)
    revision: int | None = None
    if REVISION_KEY in data:
        try:
            revision = action_revision(data)
        except IllegalAction as exc:
            raise ValueError(f"{REVISION_KEY}: not a rules revision this engine knows") from exc
        del data[REVISION_KEY]
    name = data.pop("type", None)
    if not isinstance(name, str) or name not in ACTION_TYPES:
        raise ValueError(f"type: {name!r} is not one of {', '.join(ACTION_TYPES)}")
    known = {f.name for f in fields(ACTION_TYPES[name])}
    extra = sorted(set(data) - known)
    if extra:
        raise ValueError(f"{name}: unknown field {extra[0]!r}")
    try:
        action: Action = _ACTION_ADAPTERS[name].validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"{name}: field {where}: {first['msg']}") from exc
    return Played(action, revision)


ScenarioAction = Annotated[Played, PlainValidator(_parse_action)]


class Start(_Strict):
    """Where the scenario enters the game (see docs/scenarios.md for each phase)."""

    phase: Literal[
        "placement", "turn", "badge", "destinations", "arrivals", "attacks", "end_of_turn"
    ] = "turn"
    dice: list[Die] | None = Field(default=None, max_length=6)
    dice_seen: list[Seat] = []
    player: Seat | None = None


class Position(_Strict):
    """A position of the board, hands and tokens; everything omitted takes its default."""

    characters: list[dict[str, Place]]
    monsters: dict[Annotated[int, Field(ge=1, le=6)], Annotated[int, Field(ge=0)]] = {}
    supply: Annotated[int, Field(ge=0)] | None = None
    closed: list[Annotated[int, Field(ge=1, le=5)]] = []
    hands: list[list[str]] | None = None
    deck: list[str] | None = None
    box: list[str] = []
    played: list[str] = []
    badge: Seat = 0
    martyr: Seat = 1
    turn: Annotated[int, Field(ge=1)] = 1
    start: Start = Start()


class EventMatch(_Strict):
    """An event of this kind whose data contains `data` (dicts compared as subsets)."""

    kind: str
    data: dict[str, Any] = {}
    to: Literal["public"] | list[Seat] | None = None


class Expectation(_Strict):
    """Assertions on the state and the events so far; only the fields given are checked."""

    step: str | None = None
    turn: int | None = None
    characters: dict[Seat, dict[str, Place]] | None = None
    hidden: list[Ref] | None = None
    monsters: dict[Annotated[int, Field(ge=1, le=6)], int] | None = None
    supply: int | None = None
    devoured: list[Ref] | None = None
    cold_storage: list[Ref] | None = None
    rows_filled: int | None = None
    badge: Seat | None = None
    martyr: Seat | None = None
    hands: dict[Seat, list[str]] | None = None
    hand_sizes: list[int] | None = None
    deck: list[str] | None = None
    deck_size: int | None = None
    box_size: int | None = None
    closed: list[int] | None = None
    dice: list[int] | None = None
    dice_seen: list[Seat] | None = None
    waiting_for: list[Seat] | None = None
    options: dict[Seat, int] | None = None
    scores: list[int] | None = None
    winners: list[Seat] | None = None
    epilogue: str | None = None
    seed_hash: str | None = None
    dice_left: int | None = None
    events: list[EventMatch] = []
    no_events: list[EventMatch] = []


class Check(_Strict):
    """An entry of `actions` that checks the state at that point."""

    expect: Expectation


class Refused(_Strict):
    """An entry of `actions` that must be refused with this IllegalAction key."""

    refused: str
    action: ScenarioAction


def _entry_tag(value: Any) -> str:
    if isinstance(value, dict):
        if "expect" in value:
            return "expect"
        if "refused" in value:
            return "refused"
    return "action"


Entry = Annotated[
    Annotated[ScenarioAction, Tag("action")]
    | Annotated[Check, Tag("expect")]
    | Annotated[Refused, Tag("refused")],
    Discriminator(_entry_tag),
]


class Scenario(_Strict):
    """A whole scenario file. Without `position` it is a game from its seed (a GameRecord)."""

    title: str = ""
    description: str = ""
    covers: list[str] = []
    players: Annotated[int, Field(ge=1)]
    variants: list[str] = []
    seed: int | str | None = None
    position: Position | None = None
    dice: list[Die] = []
    actions: list[Entry] = []
    expect: Expectation | None = None


def parse_scenario(data: Any) -> Scenario:
    """Validate parsed JSON; raises ScenarioError naming the first bad field."""
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ScenarioError(f"{_field_path(first['loc'])}: {_message(first['msg'])}") from exc
    if scenario.position is None:
        if scenario.seed is None:
            raise ScenarioError("seed: required when no position is given")
        if scenario.dice:
            raise ScenarioError("dice: a game from its seed takes every die from the seed")
    return scenario


def _field_path(loc: tuple[int | str, ...]) -> str:
    """The field as the file spells it, without pydantic's union and tag names."""
    parts = [str(p) for p in loc]
    if len(parts) > 2 and parts[0] == "actions" and parts[2] in ("action", "expect", "refused"):
        del parts[2]
    return ".".join(p for p in parts if not any(ch in p for ch in "[]-")) or "(top level)"


def _message(msg: str) -> str:
    return msg.removeprefix("Value error, ")


@dataclass
class ScenarioResult:
    """What a run produced: every event, the final state and the failed expectations."""

    state: GameState
    events: list[Event]
    failures: list[str] = field(default_factory=list)

    @property
    def public_log(self) -> list[Event]:
        return [e for e in self.events if e.public]

    @property
    def ok(self) -> bool:
        return not self.failures


# Building the starting state ----------------------------------------------------


def build(scenario: Scenario) -> tuple[GameState, list[Event]]:
    """The starting state and the events that led to it; raises ScenarioError."""
    try:
        rules = load_ruleset(scenario.variants)
    except DataError as exc:
        raise ScenarioError(f"variants: {exc}") from exc
    if not rules.min_players <= scenario.players <= rules.max_players:
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
            loc = _PLACE_CODES[place] if isinstance(place, str) else place
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
    phase = start.phase
    unplaced = [c for c in state.characters if c.location == UNPLACED]
    if phase == "placement":
        player = state.badge if start.player is None else start.player
        if player >= state.players or not any(c.owner == player for c in unplaced):
            raise ScenarioError(f"position.start.player: seat {player} has nobody to place")
    elif unplaced:
        raise ScenarioError("position.characters: 'unplaced' only with the placement phase")
    if start.dice is not None and phase not in ("destinations", "arrivals", "attacks"):
        raise ScenarioError("position.start.dice: only for destinations, arrivals and attacks")
    if start.dice is None and phase in ("destinations", "arrivals"):
        raise ScenarioError(f"position.start.dice: required to start at {phase}")
    if start.dice_seen and phase != "destinations":
        raise ScenarioError("position.start.dice_seen: only for the destinations phase")
    if start.player is not None and phase != "placement":
        raise ScenarioError("position.start.player: only for the placement phase")
    state.turn = pos.turn
    state.dice = list(start.dice or [])
    if phase == "placement":
        state.turn = 0
        placement.begin_placement(state, player, events)
    elif phase == "turn":
        state.turn = pos.turn - 1
        flow.start_turn(state, events)
    elif phase == "badge":
        flow.begin_badge(state, events)
    elif phase == "destinations":
        state.dice_seen = set(start.dice_seen)
        flow.begin_destinations(state, events)
    elif phase == "arrivals":
        state.dice_revealed = True
        flow.monsters_arrive(state, events)
    elif phase == "attacks":
        state.dice_revealed = True
        state.attack_location = 0
        flow.next_attack(state, events)
    else:
        flow.end_of_turn(state, events)


# Running and checking -------------------------------------------------------------


def run(scenario: Scenario) -> ScenarioResult:
    """Build, play every entry in order, check expectations; never raises IllegalAction.

    An action without a rules revision is played under the current rules in a
    position, and under revision 1 in a game from its seed: that is a recorded
    game, and a log recorded before revision 2 carries no mark (as `replay` reads it).
    """
    state, events = build(scenario)
    result = ScenarioResult(state, events)
    unsaid = RULES_REVISION if scenario.position is not None else 1
    for index, entry in enumerate(scenario.actions):
        where = f"actions.{index}"
        if isinstance(entry, Check):
            result.failures.extend(check(state, events, entry.expect, where))
        elif isinstance(entry, Refused):
            failure = _expect_refusal(state, entry, where, unsaid)
            if failure:
                result.failures.append(failure)
                return result
        else:
            revision = unsaid if entry.revision is None else entry.revision
            try:
                events.extend(apply(state, entry.action, revision))
            except IllegalAction as exc:
                result.failures.append(f"{where}: {_describe(entry.action)} was refused: {exc}")
                return result
    if scenario.expect is not None:
        result.failures.extend(check(state, events, scenario.expect, "expect"))
    return result


def _describe(action: Action) -> str:
    """The action as the file spells it (without the revision mark)."""
    data = action_to_dict(action)
    del data[REVISION_KEY]
    return str(data)


def _expect_refusal(state: GameState, entry: Refused, where: str, unsaid: int) -> str | None:
    played = entry.action
    before = state.to_dict()
    try:
        apply(state, played.action, unsaid if played.revision is None else played.revision)
    except IllegalAction as exc:
        if exc.key != entry.refused:
            return f"{where}: refused with {exc.key!r}, expected {entry.refused!r}"
        if state.to_dict() != before:
            return f"{where}: the refused action changed the state"
        return None
    return f"{where}: {_describe(played.action)} was accepted, expected {entry.refused!r}"


def _ref(state: GameState, ref: str, where: str) -> Character:
    seat, kind = ref.split(":")
    for c in state.characters:
        if c.owner == int(seat) and c.kind == kind:
            return c
    raise ScenarioError(f"{where}: no character {ref!r} in this game")


def _name(c: Character) -> str:
    return f"{c.owner}:{c.kind}"


def _place_name(loc: int) -> int | str:
    return {COLD: "cold", UNPLACED: "unplaced"}.get(loc, loc)


def check(state: GameState, events: list[Event], exp: Expectation, where: str) -> list[str]:
    """Every failed assertion of `exp`, as 'where.field: expected ..., got ...'."""
    got: dict[str, Any] = {}
    want: dict[str, Any] = {}

    def compare(name: str, expected: Any, actual: Any) -> None:
        if expected is not None:
            want[name], got[name] = expected, actual

    compare("step", exp.step, state.step)
    compare("turn", exp.turn, state.turn)
    for seat, kinds in (exp.characters or {}).items():
        for kind, place in kinds.items():
            c = _ref(state, f"{seat}:{kind}", f"{where}.characters.{seat}.{kind}")
            compare(f"characters.{seat}.{kind}", place, _place_name(c.location))
    for name in ("hidden", "devoured", "cold_storage"):
        for ref in getattr(exp, name) or ():
            _ref(state, ref, f"{where}.{name}")
    if exp.hidden is not None:
        hidden = sorted(_name(c) for c in state.characters if c.hidden)
        compare("hidden", sorted(exp.hidden), hidden)
    for loc, count in (exp.monsters or {}).items():
        compare(f"monsters.{loc}", count, state.monsters[loc])
    compare("supply", exp.supply, state.supply)
    if exp.devoured is not None:
        eaten = [e.data["character"] for e in events if e.kind == "character_devoured"]
        compare("devoured", exp.devoured, [_name(state.characters[i]) for i in eaten])
    if exp.cold_storage is not None:
        cold = [_name(state.characters[i]) for i in state.cold_storage]
        compare("cold_storage", exp.cold_storage, cold)
    compare("rows_filled", exp.rows_filled, sum(state.rows_triggered))
    compare("badge", exp.badge, state.badge)
    compare("martyr", exp.martyr, state.martyr)
    for seat, cards in (exp.hands or {}).items():
        compare(f"hands.{seat}", sorted(cards), sorted(state.hands[seat]))
    compare("hand_sizes", exp.hand_sizes, [len(h) for h in state.hands])
    compare("deck", exp.deck, list(reversed(state.deck)))
    compare("deck_size", exp.deck_size, len(state.deck))
    compare("box_size", exp.box_size, len(state.box))
    if exp.closed is not None:
        compare("closed", sorted(exp.closed), [loc for loc in range(1, 7) if state.closed[loc]])
    compare("dice", exp.dice, state.dice)
    if exp.dice_seen is not None:
        compare("dice_seen", sorted(exp.dice_seen), sorted(state.dice_seen))
    compare("waiting_for", exp.waiting_for, pending_players(state))
    for seat, count in (exp.options or {}).items():
        compare(f"options.{seat}", count, len(legal_actions(state, seat)))
    result = state.result or {}
    compare("scores", exp.scores, result.get("scores"))
    compare("winners", exp.winners, result.get("winners"))
    if exp.epilogue is not None:
        compare("epilogue", exp.epilogue, epilogue_to_unlock(state, ()) if state.result else None)
    compare("seed_hash", exp.seed_hash, state.seed_hash)
    compare("dice_left", exp.dice_left, len(state.rng.forced_dice))
    failures = [
        f"{where}.{name}: expected {want[name]!r}, got {got[name]!r}"
        for name in want
        if want[name] != got[name]
    ]
    failures.extend(_check_events(events, exp, where))
    return failures


def _check_events(events: list[Event], exp: Expectation, where: str) -> list[str]:
    """`events` must appear in this order (others may come between); `no_events` never."""
    failures = []
    position = 0
    for i, match in enumerate(exp.events):
        found = next((n for n in range(position, len(events)) if _matches(events[n], match)), None)
        if found is None:
            failures.append(f"{where}.events.{i}: no {_show(match)} (in order) in the log")
        else:
            position = found + 1
    for i, match in enumerate(exp.no_events):
        if any(_matches(e, match) for e in events):
            failures.append(f"{where}.no_events.{i}: {_show(match)} is in the log")
    return failures


def _show(match: EventMatch) -> str:
    return f"{match.kind} {match.data}" if match.data else match.kind


def _matches(event: Event, match: EventMatch) -> bool:
    if event.kind != match.kind:
        return False
    if match.to == "public" and not event.public:
        return False
    if isinstance(match.to, list) and list(event.to or ()) != match.to:
        return False
    return _contains(event.data, match.data)


def _contains(actual: Any, expected: Any) -> bool:
    """Dicts match when every expected key matches; anything else must be equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contains(actual[k], v) for k, v in expected.items()
        )
    if isinstance(actual, tuple):
        actual = list(actual)
    return bool(actual == expected)
