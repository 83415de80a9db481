"""What an AI seat says at the table and why it chose: data, never prose.

The Discord layer turns a `Remark` into one line of the game's language and a
`Rationale` into the "why" after the reveal. Both are built from what the
seat really decided and from its own view: a remark never carries a card, a
die or a ballot that its seat may not show, and the only untrue remark is the
badge holder's announcement of where the Monsters arrive, which the rules
leave to table talk, made only by a persona that lies.
"""

from __future__ import annotations

from dataclasses import dataclass

# The kinds of remarks, each with its parameters (all public, or the seat's own):
# announce          badge holder, dice seen: locations (where it says Monsters arrive)
# announce_blind    badge holder, dice unseen: locations (a bluff: it does not know)
# no_announcement   badge holder, dice unseen, a persona that does not bluff: nothing to say
# vote              its attack ballot: candidate, location, reason (safety, grudge,
#                   leader, loyalty)
# gift              its truck gift: to, reason (ally, least_help)
REMARK_KINDS: tuple[str, ...] = ("announce", "announce_blind", "no_announcement", "vote", "gift")

Param = int | str | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Remark:
    """One short line an AI seat says: a kind of `REMARK_KINDS` and its parameters."""

    kind: str
    params: tuple[tuple[str, Param], ...]

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
