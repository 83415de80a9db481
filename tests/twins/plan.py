"""A twin game's plan, drawn from a seed: who sits, what the AI seats are, which hidden
thing the second world changes, and the seat changes people make on the way."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

PERSONAS = ("warden", "gambler", "avenger", "loyalist", "trickster")
HIDDEN = ("hand", "destination", "ai_ballot")


@dataclass(frozen=True)
class Op:
    """At move `tick`, person `who` (an index into the plan's people) leaves their seat
    (`leave`) or takes the seat people[`seat_of`] held at the start (`take`)."""

    tick: int
    kind: str
    who: int
    seat_of: int = 0


@dataclass(frozen=True)
class Plan:
    """`people` sit (the first hosts), `newcomers` watch without a seat; `ai` AI seats of
    `ai_level` (shrewd ones with `personas`). World B changes `hidden` for seat
    people[`secret`] (`hand`, `destination`) or for AI seat `secret` (`ai_ballot`)."""

    seed: int
    people: int
    newcomers: int
    ai: int
    ai_level: str
    personas: tuple[str, ...]
    hidden: str
    secret: int
    ops: tuple[Op, ...] = field(default=())
    lang: str = "en"
    act_rate: float = 0.85
    max_ticks: int = 260

    def replay(self) -> str:
        return f"Plan seed {self.seed}: {self}"


def draw(seed: int) -> Plan:
    """A plan chosen by `seed` alone, from every feature the harness drives."""
    rng = random.Random(f"twins/{seed}")
    hidden = rng.choice(HIDDEN)
    people = rng.randint(2, 3)
    ai = rng.randint(1, 2) if hidden != "ai_ballot" else rng.randint(2, 3)
    level = "shrewd" if hidden == "ai_ballot" else rng.choice(("shrewd", "cautious", "random"))
    personas = tuple(rng.sample(PERSONAS, 2)) if level == "shrewd" else ()
    newcomers = rng.randint(0, 1)
    secret = people + rng.randrange(ai) if hidden == "ai_ballot" else rng.randrange(people)
    ops: list[Op] = []
    if newcomers and rng.random() < 0.7:
        # Somebody leaves; the newcomer takes the seat a move later.
        leaver = rng.randrange(people)
        at = rng.randint(5, 40)
        ops += [Op(at, "leave", leaver), Op(at + 1, "take", people, leaver)]
        if rng.random() < 0.5:
            ops.append(Op(at + rng.randint(3, 12), "take", leaver, leaver))  # a reclaim
    lang = rng.choice(("en", "fr"))
    return Plan(
        seed, people, newcomers, ai, level, personas, hidden, secret, tuple(ops), lang, 0.85, 150
    )


def seat_change(seed: int) -> Plan:
    """A person leaves the secret's seat, a newcomer takes it over, and the person who
    left then takes another seat, left by its own person: someone who held the secret's
    seat now plays another one (the rules allow one seat per person and game)."""
    rng = random.Random(f"twins/seat/{seed}")
    at = rng.randint(3, 8)
    later = at + rng.randint(3, 8)
    ops = (
        Op(at, "leave", 1),
        Op(at + 1, "take", 3, 1),
        Op(later, "leave", 2),
        Op(later + 1, "take", 1, 2),
    )
    return Plan(seed, 3, 1, 1, "cautious", (), "hand", 1, ops, "en", 0.9, 60)


def ai_ballot(seed: int) -> Plan:
    """Shrewd AI seats of every persona; world B changes one AI seat's draws at its first
    secret ballot, so that it votes otherwise."""
    rng = random.Random(f"twins/ballot/{seed}")
    personas = tuple(rng.sample(PERSONAS, 4))
    # The person votes late (the AI seats first), so the reveal waits for them.
    return Plan(seed, 1, 0, 4, "shrewd", personas, "ai_ballot", 1 + seed % 4, (), "en", 0.3, 400)
