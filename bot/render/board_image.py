"""The mall as a picture, drawn with Pillow from the public view.

It takes only the public view, so nothing secret can reach the picture. Words
arrive already translated in `BoardLabels`, which keeps this module free of
the catalog. Runs in a worker thread: Pillow releases the GIL while encoding.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1000, 660
BACKGROUND = (24, 26, 33)
ROOM = (44, 48, 60)
ROOM_EDGE = (92, 98, 120)
TEXT = (232, 232, 240)
DIM = (150, 154, 170)
MONSTER = (200, 40, 52)
EMPTY_SPOT = (70, 75, 92)
CLOSED = (12, 12, 16)
FAMILY_COLOURS = (
    (66, 135, 245),
    (245, 180, 40),
    (80, 200, 120),
    (200, 90, 220),
    (240, 110, 60),
    (70, 210, 220),
)

# Drawing on a palette image keeps PNG encoding fast (the board has few colours).
_PALETTE = [
    channel
    for colour in (
        BACKGROUND,
        ROOM,
        ROOM_EDGE,
        TEXT,
        DIM,
        MONSTER,
        EMPTY_SPOT,
        CLOSED,
        (10, 10, 10),
        *FAMILY_COLOURS,
    )
    for channel in colour
]

# Where each location sits: column, row, width in columns.
LAYOUT = {1: (0, 0), 2: (1, 0), 3: (2, 0), 4: (0, 1), 5: (1, 1), 6: (2, 1)}
CELL_W, CELL_H, MARGIN, TOP = 320, 230, 13, 60


@dataclass(frozen=True, slots=True)
class BoardLabels:
    """Every word the picture shows, in the game's language."""

    title: str
    locations: dict[int, str]
    kind_letters: dict[str, str]
    closed: str
    cold_storage: str
    status: str
    names: list[str]
    badge: str
    martyr: str


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _room_box(loc: int) -> tuple[int, int, int, int]:
    col, row = LAYOUT[loc]
    x = MARGIN + col * (CELL_W + MARGIN)
    y = TOP + row * (CELL_H + MARGIN)
    return x, y, x + CELL_W, y + CELL_H


def _draw_character(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], owner: int, letter: str, hidden: bool
) -> None:
    x, y = centre
    colour = FAMILY_COLOURS[owner % len(FAMILY_COLOURS)]
    draw.ellipse(
        (x - 15, y - 15, x + 15, y + 15),
        fill=colour,
        outline=TEXT if hidden else None,
        width=3 if hidden else 1,
    )
    draw.text((x, y), letter, fill=(10, 10, 10), font=_font(16), anchor="mm")


def _draw_room(
    draw: ImageDraw.ImageDraw,
    loc: int,
    data: dict[str, Any],
    labels: BoardLabels,
    spots: int | None,
    monster_spots: int,
) -> None:
    x0, y0, x1, y1 = _room_box(loc)
    closed = loc in data["closed"]
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=10, fill=CLOSED if closed else ROOM, outline=ROOM_EDGE, width=2
    )
    draw.text((x0 + 12, y0 + 10), f"{loc}  {labels.locations[loc]}", fill=TEXT, font=_font(18))
    if closed:
        draw.line((x0 + 20, y0 + 40, x1 - 20, y1 - 20), fill=MONSTER, width=4)
        draw.line((x0 + 20, y1 - 20, x1 - 20, y0 + 40), fill=MONSTER, width=4)
        draw.text(
            ((x0 + x1) // 2, (y0 + y1) // 2), labels.closed, fill=TEXT, font=_font(22), anchor="mm"
        )
        return
    here = [c for c in data["characters"] if c["location"] == loc]
    shown = max(spots or 0, len(here)) if spots is not None else max(len(here), 1)
    per_row = 6
    for i in range(shown):
        cx = x0 + 30 + (i % per_row) * 44
        cy = y0 + 62 + (i // per_row) * 40
        if i < len(here):
            c = here[i]
            _draw_character(draw, (cx, cy), c["owner"], labels.kind_letters[c["kind"]], c["hidden"])
        else:
            draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), outline=EMPTY_SPOT, width=2)
    monsters = data["monsters"][loc - 1]
    for i in range(monster_spots):
        mx = x0 + 16 + i * 36
        my = y1 - 40
        fill = MONSTER if i < monsters else None
        draw.rectangle((mx, my, mx + 26, my + 26), fill=fill, outline=MONSTER, width=2)


def render_board(
    data: dict[str, Any],
    labels: BoardLabels,
    spots: dict[int, int | None],
    monster_spots: dict[int, int],
    cold_rows: list[int],
) -> bytes:
    """PNG bytes of the board for a public view (`view(state, None)`)."""
    if data.get("seat") is not None:
        raise ValueError("the board picture is drawn from the public view only")
    image = Image.new("P", (WIDTH, HEIGHT), 0)
    image.putpalette(_PALETTE)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 14), labels.title, fill=TEXT, font=_font(24))
    draw.text((WIDTH - MARGIN, 18), labels.status, fill=DIM, font=_font(16), anchor="ra")
    for loc in range(1, 7):
        _draw_room(draw, loc, data, labels, spots[loc], monster_spots[loc])
    _draw_footer(draw, data, labels, cold_rows)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _draw_footer(
    draw: ImageDraw.ImageDraw, data: dict[str, Any], labels: BoardLabels, cold_rows: list[int]
) -> None:
    y = TOP + 2 * (CELL_H + MARGIN) + 4
    by_id = {c["id"]: c for c in data["characters"]}
    draw.text((MARGIN, y), labels.cold_storage, fill=TEXT, font=_font(16))
    cold = data["cold_storage"]
    index = 0
    for row, size in enumerate(cold_rows):
        for col in range(size):
            cx = MARGIN + 150 + (row * (size * 34 + 20)) + col * 34
            cy = y + 10
            if index < len(cold):
                c = by_id[cold[index]]
                _draw_character(draw, (cx, cy), c["owner"], labels.kind_letters[c["kind"]], False)
            else:
                draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), outline=EMPTY_SPOT, width=2)
            index += 1
    legend_y = y + 40
    for seat, name in enumerate(labels.names[: data["players"]]):
        lx = MARGIN + seat * 163
        colour = FAMILY_COLOURS[seat % len(FAMILY_COLOURS)]
        draw.rectangle((lx, legend_y, lx + 14, legend_y + 14), fill=colour)
        marks = ""
        if data["badge"] == seat:
            marks += f" [{labels.badge}]"
        if data["martyr"] == seat:
            marks += f" [{labels.martyr}]"
        text = f"{name[:12]} ({data['hand_sizes'][seat]}){marks}"
        draw.text((lx + 20, legend_y - 1), text, fill=TEXT, font=_font(13))
