"""Teaching: every step of every game explained to every seat, in both languages, and
never with something the seat may not know (R12)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from bot.texts import t
from bot.texts.catalog import LANGUAGES, and_list
from bot.texts.teach import STEP_RULES, lesson, teach_lines
from lockdown_core import (
    ChooseDestination,
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.board_facts import location_facts
from tests.core.builders import at_destinations, at_turn, position
from tests.core.random_games import VARIANTS
from tests.core.test_hidden_information import PERTURBATIONS, Knowledge, copy_state

NAMES = ["Ana", "Bertrand", "Chloé", "Dmitri", "Eve", "Farid"]
RULE_ID = re.compile(r"^R\d{1,2}\.\d{1,2}$")
GAMES = 16


def random_states(games: int, variants: tuple[str, ...] | None = None) -> Iterator[GameState]:
    """Every state of `games` seeded random games (3-6 seats, up to two variants unless
    `variants` are given)."""
    for seed in range(games):
        rnd = random.Random(seed)
        chosen = variants
        if chosen is None:
            chosen = tuple(rnd.sample(VARIANTS, rnd.randint(0, 2)))
        state, _ = new_game(load_ruleset(chosen), rnd.randint(3, 6), seed)
        while True:
            yield state
            if state.step == Step.GAME_OVER:
                break
            pending = pending_seats(state)
            options = legal_actions(state, rnd.choice(pending)) if pending else []
            if not options or rnd.random() < 0.05:
                apply(state, Timeout())
            else:
                apply(state, rnd.choice(options))


def test_every_step_kind_cites_rules_by_their_id() -> None:
    steps = {value for name, value in vars(Step).items() if name.isupper()}
    assert set(STEP_RULES) == steps
    for rules in STEP_RULES.values():
        assert rules
        assert all(RULE_ID.match(rule) for rule in rules)


def test_every_step_of_random_games_is_explained_to_every_seat_in_both_languages() -> None:
    explained: set[str] = set()
    acting: set[str] = set()
    for state in random_states(GAMES):
        names = NAMES[: state.players]
        pending = pending_seats(state)
        for seat in range(state.players):
            for lang in LANGUAGES:
                lines = teach_lines(lang, state, seat, names)
                assert len(lines) >= 2, (state.step, lang)
                assert all(line.strip() for line in lines)
                assert not any(re.search(r"[{}]|teach\.", line) for line in lines), lines
                assert lines[-1].endswith(
                    and_list(lang, lesson(lang, state, seat, names).rules) + "."
                )
            if seat in pending and legal_actions(state, seat):
                acting.add(state.step)
        explained.add(state.step)
    every = {value for name, value in vars(Step).items() if name.isupper()}
    assert explained == every
    assert acting == every - {Step.GAME_OVER}


def test_a_seat_that_acts_is_told_its_options_and_an_onlooker_is_told_to_watch() -> None:
    families = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
    state = position(*families, badge=0, martyr=1)
    at_destinations(state, [1, 2, 3, 4], seen=(0,))
    assert state.step == Step.BADGE_DESTINATION
    badge = teach_lines("en", state, 0, NAMES[:3])
    other = teach_lines("en", state, 1, NAMES[:3])
    assert badge[0] == other[0], "what is decided reads the same for everybody"
    assert "You hold the badge" in badge[1]
    assert any(
        line.startswith("You know tonight's Monster dice: 1, 2, 3, and 4.") for line in badge
    )
    assert any(line.startswith("Room and Monsters: ") for line in badge)
    assert not any("1, 2, 3, and 4" in line for line in other), "seat 1 has not seen the dice"
    assert other[1].startswith("Nothing to choose for you now")
    assert badge[-1] == "Rules: R5.1 and R5.2."
    assert teach_lines("fr", state, 0, NAMES[:3])[-1] == "Règles\u00a0: R5.1 et R5.2."


def test_the_truck_searcher_learns_what_each_drawn_card_does_and_nobody_else_sees_them() -> None:
    """R3.2-R3.4, with this game's numbers: the cards drawn are the searcher's alone."""
    families = [{"blocker": 6, "leader": 1, "weeper": 2}]
    families += [{"blocker": 4, "leader": 5, "weeper": 2}] * 2
    truck = position(*families, badge=1, martyr=2, deck=["gun", "tin_can", "chainsaw"])
    at_turn(truck)
    assert truck.step == Step.TRUCK_CHOICE
    searcher = "\n".join(teach_lines("en", truck, 0, NAMES[:3]))
    assert "• Chainsaw: " in searcher
    assert "• Tin can: " in searcher
    for seat in (1, 2):
        text = "\n".join(teach_lines("en", truck, seat, NAMES[:3]))
        assert "Chainsaw" not in text
        assert "Tin can" not in text
        assert "Gun" not in text


def test_an_attack_is_explained_with_its_monsters_defence_and_threshold() -> None:
    """R7.2: the numbers of this attack, and > or >= as the game stands."""
    for state in random_states(6):
        vote = state.vote
        if state.step == Step.DISCUSSION and vote and vote.kind == "attack" and vote.location < 6:
            first = teach_lines("en", state, 0, NAMES[: state.players])[0]
            assert f"{state.monsters[vote.location]} Monster" in first
            assert "defence of " in first
            return
    raise AssertionError("no attack in the sample games")


def test_a_location_one_monster_short_of_closing_is_flagged() -> None:
    """R8.5 with this game's threshold (Barricades closes at 5): one Monster short, or
    already holding the number (it closes at the end of the turn unless some leave), and
    exactly where the board flags it."""
    for variants, close_at in (((), 6), (("barricades",), 5)):
        for monsters in range(close_at + 1):
            families = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
            state = position(*families, badge=0, martyr=1, variants=variants)
            at_destinations(state, [1, 2, 3, 4], seen=(0,))
            state.monsters[2] = monsters
            lines = teach_lines("en", state, 0, NAMES[:3])
            warning = (
                "Careful, close to closing: Clothing store (a location closes for good at the"
                f" end of the turn if it holds {close_at} Monsters by then)."
            )
            flagged = 2 in location_facts(view(state, None), state.rules).closing
            assert (warning in lines) == flagged == (monsters >= close_at - 1), lines


# R12: never a secret ---------------------------------------------------------------------


def test_r12_a_lesson_never_depends_on_what_the_seat_may_not_know() -> None:
    """Twins that differ only in hidden information (another hand, the deck, the box,
    the secret dice, a secret destination or ballot) read the same to every seat not
    entitled to the difference; and the check can fail: an entitled seat's lesson
    does differ somewhere."""
    rnd = random.Random(24)
    checked = 0
    differed = 0
    for state in random_states(GAMES):
        if state.step == Step.GAME_OVER or rnd.random() > 0.4:
            continue
        knowledge = _knowledge(state)
        for name, (perturb, _) in PERTURBATIONS.items():
            twin_a, twin_b = copy_state(state), copy_state(state)
            entitled = perturb(twin_b, knowledge, rnd)
            if entitled is None:
                continue
            names = NAMES[: state.players]
            for seat in range(state.players):
                for lang in ("en", "fr"):  # the same keys and placeholders in every language
                    a = teach_lines(lang, twin_a, seat, names)
                    b = teach_lines(lang, twin_b, seat, names)
                    if seat in entitled:
                        differed += a != b
                    else:
                        assert a == b, (name, seat, state.step)
                        checked += 1
    assert checked > 1000
    assert differed > 0


def _knowledge(state: GameState) -> Knowledge:
    """Who has seen the secret dice, as `_reroll_dice` needs to know."""
    knowledge = Knowledge(state.rules)
    knowledge.seers = set(state.dice_seen)
    return knowledge


def test_the_destinations_options_list_the_room_where_the_seat_may_go() -> None:
    families = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
    state = position(*families, badge=0, martyr=1)
    at_destinations(state, [1, 2, 3, 4], seen=(0,))
    places = {a.location for a in legal_actions(state, 0) if isinstance(a, ChooseDestination)}
    room = next(line for line in teach_lines("en", state, 0, NAMES[:3]) if "free spot" in line)
    named = {loc for loc in range(1, 7) if t("en", f"location.{loc}") in room}
    assert named == places


def test_r2_3_a_cast_ballot_is_recalled_to_its_voter_secret_or_open() -> None:
    """The voter is reminded of their own ballot, under secret and Open ballots alike,
    and nobody else learns a secret one."""
    for variants in ((), ("open_ballots",)):
        for state in random_states(12, variants):
            vote = state.vote
            if state.step != Step.DESIGNATION or vote is None or not vote.designations:
                continue
            voter, candidate = next(iter(vote.designations.items()))
            names = NAMES[: state.players]
            lines = teach_lines("en", state, voter, names)
            assert f"Your ballot is cast: {names[candidate]}." in lines[-2]
            break
        else:
            raise AssertionError(f"no ballot cast in the sample games {variants}")
