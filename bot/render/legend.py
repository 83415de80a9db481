"""The board's footer: the Cold storage, how Monsters get in now, and who is who.

The legend gives each seat two columns' worth of room, so that the tokens a
seat holds (Security badge, Martyr: the Martyr breaks ties) are always written
in full; only the name is cut when space runs out. Each name sits beside its
family's token shape in its colour, so a family is found without colour too.
"""

from __future__ import annotations

from typing import Any

from bot.render.board_labels import BoardLabels
from bot.render.canvas import TEXT_SIZE, Box, Canvas, text_width
from bot.render.glyphs import BOLD, drawable
from bot.render.palette import ALERT, DIM, EMPTY_SPOT, TEXT
from bot.render.tokens import draw_shape, draw_token

WIDTH, PAD, GAP = 800, 10, 8
LINE = 26
LEGEND_COLS = 2
# The small card drawn before a seat's hand size.
CARD_W = 16
LEGEND_W = (WIDTH - 2 * PAD - (LEGEND_COLS - 1) * GAP) // LEGEND_COLS


def names(labels: BoardLabels, players: int) -> list[str]:
    """Each seat's name as the font can draw it."""
    shown = []
    for seat in range(players):
        fallback = labels.seats[seat] if seat < len(labels.seats) else str(seat + 1)
        name = labels.names[seat] if seat < len(labels.names) else fallback
        shown.append(drawable(name, fallback, BOLD))
    return shown


def draw_footer(
    canvas: Canvas,
    data: dict[str, Any],
    labels: BoardLabels,
    cold_rows: list[int],
    equal: bool,
    y: int,
) -> None:
    """The Cold storage row from `y`, the rule line under it, then the legend."""
    by_id = {c["id"]: c for c in data["characters"]}
    row = (PAD, y, WIDTH - PAD, y + LINE + 6)
    title_width = canvas.text((PAD, y), labels.cold_storage, bold=True, width=200, within=row)
    cold = data["cold_storage"]
    index = 0
    x = PAD + title_width + 14
    cy = y + 13
    for size in cold_rows:
        for _ in range(size):
            if index < len(cold):
                c = by_id[cold[index]]
                letter = labels.kind_letters[c["kind"]]
                draw_token(canvas, (x + 15, cy), 13, c["owner"], letter)
            else:
                canvas.draw.ellipse((x + 2, cy - 13, x + 28, cy + 13), outline=EMPTY_SPOT, width=2)
            index += 1
            x += 34
        x += 12
    if len(cold) > index:
        x += canvas.text((x, y), f"+{len(cold) - index}", within=row) + 12
    if labels.rule:
        canvas.text(
            (PAD, y + 34),
            ("⚠ " if equal else "") + labels.rule,
            bold=equal,
            fill=ALERT if equal else DIM,
            width=WIDTH - 2 * PAD,
            within=(PAD, y + 34, WIDTH - PAD, y + 34 + LINE + 6),
        )
    draw_legend(canvas, data, labels, y + 34 + LINE + 6)


def _draw_hand(canvas: Canvas, xy: tuple[int, int], count: str, cell: Box) -> int:
    """A seat's hand size as a small card with the count beside it: a bare "(1)" after a
    name said nothing of what it counted. Returns the width used."""
    x, y = xy
    canvas.draw.rounded_rectangle((x, y + 2, x + CARD_W, y + 24), radius=3, outline=DIM, width=2)
    canvas.draw.line((x + 4, y + 8, x + CARD_W - 4, y + 8), fill=DIM, width=1)
    return CARD_W + 4 + canvas.text((x + CARD_W + 4, y), count, fill=DIM, within=cell)


def draw_legend(canvas: Canvas, data: dict[str, Any], labels: BoardLabels, y: int) -> None:
    """Two seats a row: family shape, name, cards in hand, then the tokens held, never cut."""
    for seat, name in enumerate(names(labels, data["players"])):
        col, row = seat % LEGEND_COLS, seat // LEGEND_COLS
        lx = PAD + col * (LEGEND_W + GAP)
        ly = y + row * (LINE + 6)
        draw_shape(canvas, (lx + 12, ly + 13), 11, seat)
        held = [
            token
            for token, holder in ((labels.badge, data["badge"]), (labels.martyr, data["martyr"]))
            if holder == seat
        ]
        tokens = " ".join(held)
        hand = str(data["hand_sizes"][seat])
        space = text_width(" ")
        tail = (
            space
            + CARD_W
            + 4
            + text_width(hand)
            + (space + text_width(tokens, TEXT_SIZE, True) if tokens else 0)
        )
        name_room = LEGEND_W - 30 - tail - 4
        cell = (lx, ly, lx + LEGEND_W, ly + LINE + 6)
        drawn = canvas.text((lx + 30, ly), name, bold=True, width=name_room, within=cell)
        x = lx + 30 + drawn + space
        x += _draw_hand(canvas, (x, ly), hand, cell) + space
        if tokens:
            canvas.text((x, ly), tokens, bold=True, fill=TEXT, within=cell)
