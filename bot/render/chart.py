"""The simulator's comparison as a chart: base rules and variants side by side.

Drawn with Pillow, which the bot already loads for the board: matplotlib
would add tens of megabytes to the bot process and half a second of import
for five bar charts. The chart follows the board's rules for a phone (800 px
wide, no text under 22 px, the shipped font, every text cut to its box), and
its words come in the reader's language through `say`.

The figures are `Tally.summary()` dicts (lockdown_core.ai.simulation), one
per ruleset, all played on the same seeds.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.render.canvas import Canvas, Drawn
from bot.render.glyphs import fit, font
from bot.render.palette import BACKGROUND, DIM, FAMILY_COLOURS, PALETTE, ROOM, ROOM_EDGE, TEXT
from bot.texts.catalog import Translate

WIDTH = 800
PAD, GAP = 10, 10
TEXT_SIZE = 22
PANEL_H = 220
HEADER_H = 84
HEIGHT = HEADER_H + 4 * (PANEL_H + GAP) + PAD
# Base rules first, then up to three variant sets; colours of the board's fixed palette.
SERIES_COLOURS = FAMILY_COLOURS[:4]
MAX_SERIES = len(SERIES_COLOURS)
KINDS = ("weeper", "blocker", "leader", "useless")


@dataclass(frozen=True, slots=True)
class Series:
    """One ruleset's figures: its name as the reader sees it and its summary."""

    name: str
    summary: dict[str, Any]


def _nice(value: float) -> float:
    """The axis' top: the next round number above `value` (0.4, 1.5, 6, 20 ...)."""
    if value <= 0:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * magnitude >= value:
            return float(step * magnitude)
    return 10 * magnitude


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def _number(value: float) -> str:
    return f"{value:.1f}"


def _panel(
    canvas: Canvas,
    box: tuple[int, int, int, int],
    title: str,
    groups: Sequence[str],
    values: Sequence[Sequence[float]],
    show: Callable[[float], str],
) -> None:
    """A grouped bar chart: one slot per group, one bar per series in each slot."""
    x0, y0, x1, y1 = box
    draw = canvas.draw
    draw.rounded_rectangle(box, radius=10, fill=ROOM, outline=ROOM_EDGE, width=2)
    canvas.text((x0 + 12, y0 + 8), title, bold=True, width=x1 - x0 - 24)
    highest = max((v for row in values for v in row), default=0.0)
    # Headroom above the highest bar for its value.
    scale = _nice(highest * 1.25)
    axis_w = int(font(TEXT_SIZE).getlength(show(scale))) + 8
    left, right = x0 + 12 + axis_w, x1 - 12
    plot_top, plot_bottom = y0 + 44, y1 - 38
    for fraction in (0.0, 0.5, 1.0):
        y = round(plot_bottom - (plot_bottom - plot_top) * fraction)
        draw.line((left, y, right, y), fill=ROOM_EDGE, width=1)
    canvas.text((left - 6, plot_top), show(scale), fill=DIM, anchor="rm", width=axis_w)
    canvas.text((left - 6, plot_bottom), show(0.0), fill=DIM, anchor="rm", width=axis_w)
    slot = (right - left) / max(len(groups), 1)
    bar = max(4, min(60, int((slot - 14) / max(len(values), 1))))
    for g, group in enumerate(groups):
        centre = left + slot * (g + 0.5)
        start = centre - bar * len(values) / 2
        for s, row in enumerate(values):
            height = (plot_bottom - plot_top) * min(row[g] / scale, 1.0)
            bx = round(start + s * bar)
            colour = SERIES_COLOURS[s % MAX_SERIES]
            draw.rectangle((bx + 1, round(plot_bottom - height), bx + bar - 2, plot_bottom), colour)
            # The value above its bar when there is room for it beside its neighbours' values.
            value = show(row[g])
            if font(TEXT_SIZE).getlength(value) + 6 <= bar:
                top_y = round(plot_bottom - height) - 4
                canvas.text((round(bx + bar / 2), top_y), value, fill=TEXT, anchor="md")
        label = fit(group, int(slot) - 6, TEXT_SIZE)
        canvas.text((round(centre), plot_bottom + 6), label, anchor="ma", width=int(slot) - 6)


