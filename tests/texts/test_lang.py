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
        (None, "de", "en"),
        (None, None, "en"),
        ("", "fr", "fr"),  # an unset (blank) setting counts as no setting
        ("de", "fr", "fr"),  # a language we do not speak counts as no setting
        # The pseudo-locale of the tests: a locale no Discord client sends.
        (None, "en-XA", "en-XA"),
        ("en-XA", "fr", "en-XA"),
    ],
)
def test_choose_lang(server: str | None, locale: str | None, expected: str) -> None:
    assert choose_lang(server, locale) == expected
