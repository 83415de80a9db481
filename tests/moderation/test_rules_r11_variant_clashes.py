"""R11.4: every pair of variants plays the same in either order, or is never combined.

Variants are applied in the order given (R11.2); the pairs found in the data
(`lockdown_core.variant_clashes`) are refused wherever a server combines variants
(`bot.table.campaign.check_variant_choice`), and every other pair, and every set
without such a pair, gives the same rules in any order.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from bot.table.campaign import check_variant_choice, game_variants, shown_params
from bot.table.lobby import LobbyError
from bot.table.server_settings import ServerConfig
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from lockdown_core import Ruleset, load_ruleset, load_variants
from lockdown_core.variant_clashes import clashes

VARIANTS = list(load_variants())
RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
# The pairs docs/rules.md lists under R11.4, by their English names.
DOCUMENTED = {
    ("creche", "hush"),
    ("last_stand", "lone_survivor"),
    ("overrun", "quiet_mall"),
    ("hoarders", "empty_hands"),
}
# Random sets of three or four variants checked in every order (all of them would take
# thousands of rule loads; a pair is what can clash).
SETS = 30


def played(variants: tuple[str, ...]) -> Ruleset:
    """The rules a game is dealt with, whatever names the variants in it."""
    return load_ruleset(variants).model_copy(update={"variants": ()})


@pytest.mark.parametrize("first", VARIANTS)
def test_r11_4_each_pair_plays_the_same_in_either_order_or_is_refused(first: str) -> None:
    for second in VARIANTS:
        if second == first:
            continue
        pair = (first, second)
        if clashes(pair):
            # Refused wherever a server combines variants, with the reason.
            with pytest.raises(LobbyError) as refused:
                check_variant_choice(pair, VARIANTS, combine=True)
            assert refused.value.key == "error.variants_clash"
            # And rightly: combined, one of them would not play as its line says.
            both = played(pair)
            assert both != played((first,)) or both != played((second,))
        else:
            check_variant_choice(pair, VARIANTS, combine=True)
            assert played(pair) == played((second, first)), pair


def test_r11_4_sets_without_a_clashing_pair_play_the_same_in_every_order() -> None:
    rnd = random.Random(11)
    checked = 0
    while checked < SETS:
        chosen = tuple(rnd.sample(VARIANTS, rnd.choice((3, 4))))
        if clashes(chosen):
            continue
        orders = {played(order) for order in itertools.permutations(chosen)}
        assert len(orders) == 1, chosen
        checked += 1


def test_r11_4_the_clashing_pairs_are_the_ones_docs_rules_lists() -> None:
    """A new variant that clashes with another fails here until R11.4 names the pair."""
    found = {(c.first, c.second) for c in clashes(VARIANTS)}
    assert found == DOCUMENTED
    rule = re.search(r'id="R11\.4".*?(?=<a id=)', RULES_DOC.read_text("utf-8"), re.S)
    assert rule is not None
    text = " ".join(rule.group(0).split())
    for first, second in DOCUMENTED:
        names = (t("en", f"variant.{first}.name"), t("en", f"variant.{second}.name"))
        assert f"{names[0]} and {names[1]}" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r11_4_the_refusal_names_both_variants_and_what_each_changes(lang: str) -> None:
    with pytest.raises(LobbyError) as refused:
        check_variant_choice(["hush", "spare_keys", "creche"], VARIANTS, combine=True)
    text = t(lang, refused.value.key, **shown_params(lang, refused.value.params))
    for variant in ("creche", "hush"):
        assert t(lang, f"variant.{variant}.name") in text
        assert t(lang, f"variant.{variant}.change") in text
    assert "spare_keys" not in text


def test_r11_4_one_variant_at_a_time_is_said_before_any_clash() -> None:
    with pytest.raises(LobbyError) as refused:
        check_variant_choice(["creche", "hush"], VARIANTS, combine=False)
    assert refused.value.key == "error.variants_not_combined"


def test_r11_5_open_designations_add_open_ballots_to_any_pick_and_clash_with_none() -> None:
    """The server's own rule: it needs no unlocked Open ballots, and never makes a pick
    refused at the start of a game (no variant clashes with it)."""
    config = ServerConfig().with_value("open_designations", True)
    assert game_variants([], config) == ["open_ballots"]
    for variant in VARIANTS:
        assert clashes([variant, "open_ballots"]) == []
        assert game_variants([variant], config)[-1] == "open_ballots"
