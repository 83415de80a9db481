"""The rules on screen say this game's numbers: kinds, closing, Cold storage, the end."""

from __future__ import annotations

from typing import Any

import pytest

from bot.texts import t
from bot.texts.catalog import LANGUAGES, and_list
from bot.texts.rules_text import (
    kind_help,
    living_line,
    rules_sections,
    vote_weights,
    voters_text,
)
from lockdown_core import load_ruleset, load_variants
from tests.core.builders import SURVEILLANCE, at_badge, position


def sections(lang: str, *variants: str) -> dict[str, str]:
    return dict(rules_sections(lang, load_ruleset(variants)))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", [None, *sorted(load_variants())])
def test_every_variant_fits_discords_limits_in_both_languages(lang: str, variant: str) -> None:
    """The guide is one message's content; each other part one embed field."""
    rules = load_ruleset((variant,) if variant else ())
    parts = rules_sections(lang, rules)
    (_, guide), *fields = parts
    assert len(guide) <= 1900
    assert all(len(title) <= 256 and 0 < len(text) <= 1024 for title, text in fields)
    assert sum(len(title) + len(text) for title, text in fields) <= 6000


@pytest.mark.parametrize("lang", LANGUAGES)
def test_closing_locations_and_each_cold_storage_row_are_explained(lang: str) -> None:
    dangers = sections(lang)[t(lang, "rules.dangers_title")]
    monsters = t(lang, "count.monster_other", count=6)
    assert t(lang, "rules.closing", monsters=monsters) in dangers
    assert t(lang, "rules.cold.row1", row=1) in dangers
    rows = t(lang, "rules.cold.rows.other", rows=and_list(lang, ["2", "3"]))
    assert t(lang, "rules.cold.dice", rows=rows, maximum=6) in dangers


def test_variants_change_what_the_rules_say() -> None:
    barricades = sections("en", "barricades")[t("en", "rules.dangers_title")]
    assert "holding 5 Monsters closes" in barricades
    dusk = sections("en", "early_dusk")[t("en", "rules.dangers_title")]
    assert t("en", "rules.cold.row1_from_start", row=1) in dusk
    assert t("en", "rules.cold.row1", row=1) not in dusk
    base = sections("en")[t("en", "rules.kinds_title")]
    assert t("en", "kind.useless.only", players=3) in base
    big = sections("en", "big_families")[t("en", "rules.kinds_title")]
    assert t("en", "kind.useless.always") in big
    assert "Strength 3" in kind_help("en", "blocker", load_ruleset(("tough_crowd",)))
    assert "+2 Monsters" in kind_help("en", "weeper", load_ruleset(("creche",)))
    assert "draws" not in kind_help("en", "weeper", load_ruleset(("hush",)))


def four_at_the_surveillance_room() -> Any:
    families: list[dict[str, Any]] = [
        {"blocker": SURVEILLANCE, "leader": 1, "weeper": 2},
        {"blocker": 4, "leader": SURVEILLANCE, "weeper": 2},
        {"blocker": 4, "leader": 5, "weeper": 2},
        {"leader": 5},
    ]
    state = position(*families, badge=2, martyr=1)
    at_badge(state)
    return state


def test_in_a_game_the_rules_say_where_it_stands() -> None:
    state = four_at_the_surveillance_room()
    now = dict(rules_sections("en", state.rules, state))[t("en", "rules.now_title")]
    assert t("en", "rules.attack_above") in now
    # 10 living characters, 4 players: the game ends at 4.
    assert living_line("en", state) == t("en", "rules.end.living", limit=4, living=10)
    assert living_line("en", state) in now
    state.rows_triggered[0] = True
    now = dict(rules_sections("fr", state.rules, state))[t("fr", "rules.now_title")]
    assert t("fr", "rules.attack_at_equal") in now
    # Only the kinds dealt are listed in a game.
    kinds = dict(rules_sections("en", state.rules, state))[t("en", "rules.kinds_title")]
    assert "Useless" not in kinds


def test_the_end_follows_the_variant() -> None:
    families: list[dict[str, Any]] = [{"blocker": 1, "leader": 2, "weeper": 4}] * 3
    half = position(*families, variants=("last_stand",))
    assert living_line("en", half) == t("en", "rules.end.living", limit=2, living=9)
    lone = position(*families, variants=("lone_survivor",))
    assert living_line("en", lone) == t("en", "rules.end.one_family", families=3)


def test_voters_read_with_their_weight() -> None:
    state = four_at_the_surveillance_room()
    names = ["Ana", "Bo", "Cy", "Di"]
    weights = vote_weights(state)
    assert weights == {0: 1, 1: 2}
    assert voters_text("en", weights, names) == "Ana (1 vote) and Bo (2 votes)"
    assert voters_text("fr", weights, names) == "Ana (1 voix) et Bo (2 voix)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guide_of_a_game_states_ties_the_martyr_and_only_its_kinds(lang: str) -> None:
    """R6.2-R6.3: a tie draws a Monster at each tied location; R2.2, R8.2: who breaks a
    tie and who takes the Martyr token next; a 4-player game deals no Useless (R1.1)."""
    state = four_at_the_surveillance_room()
    guide_text = dict(rules_sections(lang, state.rules, state))[t(lang, "rules.title")]
    assert t(lang, "kind.useless") not in guide_text
    assert t(lang, "rules.guide.martyr.owner") in guide_text
    arrivals = t(lang, "rules.arrivals", weepers=1, crowd=1)
    assert arrivals in guide_text
    general = dict(rules_sections(lang, state.rules))[t(lang, "rules.title")]
    assert t(lang, "kind.useless") in general, "outside a game, every kind"
    vendetta = load_ruleset(["vendetta"])
    assert (
        t(lang, "rules.guide.martyr.voter")
        in dict(rules_sections(lang, vendetta))[t(lang, "rules.title")]
    )
