"""The mall as a picture, drawn with Pillow from the public view.

It takes only the public view, so nothing secret can reach the picture. Words
arrive already translated in `BoardLabels`, which keeps this module free of
the catalog. Runs in a worker thread: Pillow releases the GIL while encoding.

Made for a phone: Discord shows the picture about 400 px wide there, so the
picture is 800 px wide and no text is smaller than 22 px (11 px on the phone).
Every word is drawn with the shipped DejaVu Sans (`glyphs`), names the font
cannot draw fall back to what it can (or the seat's label), and every text is
cut with an ellipsis to the box it owns, so nothing overlaps whatever the
language or the name. Nothing is told by colour alone: families have shapes
(`tokens`), a location the Monsters would get into says so in bold with a mark,
the location under attack has a thick outline and a mark.

The same board is often asked for again (a board message edited, a GIF frame,
a reposted board): `render_board` keeps the last PNGs by their inputs.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.render.board_labels import BoardLabels
from bot.render.canvas import TEXT_SIZE, TITLE_SIZE, Canvas, Drawn, Placed, Spot, text_box, wrap
from bot.render.glyphs import BOLD, drawable, fit
from bot.render.legend import draw_footer
from bot.render.palette import (
    ALERT,
    BACKGROUND,
    CLOSED,
    DIM,
    EMPTY_SPOT,
    MONSTER,
    PALETTE,
    SAFE,
    TEXT,
    TILE,
    TILE_EDGE,
)
from bot.render.tokens import draw_token
from lockdown_core.board_facts import BoardFacts

WIDTH = 800
PAD, GAP = 10, 8
COLS = 3
CELL_W = (WIDTH - 2 * PAD - (COLS - 1) * GAP) // COLS
CELL_H = 280
TOP = 84
LINE = 26
NAME_W = CELL_W - 54
FOOTER = TOP + 2 * (CELL_H + GAP) + 2
HEIGHT = FOOTER + 66 + 3 * (LINE + 6) + 10
# The rows at the bottom of a location that can close, from its bottom edge.
DEFENCE_Y, WARNING_Y, FREE_Y, MONSTERS_Y = 32, 60, 88, 120
# How many PNGs `render_board` keeps: a game's board and a few recent ones.
MEMO_SIZE = 32


def location_box(loc: int) -> tuple[int, int, int, int]:
    """The rectangle of a location on the picture."""
    col, row = (loc - 1) % COLS, (loc - 1) // COLS
    x = PAD + col * (CELL_W + GAP)
    y = TOP + row * (CELL_H + GAP)
    return x, y, x + CELL_W, y + CELL_H


def attacked(data: dict[str, Any]) -> int | None:
    """The location whose attack is being voted on now, if any."""
    vote = data.get("vote")
    return vote["location"] if vote is not None and vote["kind"] == "attack" else None


def _draw_closed(canvas: Canvas, box: tuple[int, int, int, int], word: str, reason: str) -> None:
    x0, y0, x1, y1 = box
    draw = canvas.draw
    draw.line((x0 + 24, y0 + 70, x1 - 24, y1 - 24), fill=MONSTER, width=4)
    draw.line((x0 + 24, y1 - 24, x1 - 24, y0 + 70), fill=MONSTER, width=4)
    label = fit(word, CELL_W - 40, TITLE_SIZE, True)
    mid = ((x0 + x1) // 2, (y0 + 70 + y1 - 24) // 2)
    lines = wrap(reason, CELL_W - 40, TEXT_SIZE, False) if reason else ()
    top = text_box(mid, label, TITLE_SIZE, True, "mm")
    bottom = top[3] + 8 + len(lines) * LINE
    draw.rectangle((x0 + 12, top[1] - 6, x1 - 12, bottom + 2), fill=CLOSED)
    canvas.text(mid, word, TITLE_SIZE, bold=True, anchor="mm", width=CELL_W - 40, within=box)
    for i, line in enumerate(lines):
        at = (mid[0], top[3] + 8 + i * LINE)
        canvas.text(at, line, fill=TEXT, anchor="ma", width=CELL_W - 40, within=box)


def _draw_tokens(
    canvas: Canvas,
    box: tuple[int, int, int, int],
    top: int,
    here: list[dict[str, Any]],
    shown: int,
    labels: BoardLabels,
) -> None:
    x0, _, x1, _ = box
    # Two rows of six fit; a crowded Parking lot packs four rows of seven smaller tokens,
    # their letters still at the smallest text size.
    radius, step, per_row = (16, 40, 6) if shown <= 12 else (13, 32, 7)
    row_step = 40 if shown <= 12 else 30
    capacity = per_row * (2 if shown <= 12 else 4)
    for i in range(min(shown, capacity)):
        cx = x0 + 14 + radius + (i % per_row) * step
        cy = top + radius + 2 + (i // per_row) * row_step
        if i < len(here):
            c = here[i]
            letter = labels.kind_letters[c["kind"]]
            draw_token(canvas, (cx, cy), radius, c["owner"], letter, c["hidden"])
        else:
            canvas.draw.ellipse(
                (cx - radius, cy - radius, cx + radius, cy + radius), outline=EMPTY_SPOT, width=2
            )
    if len(here) > capacity:
        canvas.text((x1 - 10, top), f"+{len(here) - capacity}", anchor="ra", within=box)


def _location_frame(
    canvas: Canvas, loc: int, name: str, closed: tuple[str, str] | None, under_attack: bool
) -> None:
    """What a location shows that changes seldom: its frame, number, name, the attack mark,
    and a closed location whole (`closed` is its word and its reason)."""
    x0, y0, x1, y1 = box = location_box(loc)
    draw = canvas.draw
    draw.rounded_rectangle(
        box, radius=10, fill=CLOSED if closed else TILE, outline=TILE_EDGE, width=2
    )
    # The location's number in a badge, its name beside it on up to two lines.
    draw.rounded_rectangle(
        (x0 + 8, y0 + 8, x0 + 36, y0 + 36), radius=6, fill=MONSTER if under_attack else TILE_EDGE
    )
    badge = (x0 + 8, y0 + 8, x0 + 36, y0 + 36)
    canvas.text((x0 + 22, y0 + 22), str(loc), TEXT_SIZE, bold=True, anchor="mm", within=badge)
    for i, line in enumerate(_name_lines(name)):
        canvas.text((x0 + 44, y0 + 10 + i * LINE), line, bold=True, width=NAME_W, within=box)
    # The location under attack: a thick light outline, and crossed swords where the free
    # spots line leaves space for them.
    if under_attack:
        draw.rounded_rectangle(box, radius=10, outline=TEXT, width=6)
        at = (x1 - 12, y1 - FREE_Y)
        canvas.text(at, "⚔", TITLE_SIZE, bold=True, fill=ALERT, anchor="ra", within=box)
    if closed is not None:
        _draw_closed(canvas, box, *closed)


def _name_lines(name: str) -> tuple[str, ...]:
    return wrap(name, NAME_W, TEXT_SIZE, True)


# A layer is 2 MB: a few languages' worth are kept.
@lru_cache(maxsize=4)
def _locations_layer(
    names: tuple[str, ...],
) -> tuple[Image.Image, tuple[Placed, ...], tuple[Spot, ...]]:
    """The background and every location's frame, open and calm, drawn once per process for
    each set of location names; a closed or attacked location is drawn over it."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    canvas = Canvas(image)
    for loc, name in enumerate(names, start=1):
        _location_frame(canvas, loc, name, None, False)
    return image, tuple(canvas.drawn.texts), tuple(canvas.drawn.dropped)


