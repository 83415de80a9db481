"""The shipped font's glyph table, checked against what Pillow really draws."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageDraw

from bot.render.glyphs import BOLD, FONT_DIR, REGULAR, coverage, drawable, fit, font, missing
from bot.texts import catalog
from bot.texts.catalog import LANGUAGES


def _pixels(ch: str, bold: bool) -> bytes:
    image = Image.new("L", (64, 64))
    ImageDraw.Draw(image).text((8, 8), ch, fill=255, font=font(40, bold))
    return image.tobytes()


@pytest.mark.parametrize("bold", [False, True])
def test_the_cmap_says_exactly_which_characters_pillow_draws_as_the_notdef_box(
    bold: bool,
) -> None:
    notdef = _pixels("\U000f0000", bold)  # a private-use plane no font of ours maps
    path = BOLD if bold else REGULAR
    sample = "AzéÉøŁłßΣσДж€…★·—" + "花子🦊\u0e01\u05d0\u0627\u3042"
    for ch in sample:
        drawn_as_box = _pixels(ch, bold) == notdef
        assert drawn_as_box == (ch in missing(ch, path)), ch


def test_the_font_covers_latin_extended_greek_and_cyrillic() -> None:
    have = coverage(REGULAR) & coverage(BOLD)
    for block in (range(0x20, 0x7F), range(0xC0, 0x250), range(0x391, 0x3CA), range(0x410, 0x450)):
        lacking = [hex(c) for c in block if c not in have and chr(c).isprintable()]
        assert lacking == [], lacking


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fonts_draw_every_letter_and_mark_of_the_catalog(lang: str) -> None:
    """Spanish's ñ, ¿ and ¡, French's œ and « »...: any text a picture draws is drawn
    whole. Only the emoji that Discord draws in its messages (✅, ⬜) may be lacking."""
    have = coverage(REGULAR) & coverage(BOLD)
    used = {ch for key in catalog().keys for ch in catalog().template(lang, key)}
    wanted = {ch for ch in used if unicodedata.category(ch)[0] in "LNPZ"}
    assert len(wanted) > 50, "the scan reads the catalog's texts"
    assert sorted(ch for ch in wanted if ord(ch) not in have) == []


def test_the_licence_is_shipped_beside_the_fonts() -> None:
    text = (FONT_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera" in text
    assert "Permission is hereby granted" in text


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Chloé", "Chloé"),
        ("Chloe\u0301", "Chloé"),  # decomposed input is composed before drawing
        ("花子", "Seat 4"),
        ("🦊🎉", "Seat 4"),
        ("Zoë 🎉", "Zoë"),
        ("Hanako 花子", "Hanako"),
        ("Дмитрий", "Дмитрий"),
    ],
)
def test_a_name_keeps_what_the_font_draws_or_becomes_the_seat(name: str, shown: str) -> None:
    assert drawable(name, "Seat 4") == shown


def test_fit_cuts_with_an_ellipsis_to_the_width() -> None:
    text = "Bartholomew-Maximilian Featherstonehaugh"
    cut = fit(text, 150, 22)
    assert cut.endswith("…")
    assert font(22).getlength(cut) <= 150
    assert fit("Zoë", 150, 22) == "Zoë"
