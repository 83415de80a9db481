"""The simulator's comparison as a chart: the base rules and variants side by side.

Drawn with Pillow, which the bot already loads for the board: matplotlib
would add tens of megabytes to the bot process and half a second of import
for five bar charts. The chart follows the board's rules for a phone (800 px
wide, no text under 22 px, the shipped font), and its words come in the
reader's language through `say`. Names are never cut: titles, legend and
labels wrap onto more lines, and the picture grows to hold them.

Its title says which rulesets it compares. A character kind that no game of
the series had (the Useless outside their player counts) is not drawn. A
share under 1% reads "<1%", not a rounded "0%". Under 2,000 games the rates
carry their 95% interval (Wilson score interval over the finished games), as
thin lines over their bars: below that, a few points of difference between
two rulesets are often chance. The averages carry none, as the summaries hold
no spread to compute one from.

The figures are `Tally.summary()` dicts (lockdown_core.ai.simulation), one
per ruleset, all played on the same seeds.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from PIL import Image

from bot.render.bars import (
    LINE,
    MAX_SERIES,
    Bars,
    Interval,
    fill_bar,
    label_lines,
    number,
    panel,
    panel_height,
    percent,
    whole_lines,
    wilson,
)
from bot.render.canvas import Canvas, Drawn
from bot.render.palette import BACKGROUND, DIM, PALETTE
from bot.texts import t
from bot.texts.catalog import Translate
from lockdown_core import facts, load_ruleset

WIDTH = 800
PAD, GAP = 10, 10
TITLE_SIZE = 26
KINDS = ("weeper", "blocker", "leader", "useless")
# R8.5: the locations whose closing the chart counts (the board is the same in every
# variant, so the base rules answer for every series).
CLOSABLE = facts.closable_locations(load_ruleset())
# Under this many games, rates are drawn with their 95% interval.
INTERVAL_GAMES = 2000


@dataclass(frozen=True, slots=True)
class Series:
    """One ruleset's figures: its name as the reader sees it and its summary."""

    name: str
    summary: dict[str, Any]


def chart_title(series: Sequence[Series], players: int, games: int, say: Translate) -> str:
    """What the chart compares: its rulesets by name, the games and the players."""
    rulesets = say("chart.vs").join(one.name for one in series)
    return say("chart.compares", rulesets=rulesets, games=games, players=players)


def kinds_drawn(series: Sequence[Series]) -> list[str]:
    """The character kinds some game of some series had: the others are not drawn."""
    return [k for k in KINDS if any(k in one.summary["points_by_kind"] for one in series)]


def _rates(series: Sequence[Series], key: str, groups: Sequence[str]) -> list[list[float]]:
    return [[one.summary[key].get(g, 0.0) for g in groups] for one in series]


def _intervals(
    series: Sequence[Series], values: list[list[float]], games: int
) -> list[list[Interval]] | None:
    if games >= INTERVAL_GAMES:
        return None
    return [
        [wilson(v, one.summary.get("finished", games)) for v in row]
        for one, row in zip(series, values, strict=True)
    ]


