"""`lockdown simulate`: play many games with AI seats and print what they add up to.

For balancing variants and catching engine bugs: games per second, turns,
survivors, wins by seat and by AI level, points by character kind, how often
each location closes and which epilogue each game would unlock first (R10.2
with nothing unlocked yet). Games that raise are counted in `errors` and the
first traceback is printed; the exit status is 1 when there was any.

The work is `lockdown_core.ai.simulation`; this module parses, times, prints,
and with `--jobs` spreads the games over processes: every game's seed comes
from its number, so the games played are the same whatever the number of
processes, and so are the figures (up to the rounding of shared wins).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from bot.texts.lang import TERMINAL_LANGUAGES
from lockdown_core import DataError, Ruleset, facts, load_ruleset
from lockdown_core.ai.personas import PERSONAS
from lockdown_core.ai.simulation import AI_CHOICES, Tally, ai_seed, game_seed, simulate
from lockdown_core.variant_clashes import clashes

# How many times the progress bar is redrawn over a whole run, at most.
PROGRESS_STEPS = 200
BAR_WIDTH = 30
# Games per task handed to a process with --jobs: small enough to share the work
# evenly and move the progress bar, large enough that handing out tasks costs nothing.
CHUNK = 250


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--players", type=int, default=4, help="seats per game, 3-6 (default 4)")
    parser.add_argument(
        "--ai",
        choices=AI_CHOICES,
        default="cautious",
        help="AI level of every seat, or mix: cautious and random alternating (default "
        "cautious, which plays like a careful person; random only finds engine faults)",
    )
    parser.add_argument(
        "--persona",
        action="append",
        default=[],
        choices=tuple(PERSONAS),
        metavar="NAME",
        help=f"with --ai shrewd: a persona ({', '.join(PERSONAS)}); repeat for several, "
        "which take the seats in turn (default: the shrewd level's own)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="a variant (see --list-variants); repeat for several",
    )
    parser.add_argument(
        "--list-variants",
        action="store_true",
        help="print every variant's name and what it changes, then stop",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--chart",
        type=Path,
        metavar="FILE.png",
        help="also play the base rules on the same seeds and draw both side by side",
    )
    parser.add_argument(
        "--lang",
        choices=TERMINAL_LANGUAGES,
        default=None,
        help="language of the report and the chart (default: the terminal's, LANG, else en)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes that play the games, 0 for one per core (default 1)",
    )


def run(args: argparse.Namespace) -> int:
    if args.list_variants or args.variant:
        from bot.cli.simulate_text import unknown_variants, variant_list

        if args.list_variants:
            print(variant_list(_lang(args)))
            return 0
        unknown = unknown_variants(_lang(args), args.variant)
        if unknown:
            print(f"lockdown simulate: {unknown}", file=sys.stderr)
            return 2
    try:
        rules = load_ruleset(tuple(args.variant))
    except DataError as exc:
        print(f"lockdown simulate: {exc}", file=sys.stderr)
        return 2
    found = clashes(args.variant)
    if found:
        clash = found[0]
        print(
            f"lockdown simulate: {clash.first} and {clash.second} change the same rule "
            f"({', '.join(clash.values)}) each its own way: they are never combined (R11.4)",
            file=sys.stderr,
        )
        return 2
    seats = facts.player_range(rules)
    if args.players not in seats:
        print(
            f"lockdown simulate: --players must be {seats[0]} to {seats[-1]}",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("lockdown simulate: --games must be at least 1", file=sys.stderr)
        return 2
    if args.persona and args.ai != "shrewd":
        print("lockdown simulate: --persona needs --ai shrewd", file=sys.stderr)
        return 2
    if args.jobs < 0:
        print("lockdown simulate: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    progress = _progress_bar(args.games, sys.stderr) if sys.stderr.isatty() else None
    started = time.perf_counter()
    tally = _play(args, tuple(args.variant), jobs, progress)
    elapsed = time.perf_counter() - started
    if progress is not None:
        sys.stderr.write("\n")
    report = _report(tally, args, elapsed)
    # The base rules on the same seeds: what the chart draws beside the variants, and
    # what the text report compares them with (the games are played once for both).
    base = _play(args, (), jobs, None) if args.variant and not args.json else None
    if args.json:
        print(json.dumps(report))
    else:
        from bot.cli.simulate_text import print_text  # the catalog: only for the text

        print_text(report, _lang(args), sys.stdout, None if base is None else base.summary())
    game = tally.first_error_game
    if tally.first_error is not None and game is not None:
        print(
            f"first error (game {game}, seed {game_seed(args.seed, game)}, "
            f"AI seed {ai_seed(args.seed, game)}):\n{tally.first_error}",
            file=sys.stderr,
            end="",
        )
    if args.chart is not None:
        if base is None:
            base = _play(args, (), jobs, None) if args.variant else tally
        _write_chart(args, base, tally)
    return 1 if tally.errors else 0


def _play(
    args: argparse.Namespace,
    variants: tuple[str, ...],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Tally:
    if jobs == 1:
        return simulate(
            _rules(variants),
            args.players,
            args.ai,
            args.games,
            args.seed,
            progress,
            personas=tuple(args.persona),
        )
    return _simulate_in_processes(args, variants, jobs, progress)


def _write_chart(args: argparse.Namespace, base: Tally, chosen: Tally) -> None:
    """The base rules and the chosen variants side by side, on the same seeds.

    Pillow and the catalog are imported here: a run without a chart never loads them.
    """
    from bot.render.chart import Series, chart_png
    from bot.texts import t

    def say(key: str, **params: object) -> str:
        return t(_lang(args), key, **params)

    series = [Series(say("chart.base"), base.summary())]
    if args.variant:
        name = " + ".join(say(f"variant.{v}.name") for v in args.variant)
        series.append(Series(name, chosen.summary()))
    args.chart.write_bytes(chart_png(series, args.players, args.games, _lang(args)))
    print(f"chart written to {args.chart}", file=sys.stderr)


def _simulate_in_processes(
    args: argparse.Namespace,
    variants: tuple[str, ...],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Tally:
    """The same games as one process would play, in chunks over `jobs` processes,
    merged in game order."""
    starts = range(0, args.games, CHUNK)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = [
            pool.submit(
                _play_chunk,
                variants,
                args.players,
                args.ai,
                args.seed,
                start,
                min(CHUNK, args.games - start),
                tuple(args.persona),
            )
            for start in starts
        ]
        played = 0
        for part in as_completed(parts):
            played += part.result().games
            if progress is not None:
                progress(played)
    tally = Tally(args.players)
    for part in parts:
        tally.merge(part.result())
    return tally


def _play_chunk(
    variants: tuple[str, ...],
    players: int,
    ai: str,
    seed: int,
    first: int,
    games: int,
    personas: tuple[str, ...],
) -> Tally:
    """One process's task: games `first` to `first + games - 1` of the run."""
    return simulate(_rules(variants), players, ai, games, seed, first=first, personas=personas)


def _lang(args: argparse.Namespace) -> str:
    """`--lang`, else the terminal's language."""
    from bot.cli.simulate_text import environment_lang

    return str(args.lang) if args.lang else environment_lang()


@cache
def _rules(variants: tuple[str, ...]) -> Ruleset:
    """Loaded once per process, not once per chunk."""
    return load_ruleset(variants)


def _report(tally: Tally, args: argparse.Namespace, elapsed: float) -> dict[str, Any]:
    report = tally.summary()
    report.update(
        ai=args.ai,
        personas=list(args.persona),
        variants=list(args.variant),
        seed=args.seed,
        elapsed_seconds=elapsed,
        games_per_second=tally.games / elapsed if elapsed > 0 else 0.0,
    )
    return report


def _progress_bar(total: int, out: TextIO) -> Callable[[int], None]:
    every = max(1, total // PROGRESS_STEPS)
    started = time.perf_counter()

    def show(done: int) -> None:
        if done % every and done != total:
            return
        filled = BAR_WIDTH * done // total
        rate = done / max(time.perf_counter() - started, 1e-9)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        out.write(f"\r[{bar}] {done}/{total} games, {rate:.0f}/s")
        out.flush()

    return show
