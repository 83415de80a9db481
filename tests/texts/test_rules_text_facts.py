"""Every screen that explains a rule states the number the engine plays with.

For every variant and every combination the data allows (each pair in full,
larger sets drawn by hypothesis; a set the data refuses is skipped by the
data's own check, `load_ruleset`), the numbers are first read off the engine
itself (a score, a strength, a vote's weight, a truck search, an end of turn,
the Monsters of an arrival), then the rules guide, every step's help and the
picture's facts (`lockdown_core.board_facts`) and the board text are checked against them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.board_text import board_lines
from bot.texts import catalog, t
from bot.texts.catalog import LANGUAGES, and_list
from bot.texts.rules_text import END_RULES, guide, step_help
from lockdown_core import DataError, Ruleset, Step, legal_actions, load_ruleset, load_variants
from lockdown_core.board import attack_uses_equal, dice_count, strength_at, under_attack
from lockdown_core.board_facts import board_facts
from lockdown_core.pieces import COLD, Vote
from lockdown_core.scoring import scores
from lockdown_core.view import view
from lockdown_core.votes import weights_of
from tests.core.builders import PARKING, act, at_arrivals, at_end_of_turn, at_turn, position
from tests.core.random_games import Game

KEYS: tuple[str, ...] = tuple(load_variants())
# The base game, each variant, and each pair (in the data's order, as a lobby stores them).
COMBOS: list[tuple[str, ...]] = [(), *((k,) for k in KEYS), *combinations(KEYS, 2)]
STEPS = sorted(value for name, value in vars(Step).items() if name.isupper())


@dataclass(frozen=True)
class Played:
    """What the engine does under one ruleset, measured by playing it."""

    points: dict[str, int]
    strength: dict[str, int]
    votes: dict[str, int]
    keys: int
    truck: tuple[int, int, int, int]
    weepers: int
    crowd: int
    dice: int
    ends: dict[int, int | None]


def measure(variants: tuple[str, ...]) -> Played:
    rules = load_ruleset(variants)
    kinds = [k.key for k in rules.kinds]
    points, strength, votes = {}, {}, {}
    for kind in kinds:
        # Three seats: every kind is dealt (the Useless plays at 3 in every variant).
        state = position({kind: 1}, {"weeper": 2}, {"weeper": 4}, variants=variants)
        points[kind] = scores(state)[0]
        strength[kind] = strength_at(state, 1)
        vote = Vote("attack", 1)
        vote.candidates = [0]
        votes[kind] = weights_of(state, vote)[0]
    holder = position(
        {"weeper": 1},
        {"weeper": 2},
        {"weeper": 4},
        variants=variants,
        hands=[["keys_of_the_truck"], [], []],
    )
    keys = scores(holder)[0] - points["weeper"]
    truck = position({"weeper": PARKING}, {"weeper": 1}, {"weeper": 2}, variants=variants)
    at_turn(truck)
    drawn = len(truck.drawn)
    options = legal_actions(truck, 0)
    keeps = int(any(o.keep is not None for o in options))
    gives = int(any(o.give is not None for o in options))
    act(truck, options[-1])
    arrivals = position(
        {"weeper": 1, "blocker": 5, "leader": 5},
        {"blocker": 5, "leader": 5},
        {"leader": 2},
        variants=variants,
    )
    added = [e.data["reason"] for e in at_arrivals(arrivals, []) if e.kind == "monster_added"]
    # Nobody devoured yet: the dice of a turn before any Cold storage row is full.
    everyone = dict.fromkeys(rules.family_for(3), PARKING)
    dice = dice_count(position(everyone, everyone, everyone, variants=variants))
    return Played(
        points,
        strength,
        votes,
        keys,
        (drawn, keeps, gives, len(truck.box)),
        added.count("weepers"),
        added.count("crowd"),
        dice,
        _ends(rules, variants),
    )


def _ends(rules: Ruleset, variants: tuple[str, ...]) -> dict[int, int | None]:
    """Per seat count, the most living characters at which an end of turn ends the game
    while two families or more still live; None if it never does (one family left).
    Characters are devoured round the table, so families live on as long as they can."""
    ends: dict[int, int | None] = {}
    for players in range(rules.min_players, rules.max_players + 1):
        family = rules.family_for(players)
        seats = [dict.fromkeys(family, PARKING) for _ in range(players)]
        total = players * len(family)
        most: int | None = None
        for devoured in range(total):
            state = position(*seats, variants=variants)
            order = sorted(state.characters, key=lambda c: (family.index(c.kind), c.seat))
            for character in order[:devoured]:
                character.location = COLD
            at_end_of_turn(state)
            alive = {c.seat for c in state.characters if c.location}
            if state.step == Step.GAME_OVER and len(alive) > 1:
                most = max(most or 0, total - devoured)
        ends[players] = most
    return ends


def _per_kind(lang: str, numbers: dict[str, int]) -> str:
    return and_list(
        lang,
        [
            t(lang, "rules.kind_number", kind=t(lang, f"kind.{kind}"), number=number)
            for kind, number in numbers.items()
        ],
    )


def _truck(lang: str, played: Played) -> str:
    drawn, keeps, gives, boxed = played.truck
    count = catalog().count
    return t(
        lang,
        "rules.truck.gift" if gives else "rules.truck.no_gift",
        drawn=count(lang, "card", drawn),
        keeps=keeps,
        gives=gives,
        boxed=count(lang, "card", boxed),
    )


def check(variants: tuple[str, ...]) -> None:
    try:
        rules = load_ruleset(variants)
    except DataError:
        return  # the data itself refuses this combination
    played = measure(variants)
    for lang in LANGUAGES:
        text = guide(lang, rules)
        assert len(text) <= 1800
        if played.weepers:
            arrivals = t(lang, "rules.arrivals", weepers=played.weepers, crowd=played.crowd)
        else:
            arrivals = t(lang, "rules.arrivals.no_weepers", crowd=played.crowd)
        if None in played.ends.values():
            end = "one_family"
        elif all(most == players for players, most in played.ends.items()):
            end = "players"
        else:
            assert all(most == (players + 1) // 2 for players, most in played.ends.items())
            end = "half_players"
        # The yes/no rules are checked against the variants' table in test_variant_texts.
        badge = "sees" if rules.badge_sees_dice else "blind"
        attack = "equal" if rules.attack_at_equal_from_start else "above"
        ballots = "open" if rules.open_ballots else "secret"
        martyr = "owner" if rules.martyr_rule == "owner" else "voter"
        assert text == t(
            lang,
            "rules.guide",
            points=_per_kind(lang, played.points),
            keys=played.keys,
            truck=_truck(lang, played),
            badge=t(lang, f"rules.guide.badge.{badge}", dice=played.dice),
            arrivals=arrivals,
            attack=t(
                lang,
                f"rules.guide.attack.{attack}",
                strengths=_per_kind(lang, played.strength),
            ),
            ballots=t(lang, f"rules.guide.ballots.{ballots}", votes=_per_kind(lang, played.votes)),
            martyr=t(lang, f"rules.guide.martyr.{martyr}"),
            end=t(lang, END_RULES[end]),
        )
        for step in STEPS:
            said = step_help(lang, step, rules)
            numbers = re.findall(r"\d+", said)
            if step == Step.TRUCK_CHOICE:
                assert _truck(lang, played) in said
                assert numbers == re.findall(r"\d+", _truck(lang, played))
            else:
                assert numbers == [], (step, said)


def check_board_facts(variants: tuple[str, ...], seed: int) -> None:
    """A random game: along it, the picture's facts and the board text say the engine's
    defence, whether Monsters get in, and when the game ends."""
    try:
        rules = load_ruleset(variants)
    except DataError:
        return
    game = Game.start(3 + seed % 4, variants, seed)
    state = game.state
    ends = _ends(rules, variants)[state.players]
    names = [f"P{seat}" for seat in range(state.players)]
    for index, _ in enumerate(game.steps()):
        if index % 7:
            continue
        public = view(state, None)
        shown = board_facts(public, rules)
        assert shown.equal == attack_uses_equal(state)
        assert shown.end_at == ends
        lines = board_lines(public, names, "en", rules)
        for loc, defence in shown.defence.items():
            strength = strength_at(state, loc)
            assert defence.strength == strength
            assert defence.breached == under_attack(state, loc)
            key = "board.defence_gets_in" if under_attack(state, loc) else "board.defence_text"
            assert _say(key, line="", strength=strength) in lines[loc - 1]
        living = len([c for c in state.characters if c.location])
        assert shown.living == living
        if ends is not None:
            assert lines[-1] == _say("board.end_at", end=ends, living=living)


def _say(key: str, **params: object) -> str:
    return t("en", key, **params)


@pytest.mark.parametrize("variants", COMBOS, ids=lambda v: "+".join(v) or "base")
def test_the_guide_and_every_steps_help_say_the_engines_numbers(
    variants: tuple[str, ...],
) -> None:
    check(variants)


@pytest.mark.parametrize("variants", COMBOS, ids=lambda v: "+".join(v) or "base")
def test_the_pictures_facts_and_the_board_text_are_the_engines(
    variants: tuple[str, ...],
) -> None:
    check_board_facts(variants, COMBOS.index(variants))


@settings(max_examples=15, deadline=None)
@given(st.sets(st.sampled_from(KEYS), min_size=3).map(lambda s: tuple(k for k in KEYS if k in s)))
def test_any_larger_combination_too(variants: tuple[str, ...]) -> None:
    check(variants)
    check_board_facts(variants, len(variants))
