"""The family colours stay apart for colour-blind players, and letters stay readable on them.

Colour blindness is simulated with the matrices of Machado, Oliveira and
Fernandes (2009) at severity 1.0, applied to linear sRGB; differences are
CIE76 ΔE in CIELAB (D65), the measure the issue's figures were taken with.
"""

from __future__ import annotations

import itertools
import math

import pytest

from bot.render.palette import FAMILY_COLOURS, INK, TILE

Matrix = tuple[tuple[float, float, float], ...]

MACHADO: dict[str, Matrix] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
# The figures the issue measured on the earlier palette (blue/purple under protanopia).
EARLIER = ((66, 135, 245), (245, 180, 40), (80, 200, 120), (200, 90, 220), (240, 110, 60))


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[int, int, int], matrix: Matrix) -> tuple[float, float, float]:
    lin = [_linear(c) for c in rgb]
    r, g, b = (
        min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix
    )
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _closest(colours: tuple[tuple[int, int, int], ...], vision: str) -> float:
    labs = [_lab(c, MACHADO[vision]) for c in colours]
    return min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))


def _luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_simulation_finds_the_issues_figure_on_the_earlier_palette() -> None:
    """Blue and purple were 7 apart under protanopia: the measure is the issue's."""
    labs = [_lab(c, MACHADO["protanopia"]) for c in (EARLIER[0], EARLIER[3])]
    assert math.dist(*labs) == pytest.approx(7.5, abs=0.1)


@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_every_pair_of_family_colours_stays_20_apart(vision: str) -> None:
    assert len(FAMILY_COLOURS) == 6
    assert _closest(FAMILY_COLOURS, vision) >= 20


def test_black_letters_read_on_every_family_colour_and_tokens_stand_out_of_the_room() -> None:
    for colour in FAMILY_COLOURS:
        assert _contrast(colour, INK) >= 6.5, colour
        assert _contrast(colour, TILE) >= 3, colour
