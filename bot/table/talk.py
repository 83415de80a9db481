"""What AI seats say at the table and why they chose, kept with the game.

A shrewd seat leaves, with some of its decisions, a remark for the thread and
the reason for its choice (`lockdown_core.ai.talk`). Both live in its memory
only, and its memory does not survive a restart, so the table stores them in
the action's own row, under `TALK` (the engine reads an action's fields and
ignores this one). The table then shows them as events among the action's, right
after the first one everyone sees (`with_talk`), before what the action set off:
`ai_remark`, public, which the delivery counts and posts like any
line, and `ai_why`, for the seat alone until the reveal. A game read back from
its log (`replay_with_talk`) gets the same events in the same places, so the
thread's cursor counts them the same way before and after a restart.

A remark about a choice its seat keeps secret (its ballot, `Remark.secret`) is
not public when it is made: it is shown to its own seat only, held (`Held`),
and made public right after the reveal of that choice, if the revealed ballot
is still the one it tells of. Replaying the log holds and releases it the
same way, so it lands in the same place of the public log.

Only seats that are AI seats speak: a stand-in playing an away person's seat
never puts words in that person's mouth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core import (
    Action,
    Event,
    GameState,
    ReplayLog,
    action_from_dict,
    apply,
    load_ruleset,
    new_game,
    view,
)
from lockdown_core.actions import action_revision

# The key of an action's stored row that holds what its AI seat said and why.
TALK = "said"
REMARK, WHY = "ai_remark", "ai_why"


def heard(
    player: object, seat: int, is_ai: bool, state: GameState, legal: list[Action], action: Action
) -> dict[str, Any] | None:
    """What `player`'s latest decision, `action` chosen from `legal`, said and why, in the
    stored form; None if it said nothing (a level that does not talk, a stand-in, a
    decision without words).

    `state` is the game before the action is applied: the turn the words belong to,
    the public view the reason is weighed from (`ShrewdPlayer.explain`: the reason is
    shown to people who must not learn the seat's hand), and the kinds of the
    characters a move weighed (public on the board)."""
    persona = getattr(player, "persona", None)
    explain = getattr(player, "explain", None)
    if not is_ai or persona is None or explain is None:
        return None
    remark = getattr(player, "remark", None)
    why = explain(view(state, None), legal, action)
    if remark is None and why is None:
        return None
    said: dict[str, Any] = {"seat": seat, "persona": persona.key, "turn": state.turn}
    if remark is not None:
        said["remark"] = {
            "kind": remark.kind,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in remark.params},
        }
        if remark.secret:
            said["remark"]["secret"] = True
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
    """The events of what a stored action's AI seat said: its remark (public, or its own
    seat's only while it tells a secret choice: `Held` makes it public at the reveal),
    then its reason (its own seat's only). None for an action that carries no words."""
    said = stored.get(TALK)
    if not isinstance(said, Mapping):
        return []
    who = {"seat": said["seat"], "persona": said["persona"], "turn": said["turn"]}
    events = []
    remark = said.get("remark")
    if isinstance(remark, Mapping):
        data = {**who, "remark": remark["kind"], "params": remark["params"]}
        to = (int(said["seat"]),) if remark.get("secret") else None
        events.append(Event(REMARK, data, to=to))
    why = said.get("why")
    if isinstance(why, Mapping):
        events.append(Event(WHY, {**who, **why}, to=(int(said["seat"]),)))
    return events


def apply_stored(state: GameState, data: Mapping[str, Any]) -> list[Event]:
    """Apply a stored action as the table does: its events with its AI seat's words
    (`with_talk`; `Held.release` then places the ones a reveal makes public)."""
    return with_talk(data, apply(state, action_from_dict(dict(data))))


def with_talk(stored: Mapping[str, Any], made: list[Event]) -> list[Event]:
    """The events `made` by a stored action with its AI seat's words told right after the
    first thing everyone sees it do (its gift, its ballot, its announcement) and that
    thing's private side, before what the action set off: a gift's remark comes before
    the end of the truck and the next vote it opens, not under that vote's heading.
    Words of an action nobody sees come after its events."""
    words = talk_events(stored)
    if not words:
        return made
    at = next((i + 1 for i, event in enumerate(made) if event.public), len(made))
    while at < len(made) and not made[at].public:  # its private side: which card was given
        at += 1
    return made[:at] + words + made[at:]


def replay_with_talk(log: ReplayLog) -> tuple[GameState, list[Event]]:
    """The final state and every event of a stored game, its AI seats' words included,
    each after the events of the action it came with, or after the reveal it waited
    for (as the table showed them)."""
    state, events = new_game(load_ruleset(log.variants), log.players, log.seed)
    held = Held()
    for data in log.actions:
        made = with_talk(data, apply(state, action_from_dict(data), action_revision(data)))
        events.extend(held.follow(made))
    return state, events


# The events that open and close a designation (R2.3).
_OPENED, _REVEALED = "designation_started", "designations_revealed"


class Held:
    """AI seats' remarks about their own ballots, waiting for the vote's reveal.

    Such a remark is stored with its seat's ballot and shown to that seat alone
    (`talk_events`). The designation's reveal makes it public: right after the
    reveal's event comes the same remark, public, for each seat whose revealed
    ballot is the one its remark tells of (a person who took the seat over and
    changed the ballot is not contradicted by words that were never theirs).
    What is waiting is read from the events alone, so a table rebuilds it from a
    replayed log as it was before a restart."""

    def __init__(self) -> None:
        self.waiting: dict[int, Event] = {}

    def release(self, events: list[Event]) -> list[Event]:
        """`events` with the held remarks a reveal among them makes public, each right
        after that reveal. Changes nothing here: `note` does, once they are shown."""
        return _walk(self.waiting, events)[0]

    def note(self, events: list[Event]) -> None:
        """Take note of events shown: the remarks they hold, the reveals that ended them."""
        self.waiting = _walk(self.waiting, events)[1]

    def follow(self, events: list[Event]) -> list[Event]:
        """`release`, then `note`: events shown one action after another."""
        shown, self.waiting = _walk(self.waiting, events)
        return shown

    def copy(self) -> Held:
        held = Held()
        held.waiting = dict(self.waiting)
        return held


def _walk(
    waiting: Mapping[int, Event], events: list[Event]
) -> tuple[list[Event], dict[int, Event]]:
    """`events` with the held remarks told after their reveal, and what still waits.

    An action's words come among its own events (`with_talk`), and a remark held
    with a ballot waits from the start of them: the last ballot of a vote reveals
    it in the same action."""
    held = dict(waiting)
    held.update((int(e.data["seat"]), e) for e in events if _holds(e))
    out: list[Event] = []
    for event in events:
        out.append(event)
        if event.kind == _OPENED:
            held.clear()
        elif event.kind == _REVEALED:
            out.extend(_told(held, event.data["designations"]))
            held.clear()
    return out, held


def _holds(event: Event) -> bool:
    return event.kind == REMARK and event.to is not None


def _told(waiting: Mapping[int, Event], designations: Mapping[str, int]) -> list[Event]:
    """The public remarks of the held ones whose seat's revealed ballot they tell of."""
    return [
        Event(REMARK, dict(held.data))
        for seat, held in sorted(waiting.items())
        if designations.get(str(seat)) == held.data["params"]["candidate"]
    ]


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
