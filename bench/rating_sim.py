"""How well ratings and the season ladder order people of known skill.

Run: uv run python bench/rating_sim.py [--people 200] [--games 10000] [--seed 1]

Simulated people each have a true skill; every game seats 3 to 6 of them at
random, with 0 to 2 AI seats of their own true skill, and scores each seat by
its skill plus luck (whole points, so ties happen). Games go through the
rating rules exactly as a server's do (`bot.rating`: who is rated, places,
Weng-Lin skill, season points), one game every half hour of simulated time
(so nobody is idle long enough for their uncertainty to grow). At 10, 25 and
50 rated games per person on average, and at the end, it prints Spearman's
rank correlation between the true skills and: the hidden mean, the shown
rating (mean - 3 sigma), and the season points; and the season points'
inflation (their mean over everyone minus the start) and spread. It checks
on the way that nobody placed first ever lost points. The last column rates
the same games with openskill's default model, Plackett-Luce, for comparison
(the hidden mean's correlation under that model).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from openskill.models import PlackettLuce

from bot.rating.game import Person, rate_game
from bot.rating.season import START_POINTS
from bot.rating.who import GameEnd, Rules, SeatEnd, verdict

LUCK = 1.0  # the spread of a seat's luck in a game, against skills of spread 1
SCORE_SCALE = 4  # points per unit of skill + luck: whole scores make ties


def ranks_of(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks_of(a), ranks_of(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    truth = [rng.gauss(0, 1) for _ in range(args.people)]
    people = {user: Person() for user in range(args.people)}
    other = PlackettLuce()
    other_ratings = {user: other.rating() for user in range(args.people)}
    rules = Rules(enabled=True)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    checkpoints = [10, 25, 50]
    rated_seats = 0
    ai_seats = 0
    first_losses = 0
    started = time.perf_counter()
    print(
        "games/person  games  rho(mean)  rho(shown)  rho(season)  inflation  points sd"
        "  rho(mean, Plackett-Luce)"
    )

    def report(label: str, games: int) -> None:
        users = list(range(args.people))
        mus = [people[u].skill.mu for u in users]
        shown = [people[u].skill.shown for u in users]
        points = [float(people[u].season_points) for u in users]
        print(
            f"{label:>12}  {games:5d}  {spearman(truth, mus):9.3f}  "
            f"{spearman(truth, shown):10.3f}  {spearman(truth, points):11.3f}  "
            f"{statistics.fmean(points) - START_POINTS:+9.2f}  {statistics.pstdev(points):9.1f}"
            f"  {spearman(truth, [other_ratings[u].mu for u in users]):24.3f}"
        )

    for game_number in range(1, args.games + 1):
        now += timedelta(minutes=30)
        size = rng.randint(3, 6)
        ai = rng.randint(0, min(2, size - 3))
        seated = rng.sample(range(args.people), size - ai)
        skills = [truth[u] for u in seated] + [rng.gauss(0, 1) for _ in range(ai)]
        scores = [round(SCORE_SCALE * (s + rng.gauss(0, LUCK))) for s in skills]
        seats = tuple(
            SeatEnd(index, score, seated[index] if index < len(seated) else None)
            for index, score in enumerate(scores)
        )
        end = GameEnd(finished=True, practice=False, casual=False, variants=(), seats=seats)
        result = verdict(end, rules)
        assert result.rated
        changes = rate_game(result.placings, people, now)
        best = min(change.rank for change in changes)
        for change in changes:
            before = people[change.user_id]
            people[change.user_id] = Person(
                change.after, before.rated_games + 1, now, change.points_after
            )
            first_losses += change.rank == best and change.points < 0
        teams = [[other_ratings[p.user_id]] for p in result.placings]
        rerated = other.rate(teams, ranks=[float(p.rank) for p in result.placings])
        for placing, team in zip(result.placings, rerated, strict=True):
            other_ratings[placing.user_id] = team[0]
        rated_seats += len(changes)
        ai_seats += ai
        per_person = rated_seats / args.people
        while checkpoints and per_person >= checkpoints[0]:
            report(str(checkpoints.pop(0)), game_number)
    report(f"{rated_seats / args.people:.0f} (end)", args.games)
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} games, {rated_seats} rated seats, {ai_seats} AI seats, "
        f"firsts who lost points: {first_losses}, {elapsed:.1f} s "
        f"({elapsed / args.games * 1e6:.0f} us a game)"
    )


if __name__ == "__main__":
    main()
