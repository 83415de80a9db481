"""Each location's free spots, the warning before it closes (R8.5), why it closed, and the
location under attack: in the picture and in the text board, in both languages."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.render.board_image import board_picture, location_box
from bot.render.board_text import board_lines
from bot.render.canvas import Drawn
from bot.render.labels import board_labels, board_png
from bot.render.palette import TEXT
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from lockdown_core import GameState, load_ruleset, new_game, view
from lockdown_core.board_facts import board_facts, location_facts
from lockdown_core.pieces import Vote
from tests.render.checks import check_texts

NAMES = ["Chloé", "Émile", "Zoë", "Ørjan"]


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def _state(variants: tuple[str, ...] = ()) -> GameState:
    """A 4-player game with two characters in the Restrooms and the rest in the Parking lot."""
    state, _ = new_game(load_ruleset(variants), 4, 2)
    for i, c in enumerate(state.characters):
        c.location = 1 if i < 2 else 6
    return state


def _drawn(state: GameState, lang: str) -> Drawn:
    rules = state.rules
    data = view(state, None)
    facts = board_facts(data, rules)
    _, drawn = board_picture(
        data,
        board_labels(data, rules, NAMES, _say(lang), facts),
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    check_texts(drawn)
    return drawn


def _inside(drawn: Drawn, loc: int) -> list[str]:
    x0, y0, x1, y1 = location_box(loc)
    return [
        p.text
        for p in drawn.texts
        if x0 <= p.box[0] and p.box[2] <= x1 and y0 <= p.box[1] and p.box[3] <= y1
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_location_with_a_limit_says_its_free_spots(lang: str) -> None:
    state = _state()
    rules = state.rules
    drawn = _drawn(state, lang)
    lines = board_lines(view(state, None), NAMES, lang, rules)
    restrooms = rules.locations[0].character_spots
    assert restrooms is not None
    free = restrooms - 2
    assert t(lang, "board.free", free=free) in _inside(drawn, 1)
    assert t(lang, "board.free_text", line="", free=free) in lines[0]
    for loc in rules.locations[1:5]:
        assert t(lang, "board.free", free=loc.character_spots) in _inside(drawn, loc.id)
    # The Parking lot has no limit (R5.4): no count, neither in the picture nor in the text.
    free_word = t(lang, "board.free", free=0).split()[0]
    assert not any(free_word in text for text in _inside(drawn, 6))
    assert free_word not in lines[5]


def test_a_full_location_says_it_is_full() -> None:
    state = _state()
    spots = state.rules.locations[0].character_spots
    assert spots is not None
    for c in state.characters[:spots]:
        c.location = 1
    assert "full" in _inside(_drawn(state, "en"), 1)
    assert location_facts(view(state, None), state.rules).free[1] == 0


@pytest.mark.parametrize(("variants", "close_at"), [((), 6), (("barricades",), 5)])
def test_one_monster_short_of_closing_the_location_warns_with_the_rulesets_number(
    variants: tuple[str, ...], close_at: int
) -> None:
    """R8.5 closes at 6 Monsters; Barricades (R11) at 5: the warning follows the ruleset."""
    state = _state(variants)
    assert state.rules.close_at == close_at
    state.monsters[2] = close_at - 1
    state.monsters[3] = close_at - 2
    drawn = _drawn(state, "en")
    warning = "⚠ " + t("en", "board.closes_at", close_at=close_at)
    assert warning in _inside(drawn, 2)
    assert not any(text.startswith("⚠") for text in _inside(drawn, 3))
    french = "⚠ " + t("fr", "board.closes_at", close_at=close_at)
    assert french in _inside(_drawn(state, "fr"), 2)
    lines = board_lines(view(state, None), NAMES, "en", state.rules)
    assert f"closes at {close_at}" in lines[1]
    assert "closes at" not in lines[2]
    # At the number itself it closes at the end of the turn: the warning stays.
    state.monsters[2] = close_at
    assert 2 in location_facts(view(state, None), state.rules).closing
    # The Parking lot never closes, so it never warns.
    state.monsters[6] = close_at - 1
    assert 6 not in location_facts(view(state, None), state.rules).closing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_closed_location_says_why_it_closed(lang: str) -> None:
    state = _state(("barricades",))
    state.closed[4] = True
    drawn = _drawn(state, lang)
    reason = t(lang, "board.closed_reason", close_at=5)
    inside = " ".join(_inside(drawn, 4))
    assert t(lang, "board.closed") in inside
    assert reason.split()[-1] in inside
    lines = board_lines(view(state, None), NAMES, lang, state.rules)
    assert "5" in lines[3]
    assert t(lang, "location.6.to") in lines[3]


def test_the_location_under_attack_is_marked_in_the_picture_and_the_text() -> None:
    state = _state()
    before = _inside(_drawn(state, "en"), 1)
    assert "⚔" not in before
    state.vote = Vote("attack", 1)
    state.vote.candidates = [0, 1]
    assert "⚔" in _inside(_drawn(state, "en"), 1)
    assert "⚔" not in _inside(_drawn(state, "en"), 2)
    picture = Image.open(
        io.BytesIO(board_png(view(state, None), state.rules, NAMES, _say("en")))
    ).convert("RGB")
    x0, _, x1, y1 = location_box(1)
    # A thick light outline, thicker than any other location's edge.
    assert picture.getpixel(((x0 + x1) // 2, y1 - 5)) == TEXT
    x0, _, x1, y1 = location_box(2)
    assert picture.getpixel(((x0 + x1) // 2, y1 - 5)) != TEXT
    lines = board_lines(view(state, None), NAMES, "en", state.rules)
    assert "under attack now" in lines[0]
    assert "under attack" not in " ".join(lines[1:])
