"""Actions: a seat's answer to a decision, or the table's own `Timeout`.

Frozen dataclasses keep the hot path cheap; `action_to_dict` and
`action_from_dict` are the JSON boundary used by storage, replays and buttons,
and validate every field so that a forged payload is refused, not applied.

A stored action also says the rules revision it was played under (`"rules"`,
`action_revision`): a log written before a rules change replays as it was
played, so a stored game never becomes unreadable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from lockdown_core.errors import IllegalAction
from lockdown_core.ruleset import RULES_REVISION


@dataclass(frozen=True, slots=True)
class PlaceFamily:
    """R1.4: `order[i]` is the character that takes die i of the placement roll."""

    seat: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Done:
    """The seat has nothing (more) to play in this discussion or window."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: str
    character: int | None = None
    location: int | None = None


@dataclass(frozen=True, slots=True)
class Designate:
    seat: int
    candidate: int


@dataclass(frozen=True, slots=True)
class BreakTie:
    seat: int
    candidate: int


@dataclass(frozen=True, slots=True)
class SearchTruck:
    """R3.2/R3.3: indexes into the drawn cards; every card not kept or given is boxed."""

    seat: int
    keep: int | None
    give: int | None = None
    give_to: int | None = None


@dataclass(frozen=True, slots=True)
class ChooseDestination:
    seat: int
    location: int


@dataclass(frozen=True, slots=True)
class MoveCharacter:
    seat: int
    character: int


@dataclass(frozen=True, slots=True)
class Devour:
    seat: int
    character: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """The table's action when a step's timer runs out: docs/rules.md's defaults apply."""


Action = (
    PlaceFamily
    | Done
    | PlayCard
    | Designate
    | BreakTie
    | SearchTruck
    | ChooseDestination
    | MoveCharacter
    | Devour
    | Timeout
)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        PlaceFamily,
        Done,
        PlayCard,
        Designate,
        BreakTie,
        SearchTruck,
        ChooseDestination,
        MoveCharacter,
        Devour,
        Timeout,
    )
}
_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    name: TypeAdapter(cls) for name, cls in ACTION_TYPES.items()
}


def actor(action: Action) -> int | None:
    """The seat that took the action, or None for the table."""
    return None if isinstance(action, Timeout) else action.seat


# The key of the rules revision in a stored action; absent in logs written before
# revision 2, which are revision 1.
REVISION_KEY = "rules"

# The key of the acting seat in the stored form. The code says `seat` (CONTRIBUTING.md,
# "Glossary"); every stored log, saved game, scenario and golden game says "player",
# and a stored form is data that must keep reading and hashing the same, so the two
# names meet here and nowhere else.
SEAT_KEY = "player"


def stored_field(name: str) -> str:
    """The stored form's key for an action's field."""
    return SEAT_KEY if name == "seat" else name


def action_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A stored action's fields under their names in the code (`SEAT_KEY` is `seat`);
    a key `seat`, which no stored form has, is dropped as any unknown key is."""
    return {
        ("seat" if key == SEAT_KEY else key): value for key, value in data.items() if key != "seat"
    }


def action_to_dict(action: Action) -> dict[str, Any]:
    """The stored form, marked with the rules revision it is played under."""
    data = {stored_field(name): value for name, value in asdict(action).items()}
    data["type"] = type(action).__name__
    data[REVISION_KEY] = RULES_REVISION
    return data


def action_revision(data: dict[str, Any]) -> int:
    """The rules revision a stored action was played under; raises IllegalAction if
    the mark is not a revision this engine knows."""
    revision = data.get(REVISION_KEY, 1)
    if type(revision) is not int or not 1 <= revision <= RULES_REVISION:
        raise IllegalAction("malformed_action")
    return revision


def action_from_dict(data: dict[str, Any]) -> Action:
    """Parse a stored or received action; raises IllegalAction if malformed.

    The rules revision mark is checked here and read with `action_revision`."""
    action_revision(data)
    fields = dict(data)
    fields.pop(REVISION_KEY, None)
    name = fields.pop("type", None)
    if not isinstance(name, str) or name not in _ADAPTERS:
        raise IllegalAction("malformed_action")
    try:
        action: Action = _ADAPTERS[name].validate_python(action_fields(fields), strict=False)
    except ValidationError as exc:
        raise IllegalAction("malformed_action") from exc
    return action
