"""The simulator's comparison chart: both languages, any number of seats and rulesets."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.render.chart import HEIGHT, WIDTH, Series, chart_picture, chart_png, comparison_table
from bot.texts import t
from lockdown_core import load_ruleset
from lockdown_core.ai.simulation import simulate
from tests.render.checks import check_texts


@cache
def _summary(variants: tuple[str, ...], players: int) -> dict[str, Any]:
    return simulate(load_ruleset(variants), players, "random", 12, 7).summary()


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def _series(lang: str, players: int, variants: list[tuple[str, ...]]) -> list[Series]:
    say = _say(lang)
    named = [Series(say("chart.base"), _summary((), players))]
    for chosen in variants:
        name = " + ".join(say(f"variant.{v}.name") for v in chosen)
        named.append(Series(name, _summary(chosen, players)))
    return named


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (3, [("hush",)]),
        (6, [("hush",), ("barricades", "tough_crowd"), ("creche",)]),
        (4, []),
    ],
)
def test_the_chart_draws_in_both_languages_with_no_missing_glyph_or_overlap(
    lang: str, players: int, variants: list[tuple[str, ...]]
) -> None:
    series = _series(lang, players, variants)
    image, drawn = chart_picture(series, players, 12, _say(lang))
    assert image.size == (WIDTH, HEIGHT)
    check_texts(drawn, WIDTH, HEIGHT)
    # Legible on a phone, where Discord shows the chart 400 px wide.
    assert min(placed.size for placed in drawn.texts) * 400 / WIDTH >= 11
    shown = " ".join(p.text for p in drawn.texts)
    assert t(lang, "chart.win_rate") in shown
    assert t(lang, "board.seat", number=players) in shown
    png = chart_png(series, players, 12, _say(lang))
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_table_names_each_ruleset_and_gives_every_figure() -> None:
    series = _series("fr", 4, [("hush",)])
    table = comparison_table(series, 4, _say("fr"))
    assert "A = Règles de base" in table
    assert f"B = {t('fr', 'variant.hush.name')}" in table
    base, hush = (s.summary for s in series)
    seat_one = next(line for line in table.splitlines() if "Place 1" in line)
    assert seat_one.split()[-2:] == [
        f"{base['win_rate_by_seat']['0'] * 100:.0f}%",
        f"{hush['win_rate_by_seat']['0'] * 100:.0f}%",
    ]
    assert t("fr", "chart.turns") in table


def test_a_chart_of_no_ruleset_or_too_many_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 4"):
        chart_picture([], 3, 1, _say("en"))
    with pytest.raises(ValueError, match="1 to 4"):
        chart_picture(_series("en", 3, [("hush",)]) * 3, 3, 1, _say("en"))
