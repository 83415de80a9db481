"""The mall as a picture, drawn with Pillow from the public view.

It takes only the public view, so nothing secret can reach the picture. Words
arrive already translated in `BoardLabels`, which keeps this module free of
the catalog. Runs in a worker thread: Pillow releases the GIL while encoding.

Made for a phone: Discord shows the picture about 400 px wide there, so the
picture is 800 px wide and no text is smaller than 22 px (11 px on the phone).
Every word is drawn with the shipped DejaVu Sans (`glyphs`), names the font
cannot draw fall back to what it can (or the seat's label), and every text is
cut with an ellipsis to the box it owns, so nothing overlaps whatever the
language or the name.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.render.facts import BoardFacts
from bot.render.glyphs import BOLD, REGULAR, drawable, fit, font

WIDTH, HEIGHT = 800, 700
PAD, GAP = 10, 8
COLS = 3
CELL_W = (WIDTH - 2 * PAD - (COLS - 1) * GAP) // COLS
CELL_H = 226
TOP = 84
# The smallest text on the picture, in pixels at full size (11 px at 400 px wide).
TEXT_SIZE = 22
TITLE_SIZE = 26
LINE = 26
# The narrowest a name is cut to in the legend, to leave room for its badge and Martyr.
MIN_NAME = 84

BACKGROUND = (24, 26, 33)
ROOM = (44, 48, 60)
ROOM_EDGE = (92, 98, 120)
TEXT = (236, 236, 242)
DIM = (165, 169, 185)
MONSTER = (214, 48, 60)
ALERT = (255, 120, 120)
SAFE = (130, 215, 150)
EMPTY_SPOT = (80, 85, 104)
CLOSED = (12, 12, 16)
INK = (12, 12, 12)
FAMILY_COLOURS = (
    (66, 135, 245),
    (245, 180, 40),
    (80, 200, 120),
    (200, 90, 220),
    (240, 110, 60),
    (70, 210, 220),
)
BASE_COLOURS = (
    BACKGROUND,
    ROOM,
    ROOM_EDGE,
    TEXT,
    DIM,
    MONSTER,
    ALERT,
    SAFE,
    EMPTY_SPOT,
    CLOSED,
    INK,
    *FAMILY_COLOURS,
)


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _palette() -> Image.Image:
    """One fixed palette for every picture: the board's colours and the shades that
    anti-aliased text and circles make between them. Fixed, so that the colours of a
    picture never depend on its content and a GIF's frames share one palette."""
    pairs = [
        (TEXT, BACKGROUND),
        (TEXT, ROOM),
        (TEXT, CLOSED),
        (TEXT, MONSTER),
        (DIM, BACKGROUND),
        (ALERT, ROOM),
        (SAFE, ROOM),
        (ROOM_EDGE, BACKGROUND),
        (EMPTY_SPOT, ROOM),
        (EMPTY_SPOT, BACKGROUND),
        (MONSTER, ROOM),
        (MONSTER, CLOSED),
        *((INK, colour) for colour in FAMILY_COLOURS),
        *((colour, ROOM) for colour in FAMILY_COLOURS),
        *((colour, BACKGROUND) for colour in FAMILY_COLOURS),
    ]
    colours = list(dict.fromkeys(BASE_COLOURS))
    for a, b in pairs:
        for t in (0.25, 0.5, 0.75):
            shade = _blend(a, b, t)
            if shade not in colours:
                colours.append(shade)
    flat = [channel for colour in colours[:256] for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


PALETTE = _palette()


@dataclass(frozen=True, slots=True)
class BoardLabels:
    """Every word the picture shows, in the game's language.

    The fields with defaults came later: a caller that does not give them gets
    the picture without those lines (`bot.render.labels.board_labels` gives all).
    `defence` maps a location to its "defence 4 vs 3" text; `rule` says how
    Monsters get in now; `end_line` says when the game ends; `seats` are the
    labels ("Seat 3") shown for a name the font cannot draw at all.
    """

    title: str
    locations: dict[int, str]
    kind_letters: dict[str, str]
    closed: str
    cold_storage: str
    status: str
    names: list[str]
    badge: str
    martyr: str
    defence: dict[int, str] = field(default_factory=dict)
    rule: str = ""
    end_line: str = ""
    seats: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Placed:
    """One text as drawn: its words, its face, its size in pixels and the box it covers."""

    text: str
    bold: bool
    size: int
    box: tuple[int, int, int, int]


@dataclass(slots=True)
class Drawn:
    """Every text of a picture, so tests can check that none overlaps and none lacks a glyph."""

    texts: list[Placed] = field(default_factory=list)


class Canvas:
    """A picture being drawn, that remembers where each text went (shared with the chart)."""

    def __init__(self, image: Image.Image) -> None:
        self.draw = ImageDraw.Draw(image)
        self.drawn = Drawn()

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: int = TEXT_SIZE,
        *,
        bold: bool = False,
        fill: tuple[int, int, int] = TEXT,
        anchor: str = "la",
        width: int | None = None,
    ) -> int:
        """Draw `text` cut to `width`; returns the width drawn.

        Whatever the caller passed, a character the face lacks is never drawn as a box.
        """
        text = drawable(text, "", BOLD if bold else REGULAR)
        if width is not None:
            text = fit(text, width, size, bold)
        if not text:
            return 0
        face = font(size, bold)
        self.draw.text(xy, text, fill=fill, font=face, anchor=anchor)
        box = self.draw.textbbox(xy, text, font=face, anchor=anchor)
        corners = (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
        self.drawn.texts.append(Placed(text, bold, size, corners))
        return int(box[2] - box[0])


def _names(labels: BoardLabels, players: int) -> list[str]:
    """Each seat's name as the font can draw it."""
    names = []
    for seat in range(players):
        fallback = labels.seats[seat] if seat < len(labels.seats) else str(seat + 1)
        name = labels.names[seat] if seat < len(labels.names) else fallback
        names.append(drawable(name, fallback, BOLD))
    return names


def _room_box(loc: int) -> tuple[int, int, int, int]:
    col, row = (loc - 1) % COLS, (loc - 1) // COLS
    x = PAD + col * (CELL_W + GAP)
    y = TOP + row * (CELL_H + GAP)
    return x, y, x + CELL_W, y + CELL_H


def _disc(
    canvas: Canvas, centre: tuple[int, int], radius: int, owner: int, letter: str, hidden: bool
) -> None:
    x, y = centre
    canvas.draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius),
        fill=FAMILY_COLOURS[owner % len(FAMILY_COLOURS)],
        outline=TEXT if hidden else None,
        width=3 if hidden else 1,
    )
    canvas.text((x, y), letter, TEXT_SIZE, bold=True, fill=INK, anchor="mm", width=2 * radius)


