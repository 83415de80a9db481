"""Each family's token has its own outline, so families are told apart without colour."""

from __future__ import annotations

import itertools
import math

from PIL import Image

from bot.render.canvas import Canvas
from bot.render.tokens import SHAPES, draw_shape, draw_token, shape_of


def _silhouette(seat: int, radius: int = 16) -> Image.Image:
    """The token's pixels as black and white: what is left of it without colour."""
    image = Image.new("RGB", (64, 64), (0, 0, 0))
    draw_shape(Canvas(image), (32, 32), radius, seat)
    return image.convert("L").point(lambda v: 255 if v else 0)


def _edge(silhouette: Image.Image) -> list[tuple[int, int]]:
    """The pixels of a silhouette that touch the outside."""
    inside = {
        (x, y)
        for y in range(silhouette.height)
        for x in range(silhouette.width)
        if silhouette.getpixel((x, y))
    }
    return [
        (x, y)
        for x, y in inside
        if any(n not in inside for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    ]


def _apart(a: Image.Image, b: Image.Image) -> float:
    """How far, in pixels, one outline strays from the other at most (Hausdorff distance):
    under 2 px, two outlines only differ by their anti-aliasing."""
    ea, eb = _edge(a), _edge(b)

    def strays(one: list[tuple[int, int]], other: list[tuple[int, int]]) -> float:
        return max(min(math.dist(p, q) for q in other) for p in one)

    return max(strays(ea, eb), strays(eb, ea))


def test_six_families_have_six_different_outlines_and_the_seventh_repeats() -> None:
    assert len({shape_of(seat) for seat in range(6)}) == 6 == len(SHAPES)
    assert shape_of(6) == shape_of(0)


def test_every_two_outlines_differ_by_a_corner_of_at_least_3_pixels() -> None:
    """3 px on the full picture, 1.5 px on a phone: a corner, not a blur."""
    shapes = [_silhouette(seat) for seat in range(6)]
    for (i, a), (j, b) in itertools.combinations(enumerate(shapes), 2):
        assert _apart(a, b) >= 3, (SHAPES[i], SHAPES[j])


def test_every_shape_keeps_its_middle_for_the_kinds_letter() -> None:
    for seat in range(6):
        image = Image.new("RGB", (64, 64), (0, 0, 0))
        canvas = Canvas(image)
        draw_token(canvas, (32, 32), 16, seat, "W")
        (letter,) = canvas.drawn.texts
        x0, y0, x1, y1 = letter.box
        silhouette = _silhouette(seat)
        # Every corner of the letter's box lies on the shape, so the letter reads on it.
        for x, y in ((x0, y0), (x1 - 1, y0), (x0, y1 - 1), (x1 - 1, y1 - 1)):
            assert silhouette.getpixel((x, y)) == 255, (SHAPES[seat], (x, y))
