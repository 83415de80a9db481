"""The shrewd AI against the cautious one: win shares with their 95% intervals, how long
it thinks, and what each persona does.

Strength: one shrewd seat among cautious ones, at each seat count asked; the
shrewd seat goes round the table (game g puts it at seat g mod players) and
every seed is fixed, so a run replays exactly. A win shared by n seats counts
1/n. The interval is Wilson's at 95% over the games played; a fair share is
1/players.

Time: every decision of the shrewd seats is timed on its thread's CPU clock
(what one core spends on it, whatever else the machine runs) and on the wall
clock; p50 and p99 are printed over all its decisions and over those it weighs
in sampled worlds (destinations and moves).

Personas (`--personas N`): N six-seat games per persona, one shrewd seat of
that persona among five cautious ones: its win share and what it did (lies
per announcement, its attack ballots by reason, gifts to allies per gift, how often
the spread of its losses over the worlds turned it from the best average).

Teams (`--teams N`): N games per seat count with shrewd and cautious seats
alternating round the table, swapped every other game (head to head at equal
numbers over the games): the shrewd seats' share of the wins.

Run: uv run python bench/shrewd_bench.py [--games 2000] [--players 6 3 4]
     [--evaluations 60] [--personas 400] [--teams 2000]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core import Action, load_ruleset
from lockdown_core.actions import ChooseDestination, MoveCharacter
from lockdown_core.ai import CautiousPlayer, EndlessGame, play_game
from lockdown_core.ai.personas import PERSONAS
from lockdown_core.ai.shrewd import Budget, ShrewdPlayer


class Timed(ShrewdPlayer):
    """A shrewd seat that times its own decisions."""

    def __init__(self, seat: int, seed: str, character: str, budget: Budget, log: Log) -> None:
        super().__init__(seat, seed, character, budget)
        self.log = log

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = super().choose(view, legal)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        weighed = len(legal) > 1 and isinstance(legal[0], ChooseDestination | MoveCharacter)
        self.log.add(cpu, wall, weighed)
        return action


class Log:
    """Decision times, in seconds."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.weighed: list[float] = []

    def add(self, cpu: float, wall: float, weighed: bool) -> None:
        self.cpu.append(cpu)
        self.wall.append(wall)
        if weighed:
            self.weighed.append(cpu)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a share `wins / games`."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def spread(seconds: list[float]) -> str:
    """p50 and p99 of decision times, in milliseconds."""
    return (
        f"p50 {percentile(seconds, 0.5) * 1000:.2f} ms, "
        f"p99 {percentile(seconds, 0.99) * 1000:.2f} ms"
    )


def duel(
    players: int, games: int, character: str, budget: Budget, log: Log
) -> tuple[float, Counter[str]]:
    """One shrewd seat among cautious ones: its wins (shared wins split) and its tally,
    with `endless` counting the games that found no end (counted as lost)."""
    rules = load_ruleset(())
    wins = 0.0
    tally: Counter[str] = Counter()
    for game in range(games):
        me = game % players
        seed = f"shrewd/{players}/{character}/{game}"
        shrewd = Timed(me, f"{seed}/{me}", character, budget, log)
        seats: list[Any] = [
            shrewd if s == me else CautiousPlayer(s, f"{seed}/{s}") for s in range(players)
        ]
        try:
            result = play_game(rules, seats, seed).state.result
        except EndlessGame:
            # R6.1: once every Monster stands where nobody is, none can be placed and
            # nobody is ever attacked again; the rules give such a game no end.
            tally["endless"] += 1
            continue
        assert result is not None
        winners = result["winners"]
        if me in winners:
            wins += 1 / len(winners)
        tally.update(shrewd.tally)
    return wins, tally


