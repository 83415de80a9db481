"""The words of AI seats: personas, lines at the table and the "why", in both languages."""

from __future__ import annotations

from functools import partial

import pytest

from bot.texts import t
from bot.texts.ai_talk import ai_kind_text, persona_name, seat_names, why_lines
from bot.texts.catalog import LANGUAGES
from bot.texts.narrate import describe
from bot.texts.say import PrivateEvent
from lockdown_core import Event
from lockdown_core.ai import PERSONAS

NAMES = ["Ann", "Bob", "AI 1 (the Gambler)"]


def remark(kind: str, **params: object) -> Event:
    return Event("ai_remark", {"seat": 2, "persona": "gambler", "remark": kind, "params": params})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_persona_has_a_name_and_traits_in_both_languages(lang: str) -> None:
    names = {persona_name(lang, key) for key in PERSONAS}
    assert len(names) == len(PERSONAS)
    say = partial(t, lang)
    assert all(persona_name(lang, key) in ai_kind_text(say, f"shrewd:{key}") for key in PERSONAS)


@pytest.mark.parametrize(
    ("event", "english", "french"),
    [
        (
            remark("announce", locations=[5, 6]),
            "AI 1 (the Gambler): “The Monsters are coming to the Supermarket and to the "
            "Parking lot. I saw the dice.”",
            "AI 1 (the Gambler)\u00a0: «\u00a0Les Monstres arrivent vers le Supermarché et "
            "vers le Parking. J'ai vu les dés.\u00a0»",
        ),
        (
            remark("vote", candidate=0, location=6, reason="grudge"),
            "AI 1 (the Gambler): “Ann voted against me once. I remember.”",
            "AI 1 (the Gambler)\u00a0: «\u00a0Ann a voté contre moi. Je n'oublie pas.\u00a0»",
        ),
        (
            remark("gift", to=1, reason="ally"),
            "AI 1 (the Gambler): “A little something for Bob. Friends help friends.”",
            "AI 1 (the Gambler)\u00a0: «\u00a0Un petit quelque chose pour Bob. Entre amis, "
            "on s'entraide.\u00a0»",
        ),
    ],
)
def test_a_remark_is_one_line_of_the_games_language(
    event: Event, english: str, french: str
) -> None:
    assert describe(event, "en", NAMES) == english
    assert describe(event, "fr", NAMES) == french


@pytest.mark.parametrize("kind", ["announce_blind", "no_announcement"])
@pytest.mark.parametrize("reason", ["safety", "grudge", "leader", "loyalty"])
def test_every_kind_and_reason_is_said(kind: str, reason: str) -> None:
    for lang in LANGUAGES:
        assert describe(remark(kind, locations=[1]), lang, NAMES).startswith(NAMES[2])
        vote = remark("vote", candidate=1, location=3, reason=reason)
        assert "Bob" in describe(vote, lang, NAMES)


WHY = {
    "seat": 2,
    "persona": "gambler",
    "turn": 4,
    "kind": "destination",
    "choice": 5,
    "expected": 0.8,
    "runner_up": 6,
    "runner_up_expected": 2.1,
}


def test_the_why_names_the_choice_and_the_runner_up_with_their_expected_losses() -> None:
    [english] = why_lines("en", NAMES, [WHY])
    assert english == (
        "AI 1 (the Gambler), turn 4: went to the Supermarket, about 0.8 points at risk as "
        "the table could reckon it, against 2.1 going to the Parking lot."
    )
    [french] = why_lines("fr", NAMES, [WHY])
    assert "0,8" in french
    assert "2,1" in french
    assert "tour 4\u00a0:" in french


def test_a_move_is_told_by_the_characters_kind() -> None:
    move = {**WHY, "kind": "move", "choice": 7, "choice_kind": "blocker", "runner_up": None}
    [line] = why_lines("en", NAMES, [move])
    assert line == (
        "AI 1 (the Gambler), turn 4: moved their Blocker, the only one that could go, "
        "about 0.8 points at risk as the table could reckon it."
    )


def test_the_why_is_private_to_its_seat_until_the_reveal() -> None:
    event = Event("ai_why", WHY, to=(2,))
    with pytest.raises(PrivateEvent):
        describe(event, "en", NAMES)
    with pytest.raises(PrivateEvent):
        describe(event, "en", NAMES, seat=0)
    assert "Supermarket" in describe(event, "en", NAMES, seat=2)


def test_a_seat_with_a_persona_carries_it_in_its_name() -> None:
    seats = [("Ann", None), ("AI 1", "cautious"), ("AI 2", "shrewd:trickster")]
    assert seat_names("en", seats) == ["Ann", "AI 1", "AI 2 (the Trickster)"]
    assert seat_names("fr", seats) == ["Ann", "IA 1", "IA 2 (la Filoute)"]


def test_only_an_ai_seat_changes_its_name_with_the_language() -> None:
    """A person may call themselves "AI 2": only a seat with an AI kind is renamed."""
    seats = [("AI 2", None), ("AI 1", "random"), ("AI 10", "cautious"), ("AI 1x", "random")]
    assert seat_names("fr", seats) == ["AI 2", "IA 1", "IA 10", "AI 1x"]


def test_the_lobby_says_the_level_and_the_persona() -> None:
    english, french = partial(t, "en"), partial(t, "fr")
    assert ai_kind_text(english, "cautious") == "cautious AI"
    assert ai_kind_text(english, "shrewd:avenger") == (
        "shrewd AI, the Avenger: never forgets a vote against it"
    )
    assert ai_kind_text(french, "shrewd:avenger").startswith("IA rusée, la Vengeresse\u00a0:")
