"""The simulator's comparison chart: both languages, any number of seats and rulesets."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.render.bars import fill_bar
from bot.render.canvas import Canvas
from bot.render.chart import (
    COLUMN_WIDTH,
    INTERVAL_GAMES,
    WIDTH,
    Series,
    chart_picture,
    chart_png,
    chart_title,
    comparison_table,
    percent,
    wilson,
)
from bot.texts import t
from bot.texts.catalog import LANGUAGES
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


@pytest.mark.parametrize("lang", LANGUAGES)
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
    image, drawn = chart_picture(series, players, 12, lang)
    assert image.width == WIDTH
    check_texts(drawn, WIDTH, image.height)
    # Names are never cut, whatever the language and the number of rulesets.
    assert not [p.text for p in drawn.texts if p.text.endswith("…")]
    # Legible on a phone, where Discord shows the chart 400 px wide.
    assert min(placed.size for placed in drawn.texts) * 400 / WIDTH >= 11
    shown = " ".join(p.text for p in drawn.texts)
    assert t(lang, "chart.win_rate") in shown
    assert t(lang, "board.seat", number=players) in shown
    png = chart_png(series, players, 12, lang)
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_table_names_each_ruleset_and_gives_every_figure() -> None:
    series = _series("fr", 4, [("hush",)])
    table = comparison_table(series, 4, "fr")
    assert "A = Règles de base" in table
    assert f"B = {t('fr', 'variant.hush.name')}" in table
    base, hush = (s.summary for s in series)
    seat_one = next(line for line in table.splitlines() if "Place 1" in line)
    # French writes a percent after a no-break space ("54 %").
    cells = [percent("fr", summary["win_rate_by_seat"]["0"]) for summary in (base, hush)]
    assert seat_one.endswith("".join(cell.rjust(COLUMN_WIDTH) for cell in cells))
    assert all("\u00a0%" in cell for cell in cells)
    assert t("fr", "chart.turns") in table


def test_a_chart_of_no_ruleset_or_too_many_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 4"):
        chart_picture([], 3, 1, "en")
    with pytest.raises(ValueError, match="1 to 4"):
        chart_picture(_series("en", 3, [("hush",)]) * 3, 3, 1, "en")


def _summary_of(players: int, **changes: Any) -> dict[str, Any]:
    """A summary as `Tally.summary()` gives it, with chosen figures."""
    summary: dict[str, Any] = {
        "finished": 200,
        "avg_turns": 7.5,
        "avg_living_characters": 4.2,
        "win_rate_by_seat": {str(p): 1 / players for p in range(players)},
        "points_by_kind": {"weeper": 5.0, "blocker": 3.0, "leader": 2.0, "keys_of_the_truck": 1.0},
        "closed_rate": {"1": 0.005, "2": 0.0, "3": 0.996, "4": 1.0, "5": 0.25},
        "epilogues": {},
    }
    summary.update(changes)
    return summary


def test_a_share_under_one_percent_says_so_and_rounding_never_claims_0_or_100() -> None:
    assert percent("en", 0.005) == "<1%"
    assert percent("en", 0.0) == "0%"
    assert percent("en", 0.996) == ">99%"
    assert percent("en", 1.0) == "100%"
    assert percent("en", 0.25) == "25%"
    assert percent("fr", 0.25) == "25\u00a0%"
    _, drawn = chart_picture([Series("Base", _summary_of(5))], 5, 200, "en")
    texts = [p.text for p in drawn.texts]
    assert "<1%" in texts
    assert ">99%" in texts
    assert "0%" in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_title_names_what_it_compares(lang: str) -> None:
    say = _say(lang)
    one = [Series(say("chart.base"), _summary_of(4))]
    two = [*one, Series(say("variant.hush.name"), _summary_of(4))]
    assert chart_title(one, 4, 200, say).startswith(
        say("chart.base") + t(lang, "chart.compares", rulesets="", games=200, players=4)[:2]
    )
    assert say("chart.vs") not in chart_title(one, 4, 200, say)
    title = chart_title(two, 4, 200, say)
    assert title.startswith(say("chart.base") + say("chart.vs") + say("variant.hush.name"))
    assert "200" in title
    _, drawn = chart_picture(two, 4, 200, lang)
    assert say("chart.vs").strip() in " ".join(p.text for p in drawn.texts)


def test_a_kind_no_game_had_is_not_drawn() -> None:
    _, drawn = chart_picture([Series("Base", _summary_of(5))], 5, 200, "en")
    texts = [p.text for p in drawn.texts]
    assert "Useless" not in texts
    assert {"Weeper", "Blocker", "Leader"} <= set(texts)
    points = _summary_of(3)["points_by_kind"] | {"useless": 0.0}
    _, drawn = chart_picture([Series("Base", _summary_of(3, points_by_kind=points))], 3, 200, "en")
    assert "Useless" in [p.text for p in drawn.texts]


def test_rates_carry_95_percent_intervals_under_2000_games_only() -> None:
    low, high = wilson(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson(0.0, 200)[0] == 0.0
    assert 0 < wilson(0.0, 200)[1] < 0.02
    note = t("en", "chart.interval_note", games=INTERVAL_GAMES).split()[0]
    series = [Series("Base", _summary_of(4))]
    few, drawn = chart_picture(series, 4, 200, "en")
    assert any(p.text.startswith(note) for p in drawn.texts)
    many, drawn = chart_picture(series, 4, INTERVAL_GAMES, "en")
    assert not any(p.text.startswith(note) for p in drawn.texts)
    assert few.tobytes() != many.tobytes()


def test_long_ruleset_names_wrap_and_are_never_cut() -> None:
    names = ["Base rules", "Barricades + Tough crowd + Crèche + Big families + Early dusk"] * 2
    series = [Series(name, _summary_of(6)) for name in names]
    image, drawn = chart_picture(series, 6, 200, "fr")
    check_texts(drawn, WIDTH, image.height)
    assert not [p.text for p in drawn.texts if p.text.endswith("…")]


def test_the_table_leaves_out_the_kinds_the_chart_leaves_out() -> None:
    table = comparison_table([Series("Base", _summary_of(5))], 5, "en")
    assert "Useless" not in table
    assert "Weeper" in table
    points = _summary_of(3)["points_by_kind"] | {"useless": 0.0}
    table = comparison_table([Series("Base", _summary_of(3, points_by_kind=points))], 3, "en")
    assert "Useless" in table


def test_each_rulesets_bars_have_their_own_stripes_seen_in_grey() -> None:
    """Without colour, four rulesets' bars still differ: plain, and three stripe patterns."""

    def grey(series: int) -> bytes:
        image = Image.new("RGB", (40, 60))
        fill_bar(Canvas(image), (0, 0, 39, 59), series)
        return image.convert("L").point(lambda v: 255 if v > 60 else 0).tobytes()

    patterns = [grey(s) for s in range(4)]
    assert len(set(patterns)) == 4
    # The plain bar is the only one without dark stripes.
    assert 0 not in patterns[0]
    assert all(0 in pattern for pattern in patterns[1:])
