"""Twin worlds, the full sweep: games drawn from seeds, each played twice on the fake
Discord differing in one hidden thing, and what each person who must not know it
received compared byte for byte (see tests/twins/README.md).

    uv run python bench/twin_worlds.py --seeds 50           # drawn games 0..49
    uv run python bench/twin_worlds.py --seeds 5 --named    # plus the seat-change and
                                                            # AI-ballot plans, 5 seeds each
    uv run python bench/twin_worlds.py --seeds 20 --control # nothing hidden changed: the
                                                            # streams must be equal to the end

Prints one line per game, the leaks found with their plans (a plan's seed replays it),
and the figures: games, games where world B did change the hidden thing, requests
compared, leaks found.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.twins.compare import Outcome, play_twins
from tests.twins.plan import Plan, ai_ballot, draw, seat_change


async def sweep(plans: list[Plan]) -> tuple[list[Outcome], list[str]]:
    """Each plan's twins; a game that could not be played is told with its plan."""
    outcomes = []
    broken = []
    for plan in plans:
        started = time.monotonic()
        try:
            outcome = await play_twins(plan)
        except Exception as exc:  # one game's failure must not hide the others' figures
            broken.append(f"{plan.replay()}\n  could not be played: {exc!r}"[:2000])
            print(f"seed {plan.seed:>4} {plan.hidden:<11} could not be played", flush=True)
            continue
        outcomes.append(outcome)
        print(
            f"seed {plan.seed:>4} {plan.hidden:<11} moves {outcome.moves:>4} "
            f"compared {outcome.comparisons:>5} changed {outcome.changed!s:<5} "
            f"leaks {len(outcome.leaks)} in-between drawings {outcome.coalesced} "
            f"({time.monotonic() - started:.1f} s)",
            flush=True,
        )
    return outcomes, broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--named", action="store_true", help="add the named plans too")
    parser.add_argument(
        "--control",
        action="store_true",
        help="play every plan with nothing hidden changed: any difference is the harness's",
    )
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    plans = [draw(s) for s in seeds]
    if args.named:
        plans += [seat_change(s) for s in seeds] + [ai_ballot(s) for s in seeds]
    if args.control:
        plans = [dataclasses.replace(p, hidden="none") for p in plans]
    started = time.monotonic()
    outcomes, broken = asyncio.run(sweep(plans))
    leaky = [o for o in outcomes if o.leaks]
    for outcome in leaky:
        print("\n" + outcome.report())
    for text in broken:
        print("\n" + text)
    print(
        f"\ngames {len(outcomes)} (and {len(broken)} that could not be played), "
        f"hidden thing changed in {sum(o.changed for o in outcomes)}, "
        f"requests compared {sum(o.comparisons for o in outcomes)}, "
        f"games with leaks {len(leaky)}, leaks {sum(len(o.leaks) for o in outcomes)}, "
        f"streams differing only in in-between board drawings "
        f"{sum(o.coalesced for o in outcomes)}, "
        f"{time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
