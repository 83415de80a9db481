"""The cautious AI, old against new: the same choices in every game, and its CPU time.

The new AI (the working tree's) plays a fixed set of games (seat counts 3 to 6
and a few variants in turn, every seed fixed); a game's record is a hash of
every action taken, so one different choice anywhere changes it. The hashes
are compared with `--check FILE`, by default the fixture recorded from the AI
before its speed-up (tests/core/ai/fixtures/cautious_games.txt).

The old AI for the time ratio is the file `lockdown_core/ai/cautious.py` as it
was at a git commit (`--ref`, by default main before the speed-up), loaded
from git into a module of its own and played on the same engine; `--no-old`
skips it. The AI's own time is the whole simulation's CPU time less that of
the same games played by seats that answer from the record (the engine, the
views and the driver alone).

`--record FILE` writes the `--ref` AI's hashes (how the fixture was made).
Exits 1 when any game differs from the reference hashes.

Run: uv run python bench/cautious_bench.py [--games 2000] [--ref COMMIT] [--no-old]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lockdown_core import Action, Event, Ruleset, action_to_dict, load_ruleset
from lockdown_core.actions import actor
from lockdown_core.ai import CautiousPlayer, play_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "core" / "ai" / "fixtures" / "cautious_games.txt"
# main before the speed-up (issue 17): the AI as slow as it was, for the time ratio.
# Its choices are not the reference: rules revision 2 landed with the speed-up, and
# with it the AI stopped weighing a move of the character already at a full
# destination (R5.5), so about a third of these games differ from it. The 2,000
# games of tests/core/ai/fixtures/cautious_games.txt, recorded from the slow AI with
# that change alone, are what `--check` proves the same choices against.
BASELINE = "4c031b955d1b17c01349cb28d3be491900954b37"
# Variants in turn with the seat counts, so that hidden characters, open ballots,
# Vendetta's martyr and bigger families are all met.
VARIANT_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("vendetta", "open_ballots"),
    ("big_families",),
    ("hush", "blind_cameras"),
    ("armoury", "rationing"),
)

PlayerFactory = Callable[[int, str], Any]


def old_cautious(ref: str) -> PlayerFactory:
    """`CautiousPlayer` as the file was at `ref`, loaded from git."""
    source = subprocess.run(
        ["git", "show", f"{ref}:lockdown_core/ai/cautious.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType(f"cautious_at_{ref[:10]}")
    exec(compile(source, f"{ref[:10]}:cautious.py", "exec"), module.__dict__)
    player: PlayerFactory = module.CautiousPlayer
    return player


def game_setup(game: int) -> tuple[int, tuple[str, ...]]:
    """Seats and variants of game number `game`."""
    return 3 + game % 4, VARIANT_SETS[(game // 4) % len(VARIANT_SETS)]


class Scripted:
    """A seat that answers what a recorded game's seat answered, at no cost: the game
    played with these seats costs what the driver and the engine cost alone."""

    uses_view = True

    def __init__(self, answers: list[Action]) -> None:
        self.answers = iter(answers)

    def observe(self, events: Sequence[Event]) -> None:
        """Nothing to remember."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return next(self.answers)


Answers = list[list[list[Action]]]


def play_all(factory: PlayerFactory, games: int) -> tuple[list[str], float, Answers]:
    """Every game's hash, the run's CPU seconds, and each game's answers by seat."""
    hashes: list[str] = []
    answers: Answers = []
    began = time.process_time()
    for game in range(games):
        players, variants = game_setup(game)
        taken: list[Action] = []

        def keep(action: Action | None, events: list[Event], taken: list[Action] = taken) -> None:
            if action is not None:
                taken.append(action)

        seats = [factory(seat, f"{game}/{seat}") for seat in range(players)]
        play_game(load_rules(variants), seats, f"cautious/{game}", observer=keep)
        text = json.dumps([action_to_dict(a) for a in taken], sort_keys=True, separators=(",", ":"))
        hashes.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
        by_seat: list[list[Action]] = [[] for _ in range(players)]
        for action in taken:
            by_seat[actor(action) or 0].append(action)
        answers.append(by_seat)
    return hashes, time.process_time() - began, answers


def driver_seconds(answers: Answers) -> float:
    """CPU seconds of the same games with every seat answering from the record."""
    began = time.process_time()
    for game, by_seat in enumerate(answers):
        _, variants = game_setup(game)
        seats = [Scripted(list(seat_answers)) for seat_answers in by_seat]
        play_game(load_rules(variants), seats, f"cautious/{game}")
    return time.process_time() - began


def load_rules(variants: tuple[str, ...]) -> Ruleset:
    return _RULES.setdefault(variants, load_ruleset(variants))


_RULES: dict[tuple[str, ...], Ruleset] = {}


def read_hashes(path: Path) -> list[str]:
    return [line.split()[1] for line in path.read_text(encoding="utf-8").splitlines() if line]


def write_hashes(path: Path, hashes: list[str]) -> None:
    path.write_text("".join(f"{n} {h}\n" for n, h in enumerate(hashes)), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ref", default=BASELINE, help="git commit of the old AI")
    parser.add_argument("--record", type=Path, help="write the old AI's game hashes here")
    parser.add_argument("--check", type=Path, default=FIXTURE, help="the reference hashes")
    parser.add_argument("--no-old", action="store_true", help="do not time the old AI")
    args = parser.parse_args()
    if args.record:
        hashes, _, _ = play_all(old_cautious(args.ref), args.games)
        write_hashes(args.record, hashes)
        print(f"old AI ({args.ref[:10]}): {args.games} games recorded in {args.record}")
        return 0
    new, new_total, answers = play_all(CautiousPlayer, args.games)
    if not args.no_old:
        _, old_total, _ = play_all(old_cautious(args.ref), args.games)
        driver = driver_seconds(answers)
        old_ai, new_ai = old_total - driver, new_total - driver
        print(
            f"cautious AI CPU over {args.games} games: old ({args.ref[:10]}) {old_ai:.2f} s "
            f"({old_ai / old_total:.0%} of its simulation), new {new_ai:.2f} s: "
            f"{old_ai / new_ai:.2f}x faster | whole simulation: old {old_total:.2f} s, "
            f"new {new_total:.2f} s ({old_total / new_total:.2f}x); "
            f"engine and driver alone {driver:.2f} s"
        )
    reference = read_hashes(args.check)
    if len(reference) < len(new):
        print(f"{args.check} has {len(reference)} games, not {len(new)}", file=sys.stderr)
        return 1
    differ = [n for n, (a, b) in enumerate(zip(reference, new, strict=False)) if a != b]
    shown = args.check.relative_to(ROOT) if args.check.is_relative_to(ROOT) else args.check
    print(f"{len(new) - len(differ)}/{len(new)} games identical to {shown}")
    if differ:
        print(f"first games that differ: {differ[:10]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