def chart_picture(
    series: Sequence[Series], players: int, games: int, lang: str
) -> tuple[Image.Image, Drawn]:
    """The comparison chart in `lang` and where its texts are (for the tests' glyph and
    overlap check)."""
    if not 1 <= len(series) <= MAX_SERIES:
        raise ValueError(f"a chart compares 1 to {MAX_SERIES} rulesets, got {len(series)}")
    say = partial(t, lang)
    share, average = partial(percent, lang), partial(number, lang)
    seats = [str(p) for p in range(players)]
    kinds = kinds_drawn(series)
    locations = [str(loc) for loc in CLOSABLE]
    win = _rates(series, "win_rate_by_seat", seats)
    closed = _rates(series, "closed_rate", locations)
    full = [
        Bars(
            say("chart.win_rate"),
            [say("board.seat", number=p + 1) for p in range(players)],
            win,
            share,
            _intervals(series, win, games),
            share=True,
        ),
        Bars(
            say("chart.points"),
            [say(f"kind.{k}") for k in kinds],
            _rates(series, "points_by_kind", kinds),
            average,
        ),
        Bars(
            say("chart.closed"),
            locations,
            closed,
            share,
            _intervals(series, closed, games),
            " · ".join(f"{loc}\u00a0{say(f'location.{loc}')}" for loc in CLOSABLE),
            share=True,
        ),
    ]
    halves = [
        Bars(
            say("chart.living"),
            [""],
            [[one.summary["avg_living_characters"]] for one in series],
            average,
        ),
        Bars(say("chart.turns"), [""], [[one.summary["avg_turns"]] for one in series], average),
    ]
    inner = WIDTH - 2 * PAD
    half = (inner - GAP) // 2
    title = whole_lines(chart_title(series, players, games, say), inner, TITLE_SIZE, True)
    names = [whole_lines(one.name, inner - 28) for one in series]
    note = (
        whole_lines(say("chart.interval_note", games=INTERVAL_GAMES), inner)
        if games < INTERVAL_GAMES
        else []
    )
    header = 10 + len(title) * 32 + 8 + sum(len(n) for n in names) * LINE + len(note) * LINE + 10
    rows = [label_lines(b, inner - 24 - 90) for b in full]
    heights = [panel_height(b, inner, r) for b, r in zip(full, rows, strict=True)]
    half_h = max(panel_height(b, half, 1) for b in halves)
    total = header + sum(h + GAP for h in heights) + half_h + PAD
    image = Image.new("RGB", (WIDTH, total), BACKGROUND)
    canvas = Canvas(image)
    top = (0, 0, WIDTH, header)  # the band of the title, the legend and the note
    y = 10
    for line in title:
        canvas.text((PAD, y), line, TITLE_SIZE, bold=True, within=top)
        y += 32
    y += 8
    # The legend: each ruleset's colour, stripes and whole name, one ruleset a row.
    for s, lines in enumerate(names):
        fill_bar(canvas, (PAD, y + 1, PAD + 22, y + 23), s)
        for line in lines:
            canvas.text((PAD + 28, y), line, within=top)
            y += LINE
    for line in note:
        canvas.text((PAD, y), line, fill=DIM, within=top)
        y += LINE
    y = header
    for bars, count, h in zip(full, rows, heights, strict=True):
        panel(canvas, (PAD, y, WIDTH - PAD, y + h), bars, count)
        y += h + GAP
    panel(canvas, (PAD, y, PAD + half, y + half_h), halves[0], 1)
    panel(canvas, (PAD + half + GAP, y, WIDTH - PAD, y + half_h), halves[1], 1)
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE), canvas.drawn


def chart_png(series: Sequence[Series], players: int, games: int, lang: str) -> bytes:
    """The comparison chart as PNG bytes, in `lang`."""
    image, _ = chart_picture(series, players, games, lang)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


# The same figures as text, for the message that carries the chart -----------------

COLUMN_WIDTH = 7


def comparison_table(series: Sequence[Series], players: int, lang: str) -> str:
    """The comparison as a fixed-width table (columns A, B, ... named in its first lines),
    its figures written as `lang` writes them.

    The labels' column is as wide as the longest label: a label is never cut, whatever
    the language's words (an epilogue's title runs 40% longer in some)."""
    say = partial(t, lang)
    letters = [chr(ord("A") + i) for i in range(len(series))]
    heading = [f"{letter} = {one.name}" for letter, one in zip(letters, series, strict=True)]
    summaries = [one.summary for one in series]
    # A section's title (no cells), or a row: its label and its cells.
    rows: list[tuple[str, Sequence[str] | None]] = [("", letters)]

    def section(title: str, labelled: list[tuple[str, list[str]]]) -> None:
        rows.append((title, None))
        rows.extend(("  " + label, cells) for label, cells in labelled)

    section(
        say("chart.win_rate"),
        [
            (
                say("board.seat", number=p + 1),
                [percent(lang, sm["win_rate_by_seat"].get(str(p), 0.0)) for sm in summaries],
            )
            for p in range(players)
        ],
    )
    section(
        say("chart.points"),
        [
            (
                say(f"kind.{kind}"),
                [number(lang, sm["points_by_kind"].get(kind, 0.0)) for sm in summaries],
            )
            for kind in kinds_drawn(series)
        ],
    )
    section(
        say("chart.closed"),
        [
            (
                f"{loc} {say(f'location.{loc}')}",
                [percent(lang, sm["closed_rate"].get(str(loc), 0.0)) for sm in summaries],
            )
            for loc in CLOSABLE
        ],
    )
    section(
        say("chart.living"), [("", [number(lang, sm["avg_living_characters"]) for sm in summaries])]
    )
    section(say("chart.turns"), [("", [number(lang, sm["avg_turns"]) for sm in summaries])])
    codes = sorted({code for sm in summaries for code in _top(sm["epilogues"])})
    section(
        say("chart.epilogues"),
        [
            (
                say("chart.epilogue", code=code, title=say(f"epilogue.{code}.title")),
                [percent(lang, sm["epilogues"].get(code, 0.0)) for sm in summaries],
            )
            for code in codes
        ],
    )
    width = max(len(label) for label, cells in rows if cells is not None) + 1
    lines = [
        label
        if cells is None
        else label.ljust(width) + "".join(c.rjust(COLUMN_WIDTH) for c in cells)
        for label, cells in rows
    ]
    return "\n".join([*heading, "", *lines])


def _top(rates: dict[str, float], count: int = 3) -> list[str]:
    """The epilogues a ruleset unlocks most often."""
    return sorted(rates, key=lambda code: (-rates[code], code))[:count]