def _inside(box: tuple[int, int, int, int], frame: tuple[int, int, int, int]) -> bool:
    return frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]


def _draw_location(
    canvas: Canvas,
    loc: int,
    data: dict[str, Any],
    labels: BoardLabels,
    spots: int | None,
    monster_spots: int,
    facts: BoardFacts | None,
) -> None:
    """What changes in an open location: its characters, Monsters, free spots and defence."""
    x0, y0, _, y1 = box = location_box(loc)
    draw = canvas.draw
    if loc in data["closed"]:
        return
    lines = _name_lines(drawable(labels.locations[loc], str(loc), BOLD))
    # The free spots line leaves space for the attack mark of the locations layer.
    mark = 0
    if attacked(data) == loc:
        swords = text_box((0, 0), "⚔", TITLE_SIZE, True, "ra")
        mark = swords[2] - swords[0] + 8
    top = y0 + 14 + len(lines) * LINE
    here = [c for c in data["characters"] if c["location"] == loc]
    shown = max(spots, len(here)) if spots is not None else max(len(here), 1)
    _draw_tokens(canvas, box, top, here, shown, labels)
    lower = loc in labels.free or loc in labels.warnings or loc in labels.defence
    monsters = data["monsters"][loc - 1]
    square = min(24, (CELL_W - 24) // max(monster_spots, 1) - 6)
    my = y1 - (MONSTERS_Y if lower else 40)
    for i in range(monster_spots):
        mx = x0 + 12 + i * (square + 6)
        fill = MONSTER if i < monsters else None
        draw.rectangle((mx, my, mx + square, my + square), fill=fill, outline=MONSTER, width=2)
    if loc in labels.free:
        free = labels.free[loc]
        canvas.text((x0 + 12, y1 - FREE_Y), free, fill=DIM, width=CELL_W - 24 - mark, within=box)
    if loc in labels.warnings:
        text = "⚠ " + labels.warnings[loc]
        at = (x0 + 12, y1 - WARNING_Y)
        canvas.text(at, text, bold=True, fill=ALERT, width=CELL_W - 24, within=box)
    _draw_defence(canvas, box, loc, labels, facts, bool(here))


def _draw_defence(
    canvas: Canvas,
    box: tuple[int, int, int, int],
    loc: int,
    labels: BoardLabels,
    facts: BoardFacts | None,
    occupied: bool,
) -> None:
    """The defence line: a warning mark and a thick location outline where the Monsters would
    get in, a tick where the defence holds, so that the two differ without their red and
    green."""
    x0, y0, x1, y1 = box
    defence = facts.defence.get(loc) if facts is not None else None
    text = labels.defence.get(loc)
    # Nobody there, nothing attacked (R7.1): the line would only puzzle.
    if defence is None or not text or not occupied:
        return
    at, space = (x0 + 12, y1 - DEFENCE_Y), CELL_W - 24
    if defence.breached:
        canvas.text(at, "⚠ " + text, fill=ALERT, width=space, within=box)
        # The Monsters would get in: the whole location says so, not only its last line.
        canvas.draw.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=ALERT, width=4)
    elif defence.monsters:
        canvas.text(at, "✓ " + text, fill=SAFE, width=space, within=box)
    else:
        canvas.text(at, text, fill=DIM, width=space, within=box)


