"""A picture being drawn, that remembers where each text went (board, GIF, chart).

Laying out and rasterising text is most of a board's cost, and a board
repeats the same words (location names, kind letters, labels) picture after
picture: each text is rasterised once per process into a mask (`_stamp`) and
then only pasted in its colour; widths and wrapped lines are remembered too.
The masks are the ones Pillow's own `text` draws, so the pictures look the
same as before the cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.glyphs import BOLD, REGULAR, drawable, fit, font
from bot.render.palette import TEXT, Colour

# The smallest text on a picture, in pixels at full size (11 px at 400 px wide).
TEXT_SIZE = 22
TITLE_SIZE = 26


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


@lru_cache(maxsize=4096)
def _stamp(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask, and where its top-left corner sits from the anchor point."""
    face = font(size, bold)
    x0, y0, x1, y1 = (int(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(x1 - x0, 1), max(y1 - y0, 1)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, fill=255, font=face, anchor=anchor)
    return mask, x0, y0


def text_box(
    xy: tuple[int, int], text: str, size: int, bold: bool = False, anchor: str = "la"
) -> tuple[int, int, int, int]:
    """Where `text` would be drawn at `xy`, without drawing it."""
    mask, dx, dy = _stamp(text, size, bold, anchor)
    return xy[0] + dx, xy[1] + dy, xy[0] + dx + mask.width, xy[1] + dy + mask.height


@lru_cache(maxsize=4096)
def text_width(text: str, size: int = TEXT_SIZE, bold: bool = False) -> int:
    """How far `text` advances at `size`, in pixels."""
    return int(font(size, bold).getlength(text))


@lru_cache(maxsize=1024)
def wrap(text: str, width: int, size: int, bold: bool, lines: int = 2) -> tuple[str, ...]:
    """At most `lines` lines: words as they fit, the rest cut with an ellipsis."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return (text,)
    words = text.split()
    out: list[str] = []
    current = ""
    for i, word in enumerate(words):
        attempt = f"{current} {word}".strip()
        if current and face.getlength(attempt) > width:
            out.append(current)
            if len(out) == lines - 1:
                return (*out, fit(" ".join(words[i:]), width, size, bold))
            current = word
        else:
            current = attempt
    out.append(fit(current, width, size, bold))
    return tuple(out)


class Canvas:
    """A picture being drawn, that remembers where each text went."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.drawn = Drawn()

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: int = TEXT_SIZE,
        *,
        bold: bool = False,
        fill: Colour = TEXT,
        anchor: str = "la",
        width: int | None = None,
    ) -> int:
        """Draw `text` cut to `width`; returns the width drawn.

        Whatever the caller passed, a character the face lacks is never drawn as a box.
        """
        text = drawable(text, "", BOLD if bold else REGULAR)
        if width is not None:
            text = fit(text, width, size, bold)
        if not text.strip():
            return 0
        mask, dx, dy = _stamp(text, size, bold, anchor)
        corner = (xy[0] + dx, xy[1] + dy)
        self.image.paste(fill, (*corner, corner[0] + mask.width, corner[1] + mask.height), mask)
        box = (corner[0], corner[1], corner[0] + mask.width, corner[1] + mask.height)
        self.drawn.texts.append(Placed(text, bold, size, box))
        return box[2] - box[0]
