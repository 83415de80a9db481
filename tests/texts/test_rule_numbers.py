"""No catalog string writes a number the rules data decides: texts take it as a parameter.

A number written into a text is right for the base game only; under a
variant the same screen would state two numbers for one thing. The numbers
below are no rule of the data: what one event did, a card's fixed effect, a
hash's name, the numbering of a list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.texts.catalog import LANGUAGES

CATALOGS = Path(__file__).resolve().parents[2] / "bot" / "texts" / "catalogs"

NOT_RULES = {
    "event.monster_added",  # one event, one Monster
    "event.card_played.gun",  # a Gun's +1 vote is the card's own effect (R2.6)
    "event.card_played.gun.attack",  # in every vote of a Parking lot attack (R7.7)
    "event.card_played.tin_can",  # so is the Tin can's single Monster (R7.8)
    "recap.seed_check",  # SHA-256
}


def numbers(text: str) -> list[str]:
    """The digits of a text outside its placeholders and its list numbering."""
    text = re.sub(r"\{[^}]*\}", "", text)
    text = re.sub(r"(?m)^\d+\. ", "", text)
    return re.findall(r"\d+", text)


def texts(lang: str, *features: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted((CATALOGS / lang).glob("*.json")):
        if not features or path.stem in features:
            found.update(json.loads(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_and_game_texts_write_no_rule_number(lang: str) -> None:
    written = {
        key: numbers(text)
        for key, text in texts(lang, "rules", "game").items()
        if key not in NOT_RULES and numbers(text)
    }
    assert written == {}


def test_the_scan_sees_a_written_number() -> None:
    assert numbers("draws 3 cards, keeps {keeps}") == ["3"]
    assert numbers("1. Truck: the winner {truck}.") == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_writes_the_seat_range(lang: str) -> None:
    written = {
        key: numbers(text)
        for key, text in texts(lang).items()
        if key in ("lobby.intro", "lobby.seats", "help.text") and numbers(text)
    }
    assert written == {}
