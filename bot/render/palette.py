"""The colours every picture uses, and the one fixed palette they are stored with.

The six family colours were chosen so that every pair stays at least 20 apart
(CIELAB, CIE76 ΔE) for normal vision and under simulated protanopia,
deuteranopia and tritanopia (Machado 2009, severity 1.0), while black letters
on each keep a contrast ratio above 6.5. Colour is never the only clue: each
family also has its own token shape (`tokens`), shown in the legend too.
`tests/render/test_palette.py` recomputes the differences.
"""

from __future__ import annotations

from PIL import Image

Colour = tuple[int, int, int]

BACKGROUND: Colour = (24, 26, 33)
TILE: Colour = (44, 48, 60)
TILE_EDGE: Colour = (92, 98, 120)
TEXT: Colour = (236, 236, 242)
DIM: Colour = (165, 169, 185)
MONSTER: Colour = (214, 48, 60)
ALERT: Colour = (255, 120, 120)
SAFE: Colour = (130, 215, 150)
EMPTY_SPOT: Colour = (80, 85, 104)
CLOSED: Colour = (12, 12, 16)
INK: Colour = (12, 12, 12)
FAMILY_COLOURS: tuple[Colour, ...] = (
    (176, 122, 252),  # violet
    (240, 230, 40),  # yellow
    (110, 163, 88),  # green
    (250, 89, 166),  # pink
    (212, 160, 35),  # amber
    (68, 226, 255),  # cyan
)
BASE_COLOURS = (
    BACKGROUND,
    TILE,
    TILE_EDGE,
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


def family_colour(seat: int) -> Colour:
    """The colour of a seat's family."""
    return FAMILY_COLOURS[seat % len(FAMILY_COLOURS)]


def _blend(a: Colour, b: Colour, t: float) -> Colour:
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
        (TEXT, TILE),
        (TEXT, CLOSED),
        (TEXT, MONSTER),
        (DIM, BACKGROUND),
        (DIM, TILE),
        (ALERT, TILE),
        (ALERT, BACKGROUND),
        (SAFE, TILE),
        (TILE_EDGE, BACKGROUND),
        (EMPTY_SPOT, TILE),
        (EMPTY_SPOT, BACKGROUND),
        (MONSTER, TILE),
        (MONSTER, CLOSED),
        *((INK, colour) for colour in FAMILY_COLOURS),
        *((colour, TILE) for colour in FAMILY_COLOURS),
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
