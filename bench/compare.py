"""Every figure of issue 17 in one run, today's code beside the code it started from.

The baseline is a commit (`--baseline`, by default main just before the
issue's work), unpacked with `git archive` into a temporary folder and run
with that folder first on the path, in the same session on the same
machine, so that both columns see the same load. Each figure is measured in
a process of its own:

- `lockdown --help` and `lockdown replay FILE`: wall time, median of
  several runs after one that fills the bytecode cache (target 0.25 s, 0.5 s);
- a stored snapshot: compact JSON bytes, mean and largest over every
  position of a few plain games of 3 and 6 seats (target under 1,500 B);
- the core: six-player games of random AIs per CPU-second on one core
  (target 1,000/s or 2.5x the baseline);
- the cautious AI: its CPU time against the version before its speed-up
  (`bench/cautious_bench.py`, which also checks that every game is the same);
- click -> applied -> stored with 200 games in the process: p99 wall and CPU
  per stored action (`bench/stored_click_bench.py`; target p99 < 10 ms on
  SQLite and half the CPU), on PostgreSQL too with `--postgres URL`.

Run: uv run python bench/compare.py [--postgres postgresql+asyncpg://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# main before the speed work of issue 17 landed.
BASELINE = "4c031b9"
SCENARIO = "tests/scenarios/r6_4_first_arrival_worked_example.json"

RUN_CLI = "import sys; from bot.cli.main import main; sys.argv[0] = 'lockdown'; main()"

CORE = """
import sys, time
from lockdown_core import load_ruleset
from lockdown_core.ai import RandomPlayer, play_game
rules = load_ruleset()
seconds = float(sys.argv[1])
start = time.process_time()
played = 0
while time.process_time() - start < seconds:
    play_game(rules, [RandomPlayer(s, f"{played}/{s}") for s in range(6)], played)
    played += 1
print(played / (time.process_time() - start))
"""

SNAPSHOT = """
import json, statistics
from lockdown_core import Step, apply, legal_actions, load_ruleset, new_game
try:
    from lockdown_core import pending_seats
except ImportError:  # the code before the name was settled
    from lockdown_core import pending_players as pending_seats
from lockdown_core.ai import RandomPlayer
rules = load_ruleset()
sizes = {3: [], 6: []}
for players in sizes:
    for game in range(10):
        state, _ = new_game(rules, players, 500 + game)
        seats = [RandomPlayer(s, f"snap/{game}/{s}") for s in range(players)]
        while True:
            sizes[players].append(len(json.dumps(state.to_dict(), separators=(",", ":"))))
            if state.step == Step.GAME_OVER:
                break
            seat = pending_seats(state)[0]
            apply(state, seats[seat].choose({}, legal_actions(state, seat)))
