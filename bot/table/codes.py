"""Short text codes for actions, small enough for a button's custom id.

The seat is not part of the code: it comes from who clicked, so a button
cannot be used to act for somebody else. `decode` refuses anything malformed
with the core's own `IllegalAction`.
"""

from __future__ import annotations

import re

from lockdown_core import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    IllegalAction,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    Ruleset,
    SearchTruck,
    Timeout,
)

_SINGLE: dict[str, type[Designate | BreakTie | ChooseDestination | MoveCharacter | Devour]] = {
    "D": Designate,
    "T": BreakTie,
    "G": ChooseDestination,
    "M": MoveCharacter,
    "V": Devour,
}
_CODE = re.compile(r"^[A-Z](?:[0-9x]+(?:\.[0-9x]+)*)?$")


def _opt(value: int | None) -> str:
    return "x" if value is None else str(value)


def encode(action: Action, rules: Ruleset) -> str:
    """A code such as `D3` (designate seat 3) or `C4.x.2` (play card 4 at location 2)."""
    if isinstance(action, PlaceFamily):
        return "P" + ".".join(str(c) for c in action.order)
    if isinstance(action, Done):
        return "N"
    if isinstance(action, PlayCard):
        index = [c.key for c in rules.cards].index(action.card)
        return f"C{index}.{_opt(action.character)}.{_opt(action.location)}"
    if isinstance(action, Designate):
        return f"D{action.candidate}"
    if isinstance(action, BreakTie):
        return f"T{action.candidate}"
    if isinstance(action, SearchTruck):
        return f"S{_opt(action.keep)}.{_opt(action.give)}.{_opt(action.give_to)}"
    if isinstance(action, ChooseDestination):
        return f"G{action.location}"
    if isinstance(action, MoveCharacter):
        return f"M{action.character}"
    if isinstance(action, Devour):
        return f"V{action.character}"
    if isinstance(action, Timeout):
        raise ValueError("the table's timeout has no button")
    raise TypeError(f"unknown action {action!r}")


def _fields(body: str) -> list[int | None]:
    return [None if f == "x" else int(f) for f in body.split(".")] if body else []


def _int(value: int | None) -> int:
    if value is None:
        raise IllegalAction("malformed_action")
    return value


def decode(code: str, seat: int, rules: Ruleset) -> Action:
    """The action a code stands for, played by `seat`."""
    if not _CODE.match(code):
        raise IllegalAction("malformed_action")
    letter, fields = code[0], _fields(code[1:])
    try:
        if letter == "P":
            return PlaceFamily(seat, tuple(_int(f) for f in fields))
        if letter == "N" and not fields:
            return Done(seat)
        if letter == "C" and len(fields) == 3:
            card = rules.cards[_int(fields[0])].key
            return PlayCard(seat, card, fields[1], fields[2])
        if letter == "S" and len(fields) == 3:
            return SearchTruck(seat, fields[0], fields[1], fields[2])
        if letter in _SINGLE and len(fields) == 1:
            return _SINGLE[letter](seat, _int(fields[0]))
    except IndexError as exc:
        raise IllegalAction("malformed_action") from exc
    raise IllegalAction("malformed_action")
