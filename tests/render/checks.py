"""What every picture must hold to: each text inside it, none overlapping, no glyph missing."""

from __future__ import annotations

import itertools

from bot.render.board_image import HEIGHT, WIDTH
from bot.render.canvas import Drawn
from bot.render.glyphs import BOLD, REGULAR, missing


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
