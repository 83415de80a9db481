"""The text board's lines that are not about one location: hands and the end of the game."""

from __future__ import annotations

import pytest

from bot.render.board_text import board_lines
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from lockdown_core import load_ruleset, new_game, view


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_sizes_never_run_into_names_that_end_with_a_number(lang: str) -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    state.hands = [["gun"], [], ["gun", "gun"]]
    names = ["AI 1", "AI 2", "AI 3"]
    lines = board_lines(view(state, None), names, lang, state.rules)
    hands = next(line for line in lines if "AI 1" in line and "AI 3" in line)
    for name, count in zip(names, (1, 0, 2), strict=True):
        assert t(lang, "board.hand_count", name=name, count=count) in hands
    assert "AI 2 0" not in hands


def test_the_end_line_says_the_game_ends_at_that_many_or_fewer() -> None:
    """R9.1: the game ends once the living characters are at most the number of players."""
    state, _ = new_game(load_ruleset(), 4, 1)
    lines = board_lines(view(state, None), list("ABCD"), "en")
    assert f"The game ends at 4 living characters or fewer (now {len(state.characters)})" in lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_with_brackets_is_never_nested_in_more_brackets(lang: str) -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    for c in state.characters:
        c.location = 6
    you = f"Ann ({t(lang, 'play.you', number=1)})"
    lines = board_lines(view(state, None), [you, "Bo", "Chloé"], lang)
    parking = lines[5]
    assert f"{you}{chr(0xA0) if lang == 'fr' else ''}:" in parking
    assert f"({you})" not in parking
