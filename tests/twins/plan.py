"""A twin game's plan, drawn from a seed: who sits, what the AI seats are, which hidden
thing the second world changes, and the seat changes people make on the way."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

PERSONAS = ("warden", "gambler", "avenger", "loyalist", "trickster")
HIDDEN = ("hand", "destination", "ai_ballot", "dice")
VARIANTS = (
    "spare_keys",
    "big_families",
    "creche",
    "last_stand",
    "armoury",
    "blind_cameras",
    "barricades",
    "overrun",
    "vendetta",
    "tough_crowd",
    "early_dusk",
    "hush",
    "rationing",
    "hoarders",
    "open_ballots",
    "full_lot",
    "lone_survivor",
    "quiet_mall",
    "no_heroes",
    "empty_hands",
)


@dataclass(frozen=True)
class Op:
    """At move `tick`, person `who` (an index into the plan's people) leaves their seat
    (`leave`), takes the seat people[`seat_of`] held at the start (`take`), votes to end
    the game its host left (`end`), or, as the server's owner, approves the newest
    request to take a seat (`approve`)."""

    tick: int
    kind: str
    who: int
    seat_of: int = 0


@dataclass(frozen=True)
class Plan:
    """`people` sit (the first hosts, at seat 0), `newcomers` watch without a seat; `ai`
    AI seats of `ai_level` (shrewd ones with `personas`) sit after them. World B changes
    `hidden` for seat `secret`: its opening hand (`hand`, a person's or an AI seat's), its
    first secret destination (`destination`, a person's), its first attack ballot
    (`ai_ballot`, an AI seat's)."""

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
    variants: tuple[str, ...] = ()
    hours: int | None = None  # a slow game: each step lasts this many hours
    approval: bool = False  # a take-over waits for the host's (or a moderator's) yes
    practice: bool = False  # /lockdown practice: one person, AI opponents, lessons
    idle: tuple[int, ...] = ()  # people who never click: deadlines pass, stand-ins play

    def replay(self) -> str:
        return f"Plan seed {self.seed}: {self}"


def draw(seed: int) -> Plan:
    """A plan chosen by `seed` alone, from every feature the harness drives."""
    rng = random.Random(f"twins/{seed}")
    if rng.random() < 0.15:
        return _practice(seed, rng)
    hidden = rng.choice(HIDDEN)
    people = rng.randint(2, 3)
    ai = rng.randint(1, 2) if hidden != "ai_ballot" else rng.randint(2, 3)
    level = "shrewd" if hidden == "ai_ballot" else rng.choice(("shrewd", "cautious", "random"))
    personas = tuple(rng.sample(PERSONAS, 2)) if level == "shrewd" else ()
    newcomers = rng.randint(0, 1)
    if hidden == "ai_ballot":
        secret = people + rng.randrange(ai)
    elif hidden == "dice":
        secret = -1  # no seat's: the roll's
    elif hidden == "hand":
        secret = rng.randrange(people + ai)  # a person's hand, or an AI seat's
    else:
        secret = rng.randrange(people)
    ops: list[Op] = []
    approval = False
    if newcomers and rng.random() < 0.7:
        # Somebody leaves; the newcomer takes the seat a move later (maybe asking first).
        leaver = rng.randrange(people)
        at = rng.randint(5, 40)
        approval = rng.random() < 0.3
        ops += [Op(at, "leave", leaver), Op(at + 1, "take", people, leaver)]
        if approval:
            ops.append(Op(at + 2, "approve", 0))
        if rng.random() < 0.5:
            ops.append(Op(at + rng.randint(4, 12), "take", leaver, leaver))  # a reclaim
    elif people == 3 and rng.random() < 0.3:
        # The host leaves; the others vote to end the game.
        at = rng.randint(5, 40)
        ops += [Op(at, "leave", 0), Op(at + 2, "end", 1), Op(at + 3, "end", 2)]
    variants = tuple(rng.sample(VARIANTS, rng.randint(1, 2))) if rng.random() < 0.5 else ()
    hours = rng.randint(1, 3) if rng.random() < 0.2 else None
    lang = rng.choice(("en", "fr"))
    # Someone who never clicks: their steps time out, and after three an AI stands in.
    quiet = people == 3 and not ops and secret != people - 1
    idle = (people - 1,) if quiet and rng.random() < 0.3 else ()
    # An AI ballot's twin waits for an attack vote, which people voting first would end.
    pace, moves = (0.3, 400) if hidden == "ai_ballot" else (0.85, 150)
    return Plan(
        seed=seed,
        people=people,
        newcomers=newcomers,
        ai=ai,
        ai_level=level,
        personas=personas,
        hidden=hidden,
        secret=secret,
        ops=tuple(ops),
        lang=lang,
        act_rate=pace,
        max_ticks=moves,
        variants=variants,
        hours=hours,
        approval=approval,
        idle=idle,
    )


def _practice(seed: int, rng: random.Random) -> Plan:
    """A practice game: one person against AI seats, the hidden thing an AI seat's."""
    hidden = rng.choice(("hand", "ai_ballot"))
    ai = rng.randint(2, 4)
    secret = 1 + rng.randrange(ai)
    lang = rng.choice(("en", "fr"))
    return Plan(seed, 1, 0, ai, "shrewd", (), hidden, secret, (), lang, 0.3, 300, practice=True)


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
