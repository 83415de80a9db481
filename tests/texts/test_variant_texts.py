"""Every help, lesson, guide and event text says the rules of the game it is shown in.

R11.3: a variant changes exactly what its line says. `CHANGES` is that table, in the
terms the texts speak of, and `STATEMENTS` holds, per language, the phrases that state
the base game's rule on each of those points. Under the base game, each variant, each
pair (a server that allows combining may pick any set) and a fixed draw of larger
sets, in both languages, short scenes are played on the engine: the placements, a
badge vote, a badge kept without a vote, an attack that fills each Cold storage row,
a Parking lot attack and a truck vote with a Gun. Along them every text a player can
read is rendered: the guide and `/lockdown rules` (alone and in the game), the board's
text, each step's help, every seat's lesson at every step, the line of every event for
the channel and for each seat, the dice note of a badge holder who did not see them,
and the help. A phrase that states a base-game rule the game's variants change fails
the test, with where it was read.

Two statements depend on where they are read, not on the variant alone: a Gun played
in a Parking lot attack counts for every vote of that attack (R2.6, R7.7), and a Cold
storage row adds a die only while there are dice left to add (R8.4, with 5 dice from
the start under Overrun); both are measured on the engine, not taken from the texts'
own source of truth.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import pytest

from bot.render.board_text import board_lines
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from bot.texts.narrate import describe, story
from bot.texts.rules_text import rules_sections, step_help, unseen_dice
from bot.texts.teach import teach_lines
from lockdown_core import (
    Action,
    DataError,
    Event,
    GameState,
    PlayCard,
    Ruleset,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    pending_seats,
    view,
)
from lockdown_core.board import dice_count
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    at_attacks,
    at_badge,
    at_placement,
    at_turn,
    new_setup,
    position,
)

NAMES = ("Ana", "Bertrand", "Chloé", "Dmitri", "Eve", "Farid")
STEPS = sorted(value for name, value in vars(Step).items() if name.isupper())
# Enough actions to play any scene below to its end.
SCENE_ACTIONS = 40

# R11's table: what each variant changes, in the terms the texts state.
CHANGES: dict[str, frozenset[str]] = {
    "spare_keys": frozenset({"keys_points"}),
    "big_families": frozenset({"useless_at_every_count"}),
    "creche": frozenset({"weeper_points", "weeper_monsters"}),
    "last_stand": frozenset({"end"}),
    "armoury": frozenset({"deck"}),
    "blind_cameras": frozenset({"badge_never_sees_dice"}),
    "barricades": frozenset({"close_at"}),
    "overrun": frozenset({"start_dice"}),
    "vendetta": frozenset({"martyr_to_heaviest_voter"}),
    "tough_crowd": frozenset({"blocker_strength"}),
    "early_dusk": frozenset({"equal_from_start"}),
    "hush": frozenset({"weeper_monsters"}),
    "rationing": frozenset({"truck"}),
    "hoarders": frozenset({"start_cards"}),
    "open_ballots": frozenset({"open_ballots"}),
    "full_lot": frozenset({"parking_monster_spots"}),
    "lone_survivor": frozenset({"end"}),
    "quiet_mall": frozenset({"first_dice"}),
    "no_heroes": frozenset({"deck"}),
    "empty_hands": frozenset({"start_cards"}),
}

# The base game's yes/no rules as the texts word them; a change above contradicts them.
# (The numbers a variant changes are checked by test_rules_text_facts and
# test_rule_numbers.)
STATEMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    # R2.3: designations stay secret until they are revealed together.
    "open_ballots": {
        "en": (
            r"designates?( one candidate)? in secret",
            r"secretly designates",
            r"(ballots|choices) are revealed together",
            r"ballot is cast: [^.]*\. It stays secret",
        ),
        "fr": (
            r"désignen?t?( un candidat| quelqu'un)? en secret",
            r"(bulletins|choix) sont révélés ensemble",
            r"bulletin est déposé : [^.]*\. Il reste secret",
        ),
        "es": (
            r"designan? en secreto",
            r"(papeletas|elecciones) se revelan a la vez",
            r"papeleta está emitida: [^.]*\. Sigue en secreto",
        ),
        "de": (
            r"bestimm(t|en) (alle )?geheim",
            r"Stimmzettel werden zusammen aufgedeckt",
            r"Stimmzettel ist abgegeben: [^.]*\. Er bleibt bis zum Aufdecken geheim",
        ),
    },
    # R4.3: the holder of a badge won in this turn's vote sees the dice.
    "badge_never_sees_dice": {
        "en": (r"in secret and sees them", r"sees them only (if|after)"),
        "fr": (r"en secret et les voit", r"ne les voit que s"),
        "es": (r"en secreto y los ve", r"solo los ve si"),
        "de": (r"geheim die Monsterwürfel und sieht sie", r"sieht (sie|das Ergebnis) nur, wenn"),
    },
    # R7.2/R8.4: Monsters get in when they outnumber, at equal strength once row 1 is full.
    "equal_from_start": {
        "en": (r"outnumber", r"from (now|then) on,? the Monsters get in"),
        "fr": (
            r"dépassent la (Force|défense)",
            r"plus nombreux que la défense",
            r"(désormais|dès lors), les Monstres entrent",
        ),
        "es": (
            r"superan (a )?la (Fuerza|defensa)",
            r"desde (ahora|entonces),? los Monstruos entran",
        ),
        "de": (r"übertreffen", r"[Aa]b (jetzt|dann) dringen die Monster"),
    },
    # R8.2: the devoured character's owner takes the Martyr token.
    "martyr_to_heaviest_voter": {
        "en": (r"owner takes the Martyr token",),
        "fr": (r"propriétaire prend le marqueur Martyr",),
        "es": (r"dueño recibe la ficha de Mártir",),
        "de": (r"Besitzer bekommt den Märtyrermarker",),
    },
}
# R8.4: a row adds a die (said of a row that adds none, once every die is rolled).
ONE_MORE_DIE = {
    "en": r"one more Monster die",
    "fr": r"un dé Monstre de plus",
    "es": r"un dado de Monstruo más",
    "de": r"ein Monsterwürfel mehr",
}
# R2.6: a Gun's vote counts in this vote only (said in a Parking lot attack, R7.7).
THIS_VOTE_ONLY = {
    "en": r"in this vote",
    "fr": r"pour ce vote",
    "es": r"en esta votación",
    "de": r"bei dieser Abstimmung",
}


def _allowed(variants: tuple[str, ...]) -> bool:
    """Whether the rules data lets these variants be played together."""
    try:
        load_ruleset(variants)
    except DataError:
        return False
    return True


def _combos() -> list[tuple[str, ...]]:
    """The base game, each variant, each pair and a fixed draw of larger sets, less any
    set the rules data refuses to combine."""
    keys = tuple(load_variants())
    pairs = list(combinations(keys, 2))
    draw = random.Random(31)
    larger = [tuple(sorted(draw.sample(keys, draw.randint(3, 5)))) for _ in range(12)]
    return [c for c in [(), *((k,) for k in keys), *pairs, *larger] if _allowed(c)]


COMBOS = _combos()


@dataclass
class Read:
    """Everything a player could read in one game, each text with where it was read."""

    texts: list[tuple[str, str]] = field(default_factory=list)
    # The lines of the Cold storage rows filled (row, text) and of Guns played in a
    # Parking lot attack.
    rows: list[tuple[int, str]] = field(default_factory=list)
    parking_guns: list[str] = field(default_factory=list)

    def add(self, where: str, texts: Iterable[str]) -> None:
        self.texts.extend((where, text) for text in texts)


def _pick(state: GameState, seat: int) -> Action:
    """A Gun when one may be played (so that its line is read), else the first choice
    that is no card (Done, a designation, a destination, a move...)."""
    options = legal_actions(state, seat)
    guns = [a for a in options if isinstance(a, PlayCard) and a.card == "gun"]
    if guns:
        return guns[0]
    plain = [a for a in options if not isinstance(a, PlayCard)]
    return (plain or options)[0]


def _read_state(state: GameState, reads: dict[str, Read], scene: str, new_step: bool) -> None:
    where = f"{scene}/{state.step}"
    names = NAMES[: state.players]
    for lang, read in reads.items():
        if new_step:
            # What `/lockdown rules` and the board's text say of the step.
            sections = rules_sections(lang, state.rules, state)
            read.add(f"{where}/rules", (text for _, text in sections))
            board = board_lines(view(state, None), list(names), lang, state.rules)
            read.add(f"{where}/board", board)
        for seat in range(state.players):
            read.add(f"{where}/lesson seat {seat}", teach_lines(lang, state, seat, names))
            note = unseen_dice(lang, state, seat)
            read.add(f"{where}/dice note seat {seat}", [note] if note else [])


def _read_events(state: GameState, events: list[Event], reads: dict[str, Read], scene: str) -> None:
    """Every event's line for the channel and each seat; the Cold storage rows' apart."""
    names = NAMES[: state.players]
    for lang, read in reads.items():
        for seat in (None, *range(state.players)):
            told = story(events, lang, names, seat)
            read.add(f"{scene}/story seat {seat}", (line.text for line in told))
        read.rows += [
            (event.data["row"], describe(event, lang, names))
            for event in events
            if event.kind == "cold_row_filled"
        ]


@dataclass
class Scene:
    """A position reached by the engine's own flow, its opening events, the step that
    ends it, and whether its steps are read or only its events."""

    name: str
    state: GameState
    opening: list[Event]
    until: str
    steps: bool = True


def _play(scene: Scene, reads: dict[str, Read]) -> None:
    """Play the scene on to its last step, the next turn or the game's end, reading every
    event (and every step, unless the scene is there for its events)."""
    state, name = scene.state, scene.name
    turn = state.turn
    played = list(scene.opening)
    step = None
    for _ in range(SCENE_ACTIONS):
        if scene.steps:
            _read_state(state, reads, name, state.step != step)
        step = state.step
        if state.step in (scene.until, Step.GAME_OVER) or state.turn != turn:
            _read_events(state, played, reads, name)
            return
        # R7.7: in a Parking lot attack, a Gun counts for every vote until it ends.
        parking_attack = (
            state.vote is not None
            and state.vote.kind == "attack"
            and state.vote.location == state.rules.parking_lot
        )
        events = apply(state, _pick(state, pending_seats(state)[0]))
        played += events
        if parking_attack:
            guns = [e for e in events if e.kind == "card_played" and e.data["card"] == "gun"]
            for lang, read in reads.items():
                read.parking_guns += [describe(e, lang, NAMES[: state.players]) for e in guns]
    raise AssertionError(f"{name}: still in turn {turn} after {SCENE_ACTIONS} actions")


def _families(
    rules: Ruleset, players: int, placed: dict[tuple[int, str], int], cold: int
) -> list[dict[str, int | str]]:
    """Seat families with `placed` characters where given, the first `cold` others
    devoured (in the Cold storage) and the rest in the Parking lot."""
    family = rules.family_for(players)
    families: list[dict[str, int | str]] = [{} for _ in range(players)]
    others = [(s, k) for s in range(players) for k in family if (s, k) not in placed]
    for (seat, kind), loc in placed.items():
        families[seat][kind] = loc
    for seat, kind in others[cold:]:
        families[seat][kind] = PARKING
    return families


def _scenes(variants: tuple[str, ...]) -> Iterator[Scene]:
    rules = load_ruleset(variants)
    dice = [1, 2, 4, 5, 5, 6]
    setup = new_setup(4, dice=dice * 4, variants=variants)
    yield Scene("placement", setup, at_placement(setup), Step.DISCUSSION)
    in_room = {(0, "leader"): SURVEILLANCE, (1, "blocker"): SURVEILLANCE}
    badge = position(*_families(rules, 4, in_room, 0), variants=variants, dice=dice)
    yield Scene("badge vote", badge, at_badge(badge), Step.MOVE)
    kept = position(*_families(rules, 4, {}, 0), variants=variants, dice=dice)
    yield Scene("badge kept", kept, at_badge(kept), Step.DESTINATIONS)
    # An attack in the Restrooms whose devoured character fills each Cold storage row;
    # the attack's steps are read once, the later rows are there for their lines.
    filled = 0
    for row, size in enumerate(rules.cold_storage_rows, start=1):
        filled += size
        restrooms = {(0, "weeper"): 1, (1, "weeper"): 1}
        # Four seats, or six for enough characters to fill the later rows.
        families = _families(rules, 4 if row == 1 else 6, restrooms, filled - 1)
        attack = position(*families, variants=variants, monsters={1: 3})
        name = f"attack filling row {row}"
        yield Scene(name, attack, at_attacks(attack), Step.GAME_OVER, steps=row == 1)
    parking = {(0, "leader"): PARKING, (1, "weeper"): PARKING}
    hands = [["gun"], ["gun"], [], []]
    families = _families(rules, 4, parking, 0)
    lot = position(*families, variants=variants, monsters={PARKING: 1}, hands=hands)
    yield Scene("parking lot attack", lot, at_attacks(lot), Step.GAME_OVER)
    truck = position(*families, variants=variants, hands=hands)
    yield Scene("truck vote", truck, at_turn(truck), Step.WALKIE_WINDOW)


@cache
def _rows_adding_a_die(variants: tuple[str, ...]) -> frozenset[int]:
    """R8.4 measured: the rows (from 2) after which the engine rolls one die more."""
    rules = load_ruleset(variants)
    dice = []
    filled = 0
    for size in (0, *rules.cold_storage_rows):
        filled += size
        state = position(*_families(rules, 6, {}, filled), variants=variants)
        dice.append(dice_count(state))
    return frozenset(row for row in range(2, len(dice)) if dice[row] > dice[row - 1])


def read_all(variants: tuple[str, ...]) -> dict[str, Read]:
    """What a player reads under `variants`, in each language."""
    rules = load_ruleset(variants)
    reads = {lang: Read() for lang in LANGUAGES}
    for lang, read in reads.items():
        read.add("rules", (text for _, text in rules_sections(lang, rules)))
        read.add("help", [step_help(lang, step, rules) for step in STEPS])
        seats = {"least": rules.min_players, "most": rules.max_players}
        read.add("help", [t(lang, "help.text", **seats)])
    for scene in _scenes(variants):
        _play(scene, reads)
    return reads


def contradictions(lang: str, variants: tuple[str, ...], read: Read) -> list[str]:
    """Each base-game statement `read` in `lang` under `variants` that they change."""
    changed = frozenset().union(*(CHANGES[v] for v in variants))
    found = []
    for change in sorted(changed & set(STATEMENTS)):
        for pattern in STATEMENTS[change][lang]:
            found += [
                f"{change}: {where}: {text!r}"
                for where, text in read.texts
                if re.search(pattern, text)
            ]
    adding = _rows_adding_a_die(variants)
    for row, line in read.rows:
        if row >= 2 and row not in adding and re.search(ONE_MORE_DIE[lang], line):
            found.append(f"row {row} adds no die: {line!r}")
    for where, text in read.texts:
        for line in text.splitlines():
            if re.search(ONE_MORE_DIE[lang], line) and any(
                re.search(rf"\b{row}\b", line) for row in range(2, 4) if row not in adding
            ):
                found.append(f"a row adds no die: {where}: {line!r}")
    found += [
        f"a Gun lasts the whole Parking lot attack: {line!r}"
        for line in read.parking_guns
        if re.search(THIS_VOTE_ONLY[lang], line)
    ]
    return sorted(set(found))


def test_the_table_names_every_variant() -> None:
    assert set(CHANGES) == set(load_variants())


def test_the_scenes_read_what_the_checks_need() -> None:
    """Without a Gun played in a Parking lot attack or a row's line, the checks below
    would pass on nothing."""
    for read in read_all(()).values():
        assert [row for row, _ in read.rows] == [1, 2, 3]
        assert read.parking_guns
        assert len(read.texts) > 1000


@pytest.mark.parametrize("variants", COMBOS, ids=lambda v: "+".join(v) or "base")
def test_no_text_states_a_rule_the_variants_change(variants: tuple[str, ...]) -> None:
    reads = read_all(variants)
    assert {lang: contradictions(lang, variants, read) for lang, read in reads.items()} == {
        lang: [] for lang in LANGUAGES
    }
