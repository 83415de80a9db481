"""What AI seats say at the table and why they chose, kept with the game.

A shrewd seat leaves, with some of its decisions, a remark for the thread and
the reason for its choice (`lockdown_core.ai.talk`). Both live in its memory
only, and its memory does not survive a restart, so the table stores them in
the action's own row, under `TALK` (the engine reads an action's fields and
ignores this one). The table then shows them as events that follow the
action's: `ai_remark`, public, which the delivery counts and posts like any
line, and `ai_why`, for the seat alone until the reveal. A game read back from
its log (`replay_with_talk`) gets the same events in the same places, so the
thread's cursor counts them the same way before and after a restart.

Only seats that are AI seats speak: a stand-in playing an away person's seat
never puts words in that person's mouth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core import (
    Event,
    GameState,
    ReplayLog,
    action_from_dict,
    apply,
    load_ruleset,
    new_game,
)
from lockdown_core.actions import action_revision

# The key of an action's stored row that holds what its AI seat said and why.
TALK = "said"
REMARK, WHY = "ai_remark", "ai_why"


def heard(player: object, seat: int, is_ai: bool, state: GameState) -> dict[str, Any] | None:
    """What `player`'s latest decision said and why, in the stored form; None if it said
    nothing (a level that does not talk, a stand-in, a decision without words).

    `state` is the game before the action is applied: the turn the words belong to,
    and the kinds of the characters a move weighed (public on the board)."""
    persona = getattr(player, "persona", None)
    remark = getattr(player, "remark", None)
    why = getattr(player, "rationale", None)
    if not is_ai or persona is None or (remark is None and why is None):
        return None
    said: dict[str, Any] = {"seat": seat, "persona": persona.key, "turn": state.turn}
    if remark is not None:
        said["remark"] = {
            "kind": remark.kind,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in remark.params},
        }
    if why is not None:
        said["why"] = {
            "kind": why.kind,
            "choice": why.choice,
            "expected": why.expected,
            "runner_up": why.runner_up,
            "runner_up_expected": why.runner_up_expected,
        }
        if why.kind == "move":
            kinds = {c.id: c.kind for c in state.characters}
            said["why"]["choice_kind"] = kinds.get(why.choice)
            if why.runner_up is not None:
                said["why"]["runner_up_kind"] = kinds.get(why.runner_up)
    return said


def talk_events(stored: Mapping[str, Any]) -> list[Event]:
    """The events of what a stored action's AI seat said: its remark (public), then its
    reason (its own seat's only). None for an action that carries no words."""
    said = stored.get(TALK)
    if not isinstance(said, Mapping):
        return []
    who = {"seat": said["seat"], "persona": said["persona"], "turn": said["turn"]}
    events = []
    remark = said.get("remark")
    if isinstance(remark, Mapping):
        events.append(Event(REMARK, {**who, "remark": remark["kind"], "params": remark["params"]}))
    why = said.get("why")
    if isinstance(why, Mapping):
        events.append(Event(WHY, {**who, **why}, to=(int(said["seat"]),)))
    return events


def apply_stored(state: GameState, data: Mapping[str, Any]) -> list[Event]:
    """Apply a stored action as the table does: its events, then its AI seat's words."""
    return apply(state, action_from_dict(dict(data))) + talk_events(data)


def replay_with_talk(log: ReplayLog) -> tuple[GameState, list[Event]]:
    """The final state and every event of a stored game, its AI seats' words included,
    each after the events of the action it came with (as the table showed them)."""
    state, events = new_game(load_ruleset(log.variants), log.players, log.seed)
    for data in log.actions:
        events.extend(apply(state, action_from_dict(data), action_revision(data)))
        events.extend(talk_events(data))
    return state, events


class Reasons:
    """Each AI seat's reasons given so far (the `ai_why` events), for the reveal."""

    def __init__(self) -> None:
        self.given: dict[int, list[dict[str, Any]]] = {}

    def note(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == WHY:
                self.given.setdefault(int(event.data["seat"]), []).append(event.data)

    def decisive(self) -> list[dict[str, Any]]:
        """One reason per AI seat, in seat order: the choice that mattered most to it
        (the widest gap to the option it ranked next; the latest of equals), or its
        latest if it never had a second option."""
        chosen = []
        for seat in sorted(self.given):
            reasons = self.given[seat]
            weighed = [r for r in reasons if r["runner_up_expected"] is not None]
            pool = weighed or reasons
            best = max(range(len(pool)), key=lambda i: (_margin(pool[i]), i))
            chosen.append(pool[best])
        return chosen


def _margin(reason: Mapping[str, Any]) -> float:
    other = reason["runner_up_expected"]
    return 0.0 if other is None else float(other) - float(reason["expected"])