def chart_picture(
    series: Sequence[Series], players: int, games: int, say: Translate
) -> tuple[Image.Image, Drawn]:
    """The comparison chart and where its texts are (for the tests' glyph and overlap check)."""
    if not 1 <= len(series) <= MAX_SERIES:
        raise ValueError(f"a chart compares 1 to {MAX_SERIES} rulesets, got {len(series)}")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    canvas = Canvas(image)
    canvas.text(
        (PAD, 10),
        say("chart.title", games=games, players=players),
        26,
        bold=True,
        width=WIDTH - 2 * PAD,
    )
    # The legend: each ruleset's colour and name, in equal shares of the width.
    share = (WIDTH - 2 * PAD) // len(series)
    for s, one in enumerate(series):
        lx = PAD + s * share
        canvas.draw.rounded_rectangle(
            (lx, 50, lx + 20, 70), radius=4, fill=SERIES_COLOURS[s % MAX_SERIES]
        )
        canvas.text((lx + 28, 47), one.name, width=share - 40)
    summaries = [one.summary for one in series]
    full = (PAD, 0, WIDTH - PAD, 0)
    rows = [HEADER_H + i * (PANEL_H + GAP) for i in range(4)]

    def box(row: int, part: tuple[int, int, int, int] = full) -> tuple[int, int, int, int]:
        return part[0], rows[row], part[2], rows[row] + PANEL_H

    seats = [str(p) for p in range(players)]
    _panel(
        canvas,
        box(0),
        say("chart.win_rate"),
        [say("board.seat", number=p + 1) for p in range(players)],
        [[sm["win_rate_by_seat"].get(p, 0.0) for p in seats] for sm in summaries],
        _percent,
    )
    _panel(
        canvas,
        box(1),
        say("chart.points"),
        [say(f"kind.{kind}") for kind in KINDS],
        [[sm["points_by_kind"].get(kind, 0.0) for kind in KINDS] for sm in summaries],
        _number,
    )
    _panel(
        canvas,
        box(2),
        say("chart.closed"),
        [f"{loc} {say(f'location.{loc}')}" for loc in range(1, 6)],
        [[sm["closed_rate"].get(str(loc), 0.0) for loc in range(1, 6)] for sm in summaries],
        _percent,
    )
    half = (WIDTH - 2 * PAD - GAP) // 2
    _panel(
        canvas,
        box(3, (PAD, 0, PAD + half, 0)),
        say("chart.living"),
        [""],
        [[sm["avg_living_characters"]] for sm in summaries],
        _number,
    )
    _panel(
        canvas,
        box(3, (PAD + half + GAP, 0, WIDTH - PAD, 0)),
        say("chart.turns"),
        [""],
        [[sm["avg_turns"]] for sm in summaries],
        _number,
    )
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE), canvas.drawn


def chart_png(series: Sequence[Series], players: int, games: int, say: Translate) -> bytes:
    """The comparison chart as PNG bytes."""
    image, _ = chart_picture(series, players, games, say)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


# The same figures as text, for the message that carries the chart -----------------

LABEL_WIDTH = 22
COLUMN_WIDTH = 7


def _row(label: str, cells: Sequence[str]) -> str:
    if len(label) > LABEL_WIDTH:
        label = label[: LABEL_WIDTH - 1] + "…"
    return label.ljust(LABEL_WIDTH) + "".join(cell.rjust(COLUMN_WIDTH) for cell in cells)


def comparison_table(series: Sequence[Series], players: int, say: Translate) -> str:
    """The comparison as a fixed-width table (columns A, B, ... named in its first lines)."""
    letters = [chr(ord("A") + i) for i in range(len(series))]
    lines = [f"{letter} = {one.name}" for letter, one in zip(letters, series, strict=True)]
    summaries = [one.summary for one in series]
    lines.append("")
    lines.append(_row("", letters))

    def section(title: str, rows: list[tuple[str, list[str]]]) -> None:
        lines.append(title)
        lines.extend(_row("  " + label, cells) for label, cells in rows)

    section(
        say("chart.win_rate"),
        [
            (
                say("board.seat", number=p + 1),
                [_percent(sm["win_rate_by_seat"].get(str(p), 0.0)) for sm in summaries],
            )
            for p in range(players)
        ],
    )
    section(
        say("chart.points"),
        [
            (
                say(f"kind.{kind}"),
                [_number(sm["points_by_kind"].get(kind, 0.0)) for sm in summaries],
            )
            for kind in KINDS
        ],
    )
    section(
        say("chart.closed"),
        [
            (
                f"{loc} {say(f'location.{loc}')}",
                [_percent(sm["closed_rate"].get(str(loc), 0.0)) for sm in summaries],
            )
            for loc in range(1, 6)
        ],
    )
    section(say("chart.living"), [("", [_number(sm["avg_living_characters"]) for sm in summaries])])
    section(say("chart.turns"), [("", [_number(sm["avg_turns"]) for sm in summaries])])
    codes = sorted({code for sm in summaries for code in _top(sm["epilogues"])})
    section(
        say("chart.epilogues"),
        [
            (
                say("chart.epilogue", code=code, title=say(f"epilogue.{code}.title")),
                [_percent(sm["epilogues"].get(code, 0.0)) for sm in summaries],
            )
            for code in codes
        ],
    )
    return "\n".join(lines)


def _top(rates: dict[str, float], count: int = 3) -> list[str]:
    """The epilogues a ruleset unlocks most often."""
    return sorted(rates, key=lambda code: (-rates[code], code))[:count]
