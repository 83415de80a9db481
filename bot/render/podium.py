"""A season's podium as a picture: the top three on their steps, each with their
points and record, and the season's most played variant below.

Only public facts of a closed season are drawn (names, points, games, wins);
the same facts go in the message's text and in the picture's description, so
nobody needs to see the picture to know who won.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.render.canvas import TEXT_SIZE, TITLE_SIZE, Canvas, Drawn
from bot.render.glyphs import BOLD, drawable
from bot.render.palette import ALERT, BACKGROUND, DIM, SAFE, TILE, TILE_EDGE, Colour
from bot.texts import t

WIDTH, HEIGHT = 720, 400
STEP_W = 200
# Second, first, third from left to right, as a podium stands; heights by place.
ORDER = (1, 0, 2)
STEP_H = (150, 110, 80)
MEDALS: tuple[Colour, ...] = ((240, 200, 80), (200, 205, 215), (205, 135, 80))


@dataclass(frozen=True, slots=True)
class Finisher:
    name: str
    points: int
    games: int
    wins: int


def podium_png(lang: str, season: int, top: Sequence[Finisher], variant: str, games: int) -> bytes:
    """The podium of season `season`: up to three finishers, best first."""
    image, _ = podium_picture(lang, season, top, variant, games)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def podium_picture(
    lang: str, season: int, top: Sequence[Finisher], variant: str, games: int
) -> tuple[Image.Image, Drawn]:
    """The podium drawn, and where its texts are (each in its step's column)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    canvas = Canvas(image)
    base = HEIGHT - 70
    canvas.text(
        (WIDTH // 2, 18),
        t(lang, "rating.podium.title", season=season),
        TITLE_SIZE,
        bold=True,
        anchor="ma",
        width=WIDTH - 40,
        within=(20, 0, WIDTH - 20, base),
    )
    left = (WIDTH - 3 * STEP_W) // 2
    for column, place in enumerate(ORDER):
        x0 = left + column * STEP_W
        top_y = base - STEP_H[place]
        canvas.draw.rectangle(
            (x0 + 6, top_y, x0 + STEP_W - 6, base), fill=TILE, outline=TILE_EDGE, width=2
        )
        centre = x0 + STEP_W // 2
        medal = (centre - 18, top_y + 10, centre + 18, top_y + 46)
        canvas.draw.ellipse(medal, fill=MEDALS[place])
        canvas.text(
            (centre, top_y + 16),
            str(place + 1),
            TEXT_SIZE,
            bold=True,
            fill=BACKGROUND,
            anchor="ma",
            within=medal,
        )
        above = (x0, 0, x0 + STEP_W, top_y)
        step = (x0 + 6, top_y, x0 + STEP_W - 6, base)
        if place >= len(top):
            continue
        who = top[place]
        # A name the font cannot draw at all (a CJK name, say) shows its place instead of
        # nothing: the message above the picture names everyone, with a mention.
        unnamed = t(lang, "rating.podium.unnamed", rank=place + 1)
        canvas.text(
            (centre, top_y - 62),
            drawable(who.name, unnamed, BOLD),
            TEXT_SIZE,
            bold=True,
            anchor="ma",
            width=STEP_W - 12,
            within=above,
        )
        canvas.text(
            (centre, top_y - 34),
            t(lang, "rating.podium.points", points=who.points),
            TEXT_SIZE - 4,
            fill=SAFE,
            anchor="ma",
            width=STEP_W - 12,
            within=above,
        )
        canvas.text(
            (centre, top_y + 56),
            t(lang, "rating.podium.record", wins=who.wins, games=who.games),
            TEXT_SIZE - 6,
            fill=DIM,
            anchor="ma",
            width=STEP_W - 16,
            within=step,
        )
    if not top:
        canvas.text(
            (WIDTH // 2, 80),
            t(lang, "rating.podium.nobody"),
            fill=ALERT,
            anchor="ma",
            width=WIDTH - 40,
            within=(20, 0, WIDTH - 20, base),
        )
    canvas.text(
        (WIDTH // 2, base + 18),
        t(lang, "rating.podium.variant", variant=variant, games=games),
        TEXT_SIZE - 4,
        fill=DIM,
        anchor="ma",
        width=WIDTH - 40,
        within=(20, base, WIDTH - 20, HEIGHT),
    )
    return image, canvas.drawn
