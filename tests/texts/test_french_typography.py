"""French reads as French: a space (a no-break one) before ; : ! ?, and counted nouns
through the catalog's plural forms, in the catalog's texts and in the lines the code
composes from them (the lessons of `--teach`, which join places with semicolons)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

from bot.texts.catalog import DATA_DIR
from bot.texts.teach import teach_lines
from bot.texts.teach_board import mall_facts
from lockdown_core import (
    GameState,
    Step,
    Timeout,
    apply,
    facts,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)

# What is not French prose: placeholders, code, addresses, clock times and offsets
# (20:30, +01:00), and a run of question marks standing for a hidden title.
NOT_PROSE = re.compile(r"\{[^}]*\}|`[^`]*`|https?://\S+|\d:\d|\?{2,}")
# A high punctuation mark glued to what comes before it.
GLUED = re.compile(r"[^\s\u00a0\u202f][;:!?]")
NAMES = ["Joueur 1", "IA 2", "IA 3", "IA 4", "IA 5", "IA 6"]


def glued(text: str) -> list[str]:
    """Each place of `text` where ; : ! or ? has no space before it, with its context."""
    prose = NOT_PROSE.sub(" ", text)
    return [prose[max(0, m.start() - 20) : m.end() + 5] for m in GLUED.finditer(prose)]


def test_the_checker_sees_a_glued_mark_and_lets_code_and_times_be() -> None:
    assert glued("Attention: fermé") == ["Attention: ferm"]
    assert glued("Prêt ?") == glued("Prêt\u202f!") == glued("à 20:30, `a:b` {x:>2} ???") == []


def test_every_french_text_has_a_space_before_its_high_punctuation() -> None:
    found = {}
    for path in sorted((DATA_DIR / "fr").iterdir()):
        for key, text in json.loads(path.read_text("utf-8")).items():
            if glued(text):
                found[f"{path.name}:{key}"] = glued(text)
    assert not found


def random_states(games: int) -> Iterator[GameState]:
    for seed in range(games):
        rnd = random.Random(seed)
        state, _ = new_game(load_ruleset(), rnd.randint(3, 6), seed)
        while state.step != Step.GAME_OVER:
            yield state
            pending = pending_seats(state)
            options = legal_actions(state, rnd.choice(pending)) if pending else []
            apply(state, rnd.choice(options) if options else Timeout())


def test_the_french_lessons_composed_from_the_texts_keep_the_spaces() -> None:
    """The lessons join the texts (the room at each place, joined by semicolons): a
    space before each mark there too."""
    found = set()
    for state in random_states(3):
        for seat in pending_seats(state):
            for line in teach_lines("fr", state, seat, NAMES):
                found.update(glued(line))
    assert not found


def test_a_count_of_free_spots_goes_through_the_plural_forms() -> None:
    """ "1 libres sur 3" was written by hand: the count of free spots is a counted noun."""
    seen = {}
    for state in random_states(3):
        rules = state.rules
        for loc in facts.locations(rules):
            spots = facts.character_spots(rules, loc)
            if spots is None or state.closed[loc]:
                continue
            here = sum(1 for c in state.characters if c.location == loc)
            free = facts.free_spots(rules, loc, here, closed=False)
            if free in (1, 2) and free not in seen:
                seen[free] = (mall_facts("fr", state, [loc]), mall_facts("en", state, [loc]))
        if len(seen) == 2:
            break
    french, english = seen[1]
    assert "1 case libre sur" in french[0]
    assert "1 free spot out of" in english[0]
    french, english = seen[2]
    assert "2 cases libres sur" in french[0]
    assert "2 free spots out of" in english[0]
