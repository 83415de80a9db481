"""The replay's last picture: the final scores, in full, above the whole final board.

The game's end used to be a two-line caption that ran under the locations and was
cut in half: the climax of the replay could not be read. Then the scores got
a panel over the first row of locations, which hid locations 1 to 3 at the very
moment a viewer looks for who survived where. Now the panel takes the first
row's place and the whole board (locations, Cold storage, legend) is drawn
smaller beneath it. One line per seat, winners starred, each line inside the
picture whatever the names (six seats of 32 characters fit; a longer name
gives way before its score does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.render.board_image import CELL_H, GAP, HEIGHT, PAD, TOP, WIDTH
from bot.render.canvas import TEXT_SIZE, TITLE_SIZE, Canvas, Drawn, Placed, text_width
from bot.render.palette import ALERT, BACKGROUND, DIM, PALETTE, TEXT
from bot.render.tokens import draw_shape
from bot.texts import catalog, t

LINE = 32
STAR = "★ "


def score_lines(
    result: dict[str, Any], names: Sequence[str], lang: str
) -> list[tuple[int, str, str]]:
    """Each seat, its name and its points in words, highest score first (seat order on ties)."""
    scores: list[int] = result["scores"]
    order = sorted(range(len(scores)), key=lambda p: (-scores[p], p))
    return [(p, names[p], catalog().count(lang, "point", scores[p])) for p in order]


def draw_scores(
    picture: Image.Image,
    result: dict[str, Any],
    names: Sequence[str],
    lang: str,
    drawn: Drawn,
) -> Image.Image:
    """`picture` with the score panel where its first row of locations was and the board
    beneath, smaller, on the fixed palette; `drawn` is updated to match."""
    image = _board_below_panel(picture.convert("RGB"), drawn)
    canvas = Canvas(image)
    lines = score_lines(result, names, lang)
    x0, x1 = PAD, image.width - PAD
    top, bottom = TOP, TOP + CELL_H
    canvas.draw.rounded_rectangle(
        (x0, top, x1, bottom), radius=14, fill=BACKGROUND, outline=ALERT, width=4
    )
    inside = (x0 + 20, x1 - 20)
    panel = (x0, top, x1, bottom)
    canvas.text(
        (image.width // 2, top + 12),
        t(lang, "event.game_over"),
        TITLE_SIZE,
        bold=True,
        anchor="ma",
        width=inside[1] - inside[0],
        within=panel,
    )
    winners = set(result["winners"])
    for row, (seat, name, points) in enumerate(lines):
        y = top + 52 + row * LINE
        draw_shape(canvas, (inside[0] + 12, y + 13), 11, seat)
        winner = seat in winners
        points_text = (STAR if winner else "") + points
        room = inside[1] - inside[0] - 36 - text_width(points_text, TEXT_SIZE, winner) - 24
        row_box = (x0, y, x1, y + LINE)
        canvas.text((inside[0] + 36, y), name, bold=winner, width=room, within=row_box)
        canvas.text(
            (inside[1], y),
            points_text,
            bold=winner,
            fill=TEXT if winner else DIM,
            anchor="ra",
            within=row_box,
        )
    note_y = top + 52 + len(lines) * LINE + 2
    canvas.text(
        (image.width // 2, note_y),
        t(lang, "board.final_winners"),
        fill=DIM,
        anchor="ma",
        width=inside[1] - inside[0],
        within=panel,
    )
    drawn.texts.extend(canvas.drawn.texts)
    drawn.dropped.extend(canvas.drawn.dropped)
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _board_below_panel(board: Image.Image, drawn: Drawn) -> Image.Image:
    """The title and caption as they were, space for the panel, then everything the
    board drew below its title, scaled to the height left and centred; `drawn` keeps
    the title's texts and gets the board's at their new place and size."""
    below = TOP + CELL_H + GAP
    scale = (HEIGHT - below - PAD) / (HEIGHT - TOP)
    width, height = round(WIDTH * scale), HEIGHT - below - PAD
    left = (WIDTH - width) // 2
    image = Image.new("RGB", board.size, BACKGROUND)
    image.paste(board.crop((0, 0, WIDTH, TOP)), (0, 0))
    rest = board.crop((0, TOP, WIDTH, HEIGHT)).resize((width, height), Image.Resampling.LANCZOS)
    image.paste(rest, (left, below))

    def moved(p: Placed) -> Placed:
        x0, y0, x1, y1 = p.box
        box = (
            left + int(x0 * scale),
            below + int((y0 - TOP) * scale),
            left + round(x1 * scale),
            below + round((y1 - TOP) * scale),
        )
        return Placed(p.text, p.bold, round(p.size * scale), box, p.spot)

    drawn.texts[:] = [p if p.box[3] <= TOP else moved(p) for p in drawn.texts]
    return image
