"""Choosing a reader's language: the server's setting first, then their Discord locale."""

from __future__ import annotations

import pytest

from bot.texts import choose_lang


@pytest.mark.parametrize(
    ("server", "locale", "expected"),
    [
        ("fr", "en-US", "fr"),  # the server's choice wins over the reader's locale
        ("en", "fr", "en"),
        (None, "fr", "fr"),
        (None, "fr-CA", "fr"),
        (None, "FR", "fr"),
        (None, "en-GB", "en"),
        (None, "de", "de"),  # every catalog language, by the locale's language part
        (None, "pt-BR", "en"),
        (None, None, "en"),
        ("", "fr", "fr"),  # an unset (blank) setting counts as no setting
        ("pt", "fr", "fr"),  # a language we do not speak counts as no setting
        ("de", "fr", "de"),
    ],
)
def test_choose_lang(server: str | None, locale: str | None, expected: str) -> None:
    assert choose_lang(server, locale) == expected