def board_picture(
    data: dict[str, Any],
    labels: BoardLabels,
    spots: dict[int, int | None],
    monster_spots: dict[int, int],
    cold_rows: list[int],
    facts: BoardFacts | None = None,
) -> tuple[Image.Image, Drawn]:
    """The board for a public view, on the fixed palette, and where its texts are."""
    if data.get("seat") is not None:
        raise ValueError("the board picture is drawn from the public view only")
    # The locations are the labels' (`board_labels` asks the core for them).
    names = tuple(drawable(name, str(loc), BOLD) for loc, name in labels.locations.items())
    layer, static, dropped = _locations_layer(names)
    image = layer.copy()
    canvas = Canvas(image)
    redrawn = [loc for loc in labels.locations if loc in data["closed"] or loc == attacked(data)]
    boxes = [location_box(loc) for loc in redrawn]
    canvas.drawn.texts.extend(p for p in static if not any(_inside(p.box, b) for b in boxes))
    canvas.drawn.dropped.extend(s for s in dropped if s.within not in boxes)
    for loc in redrawn:
        closed = (labels.closed, labels.closed_reason) if loc in data["closed"] else None
        _location_frame(canvas, loc, names[loc - 1], closed, loc == attacked(data))
    # The title keeps what it needs up to 55% of the width; the step and deck get the rest.
    # The band above the rooms; a glyph's side bearing may reach into the margin.
    header = (0, 0, WIDTH, TOP)
    title_width = canvas.text(
        (PAD, 10), labels.title, TITLE_SIZE, bold=True, width=WIDTH * 55 // 100, within=header
    )
    canvas.text(
        (WIDTH - PAD, 14),
        labels.status,
        fill=DIM,
        anchor="ra",
        width=WIDTH - 2 * PAD - title_width - 20,
        within=header,
    )
    if labels.end_line:
        at = (PAD, 48)
        canvas.text(at, labels.end_line, fill=DIM, width=WIDTH - 2 * PAD, within=header)
    for loc in labels.locations:
        _draw_location(canvas, loc, data, labels, spots[loc], monster_spots[loc], facts)
    equal = facts is not None and facts.equal
    draw_footer(canvas, data, labels, cold_rows, equal, FOOTER)
    quantized = image.quantize(palette=PALETTE, dither=Image.Dither.NONE)
    return quantized, canvas.drawn


_memo: OrderedDict[str, bytes] = OrderedDict()
# Boards are drawn in worker threads: the memo is read and trimmed under a lock.
_memo_lock = threading.Lock()


def render_board(
    data: dict[str, Any],
    labels: BoardLabels,
    spots: dict[int, int | None],
    monster_spots: dict[int, int],
    cold_rows: list[int],
    facts: BoardFacts | None = None,
) -> bytes:
    """PNG bytes of the board for a public view (`view(state, None)`).

    The same inputs give the same PNG without drawing it again: the key is every
    input's repr, so anything that changes the picture changes the key.
    """
    key = repr((data, labels, spots, monster_spots, cold_rows, facts))
    with _memo_lock:
        png = _memo.get(key)
        if png is not None:
            _memo.move_to_end(key)
            return png
    image, _ = board_picture(data, labels, spots, monster_spots, cold_rows, facts)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    png = out.getvalue()
    with _memo_lock:
        _memo[key] = png
        if len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return png
