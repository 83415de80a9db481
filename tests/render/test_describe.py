"""Every picture's description (alt text): what it shows, in the reader's language,
within Discord's 1,024 characters, and never anything hidden."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image

from bot.render.chart import Series
from bot.render.describe import (
    MAX_DESCRIPTION,
    board_description,
    chart_description,
    gif_description,
)
from bot.render.examples import late_position
from bot.render.replay_gif import render_gif
from bot.texts import t
from bot.texts.catalog import LANGUAGES, decimal
from lockdown_core import load_ruleset, new_game, view
from lockdown_core.ai.simulation import simulate
from tests.render.test_replay_gif import _golden_record

LONG = [f"Bartholomew Featherstonehaugh {i}" for i in range(6)]


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_board_is_described_with_its_turn_step_locations_and_rules(lang: str) -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    data = view(state, None)
    text = board_description(data, state.rules, ["Ana", "Bo", "Chloé"], lang)
    assert len(text) <= MAX_DESCRIPTION
    assert t(lang, f"step.{data['step']}.name") in text
    for loc in range(1, 7):
        assert t(lang, f"location.{loc}") in text
    assert "Chloé" in text
    assert t(lang, "board.free_text", line="", free=3).strip(" —") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_crowded_late_board_with_long_names_stays_within_discords_limit(lang: str) -> None:
    state = late_position()
    text = board_description(view(state, None), state.rules, LONG, lang)
    assert len(text) <= MAX_DESCRIPTION
    for loc in range(1, 7):
        assert t(lang, f"location.{loc}") in text
    # The closed location still says so in the shorter form.
    closed = next(loc for loc in range(1, 7) if state.closed[loc])
    assert (
        t(lang, "board.alt_closed", number=closed, location=t(lang, f"location.{closed}")) in (text)
        or t(lang, "board.closed", number=closed) in text
    )


def test_what_the_public_cannot_see_never_changes_the_board_description() -> None:
    state = late_position()
    before = board_description(view(state, None), state.rules, LONG, "en")
    rng = random.Random(3)
    for hand in state.hands:
        rng.shuffle(hand)
        hand[:] = ["gun"] * len(hand)
    rng.shuffle(state.deck)
    after = board_description(view(state, None), state.rules, LONG, "en")
    assert after == before
    assert "gun" not in before.lower()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_gif_is_described_with_its_frames_and_final_scores(lang: str) -> None:
    record = _golden_record("game_3p")
    names = ["Ana", "Bo", "Chloé"]
    text = gif_description(record, lang, names)
    frames = getattr(Image.open(io.BytesIO(render_gif(record, lang, names))), "n_frames", 1)
    assert len(text) <= MAX_DESCRIPTION
    before_scores = t(lang, "board.gif_alt", frames=frames, scores="").rstrip(".")
    assert text.startswith(before_scores)
    scores = text[len(before_scores) :]
    assert t(lang, "board.final_score_winner", name="", points="").strip(" :\u00a0") in scores
    for name in names:
        assert t(lang, "board.final_score", name=name, points="").strip() in scores


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_chart_is_described_with_what_it_compares(lang: str) -> None:
    say = _say(lang)
    series = [
        Series(say("chart.base"), simulate(load_ruleset(), 4, "random", 6, 1).summary()),
        Series(
            say("variant.hush.name"), simulate(load_ruleset(["hush"]), 4, "random", 6, 1).summary()
        ),
    ]
    text = chart_description(series, 4, 6, lang)
    assert len(text) <= MAX_DESCRIPTION
    assert say("chart.base") in text
    assert say("variant.hush.name") in text
    assert decimal(lang, series[0].summary["avg_turns"], 1) in text
