"""Narration: every core event becomes a line, for the channel or for one seat only.

The event kinds are found twice: by grepping `Event("...")` in the engine's
source, and by playing `GAMES` seeded random games (`games.py`) whose every
event is rendered in English and French. The games reach every kind the
engine can emit (checked below); if an engine change makes some kind too
rare to appear, raise `GAMES` in `games.py` rather than dropping the check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.texts import catalog
from bot.texts.catalog import LANGUAGES
from bot.texts.narrate import Told, describe, narrated_kinds, story, vote_recap
from bot.texts.say import PrivateEvent
from lockdown_core import Event
from tests.texts.games import PlayedGame, played_games

REPO = Path(__file__).resolve().parents[2]
NAMES = ["Ana", "Bertrand", "Chloé", "Dmitri", "Eve", "Farid"]


def engine_kinds() -> set[str]:
    source = "\n".join(p.read_text("utf-8") for p in (REPO / "lockdown_core").rglob("*.py"))
    return set(re.findall(r'Event\(\s*"([a-z_]+)"', source))


def all_events() -> Iterator[tuple[PlayedGame, Event]]:
    for game in played_games():
        for event in game.events:
            yield game, event


def test_the_grep_finds_the_engine_events() -> None:
    kinds = engine_kinds()
    assert {"game_started", "card_gift", "game_over"} <= kinds
    assert len(kinds) >= 40


def test_every_event_kind_of_the_engine_can_be_narrated() -> None:
    public, private = narrated_kinds()
    assert sorted(engine_kinds() - (public | private)) == []


def test_every_event_kind_has_catalog_texts() -> None:
    keys = catalog().keys
    missing = [k for k in engine_kinds() if not any(key.startswith(f"event.{k}") for key in keys)]
    assert missing == []


def test_the_random_games_reach_every_event_kind_and_nothing_else() -> None:
    seen = {event.kind for _, event in all_events()}
    assert sorted(engine_kinds() - seen) == []
    assert sorted(seen - engine_kinds()) == []


def test_every_event_of_the_random_games_reads_well_in_both_languages() -> None:
    """Public events for the channel; private ones for each seat they were sent to."""
    rendered = 0
    for game, event in all_events():
        names = NAMES[: game.players]
        audiences = [None] if event.to is None else list(event.to)
        for seat in audiences:
            for lang in LANGUAGES:
                line = describe(event, lang, names, seat=seat)
                assert line.strip(), (event, lang)
                assert not re.search(r"[{}_]|event\.", line), (event, lang, line)
                rendered += 1
    assert rendered > 10_000


def test_public_events_read_the_same_for_every_seat() -> None:
    for game, event in all_events():
        if event.to is None:
            names = NAMES[: game.players]
            line = describe(event, "en", names)
            assert all(describe(event, "en", names, seat=s) == line for s in range(game.players))
            return


def test_every_event_text_of_the_catalog_is_used_by_some_game() -> None:
    """No dead event wording: each `event.*` key shows up in the random games."""
    used: set[str] = set()
    texts = catalog()
    original = type(texts).text

    def spy(self: object, lang: str, key: str, **params: object) -> str:
        used.add(key)
        return original(texts, lang, key, **params)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(texts), "text", spy)
        for game, event in all_events():
            seats = [None] if event.to is None else list(event.to)
            for seat in seats:
                describe(event, "en", NAMES[: game.players], seat=seat)
    event_keys = {k for k in texts.keys if k.startswith("event.")}
    assert sorted(event_keys - used) == []


# Private events -----------------------------------------------------------------


def private_events() -> list[tuple[PlayedGame, Event]]:
    return [(g, e) for g, e in all_events() if e.to is not None]


def test_private_events_have_no_public_line() -> None:
    kinds = set()
    for game, event in private_events():
        for lang in LANGUAGES:
            with pytest.raises(PrivateEvent, match="no public line"):
                describe(event, lang, NAMES[: game.players])
        kinds.add(event.kind)
    assert kinds == {
        "hand_dealt",
        "dice_seen",
        "designation_receipt",
        "card_kept",
        "card_gift",
        "truck_drawn",
        "destination_receipt",
    }


def test_private_events_are_not_narrated_to_other_seats() -> None:
    for game, event in private_events():
        assert event.to is not None
        outsider = next(s for s in range(game.players) if s not in event.to)
        with pytest.raises(PrivateEvent, match=f"not seat {outsider}"):
            describe(event, "en", NAMES[: game.players], seat=outsider)


def test_a_truck_gift_names_the_card_only_to_giver_and_receiver() -> None:
    gift = Event("card_gift", {"card": "chainsaw", "from": 1, "to": 2}, to=(1, 2))
    public = Event("card_given", {"player": 1, "to": 2})
    names = NAMES[:4]
    assert describe(gift, "en", names, seat=1) == "You give the Chainsaw to Chloé."
    assert describe(gift, "en", names, seat=2) == "Bertrand gives you the Chainsaw."
    assert describe(gift, "fr", names, seat=2) == "Bertrand vous donne la carte Tronçonneuse."
    assert describe(public, "en", names) == "Bertrand gives a card to Chloé."


def test_public_truck_lines_never_name_a_card() -> None:
    """R3.4: the channel learns that a search happened and who got a card, never which."""
    cards = [k for k in catalog().keys if k.startswith("card.") and k.count(".") == 1]
    for game, event in all_events():
        if event.kind in ("truck_searched", "card_given", "truck_done"):
            for lang in LANGUAGES:
                line = describe(event, lang, NAMES[: game.players])
                assert not any(catalog().text(lang, c) in line for c in cards), line


def test_a_ballot_receipt_speaks_to_its_voter() -> None:
    receipt = Event("designation_receipt", {"candidate": 0}, to=(0,))
    assert describe(receipt, "en", NAMES[:3], seat=0).startswith("You designate yourself.")
    assert describe(receipt, "fr", NAMES[:3], seat=0).startswith("Vous vous désignez.")


# A few lines word for word --------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "en", "fr"),
    [
        (
            Event(
                "character_devoured", {"character": 4, "owner": 1, "kind": "weeper", "location": 6}
            ),
            "Bertrand loses their Weeper, devoured in the Parking lot.",
            "Bertrand perd son Chialeur, dévoré au Parking.",
        ),
        (
            Event(
                "card_played",
                {"player": 0, "card": "chainsaw", "location": 4, "removed": 2, "monsters": 1},
            ),
            "Ana plays the Chainsaw in the Toy store: 2 Monsters gone, 1 Monster still there.",
            "Ana joue la carte Tronçonneuse dans le Magasin de jouets\u00a0: 2 Monstres en moins,"
            " encore 1 Monstre sur place.",
        ),
        (
            Event(
                "card_played",
                {"player": 0, "card": "chainsaw", "location": 4, "removed": 2, "monsters": 0},
            ),
            "Ana plays the Chainsaw in the Toy store: 2 Monsters gone, none left.",
            "Ana joue la carte Tronçonneuse dans le Magasin de jouets\u00a0: 2 Monstres en moins,"
            " il n'en reste aucun.",
        ),
        (
            Event(
                "card_played",
                {"player": 1, "card": "tin_can", "location": 4, "to": 5, "monsters": 0},
            ),
            "Bertrand plays the Tin can in the Toy store: 1 Monster runs after it to the"
            " Supermarket; none left.",
            "Bertrand joue la carte Boîte de conserve dans le Magasin de jouets\u00a0: 1 Monstre"
            " la suit vers le Supermarché\u00a0; il n'en reste aucun.",
        ),
        (
            Event("vote_unopposed", {"vote": "truck", "winner": 0}),
            "Ana is the only one in the Parking lot: no vote needed.",
            "Ana est la seule personne au Parking\u00a0: pas besoin de vote.",
        ),
        (
            Event("tie", {"tied": [0, 2], "martyr": 1}),
            "Tie between Ana and Chloé: Bertrand, holder of the Martyr token, decides.",
            "Égalité entre Ana et Chloé\u00a0: Bertrand, qui détient le marqueur Martyr, tranche.",
        ),
        (
            Event("tie_broken", {"player": 1, "winner": 2, "random": True}),
            "Bertrand did not choose in time: chance picks Chloé.",
            "Bertrand n'a pas choisi à temps\u00a0: le hasard désigne Chloé.",
        ),
        (
            Event(
                "designations_revealed",
                {
                    "vote": "badge",
                    "location": 3,
                    "designations": {"0": 2, "2": 2},
                    "weights": {"0": 1, "1": 2, "2": 1},
                    "totals": {"0": 0, "1": 0, "2": 2},
                },
            ),
            "Designations revealed: Ana → Chloé (1 vote), Bertrand abstains (2 votes), and"
            " Chloé → Chloé (1 vote). Totals: 2 votes for Chloé, 0 votes for Ana, and 0 votes"
            " for Bertrand.",
            "Désignations révélées\u00a0: Ana → Chloé (1 voix), Bertrand s'abstient (2 voix) et"
            " Chloé → Chloé (1 voix). Totaux\u00a0: 2 voix pour Chloé, 0 voix pour Ana et 0 voix"
            " pour Bertrand.",
        ),
    ],
)
def test_lines_word_for_word(event: Event, en: str, fr: str) -> None:
    assert describe(event, "en", NAMES[:3]) == en
    assert describe(event, "fr", NAMES[:3]) == fr


# Words mended for readers -------------------------------------------------------------


def test_r6_a_night_of_arrivals_reads_as_one_line_per_location() -> None:
    """R6.1-R6.3: nine Monsters arriving make three lines, not nine "+1 Monster"; the
    Monsters turned away from one place are counted once with why, whatever reason
    sent them there (not "1 turned away from X, 1 turned away from X")."""
    full, closed = {"turned_away": "full"}, {"turned_away": "closed"}
    added = [
        (1, 1, "die", {}),
        (1, 1, "die", {}),
        (4, 4, "die", {}),
        (6, 5, "die", full),  # the Supermarket is full: R6.1's runoff to the Parking lot
        (6, 2, "die", closed),
        (1, 1, "weepers", {}),
        (6, 2, "weepers", closed),
        (1, 1, "crowd", {}),
        (4, 4, "crowd", {}),
        (6, 6, "crowd", {}),
    ]
    events = [Event("monsters_arrive", {"dice": [1, 1, 4, 5, 2]})]
    events += [
        Event("monster_added", {"location": loc, "intended": meant, "reason": why, **away})
        for loc, meant, why, away in added
    ]
    events.append(Event("monster_not_placed", {"location": 6, "reason": "crowd"}))
    events.append(Event("attack_started", {"location": 1, "monsters": 4, "strength": 3}))
    told = story(events, "en", NAMES[:3])
    assert [line.text for line in told] == [
        "Night falls and the Monsters gather. Dice: 1, 1, 4, 5, and 2.",
        "+4 Monsters in the Restrooms (2 from the dice, 1 drawn by the Weepers,"
        " and 1 drawn by the crowd).",
        "+2 Monsters in the Toy store (1 from the dice and 1 drawn by the crowd).",
        "+4 Monsters in the Parking lot (1 turned away from the Supermarket because it is"
        " full, 2 turned away from the Clothing store because it is closed,"
        " and 1 drawn by the crowd).",
        "1 Monster found no spot, not even in the Parking lot, or the supply ran out:"
        " they stay away.",
        "Attack in the Restrooms: 4 Monsters against a defence of 3.",
    ]
    french = [line.text for line in story(events, "fr", NAMES[:3])]
    assert french[1] == (
        "+4 Monstres aux Toilettes (2 par les dés, 1 pour les Chialeurs et 1 pour la foule)."
    )
    assert french[3] == (
        "+4 Monstres au Parking (1 à la place du Supermarché car le lieu est plein,"
        " 2 à la place du Magasin de vêtements car le lieu est fermé et 1 pour la foule)."
    )


def test_a_story_keeps_private_lines_for_their_seat_and_marks_them() -> None:
    events = [
        Event("dice_rolled", {"player": 0, "count": 4}),
        Event("dice_seen", {"dice": [1, 2, 3, 4]}, to=(0,)),
    ]
    assert story(events, "en", NAMES[:3], seat=1) == [
        Told("Ana rolls 4 Monster dice in secret.", False)
    ]
    mine = story(events, "en", NAMES[:3], seat=0)
    assert mine[1] == Told("You see the Monster dice: 1, 2, 3, and 4.", True)


def test_attack_lines_say_defence_as_the_board_does() -> None:
    """One word for one thing: the board's "defence" is the attack line's too (R7.2)."""
    attack = Event("attack_started", {"location": 4, "monsters": 3, "strength": 2})
    assert "defence" in describe(attack, "en", NAMES[:3])
    assert "défense" in describe(attack, "fr", NAMES[:3])
    assert "strength" not in describe(attack, "en", NAMES[:3]).lower()


def test_r2_3_a_cancelled_done_is_told_about_the_seats_not_to_them() -> None:
    """The channel reads it, and AI seats are among them: never "your Done"."""
    ai = ["AI 1", "AI 2", "AI 3", "AI 4"]
    two = Event("done_cancelled", {"players": [2, 3], "step": "discussion"})
    one = Event("done_cancelled", {"players": [2], "step": "discussion"})
    assert describe(two, "fr", ai) == (
        "AI 3 et AI 4 avaient passé et peuvent maintenant répondre à la carte."
    )
    assert describe(one, "fr", ai) == "AI 3 avait passé et peut maintenant répondre à la carte."
    for lang in LANGUAGES:
        for event in (one, two):
            line = describe(event, lang, ai).lower()
            assert not {"your", "votre", "vous"} & set(line.split())


def test_totals_never_run_a_name_into_its_count() -> None:
    """ "Totaux : IA 2 4 voix" read as three numbers: the count now stands apart."""
    revealed = Event(
        "designations_revealed",
        {
            "vote": "attack",
            "location": 6,
            "designations": {"0": 1, "1": 1},
            "weights": {"0": 1, "1": 3},
            "totals": {"1": 4, "0": 0},
        },
    )
    line = describe(revealed, "fr", ["IA 1", "IA 2"])
    assert line.endswith("Totaux\u00a0: 4 voix pour IA 2 et 0 voix pour IA 1.")


def test_the_final_recap_says_when_and_where_each_vote_happened() -> None:
    badge = {
        "vote": "badge",
        "location": 3,
        "designations": {"0": 1},
        "weights": {"0": 1, "1": 2},
        "totals": {"1": 1, "0": 0},
    }
    log = [
        Event("turn_started", {"turn": 1}),
        Event("turn_started", {"turn": 2}),
        Event("designations_revealed", badge),
        Event("turn_started", {"turn": 3}),
        Event("designations_revealed", {**badge, "vote": "attack", "location": 6}),
    ]
    assert vote_recap(log, "en", NAMES[:2]) == [
        "Turn 2, Surveillance room, who takes the badge: Ana → Bertrand (1 vote) and Bertrand"
        " abstains (2 votes). Totals: 1 vote for Bertrand and 0 votes for Ana.",
        "Turn 3, Parking lot, attack: Ana → Bertrand (1 vote) and Bertrand abstains (2 votes)."
        " Totals: 1 vote for Bertrand and 0 votes for Ana.",
    ]
    assert vote_recap(log, "fr", NAMES[:2])[0].startswith(
        "Tour 2, Salle de surveillance, qui prend le badge\u00a0: Ana → Bertrand"
    )


def test_every_random_game_tells_its_story_and_recap_in_both_languages() -> None:
    for game in played_games()[:30]:
        names = NAMES[: game.players]
        public = [e for e in game.events if e.public]
        for lang in LANGUAGES:
            told = story(game.events, lang, names)
            assert told
            assert all(line.text.strip() and not line.private for line in told)
            assert not any("{" in line.text for line in told)
            revealed = sum(e.kind == "designations_revealed" for e in public)
            assert len(vote_recap(public, lang, names)) == revealed
        added = sum(e.kind == "monster_added" for e in game.events)
        lines = [t.text for t in story(game.events, "en", names)]
        assert sum(line.startswith("+") for line in lines) < added
