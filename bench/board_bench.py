"""Board picture benchmark: median and p99 render time over positions of real games.

Run: uv run python bench/board_bench.py
"again" times a second drawing of each position right after the first: a board
message edited or reposted asks for a board it already has, which `render_board`
keeps by its inputs.
With --gif: the replay GIF's size and time for the longest of 20 random games at 3 and
at 6 players. With --chart: the memory the comparison chart adds to a process that
already draws boards (Pillow loaded), and the time to draw one.
To compare with an earlier renderer in the same run, give a copy of its file:
    git show 4eaec98:bot/render/board_image.py > /tmp/old_board.py
    uv run python bench/board_bench.py --old /tmp/old_board.py
The earlier file is imported from that copy, so the working tree is never touched; it
shares today's `glyphs` (and its caches). To compare whole trees, export the earlier one
and run its own bench with the same interpreter:
    git archive 715463f bot lockdown_core bench | tar -x -C /tmp/old_tree
    cd /tmp/old_tree && PYTHONPATH=. <project>/.venv/bin/python bench/board_bench.py
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from bot.render.labels import board_png
from bot.texts import t
from lockdown_core import (
    ReplayLog,
    Ruleset,
    load_ruleset,
    new_game,
    view,
)
from lockdown_core.actions import action_to_dict
from lockdown_core.ai.autoplay import RandomTable

NAMES = ["Chloé", "Émile", "Σοφία", "Дмитрий", "花子", "Łukasz"]


def _say(key: str, **params: object) -> str:
    return t("en", key, **params)


def _views(rules: Ruleset) -> list[dict[str, Any]]:
    views = []
    for seed in range(20):
        state, _ = new_game(rules, 6, seed)
        table = RandomTable(seed)
        for index, _ in enumerate(table.play(state)):
            if index % 20 == 0:
                views.append(view(state, None))
    return views


def _old_renderer(path: Path, rules: Ruleset) -> Callable[[dict[str, Any]], bytes]:
    """The `render_board` of an earlier board_image.py, with the labels it took."""
    spec = importlib.util.spec_from_file_location("old_board_image", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    spots = {loc.id: loc.character_spots for loc in rules.locations}
    monster_spots = {loc.id: loc.monster_spots for loc in rules.locations}

    def render(data: dict[str, Any]) -> bytes:
        labels = module.BoardLabels(
            title=_say("board.title", turn=data["turn"]),
            locations={loc: _say(f"location.{loc}") for loc in range(1, 7)},
            kind_letters={k.key: _say(f"kind.{k.key}.letter") for k in rules.kinds},
            closed=_say("board.closed"),
            cold_storage=_say("board.cold_storage_title"),
            status=_say("board.picture_status", step=data["step"], deck=data["deck"]),
            names=NAMES,
            badge=_say("board.badge"),
            martyr=_say("board.martyr"),
        )
        png: bytes = module.render_board(
            data, labels, spots, monster_spots, list(rules.cold_storage_rows)
        )
        return png

    return render


def _measure(
    name: str, render: Callable[[dict[str, Any]], bytes], views: list[Any], again: bool = False
) -> None:
    times, sizes = [], []
    for data in views:
        if again:
            render(data)
        start = time.perf_counter()
        png = render(data)
        times.append(time.perf_counter() - start)
        sizes.append(len(png))
    times.sort()
    print(
        f"{name}: {len(times)} renders, median {statistics.median(times) * 1000:.1f} ms, "
        f"p99 {times[int(len(times) * 0.99) - 1] * 1000:.1f} ms, "
        f"median PNG {statistics.median(sizes) / 1024:.1f} KiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="an earlier board_image.py to compare with")
    parser.add_argument("--gif", action="store_true", help="also measure the replay GIF")
    parser.add_argument("--chart", action="store_true", help="also measure the chart")
    args = parser.parse_args()
    if args.chart:
        _chart()
    rules = load_ruleset()
    views = _views(rules)
    if args.old is not None:
        _measure("before", _old_renderer(args.old, rules), views)
    _measure("now   ", lambda data: board_png(data, rules, NAMES, _say), views)
    _measure("again ", lambda data: board_png(data, rules, NAMES, _say), views, again=True)
    if args.gif:
        for players in (3, 6):
            _gif(players)


def _longest(players: int) -> ReplayLog:
    """The longest (in actions) of 20 seeded random games."""
    longest = ReplayLog(players=players, seed=0)
    for seed in range(20):
        state, _ = new_game(load_ruleset(), players, seed)
        record = ReplayLog(players=players, seed=seed)
        for action, _ in RandomTable(seed).play(state):
            record.actions.append(action_to_dict(action))
        if len(record.actions) > len(longest.actions):
            longest = record
    return longest


def _gif(players: int) -> None:
    from bot.render.replay_gif import render_gif

    record = _longest(players)
    start = time.perf_counter()
    data = render_gif(record, "fr", NAMES[:players])
    elapsed = time.perf_counter() - start
    frames = getattr(Image.open(io.BytesIO(data)), "n_frames", 1)
    print(
        f"GIF {players} players: {len(record.actions)} actions, {frames} frames, "
        f"{len(data) / 1024 / 1024:.2f} MiB, {elapsed:.2f} s"
    )


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _chart() -> None:
    """Memory and time of the chart, measured before anything else touched this process."""
    from lockdown_core.ai.simulation import simulate

    rules = load_ruleset()
    summaries = [simulate(load_ruleset(v), 5, "random", 50, 0).summary() for v in ([], ["hush"])]
    state, _ = new_game(rules, 5, 0)
    board_png(view(state, None), rules, NAMES, _say)  # a bot has drawn boards already
    before = _rss_kib()
    from bot.render.chart import Series, chart_png

    series = [
        Series(name, summary) for name, summary in zip(("Base", "Hush"), summaries, strict=True)
    ]
    start = time.perf_counter()
    chart_png(series, 5, 50, _say)
    first = time.perf_counter() - start
    times = []
    for _ in range(10):
        start = time.perf_counter()
        chart_png(series, 5, 50, _say)
        times.append(time.perf_counter() - start)
    print(
        f"chart: +{(_rss_kib() - before) / 1024:.1f} MiB RSS (import and 11 draws, after one "
        f"board was drawn), first draw {first * 1000:.0f} ms, "
        f"then median {statistics.median(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
