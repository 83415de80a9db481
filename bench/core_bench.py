"""Rules core benchmark: whole games per second, the cost of one `apply`, the size of a state.

For 3 and 6 players, with random AIs on one core (this process). Times are
this process's CPU time, so that other work on the machine does not count:
- full games per second through `lockdown_core.ai.play_game` (legal actions,
  the AIs' choices and `apply`, everything a simulation does);
- mean and p99 time of one `apply` call, over every action of a set of games;
- the size of a serialized state (`GameState.to_dict()` as compact JSON), at
  positions sampled along those games.

Run: uv run python bench/core_bench.py [--games 600] [--seconds 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from lockdown_core import (
    GameState,
    Ruleset,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)
from lockdown_core.ai import RandomPlayer, play_game


def games_per_second(rules: Ruleset, players: int, seconds: float) -> tuple[float, int]:
    """Play seeded games for about `seconds`; returns the rate and the number played."""
    start = time.process_time()
    played = 0
    while time.process_time() - start < seconds:
        seats = [RandomPlayer(seat, f"{played}/{seat}") for seat in range(players)]
        play_game(rules, seats, played)
        played += 1
    return played / (time.process_time() - start), played


def state_bytes(state: GameState) -> int:
    return len(json.dumps(state.to_dict(), separators=(",", ":")).encode("utf-8"))


def apply_times(rules: Ruleset, players: int, games: int) -> tuple[list[float], list[int]]:
    """Seconds per `apply` over `games` random games, and state sizes every 10 actions."""
    times: list[float] = []
    sizes: list[int] = []
    clock = time.thread_time
    for game in range(games):
        state, _ = new_game(rules, players, 10_000 + game)
        seats = [RandomPlayer(seat, f"bench/{game}/{seat}") for seat in range(players)]
        last = -1
        while state.step != Step.GAME_OVER:
            waiting = pending_seats(state)
            seat = next((p for p in waiting if p > last), waiting[0])
            action = seats[seat].choose({}, legal_actions(state, seat))
            began = clock()
            apply(state, action)
            times.append(clock() - began)
            last = seat
            if len(times) % 10 == 0:
                sizes.append(state_bytes(state))
        sizes.append(state_bytes(state))
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games timed action by action")
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on whole games")
    args = parser.parse_args()
    rules = load_ruleset()
    for players in (3, 6):
        rate, played = games_per_second(rules, players, args.seconds)
        times, sizes = apply_times(rules, players, args.games)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{players} players: {rate:7.1f} games/s ({played} games) | "
            f"apply mean {statistics.fmean(times) * 1e6:6.1f} us, p99 {p99 * 1e6:6.1f} us "
            f"({len(times)} actions) | state {statistics.fmean(sizes):,.0f} B mean, "
            f"{max(sizes):,} B max"
        )


if __name__ == "__main__":
    main()
