"""The AI characters a server may seat: pure data, each a few traits that the shrewd
level reads when it decides (`shrewd.py`), talks (`talk.py`) and votes (`votes.py`).

Names and descriptions are texts, so they live in the catalogs under
`ai_personas.<key>.name` and `ai_personas.<key>.traits`; the core knows only the key.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Persona:
    """Traits in [0, 1].

    - `risk`: 0 fears the worst worlds (it weighs the spread of its losses
      over the sampled worlds), 1 only looks at the average and bets.
    - `grudge`: how much a seat's ballots against it steer its attack votes
      (0: it votes only to stay alive and against the leader).
    - `loyalty`: how much it spares the seats that helped it (gifts, ballots
      cast elsewhere) in attack votes, and gives them the truck's gifts.
    - `lies`: how often, holding the badge, it announces Monsters where the
      dice it saw do not send them (the only lie the rules allow).
    - `rivalry`: how much the leader's losses count as its own gains.
    """

    key: str
    risk: float
    grudge: float
    loyalty: float
    lies: float
    rivalry: float


PERSONAS: dict[str, Persona] = {
    p.key: p
    for p in (
        Persona("warden", risk=0.5, grudge=0.3, loyalty=0.3, lies=0.0, rivalry=0.25),
        Persona("gambler", risk=1.0, grudge=0.2, loyalty=0.1, lies=0.5, rivalry=0.5),
        Persona("avenger", risk=0.4, grudge=1.0, loyalty=0.0, lies=0.2, rivalry=0.1),
        Persona("loyalist", risk=0.3, grudge=0.2, loyalty=1.0, lies=0.0, rivalry=0.2),
        Persona("trickster", risk=0.6, grudge=0.4, loyalty=0.2, lies=0.9, rivalry=0.4),
    )
}
# The persona of a shrewd seat when none is named.
DEFAULT_PERSONA = "warden"


def persona(key: str) -> Persona:
    """The persona named `key`, or a ValueError naming the known ones."""
    try:
        return PERSONAS[key]
    except KeyError:
        known = ", ".join(PERSONAS)
        raise ValueError(f"unknown persona {key!r}; expected one of {known}") from None
