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


Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Spot:
    """Where the canvas drew a text and the box the text owns (a room, a podium step, a
    panel), in the coordinates it was drawn in: a board later scaled under the score panel
    keeps them. `asked` is the text before it was cut to its width, so that a test can
    measure the text at its place and tell a cut that shows its ellipsis from one that
    does not."""

    at: tuple[int, int]
    size: int
    anchor: str
    within: Box
    asked: str


@dataclass(frozen=True, slots=True)
class Placed:
    """One text as drawn: its words, its face, its size in pixels, the box it covers in
    the picture, and its `Spot`."""

    text: str
    bold: bool
    size: int
    box: Box
    spot: Spot


@dataclass(slots=True)
class Drawn:
    """Every text of a picture, so tests can check that none overlaps, none lacks a glyph
    and none leaves its box; `dropped` holds the texts cut to nothing (nothing drawn, not
    even an ellipsis)."""

    texts: list[Placed] = field(default_factory=list)
    dropped: list[Spot] = field(default_factory=list)


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
        within: Box | None = None,
        floor: int | None = None,
    ) -> int:
        """Draw `text` cut to `width`; returns the width drawn. `within` is the box the
        text belongs to (the whole picture if None), which tests hold it to. With a
        `floor`, a text too wide is first drawn smaller, down to that size, and cut only
        if it is still too wide there.

        Whatever the caller passed, a character the face lacks is never drawn as a box.
        """
        asked = drawable(text, "", BOLD if bold else REGULAR)
        if width is not None and floor is not None:
            while size > floor and text_width(asked, size, bold) > width:
                size -= 1
        text = asked if width is None else fit(asked, width, size, bold)
        spot = Spot(xy, size, anchor, within or (0, 0, *self.image.size), asked)
        if not text.strip():
            if asked.strip():
                self.drawn.dropped.append(spot)
            return 0
        mask, dx, dy = _stamp(text, size, bold, anchor)
        corner = (xy[0] + dx, xy[1] + dy)
        self.image.paste(fill, (*corner, corner[0] + mask.width, corner[1] + mask.height), mask)
        box = (corner[0], corner[1], corner[0] + mask.width, corner[1] + mask.height)
        self.drawn.texts.append(Placed(text, bold, size, box, spot))
        return box[2] - box[0]
