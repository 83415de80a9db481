"""`lockdown simulate --json` for every player count and every variant, as one table.

Each cell of the matrix is one real `lockdown simulate` process (the command
moderators run), so the figures are the command's own: games, errors and
games per second. The base rules get a row too. `--jobs` runs that many cells
at once, one process each; keep it at or below the number of cores, or the
games-per-second column measures the contention instead of the engine.

Exits 1 if any cell reports an error or fails to run, so the matrix can be a
check as well as a figure.

Run: uv run python bench/simulate_matrix.py [--games 20000] [--jobs 2] [--ai random]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lockdown_core.ruleset import DATA_DIR

VARIANTS_FILE = DATA_DIR / "variants.json"
PLAYER_COUNTS = (3, 4, 5, 6)
BASE = "(base)"


def variant_keys() -> list[str]:
    data = json.loads(VARIANTS_FILE.read_text(encoding="utf-8"))
    return [variant["key"] for variant in data["variants"]]


def run_cell(players: int, variant: str, games: int, ai: str, seed: int) -> dict[str, Any]:
    """One `lockdown simulate` run; a crash of the command itself is reported as a cell error."""
    command = ["lockdown", "simulate", "--json", "--games", str(games), "--players", str(players)]
    command += ["--ai", ai, "--seed", str(seed)]
    if variant != BASE:
        command += ["--variant", variant]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"games": 0, "errors": 1, "games_per_second": 0.0, "failed": done.stderr.strip()}
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per cell")
    parser.add_argument("--jobs", type=int, default=2, help="cells run at once")
    parser.add_argument("--ai", default="random", help="AI line-up, as for simulate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    cells = [(players, variant) for variant in (BASE, *variant_keys()) for players in PLAYER_COUNTS]
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            cell: pool.submit(run_cell, *cell, args.games, args.ai, args.seed) for cell in cells
        }
        reports = {cell: future.result() for cell, future in futures.items()}
    elapsed = time.monotonic() - start

    print(f"{'variant':<14}" + "".join(f"{p:>17}p" for p in PLAYER_COUNTS) + "   (errors, games/s)")
    for variant in (BASE, *variant_keys()):
        row = [reports[(players, variant)] for players in PLAYER_COUNTS]
        print(
            f"{variant:<14}"
            + "".join(f"{r['errors']:>8} {r['games_per_second']:>8.1f} " for r in row)
        )
    games = sum(report["games"] for report in reports.values())
    errors = sum(report["errors"] for report in reports.values())
    for cell, report in reports.items():
        if "failed" in report:
            print(f"cell {cell} failed: {report['failed']}", file=sys.stderr)
    print(
        f"{len(cells)} cells, {games} games, {errors} errors, "
        f"{elapsed / 60:.1f} min wall clock with {args.jobs} jobs"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
