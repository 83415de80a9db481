"""The private panel's words: card help with French typography, reminders in the
reader's own language."""

from __future__ import annotations

from bot.texts import t
from bot.texts.panel_text import hand_lines, reminder_lang, reminder_text
from lockdown_core import load_ruleset, new_game


def test_card_help_puts_a_non_breaking_space_before_the_french_colon() -> None:
    state, _ = new_game(load_ruleset(), 4, 1)
    hand = ["gun", "keys_of_the_truck"]
    french = hand_lines("fr", hand, state)
    assert french[0].startswith("**Pistolet**\u00a0: ")
    assert all("** :" not in line and "**:" not in line for line in french)
    assert hand_lines("en", hand, state)[0].startswith("**Gun**: ")


def test_a_reminder_dm_speaks_its_readers_language_not_the_servers() -> None:
    """One English player on a French server gets an English DM, and the reverse."""
    assert reminder_lang("en-US", "fr") == "en"
    assert reminder_lang("fr", "en") == "fr"
    assert reminder_lang("fr-CA", None) == "fr"
    # A locale we do not speak: the server's language, else English.
    assert reminder_lang("pt-BR", "fr") == "fr"
    assert reminder_lang("de", "fr") == "de"
    assert reminder_lang(None, "fr") == "fr"
    assert reminder_lang(None, None) == "en"
    assert reminder_text("en-GB", "fr", "<#42>") == t("en", "dm.your_turn", channel="<#42>")
    assert reminder_text("fr", "en", "<#42>") == t("fr", "dm.your_turn", channel="<#42>")
