"""R1.4 on the buttons: the placement choices say which character a full location
sends to the Parking lot, so that two choices with the same dice read apart."""

from __future__ import annotations

from bot.table.choices import label
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from lockdown_core import PlaceFamily, Timeout, legal_actions
from tests.core.builders import act, at_placement, new_setup

NAMES = ["P0", "P1", "P2", "P3"]


def test_r1_4_each_placement_button_says_its_outcome_in_both_languages() -> None:
    """Seat 0 rolls 1, 1, 5 with one free spot left in the Restrooms: six choices, six
    different labels, and in each the character that does not fit is said to go to the
    Parking lot."""
    state = new_setup(4, badge=2, martyr=0, dice=[1, 1, 2, 2, 3, 4, 1, 1, 5])
    at_placement(state)
    act(state, Timeout(), Timeout())
    options = legal_actions(state, 0)
    assert len(options) == 6
    for lang in LANGUAGES:
        labels = [label(o, state, NAMES, lang) for o in options]
        assert len(set(labels)) == 6, labels
        parking = t(lang, "location.6")
        assert all(text.count(parking) == 1 for text in labels), labels
    weeper_first = PlaceFamily(0, (2, 0, 1))
    assert weeper_first in options
    english = label(weeper_first, state, NAMES, "en")
    assert english == "Weeper → 1, Blocker → 1 (full: Parking lot), and Leader → 5"
