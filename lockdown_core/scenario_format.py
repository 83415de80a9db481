"""The scenario file format (docs/scenarios.md): a position, forced dice, actions, checks.

Parsed and checked here, with every error naming its field; `scenario_setup`
builds the starting state and `scenario` plays it. Pure: the caller reads the
file and passes the parsed JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
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

from lockdown_core.actions import (
    ACTION_TYPES,
    REVISION_KEY,
    Action,
    action_fields,
    action_revision,
    stored_field,
)
from lockdown_core.errors import IllegalAction
from lockdown_core.pieces import COLD, UNPLACED


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

PLACE_CODES = {"cold": COLD, "unplaced": UNPLACED}

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
    known = {stored_field(f.name) for f in fields(ACTION_TYPES[name])}
    extra = sorted(set(data) - known)
    if extra:
        raise ValueError(f"{name}: unknown field {extra[0]!r}")
    try:
        action: Action = _ACTION_ADAPTERS[name].validate_python(action_fields(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(stored_field(str(p)) for p in first["loc"])
        raise ValueError(f"{name}: field {where}: {first['msg']}") from exc
    return Played(action, revision)


ScenarioAction = Annotated[Played, PlainValidator(_parse_action)]


class Start(_Strict):
    """Where the scenario enters the game (see docs/scenarios.md for each step)."""

    step: Literal[
        "placement", "turn", "badge", "destinations", "arrivals", "attacks", "end_of_turn"
    ] = "turn"
    dice: list[Die] | None = Field(default=None, max_length=6)
    dice_seen: list[Seat] = []
    seat: Seat | None = None


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
    """A whole scenario file. Without `position` it is a game from its seed (a ReplayLog)."""

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
