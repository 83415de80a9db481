"""What an AI seat says at the table and why it chose: data, never prose.

The Discord layer turns a `Remark` into one line of the game's language and a
`Rationale` into the "why" after the reveal. Both are built from what the
seat really decided and from its own view: a remark never carries a card, a
die or a ballot that its seat may not show. What a seat says about a secret choice of its own (its
ballot) is `secret`: the table holds it until that choice is revealed (at once
only where the rules make ballots open), so its words are never a window onto
the choice. Before a vote it may say what it intends, which its persona makes
true or a bluff: a plan, never read off a ballot. The untrue remarks are these
bluffs and the badge holder's announcement of where the Monsters arrive, which
the rules leave to table talk, both made only by a persona that lies.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lockdown_core.ai.belief import sample_dice

# The kinds of remarks, each with its parameters (all public, or the seat's own):
# announce          badge holder, dice seen: locations (where it says Monsters arrive)
# announce_blind    badge holder, dice unseen: locations (a bluff: it does not know)
# no_announcement   badge holder, dice unseen, a persona that does not bluff: nothing to say
# intent            in an attack's discussion: candidate, location (whom it says it will
#                   designate: its plan, or a bluff)
# vote              its attack ballot: candidate, location, reason (safety, grudge,
#                   leader, loyalty); secret unless ballots are open
# gift              its truck gift: to, reason (ally, least_help)
REMARK_KINDS: tuple[str, ...] = (
    "announce",
    "announce_blind",
    "no_announcement",
    "intent",
    "vote",
    "gift",
)

Param = int | str | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Remark:
    """One short line an AI seat says: a kind of `REMARK_KINDS` and its parameters;
    `secret` when it tells a choice of its seat that is not revealed yet (R12.2), which
    only that choice's reveal may make public."""

    kind: str
    params: tuple[tuple[str, Param], ...]
    secret: bool = False

    def get(self, name: str) -> Param | None:
        for key, value in self.params:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class Rationale:
    """Why a decisive choice: `kind` (destination: a location; move: a character id),
    the option chosen and the points it expected to lose with it, and the option it
    ranked next with that one's expected loss (None when it had no other). Its ranking
    also weighs its persona (risk, rivalry), so the next option may cost it fewer
    points of its own. Losses are rounded to a tenth, as shown."""

    kind: str
    choice: int
    expected: float
    runner_up: int | None
    runner_up_expected: float | None


def rationale(
    kind: str, choice: int, expected: float, runner_up: int | None, other: float | None
) -> Rationale:
    return Rationale(
        kind, choice, round(expected, 1), runner_up, None if other is None else round(other, 1)
    )


def announcement(
    view: Mapping[str, Any], lies: float, rnd: random.Random
) -> tuple[str, dict[str, Param], bool]:
    """The badge holder's word on where the Monsters arrive (R5.1's table talk): the
    dice it saw, or, drawn as often as its persona `lies`, other locations; with the
    dice unseen, a bluff or nothing. Its kind, its parameters, and whether it lies."""
    lie = rnd.random() < lies
    dice = view["dice"]
    if dice is None:
        if not lie:
            return "no_announcement", {}, False
        count = len(set(sample_dice(view, rnd)))
        return "announce_blind", {"locations": tuple(sorted(rnd.sample(range(1, 7), count)))}, True
    truth = tuple(sorted(set(dice)))
    if not lie or len(truth) == 6:
        return "announce", {"locations": truth}, False
    told = truth
    while told == truth:
        told = tuple(sorted(rnd.sample(range(1, 7), len(truth))))
    return "announce", {"locations": told}, True


def intention(plan: int, others: Sequence[int], lies: float, rnd: random.Random) -> int:
    """Whom a seat says it will designate: its `plan`, or, drawn as often as its persona
    `lies`, another of the `others` it may designate (a bluff). The plan is what it
    would cast now; its ballot, cast later, is never read."""
    if rnd.random() < lies:
        return rnd.choice([c for c in others if c != plan])
    return plan
