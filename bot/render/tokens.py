"""A character's token: its family's shape and colour, its kind's letter inside.

Colour alone does not tell families apart for everyone, so each family also
has its own outline: circle, square, diamond, hexagon, shield and cross. The
legend shows the same shape beside each name. Every shape keeps a square of
about the circle's size clear in its middle, where the kind's letter goes.
"""

from __future__ import annotations

from bot.render.canvas import TEXT_SIZE, Canvas
from bot.render.palette import INK, TEXT, family_colour

SHAPES = ("circle", "square", "diamond", "hexagon", "shield", "cross")
# A kind's letter is one character in every language, drawn at the board's text size; a
# longer abbreviation (two letters, the pseudo-locale's markers) is drawn smaller, down to
# this size, rather than cut to nothing inside a token 26 pixels wide.
LETTER_FLOOR = 12


def shape_of(seat: int) -> str:
    """The outline of a seat's tokens."""
    return SHAPES[seat % len(SHAPES)]


def outline(shape: str, centre: tuple[int, int], radius: int) -> list[tuple[float, float]]:
    """The polygon of a shape (a circle has none: drawn as an ellipse)."""
    x, y = centre
    r = radius
    if shape == "square":
        s = r * 0.9
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    if shape == "diamond":
        d = r * 1.2
        return [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
    if shape == "hexagon":
        # Wide and flat: a regular hexagon is too close to the circle at this size.
        w, h = r * 1.22, r * 0.85
        return [
            (x - w, y),
            (x - w / 2, y - h),
            (x + w / 2, y - h),
            (x + w, y),
            (x + w / 2, y + h),
            (x - w / 2, y + h),
        ]
    if shape == "shield":
        s = r * 0.95
        return [
            (x - s, y - s),
            (x + s, y - s),
            (x + s, y + s * 0.35),
            (x, y + r * 1.2),
            (x - s, y + s * 0.35),
        ]
    if shape == "cross":
        a, b = r * 0.62, r * 1.08
        return [
            (x - a, y - b),
            (x + a, y - b),
            (x + a, y - a),
            (x + b, y - a),
            (x + b, y + a),
            (x + a, y + a),
            (x + a, y + b),
            (x - a, y + b),
            (x - a, y + a),
            (x - b, y + a),
            (x - b, y - a),
            (x - a, y - a),
        ]
    return []


def draw_shape(
    canvas: Canvas, centre: tuple[int, int], radius: int, seat: int, hidden: bool = False
) -> None:
    """The family's shape in its colour; a hidden character gets a thick light outline."""
    fill = family_colour(seat)
    edge = TEXT if hidden else None
    width = 3 if hidden else 1
    points = outline(shape_of(seat), centre, radius)
    if points:
        canvas.draw.polygon(points, fill=fill, outline=edge, width=width)
    else:
        x, y = centre
        box = (x - radius, y - radius, x + radius, y + radius)
        canvas.draw.ellipse(box, fill=fill, outline=edge, width=width)


def draw_token(
    canvas: Canvas,
    centre: tuple[int, int],
    radius: int,
    seat: int,
    letter: str,
    hidden: bool = False,
) -> None:
    """A character: its family's shape, and its kind's letter in the middle."""
    draw_shape(canvas, centre, radius, seat, hidden)
    x, y = centre
    square = (x - radius, y - radius, x + radius, y + radius)
    canvas.text(
        centre,
        letter,
        TEXT_SIZE,
        bold=True,
        fill=INK,
        anchor="mm",
        width=2 * radius,
        within=square,
        floor=LETTER_FLOOR,
    )
