"""Grouped bar panels for the simulator's chart, and the numbers written on them.

Each ruleset's bars have its colour and its stripes, so that the rulesets are
told apart without colour too. A panel never cuts a word: its title and labels
wrap onto more lines (a word wider than a line is split with a hyphen) and the
panel grows to hold them.
A share under 1% reads "<1%", not a rounded "0%", and a share's axis stops at
100%. Percents and averages are written as the reader's language writes them
(`25 %` and `1,5` in French), through Babel. A rate may carry its 95% interval
(Wilson score interval), drawn as a thin line with caps over its bar.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.canvas import Canvas
from bot.render.glyphs import font
from bot.render.palette import DIM, FAMILY_COLOURS, INK, TEXT, TILE, TILE_EDGE
from bot.texts.catalog import decimal
from bot.texts.catalog import percent as written_percent

TEXT_SIZE = 22
LINE = 28
PANEL_H = 200
# Base rules first, then up to three variant sets; colours of the board's fixed palette.
SERIES_COLOURS = FAMILY_COLOURS[:4]
MAX_SERIES = len(SERIES_COLOURS)
Z95 = 1.959964

Interval = tuple[float, float]


def whole_lines(text: str, width: int, size: int = TEXT_SIZE, bold: bool = False) -> list[str]:
    """`text` on as many lines as it needs, never cut: words go where they fit, and a word
    wider than a line is split with a hyphen. Only plain spaces break a line, so a
    no-break space keeps a number with its name."""
    face = font(size, bold)
    lines: list[str] = []
    current = ""
    for word in filter(None, text.split(" ")):
        while face.getlength(word) > width:
            if current:
                lines.append(current)
                current = ""
            cut = len(word) - 1
            while cut > 1 and face.getlength(word[:cut] + "-") > width:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        attempt = f"{current} {word}".strip()
        if current and face.getlength(attempt) > width:
            lines.append(current)
            current = word
        else:
            current = attempt
    return [*lines, current] if current or not lines else lines


def _nice(value: float) -> float:
    """The axis' top: the next round number above `value` (0.4, 1.5, 6, 20 ...)."""
    if value <= 0:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * magnitude >= value:
            return float(step * magnitude)
    return 10 * magnitude


def percent(lang: str, value: float) -> str:
    """A share in whole percents as `lang` writes them; under 1% (and over 99%) says so
    rather than round."""
    if 0 < value < 0.01:
        return "<" + written_percent(lang, 0.01)
    if 0.99 < value < 1:
        return ">" + written_percent(lang, 0.99)
    return written_percent(lang, value)


def number(lang: str, value: float) -> str:
    """An average, to one decimal, as `lang` writes it."""
    return decimal(lang, value, 1)


def wilson(rate: float, games: int) -> Interval:
    """The 95% Wilson score interval of a rate observed over `games` games."""
    if games <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def fill_bar(canvas: Canvas, box: tuple[int, int, int, int], series: int) -> None:
    """A bar (or a legend swatch) in its series' colour, striped by series so that the
    rulesets are told apart without colour: plain, diagonal, horizontal, vertical."""
    x0, y0, x1, y1 = box
    canvas.draw.rectangle(box, SERIES_COLOURS[series % MAX_SERIES])
    kind = series % MAX_SERIES
    if kind == 0 or x1 - x0 < 4 or y1 - y0 < 4:
        return
    stripes = Image.new("L", (x1 - x0 + 1, y1 - y0 + 1), 0)
    draw = ImageDraw.Draw(stripes)
    w, h = stripes.size
    if kind == 1:
        for d in range(-h, w, 9):
            draw.line((d, h, d + h, 0), fill=255, width=3)
    elif kind == 2:
        for y in range(4, h, 9):
            draw.line((0, y, w, y), fill=255, width=3)
    else:
        for x in range(4, w, 9):
            draw.line((x, 0, x, h), fill=255, width=3)
    canvas.image.paste(INK, (x0, y0, x1 + 1, y1 + 1), stripes)


@dataclass(frozen=True, slots=True)
class Bars:
    """One panel's figures: a title, the groups' labels, one row of values per series,
    each value's interval (or None), and a key under the labels (the locations' names,
    too long to sit whole under five bars). `share` says the values are shares, whose
    axis stops at 100%."""

    title: str
    groups: Sequence[str]
    values: Sequence[Sequence[float]]
    show: Callable[[float], str]
    intervals: Sequence[Sequence[Interval]] | None = None
    key: str = ""
    share: bool = False