print(json.dumps({p: [statistics.fmean(s), max(s)] for p, s in sizes.items()}))
"""


class Tree:
    """A copy of the code to measure: this checkout, or a commit unpacked apart."""

    def __init__(self, label: str, root: Path) -> None:
        self.label = label
        self.root = root

    def python(self, args: list[str], timeout: float = 300) -> str:
        """Run Python with this tree's code first on the path, from outside any tree."""
        env = {**os.environ, "PYTHONPATH": str(self.root)}
        result = subprocess.run(
            [sys.executable, *args],
            cwd=tempfile.gettempdir(),
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
        return result.stdout

    def timed(self, args: list[str], runs: int) -> tuple[float, float]:
        """Median wall and CPU seconds (the child's user + system) of `runs` runs, after
        one that warms the bytecode cache. On a loaded machine the wall time waits for
        the CPU; the CPU time does not."""
        self.python(args)
        walls, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            self.python(args)
            walls.append(time.perf_counter() - began)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return statistics.median(walls), statistics.median(cpus)


def unpack(commit: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def figures(tree: Tree, args: argparse.Namespace) -> dict[str, Any]:
    scenario = str(ROOT / SCENARIO)
    out: dict[str, Any] = {
        "help_s": tree.timed(["-c", RUN_CLI, "--help"], args.runs),
        "replay_s": tree.timed(["-c", RUN_CLI, "replay", "--quiet", scenario], args.runs),
        "snapshot": json.loads(tree.python(["-c", SNAPSHOT])),
        "core_games_s": float(tree.python(["-c", CORE, str(args.seconds)])),
    }
    click = [str(ROOT / "bench" / "stored_click_bench.py"), "--json", "--clicks", str(args.clicks)]
    out["sqlite"] = json.loads(tree.python(click))
    if args.postgres:
        out["postgres"] = json.loads(tree.python([*click, "--postgres", args.postgres]))
    return out


def cautious(games: int) -> str:
    """The cautious AI's line: old (from git) against new, same games checked."""
    bench = str(ROOT / "bench" / "cautious_bench.py")
    out = subprocess.run(
        [sys.executable, bench, "--games", str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return (out.stdout + out.stderr).strip()


def row(name: str, old: str, new: str, note: str = "") -> str:
    return f"{name:<44} {old:>14} {new:>14}  {note}"


def report(old: dict[str, Any], new: dict[str, Any], cautious_line: str) -> list[str]:
    lines = [row("figure", "baseline", "now"), "-" * 100]
    for key, name, target in (
        ("help_s", "lockdown --help (s, wall / CPU, median)", 0.25),
        ("replay_s", "lockdown replay FILE (s, wall / CPU, median)", 0.5),
    ):
        (old_wall, old_cpu), (wall, cpu) = old[key], new[key]
        verdict = "met" if wall < target else "NOT met in wall time"
        lines.append(
            row(
                name,
                f"{old_wall:.3f} / {old_cpu:.3f}",
                f"{wall:.3f} / {cpu:.3f}",
                f"target < {target} s: {verdict}",
            )
        )
    for players in ("3", "6"):
        (old_mean, old_max), (mean, biggest) = old["snapshot"][players], new["snapshot"][players]
        lines.append(
            row(
                f"snapshot, {players} seats (B, mean / max)",
                f"{old_mean:.0f} / {old_max}",
                f"{mean:.0f} / {biggest}",
                "target mean < 1500: " + ("met" if mean < 1500 else "NOT met"),
            )
        )
    ratio = new["core_games_s"] / old["core_games_s"]
    met = new["core_games_s"] >= 1000 or ratio >= 2.5
    lines.append(
        row(
            "core: 6-seat random games per CPU-second",
            f"{old['core_games_s']:.0f}",
            f"{new['core_games_s']:.0f}",
            f"{ratio:.2f}x; target 1000/s or 2.5x: " + ("met" if met else "NOT met"),
        )
    )
    for db in ("sqlite", "postgres"):
        if db not in new:
            continue
        before, now = old[db], new[db]
        lines.append(
            row(
                f"{now['database']}: click stored p99 (ms)",
                f"{before['p99_ms']:.2f}",
                f"{now['p99_ms']:.2f}",
                "target < 10: " + ("met" if now["p99_ms"] < 10 else "NOT met")
                if db == "sqlite"
                else "",
            )
        )
        cpu_ratio = before["cpu_ms_per_action"] / now["cpu_ms_per_action"]
        lines.append(
            row(
                f"{now['database']}: CPU per stored action (ms)",
                f"{before['cpu_ms_per_action']:.2f}",
                f"{now['cpu_ms_per_action']:.2f}",
                f"{cpu_ratio:.2f}x less; target 2x: " + ("met" if cpu_ratio >= 2 else "NOT met"),
            )
        )
    lines.append("cautious AI (bench/cautious_bench.py): " + cautious_line.replace("\n", "\n  "))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    parser.add_argument("--postgres", metavar="URL", help="also measure this PostgreSQL server")
    parser.add_argument("--runs", type=int, default=7, help="runs of each command line")
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of core games")
    parser.add_argument("--clicks", type=int, default=1000, help="stored clicks per database")
    parser.add_argument("--cautious-games", type=int, default=300)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="lockdown-baseline-") as folder:
        old_tree = Tree(args.baseline, unpack(args.baseline, Path(folder)))
        old = figures(old_tree, args)
        new = figures(Tree("now", ROOT), args)
    line = cautious(args.cautious_games)
    print(
        f"baseline {args.baseline} against the working tree; load average {load:.2f}, "
        f"{os.cpu_count()} CPUs"
    )
    print("\n".join(report(old, new, line)))


if __name__ == "__main__":
    main()
