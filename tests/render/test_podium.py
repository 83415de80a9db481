"""The season's podium picture: a PNG of the fixed size, whatever the names and the
number of people on it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.canvas import TEXT_SIZE, text_width
from bot.render.podium import HEIGHT, STEP_W, WIDTH, Finisher, podium_picture, podium_png
from bot.texts import t
from bot.texts.catalog import LANGUAGES


@pytest.mark.parametrize("count", [0, 1, 3])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_podium_is_a_picture_of_its_size_for_any_top(count: int, lang: str) -> None:
    top = [Finisher("Ana " * 20, 1040 - place, 30, 12 - place) for place in range(count)]
    picture = Image.open(io.BytesIO(podium_png(lang, 4, top, "Spare keys", 57)))
    assert picture.format == "PNG"
    assert picture.size == (WIDTH, HEIGHT)


def test_the_winner_s_step_is_drawn_differently_from_an_empty_one() -> None:
    alone = podium_png("en", 1, [Finisher("Ana", 1020, 10, 6)], "the base game", 10)
    nobody = podium_png("en", 1, [], "the base game", 10)
    assert alone != nobody


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_season_s_record_fits_on_its_step(lang: str) -> None:
    """`podium_png` cuts what is wider than its step: a record must read whole."""
    record = t(lang, "rating.podium.record", wins=120, games=300)
    assert text_width(record, TEXT_SIZE - 6) <= STEP_W - 16, record


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_the_font_cannot_draw_shows_its_place_not_nothing(lang: str) -> None:
    """A CJK name has no letter in the picture's font: its step says its place."""
    top = [Finisher(name, 1040 - n, 30, 12 - n) for n, name in enumerate(["Ana", "花子", "Bo"])]
    image, drawn = podium_picture(lang, 4, top, "Spare keys", 57)
    shown = [placed.text for placed in drawn.texts]
    assert t(lang, "rating.podium.unnamed", rank=2) in shown
    assert "Ana" in shown
    assert "Bo" in shown
    assert not drawn.dropped
    assert image.size == (WIDTH, HEIGHT)
