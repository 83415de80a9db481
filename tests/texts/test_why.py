"""An AI seat's reasons in words, in both languages (`bot.texts.why`)."""

from __future__ import annotations

from bot.texts import t
from bot.texts.why import why_lines
from lockdown_core import load_ruleset, new_game
from lockdown_core.ai import Rationale

NAMES = ["Ana", "AI 1", "AI 2"]


def test_a_destination_names_the_place_its_risk_and_the_next_best() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    reason = Rationale("destination", 4, 1.5, 2, 2.3)
    en = why_lines("en", state, 1, reason, NAMES)
    assert en[0] == t(
        "en", "practice.why.destination", name="AI 1", option=t("en", "location.4.to"), points="1.5"
    )
    assert "2.3" in en[1]
    assert t("en", "location.2.to") in en[1]
    fr = why_lines("fr", state, 1, reason, NAMES)
    assert "1,5" in fr[0]
    assert "2,3" in fr[1]
    assert t("fr", "location.4.to") in fr[0]
    es = why_lines("es", state, 1, reason, NAMES)
    assert es[0] == t(
        "es", "practice.why.destination", name="AI 1", option=t("es", "location.4.to"), points="1,5"
    )
    assert "2,3" in es[1]


def test_a_move_names_the_kind_moved_and_a_lone_option_has_no_next_best() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    character = state.characters[0]
    lines = why_lines("en", state, 2, Rationale("move", character.id, 0.0, None, None), NAMES)
    assert lines == [
        t(
            "en",
            "practice.why.move",
            name="AI 2",
            option=t("en", f"kind.{character.kind}"),
            points="0.0",
        )
    ]
