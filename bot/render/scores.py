"""The replay's last picture: the final scores, in full, on a panel over the board.

The game's end used to be a two-line caption that ran under the rooms and was
cut in half: the climax of the replay could not be read. The scores now get a
panel of their own over the first row of rooms (the second row, the Cold
storage and the legend stay in view), one line per seat, winners starred,
each line inside the picture whatever the names (six seats of 32 characters
fit; a longer name gives way before its score does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.render.board_image import CELL_H, PAD, TOP
from bot.render.canvas import TEXT_SIZE, TITLE_SIZE, Canvas, Drawn, text_width
from bot.render.glyphs import fit
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
    """`picture` with the score panel over its rooms, on the fixed palette; the panel's
    texts are added to `drawn` (the board's texts under the panel are dropped from it)."""
    image = picture.convert("RGB")
    canvas = Canvas(image)
    lines = score_lines(result, names, lang)
    x0, x1 = PAD, image.width - PAD
    top, bottom = TOP, TOP + CELL_H
    canvas.draw.rounded_rectangle(
        (x0, top, x1, bottom), radius=14, fill=BACKGROUND, outline=ALERT, width=4
    )
    inside = (x0 + 20, x1 - 20)
    canvas.text(
        (image.width // 2, top + 12),
        t(lang, "event.game_over"),
        TITLE_SIZE,
        bold=True,
        anchor="ma",
        width=inside[1] - inside[0],
    )
    winners = set(result["winners"])
    for row, (seat, name, points) in enumerate(lines):
        y = top + 52 + row * LINE
        draw_shape(canvas, (inside[0] + 12, y + 13), 11, seat)
        winner = seat in winners
        points_text = (STAR if winner else "") + points
        room = inside[1] - inside[0] - 36 - text_width(points_text, TEXT_SIZE, winner) - 24
        canvas.text(
            (inside[0] + 36, y), fit(name, room, TEXT_SIZE, winner), bold=winner, width=room
        )
        canvas.text(
            (inside[1], y), points_text, bold=winner, fill=TEXT if winner else DIM, anchor="ra"
        )
    note_y = top + 52 + len(lines) * LINE + 2
    canvas.text(
        (image.width // 2, note_y),
        t(lang, "board.final_winners"),
        fill=DIM,
        anchor="ma",
        width=inside[1] - inside[0],
    )
    drawn.texts[:] = [
        p for p in drawn.texts if not _under(p.box, (x0, top, x1, bottom))
    ] + canvas.drawn.texts
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _under(box: tuple[int, int, int, int], panel: tuple[int, int, int, int]) -> bool:
    return box[0] < panel[2] and panel[0] < box[2] and box[1] < panel[3] and panel[1] < box[3]
