"""The server's campaign (R10): which epilogue a finished game unlocks.

The conditions read a finished game through `Ending`, the few fields they
need, rather than `model.GameState`: the ruleset checks that every epilogue
its data names has a condition here, and the model holds a ruleset, so an
import of the model here would close a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from lockdown_core.pieces import Character


class EndRules(Protocol):
    """What the conditions read of the rules (`ruleset.Ruleset`)."""

    @property
    def weapons(self) -> tuple[str, ...]: ...
    @property
    def parking_lot(self) -> int: ...
    @property
    def surveillance_room(self) -> int: ...
    @property
    def epilogue_order(self) -> tuple[str, ...]: ...
    @property
    def epilogue_fallback(self) -> str: ...


class Ending(Protocol):
    """What the conditions read of a finished game (`model.GameState`)."""

    @property
    def rules(self) -> EndRules: ...
    @property
    def players(self) -> int: ...
    @property
    def characters(self) -> Sequence[Character]: ...
    @property
    def hands(self) -> Sequence[Sequence[str]]: ...
    @property
    def closed(self) -> Sequence[bool]: ...
    @property
    def deck(self) -> Sequence[str]: ...
    @property
    def result(self) -> Mapping[str, Any] | None: ...

    def has_characters(self, seat: int) -> bool: ...


Condition = Callable[[Ending, list[int]], bool]


def _alive(state: Ending, kind: str | None = None) -> int:
    return sum(1 for c in state.characters if c.location and (kind is None or c.kind == kind))


def _survivors(state: Ending) -> list[int]:
    return [p for p in range(state.players) if state.has_characters(p)]


def _survivor_holds(state: Ending, test: Callable[[Sequence[str]], bool]) -> bool:
    return any(test(state.hands[p]) for p in _survivors(state))


def _all_living_at(state: Ending, test: Callable[[set[int]], bool]) -> bool:
    """'Every living character is ...': needs at least one living character."""
    places = {c.location for c in state.characters if c.location}
    return bool(places) and test(places)


def _weapons(state: Ending, hand: Sequence[str]) -> int:
    return sum(1 for card in hand if card in state.rules.weapons)


def _whole_family_lost(state: Ending) -> int:
    return state.players - len(_survivors(state))


CONDITIONS: dict[str, Condition] = {
    "11": lambda s, w: _alive(s) == 0,
    "02": lambda s, w: any(
        all(c.location for c in s.characters if c.seat == p) for p in range(s.players)
    ),
    "17": lambda s, w: _alive(s) == 1,
    "19": lambda s, w: len(w) == 2,
    "05": lambda s, w: _survivor_holds(s, lambda h: _weapons(s, h) >= 2),
    "04": lambda s, w: _alive(s) == 2,
    "14": lambda s, w: _survivor_holds(s, lambda h: len(h) >= 2),
    "03": lambda s, w: _alive(s, "weeper") >= 3,
    "18": lambda s, w: not any(s.closed),
    "08": lambda s, w: sum(s.closed) >= 2,
    "16": lambda s, w: _all_living_at(s, lambda locs: locs == {s.rules.parking_lot}),
    "12": lambda s, w: all(not c.location for c in s.characters if c.kind == "weeper"),
    "10": lambda s, w: _alive(s, "blocker") >= 3,
    "01": lambda s, w: _survivor_holds(s, lambda h: "keys_of_the_truck" in h),
    "07": lambda s, w: _all_living_at(
        s, lambda locs: len(locs) == 1 and s.rules.parking_lot not in locs
    ),
    "09": lambda s, w: _whole_family_lost(s) == 2,
    "15": lambda s, w: _alive(s, "leader") >= 3,
    "06": lambda s, w: any(
        c.location == s.rules.surveillance_room for c in s.characters if c.seat in w
    ),
    "20": lambda s, w: _survivor_holds(s, lambda h: not h),
    "13": lambda s, w: not s.deck,
}


def holding_epilogues(state: Ending) -> list[str]:
    """Every epilogue whose condition holds at the end, in R10's order."""
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    won = list(result["winners"])
    return [code for code in state.rules.epilogue_order if CONDITIONS[code](state, won)]


def epilogue_to_unlock(state: Ending, unlocked: Iterable[str]) -> str | None:
    """R10.2/R10.3: the first holding epilogue not yet unlocked, else 21 once."""
    already = set(unlocked)
    for code in holding_epilogues(state):
        if code not in already:
            return code
    fallback = state.rules.epilogue_fallback
    return None if fallback in already else fallback
