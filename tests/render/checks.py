"""What every picture must hold to: each text inside it, none overlapping, no glyph missing."""

from __future__ import annotations

import itertools

from PIL import Image, ImageDraw

from bot.render.board_image import HEIGHT, WIDTH
from bot.render.canvas import Drawn
from bot.render.glyphs import BOLD, ELLIPSIS, REGULAR, font, missing


def check_texts(drawn: Drawn, width: int = WIDTH, height: int = HEIGHT) -> None:
    """No glyph missing in the face each text was drawn with; no two texts overlap;
    every text inside the picture."""
    for placed in drawn.texts:
        face = BOLD if placed.bold else REGULAR
        assert missing(placed.text, face) == [], placed
        x0, y0, x1, y1 = placed.box
        assert min(x0, y0) >= 0, placed
        assert x1 <= width, placed
        assert y1 <= height, placed
    for a, b in itertools.combinations(drawn.texts, 2):
        ax0, ay0, ax1, ay1 = a.box
        bx0, by0, bx1, by1 = b.box
        overlap = ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1
        assert not overlap, (a, b)


def check_boxes(drawn: Drawn) -> None:
    """Each text inside the box it belongs to, measured with Pillow's `textbbox` where it
    was drawn; a text cut to fit keeps an ellipsis (and a character before it) the reader
    sees; no text cut to nothing."""
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    for placed in drawn.texts:
        spot = placed.spot
        face = font(spot.size, placed.bold)
        x0, y0, x1, y1 = measure.textbbox(spot.at, placed.text, font=face, anchor=spot.anchor)
        bx0, by0, bx1, by1 = spot.within
        inside = bx0 <= x0 and x1 <= bx1 and by0 <= y0 and y1 <= by1
        assert inside, f"{placed.text!r} drawn at {(x0, y0, x1, y1)}, outside its box {spot.within}"
        if placed.text != spot.asked:
            assert placed.text.endswith(ELLIPSIS), f"{spot.asked!r} cut to {placed.text!r}"
            assert placed.text[:-1].strip(), f"{spot.asked!r} cut to a bare ellipsis"
    assert drawn.dropped == [], f"cut to nothing, not even an ellipsis: {drawn.dropped}"
