"""Scenario files: a position, forced dice, actions and expectations (docs/scenarios.md).

A scenario either sets up a position and enters it through the engine's own
flow functions, so that it starts exactly as a real game would reach it, or
starts a fresh game from a seed, which makes a recorded game (`ReplayLog`)
a scenario too: that is how `lockdown replay` checks a finished game's
fairness from its seed and its action log.

Pure: the caller reads the file and passes the parsed JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lockdown_core.actions import (
    REVISION_KEY,
    Action,
    action_to_dict,
)
from lockdown_core.engine import apply
from lockdown_core.epilogues import epilogue_to_unlock
from lockdown_core.errors import IllegalAction
from lockdown_core.events import Event
from lockdown_core.legal import legal_actions, pending_seats
from lockdown_core.model import GameState
from lockdown_core.pieces import COLD, UNPLACED, Character
from lockdown_core.ruleset import RULES_REVISION
from lockdown_core.scenario_format import (
    Check,
    EventMatch,
    Expectation,
    Refused,
    Scenario,
    ScenarioError,
)
from lockdown_core.scenario_setup import build


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
        if c.seat == int(seat) and c.kind == kind:
            return c
    raise ScenarioError(f"{where}: no character {ref!r} in this game")


def _name(c: Character) -> str:
    return f"{c.seat}:{c.kind}"


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
    compare("waiting_for", exp.waiting_for, pending_seats(state))
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