def panel(canvas: Canvas, box: tuple[int, int, int, int], bars: Bars, label_lines: int) -> None:
    """A grouped bar chart: one slot per group, one bar per series in each slot."""
    x0, y0, x1, y1 = box
    draw = canvas.draw
    draw.rounded_rectangle(box, radius=10, fill=TILE, outline=TILE_EDGE, width=2)
    title_lines = whole_lines(bars.title, x1 - x0 - 24, TEXT_SIZE, True)
    for i, line in enumerate(title_lines):
        canvas.text((x0 + 12, y0 + 8 + i * LINE), line, bold=True, within=box)
    tops = [hi for row in bars.intervals or () for _, hi in row]
    highest = max([v for row in bars.values for v in row] + tops, default=0.0)
    # Headroom above the highest bar for its value; a share's axis stops at 100%.
    scale = _nice(highest * 1.25)
    if bars.share:
        scale = min(scale, 1.0)
    axis_w = int(font(TEXT_SIZE).getlength(bars.show(scale))) + 8
    left, right = x0 + 12 + axis_w, x1 - 12
    plot_top = y0 + 20 + len(title_lines) * LINE + LINE
    key = whole_lines(bars.key, x1 - x0 - 24) if bars.key else []
    plot_bottom = y1 - 10 - (label_lines + len(key)) * LINE
    for fraction in (0.0, 0.5, 1.0):
        y = round(plot_bottom - (plot_bottom - plot_top) * fraction)
        draw.line((left, y, right, y), fill=TILE_EDGE, width=1)
    axis = (x0, y0, left, y1)
    for y, shown in ((plot_top, scale), (plot_bottom, 0.0)):
        canvas.text(
            (left - 6, y), bars.show(shown), fill=DIM, anchor="rm", width=axis_w, within=axis
        )
    slot = (right - left) / max(len(bars.groups), 1)
    bar = max(4, min(60, int((slot - 14) / max(len(bars.values), 1))))
    # A value is written over its bar when it fits beside its neighbours' (a lone series
    # has its whole slot).
    space = bar - 4 if len(bars.values) > 1 else int(slot) - 8

    def height(value: float) -> int:
        return round((plot_bottom - plot_top) * min(value / scale, 1.0))

    for g, group in enumerate(bars.groups):
        centre = left + slot * (g + 0.5)
        start = centre - bar * len(bars.values) / 2
        for s, row in enumerate(bars.values):
            bx = round(start + s * bar)
            top = plot_bottom - height(row[g])
            fill_bar(canvas, (bx + 1, top, bx + bar - 2, plot_bottom), s)
            mid = round(bx + bar / 2)
            if bars.intervals is not None:
                lo, hi = bars.intervals[s][g]
                y_lo, y_hi = plot_bottom - height(lo), plot_bottom - height(hi)
                cap = max(2, bar // 4)
                draw.line((mid, y_lo, mid, y_hi), fill=TEXT, width=2)
                draw.line((mid - cap, y_hi, mid + cap, y_hi), fill=TEXT, width=2)
                draw.line((mid - cap, y_lo, mid + cap, y_lo), fill=TEXT, width=2)
                top = min(top, y_hi)
            # The value above its bar when there is space for it beside its neighbours' values.
            value = bars.show(row[g])
            if font(TEXT_SIZE).getlength(value) <= space:
                canvas.text((mid, top - 4), value, fill=TEXT, anchor="md", within=box)
        # A group's label stays under its own slot: a longer one takes more lines.
        under = (round(centre - slot / 2), plot_bottom, round(centre + slot / 2), y1)
        for i, line in enumerate(whole_lines(group, int(slot) - 6)):
            canvas.text(
                (round(centre), plot_bottom + 6 + i * LINE), line, anchor="ma", within=under
            )
    for i, line in enumerate(key):
        canvas.text(
            (x0 + 12, plot_bottom + 6 + (label_lines + i) * LINE), line, fill=DIM, within=box
        )


def label_lines(bars: Bars, width: int) -> int:
    """How many lines the panel's longest group label needs."""
    slot = width // max(len(bars.groups), 1) - 6
    return max((len(whole_lines(g, slot)) for g in bars.groups), default=1)


def panel_height(bars: Bars, width: int, label_lines: int) -> int:
    """A panel's height: more lines of title or labels make it taller, never cut them."""
    title_lines = len(whole_lines(bars.title, width - 24, TEXT_SIZE, True))
    key_lines = len(whole_lines(bars.key, width - 24)) if bars.key else 0
    return PANEL_H + (title_lines - 1 + label_lines - 1 + key_lines) * LINE
