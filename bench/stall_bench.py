"""Is R9.4's `stall_turns` long enough? Games told stalled that would have ended anyway.

A stall is told once the Monster supply has stayed empty for `stall_turns` whole
turns (lockdown_core/data/board.json). Told too early, it would offer to give up
a game that was about to end by R9.1. This plays the games of `lockdown simulate`
(same seeds, same seats) twice: under the data's number, and under a much longer
one (`--against`, 60 turns by default). The stall changes nothing the game does,
so both plays are the same game until the first stops; a game stopped as stalled
by the data's number that ends by R9.1 under the longer one was told too early.

Run: uv run python bench/stall_bench.py [--games 2000] [--first 0] [--players 3]
     [--ai shrewd] [--seed 0] [--against 60]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from lockdown_core import load_ruleset
from lockdown_core.ai import GameOutcome, make_player, play_game
from lockdown_core.ai.simulation import AI_CHOICES, ai_seed, game_seed, seat_kinds
from lockdown_core.ruleset import Ruleset


def play(rules: Ruleset, ai: str, players: int, seed: int, game: int) -> GameOutcome:
    """Game `game` of `lockdown simulate --seed seed`: its seats and its seed."""
    seats_seed = ai_seed(seed, game)
    kinds = seat_kinds(ai, players, game)
    seats = [make_player(kind, seat, f"{seats_seed}/{seat}") for seat, kind in enumerate(kinds)]
    return play_game(rules, seats, game_seed(seed, game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--ai", choices=AI_CHOICES, default="shrewd")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="number of the first game played")
    parser.add_argument("--against", type=int, default=60)
    args = parser.parse_args()
    rules = load_ruleset()
    longer = rules.model_copy(update={"stall_turns": args.against})
    counts: Counter[str] = Counter()
    early: list[str] = []
    started = time.perf_counter()
    for game in range(args.first, args.first + args.games):
        try:
            outcome = play(rules, args.ai, args.players, args.seed, game)
        except Exception:
            counts["errors"] += 1
            continue
        if not outcome.stalled:
            counts["ended"] += 1
            continue
        counts["stalled"] += 1
        try:
            again = play(longer, args.ai, args.players, args.seed, game)
        except Exception:
            counts["errors_against"] += 1
            continue
        if again.stalled:
            counts["still_stalled_against"] += 1
        else:
            counts["ended_against"] += 1
            early.append(f"{args.seed}/{game} (ended turn {again.state.turn})")
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} games from game {args.first}, {args.players} players, AI {args.ai}, "
        f"seed {args.seed}: "
        f"{counts['ended']} ended by R9.1, {counts['stalled']} told stalled after "
        f"{rules.stall_turns} still turns, {counts['errors']} errors ({elapsed:.0f} s)"
    )
    print(
        f"of the stalled, under {args.against} still turns: "
        f"{counts['still_stalled_against']} still stalled, "
        f"{counts['ended_against']} ended by R9.1 (told too early), "
        f"{counts['errors_against']} errors"
    )
    for line in early:
        print(f"  told too early: {line}")


if __name__ == "__main__":
    main()
