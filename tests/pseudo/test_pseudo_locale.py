"""The pseudo-locale itself: made from English, marked, longer, with the same fields."""

from __future__ import annotations

from bot.texts import catalog, t
from bot.texts.catalog import and_list, placeholders
from bot.texts.check import limit_of
from bot.texts.pseudo import CLOSE, OPEN, PSEUDO, pseudo_template
from tests.pseudo import leaks


def test_every_english_text_has_a_marked_twin_with_the_same_fields() -> None:
    texts = catalog()
    for key in texts.keys:
        english, pseudo = texts.template("en", key), texts.template(PSEUDO, key)
        assert placeholders(pseudo) == placeholders(english), key
        if key.startswith("play.keys.") or (key.startswith("command.") and key.endswith(".name")):
            assert pseudo == english, "typed or matched, not read"
        else:
            assert pseudo.startswith(OPEN), key
            assert pseudo.endswith(CLOSE), key


def test_a_text_grows_by_two_fifths_of_its_letters() -> None:
    """`Waiting for: {names}.` has ten letters of its own: four more characters."""
    assert t(PSEUDO, "board.waiting_for", names="ana") == "⟦Wáítíñg för: ana.····⟧"


def test_markup_and_fields_survive_and_the_rest_is_accented() -> None:
    template = pseudo_template("x", "Go to <#{channel}> {name}: see `/lockdown new`, https://a.b/c")
    assert template.startswith("⟦Gö tö <#{channel}> {name}: šéé `/lockdown new`, https://a.b/c")
    assert pseudo_template("x", "{{literal}} braces").startswith("⟦{{líté")


def test_the_pseudo_locale_counts_as_english_does() -> None:
    assert catalog().count(PSEUDO, "card", 1) == "⟦1 çárd··⟧"
    assert catalog().count(PSEUDO, "card", 1_000) == "⟦1,000 çárdš··⟧"


def test_a_word_outside_the_markers_is_a_leak_and_a_name_is_not() -> None:
    line = t(PSEUDO, "board.waiting_for", names="ana") + " Done"
    assert leaks(line, ["ana"]) == ["Done"]
    cut = t(PSEUDO, "board.waiting_for", names="ana")[:8] + "…"
    assert leaks(cut, ["ana"]) != []


def test_every_text_40_percent_longer_still_fits_where_discord_shows_it() -> None:
    """A language that runs 40% past English must still fit: a button's 80 characters,
    a command description's 100... (the checker's `LIMITS`)."""
    texts = catalog()
    over = {
        key: len(texts.template(PSEUDO, key))
        for key in texts.keys
        if len(texts.template(PSEUDO, key)) > limit_of(key).chars
    }
    assert over == {}


def test_a_list_is_marked_as_a_catalog_text_is() -> None:
    """Its words are CLDR's English ones, through Babel: no code wrote them."""
    assert and_list(PSEUDO, ["ana", "bo", "cy"]) == "⟦ana, bo, and cy⟧"
    assert and_list(PSEUDO, ["ana"]) == "ana"
