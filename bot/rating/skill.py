"""The hidden skill: a Weng-Lin rating (openskill's Bradley-Terry-Full model).

Bradley-Terry-Full compares every pair of the table, so a tie is a tie: two
people tied for first move up together and above the third, which openskill's
default Plackett-Luce does not promise for ties. It also settles faster at the
3 to 6 seats of a game. `MODEL_VERSION` is stored with every rating event, so
a replay under another model or rule is told apart from the events it replaces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import BradleyTerryFull

MODEL_VERSION = "openskill-6.2/bradley-terry-full/1"
MODEL = BradleyTerryFull()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
# A rating's uncertainty grows only after this long without a rated game (a holiday
# costs nothing), then by IDLE_SIGMA_PER_WEEK per further week, in quadrature, up to
# the uncertainty of a newcomer. The mean never moves.
IDLE_GRACE = timedelta(weeks=3)
IDLE_SIGMA_PER_WEEK = 0.5


@dataclass(frozen=True, slots=True)
class Skill:
    """A person's hidden skill: the mean `mu` and its uncertainty `sigma`."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> float:
        """A cautious number to show: the skill we are fairly sure they have at least."""
        return self.mu - 3 * self.sigma


def after_idle(skill: Skill, last_rated: datetime | None, now: datetime) -> Skill:
    """The skill as it stands at `now`: uncertainty grown for the weeks past the grace
    period since the last rated game, never above a newcomer's; the mean unchanged."""
    if last_rated is None:
        return skill
    idle = now - last_rated - IDLE_GRACE
    if idle <= timedelta(0):
        return skill
    weeks = idle / timedelta(weeks=1)
    sigma = math.sqrt(skill.sigma**2 + weeks * IDLE_SIGMA_PER_WEEK**2)
    return Skill(skill.mu, min(sigma, max(START_SIGMA, skill.sigma)))


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The skills after one game; `ranks[i]` is person i's place (1 is first, equal
    places are ties). Each person is a team of one."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game needs at least two people, each with a rank")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def beats(a: Skill, b: Skill) -> float:
    """The chance that `a` places above `b`, as the model sees them now."""
    first, _ = MODEL.predict_win(
        [[MODEL.rating(mu=a.mu, sigma=a.sigma)], [MODEL.rating(mu=b.mu, sigma=b.sigma)]]
    )
    return float(first)


def expected_shares(skills: Sequence[Skill]) -> list[float]:
    """For each person, the share of the others the table expects them to place above
    (0: last for sure, 1: first for sure); the shares average one half."""
    n = len(skills)
    if n < 2:
        raise ValueError("an expectation needs at least two people")
    shares = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            p = beats(skills[i], skills[j])
            shares[i] += p
            shares[j] += 1 - p
    return [share / (n - 1) for share in shares]