def _wrap(text: str, width: int, size: int, bold: bool) -> list[str]:
    """At most two lines: words as they fit, the rest cut with an ellipsis."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return [text]
    words = text.split()
    first = ""
    for i, word in enumerate(words):
        attempt = f"{first} {word}".strip()
        if first and face.getlength(attempt) > width:
            return [first, fit(" ".join(words[i:]), width, size, bold)]
        first = attempt
    return [fit(text, width, size, bold)]


def _draw_room(
    canvas: Canvas,
    loc: int,
    data: dict[str, Any],
    labels: BoardLabels,
    spots: int | None,
    monster_spots: int,
    facts: BoardFacts | None,
) -> None:
    x0, y0, x1, y1 = _room_box(loc)
    draw = canvas.draw
    closed = loc in data["closed"]
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=10, fill=CLOSED if closed else ROOM, outline=ROOM_EDGE, width=2
    )
    # The location's number in a badge, its name beside it on up to two lines.
    draw.rounded_rectangle((x0 + 8, y0 + 8, x0 + 36, y0 + 36), radius=6, fill=ROOM_EDGE)
    canvas.text((x0 + 22, y0 + 22), str(loc), TEXT_SIZE, bold=True, anchor="mm")
    name_width = CELL_W - 54
    lines = _wrap(drawable(labels.locations[loc], str(loc), BOLD), name_width, TEXT_SIZE, True)
    for i, line in enumerate(lines):
        canvas.text((x0 + 44, y0 + 10 + i * LINE), line, bold=True, width=name_width)
    if closed:
        draw.line((x0 + 24, y0 + 70, x1 - 24, y1 - 24), fill=MONSTER, width=4)
        draw.line((x0 + 24, y1 - 24, x1 - 24, y0 + 70), fill=MONSTER, width=4)
        label = fit(labels.closed, CELL_W - 40, TITLE_SIZE, True)
        mid = ((x0 + x1) // 2, (y0 + 70 + y1 - 24) // 2)
        box = draw.textbbox(mid, label, font=font(TITLE_SIZE, True), anchor="mm")
        draw.rectangle((box[0] - 8, box[1] - 6, box[2] + 8, box[3] + 6), fill=CLOSED)
        canvas.text(mid, label, TITLE_SIZE, bold=True, anchor="mm")
        return
    top = y0 + 14 + len(lines) * LINE
    here = [c for c in data["characters"] if c["location"] == loc]
    shown = max(spots, len(here)) if spots is not None else max(len(here), 1)
    # Two rows of six fit; a crowded Parking lot packs four rows of seven smaller tokens,
    # their letters still at the smallest text size.
    radius, step, per_row = (16, 39, 6) if shown <= 12 else (14, 31, 7)
    row_step = 40 if shown <= 12 else 30
    capacity = per_row * (2 if shown <= 12 else 4)
    for i in range(min(shown, capacity)):
        cx = x0 + 12 + radius + (i % per_row) * step
        cy = top + radius + (i // per_row) * row_step
        if i < len(here):
            c = here[i]
            letter = labels.kind_letters[c["kind"]]
            _disc(canvas, (cx, cy), radius, c["owner"], letter, c["hidden"])
        else:
            draw.ellipse(
                (cx - radius, cy - radius, cx + radius, cy + radius), outline=EMPTY_SPOT, width=2
            )
    if len(here) > capacity:
        canvas.text((x1 - 10, top), f"+{len(here) - capacity}", anchor="ra")
    monsters = data["monsters"][loc - 1]
    square = min(24, (CELL_W - 24) // max(monster_spots, 1) - 6)
    for i in range(monster_spots):
        mx = x0 + 12 + i * (square + 6)
        my = y1 - 66
        fill = MONSTER if i < monsters else None
        draw.rectangle((mx, my, mx + square, my + square), fill=fill, outline=MONSTER, width=2)
    defence = facts.defence.get(loc) if facts is not None else None
    text = labels.defence.get(loc)
    # Nobody there, nothing attacked (R7.1): the line would only puzzle.
    if defence is not None and text and here:
        colour = ALERT if defence.breached else SAFE if defence.monsters else DIM
        canvas.text((x0 + 12, y1 - 34), text, fill=colour, width=CELL_W - 24)
        if defence.breached:
            # The Monsters would get in: the whole room says so, not only its last line.
            draw.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=ALERT, width=4)


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
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    canvas = Canvas(image)
    # The title keeps what it needs up to 55% of the width; the step and deck get the rest.
    title_width = canvas.text(
        (PAD, 10), labels.title, TITLE_SIZE, bold=True, width=WIDTH * 55 // 100
    )
    canvas.text(
        (WIDTH - PAD, 14),
        labels.status,
        fill=DIM,
        anchor="ra",
        width=WIDTH - 2 * PAD - title_width - 20,
    )
    if labels.end_line:
        canvas.text((PAD, 48), labels.end_line, fill=DIM, width=WIDTH - 2 * PAD)
    for loc in range(1, 7):
        _draw_room(canvas, loc, data, labels, spots[loc], monster_spots[loc], facts)
    _draw_footer(canvas, data, labels, cold_rows, facts)
    quantized = image.quantize(palette=PALETTE, dither=Image.Dither.NONE)
    return quantized, canvas.drawn


def render_board(
    data: dict[str, Any],
    labels: BoardLabels,
    spots: dict[int, int | None],
    monster_spots: dict[int, int],
    cold_rows: list[int],
    facts: BoardFacts | None = None,
) -> bytes:
    """PNG bytes of the board for a public view (`view(state, None)`)."""
    image, _ = board_picture(data, labels, spots, monster_spots, cold_rows, facts)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _draw_footer(
    canvas: Canvas,
    data: dict[str, Any],
    labels: BoardLabels,
    cold_rows: list[int],
    facts: BoardFacts | None,
) -> None:
    y = TOP + 2 * (CELL_H + GAP) + 2
    by_id = {c["id"]: c for c in data["characters"]}
    title_width = canvas.text((PAD, y), labels.cold_storage, bold=True, width=200)
    cold = data["cold_storage"]
    index = 0
    x = PAD + title_width + 14
    cy = y + 12
    for size in cold_rows:
        for _ in range(size):
            if index < len(cold):
                c = by_id[cold[index]]
                _disc(canvas, (x + 15, cy), 15, c["owner"], labels.kind_letters[c["kind"]], False)
            else:
                canvas.draw.ellipse((x, cy - 15, x + 30, cy + 15), outline=EMPTY_SPOT, width=2)
            index += 1
            x += 34
        x += 12
    if len(cold) > index:
        x += canvas.text((x, y), f"+{len(cold) - index}") + 12
    if labels.rule:
        equal = facts is not None and facts.equal
        canvas.text(
            (PAD, y + 34),
            ("⚠ " if equal else "") + labels.rule,
            fill=ALERT if equal else DIM,
            width=WIDTH - 2 * PAD,
        )
    _draw_legend(canvas, data, labels, y + 34 + LINE + 6)


def _draw_legend(canvas: Canvas, data: dict[str, Any], labels: BoardLabels, y: int) -> None:
    """Three seats a row: colour, name cut to what is left, hand size, badge and Martyr."""
    names = _names(labels, data["players"])
    for seat, name in enumerate(names):
        col, row = seat % COLS, seat // COLS
        lx = PAD + col * (CELL_W + GAP)
        ly = y + row * (LINE + 6)
        colour = FAMILY_COLOURS[seat % len(FAMILY_COLOURS)]
        canvas.draw.rounded_rectangle((lx, ly + 2, lx + 20, ly + 22), radius=4, fill=colour)
        marks = [f"({data['hand_sizes'][seat]})"]
        if data["badge"] == seat:
            marks.append(labels.badge)
        if data["martyr"] == seat:
            marks.append(labels.martyr)
        tail = " " + " ".join(marks)
        room = CELL_W - 28
        # The name keeps at least a few letters; the marks get the rest.
        name_width = int(font(TEXT_SIZE, True).getlength(name))
        tail = fit(tail, room - min(name_width, MIN_NAME), TEXT_SIZE, False)
        tail_width = int(font(TEXT_SIZE).getlength(tail))
        used = canvas.text((lx + 28, ly), name, bold=True, width=room - tail_width)
        canvas.text((lx + 28 + used, ly), tail, fill=DIM, width=room - used)