def teams(players: int, games: int, budget: Budget, log: Log) -> tuple[float, float, int]:
    """Shrewd and cautious seats alternating round the table, swapped every other game:
    the shrewd seats' wins, their fair share (their part of the seats) and the games
    that found no end (counted as lost)."""
    rules = load_ruleset(())
    wins = seats_share = 0.0
    endless = 0
    for game in range(games):
        seed = f"teams/{players}/{game}"
        shrewd = {s for s in range(players) if (s + game) % 2 == 0}
        seats: list[Any] = [
            Timed(s, f"{seed}/{s}", "warden", budget, log)
            if s in shrewd
            else CautiousPlayer(s, f"{seed}/{s}")
            for s in range(players)
        ]
        seats_share += len(shrewd) / players
        try:
            result = play_game(rules, seats, seed).state.result
        except EndlessGame:
            endless += 1
            continue
        assert result is not None
        winners = result["winners"]
        wins += sum(1 for w in winners if w in shrewd) / len(winners)
    return wins, seats_share / games, endless


def share_line(label: str, wins: float, games: int, players: int) -> str:
    low, high = wilson(wins, games)
    return (
        f"{label}: shrewd wins {wins / games:.1%} of {games} games "
        f"(95% CI {low:.1%}-{high:.1%}; fair share {1 / players:.1%}; "
        f"each cautious seat {(1 - wins / games) / (players - 1):.1%})"
    )


def behaviour(tally: Counter[str]) -> str:
    def rate(part: str, whole: str) -> str:
        return f"{tally[part] / tally[whole]:.0%}" if tally[whole] else "n/a"

    reasons = ", ".join(
        f"{reason} {rate(f'ballots_{reason}', 'ballots')}"
        for reason in ("safety", "grudge", "leader", "loyalty")
    )
    return (
        f"lies {rate('lies', 'announcements')} of {tally['announcements']} announcements; "
        f"attack ballots ({tally['ballots']}): {reasons}; "
        f"gifts to allies {rate('ally_gifts', 'gifts')} of {tally['gifts']}; "
        f"hedged against bad worlds in {rate('hedged', 'decisions')} of "
        f"{tally['decisions']} destinations and moves"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=2000, help="games per seat count, one shrewd seat (0: none)"
    )
    parser.add_argument("--players", type=int, nargs="+", default=[6, 3, 4])
    parser.add_argument("--evaluations", type=int, default=Budget().evaluations)
    parser.add_argument("--personas", type=int, default=0, help="games per persona")
    parser.add_argument(
        "--teams", type=int, default=0, help="games per seat count, shrewd and cautious alternating"
    )
    args = parser.parse_args()
    budget = Budget(evaluations=args.evaluations)
    log = Log()
    for players in args.players if args.games else ():
        began = time.perf_counter()
        wins, tally = duel(players, args.games, "warden", budget, log)
        line = share_line(
            f"{players} players, 1 shrewd vs {players - 1} cautious", wins, args.games, players
        )
        endless = f"; {tally['endless']} endless, counted as lost" if tally["endless"] else ""
        print(f"{line}{endless} [{time.perf_counter() - began:.0f} s]", flush=True)
    for players in args.players if args.teams else ():
        wins, fair, endless = teams(players, args.teams, budget, log)
        low, high = wilson(wins, args.teams)
        print(
            f"{players} players, shrewd and cautious alternating: shrewd seats win "
            f"{wins / args.teams:.1%} of {args.teams} games (95% CI {low:.1%}-{high:.1%}; "
            f"fair share {fair:.1%}); {endless} endless, counted as lost",
            flush=True,
        )
    for key in PERSONAS if args.personas else ():
        wins, tally = duel(6, args.personas, key, budget, log)
        print(share_line(f"persona {key}, 6 players", wins, args.personas, 6))
        print(f"  {behaviour(tally)}", flush=True)
    print(
        f"decision time (budget {budget.evaluations} evaluations), {len(log.cpu)} decisions: "
        f"CPU {spread(log.cpu)}; wall {spread(log.wall)}; "
        f"weighed in worlds ({len(log.weighed)}): CPU {spread(log.weighed)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
