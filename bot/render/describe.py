"""What each picture shows, in words: the description (alt text) posted with it.

A screen reader reads a picture's description instead of the picture, so each
says what its picture shows, in the reader's language, from the same public
view the picture was drawn from (nothing hidden can reach it). Discord keeps
at most 1,024 characters of a description: a board too full for its whole
text is described location by location in counts, and anything still longer
is cut with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.board_text import board_lines
from bot.render.chart import Series
from bot.render.glyphs import fit_chars
from bot.render.labels import end_line, rule_line
from bot.render.replay_gif import frames, record_start, shown_names
from bot.texts import catalog, t
from bot.texts.catalog import and_list, decimal
from lockdown_core import ReplayLog, Ruleset
from lockdown_core import facts as core_facts
from lockdown_core.board_facts import board_facts, location_facts

# Discord's limit on an attachment's description (MessageAttachmentRequest).
MAX_DESCRIPTION = 1024


def _sentences(lines: Sequence[str]) -> str:
    return " ".join(line.rstrip(".") + "." for line in lines if line)


def board_description(data: dict[str, Any], rules: Ruleset, names: list[str], lang: str) -> str:
    """The board picture of a public view, in words (at most `MAX_DESCRIPTION` characters),
    in `lang` (the reader's: its plurals are needed for the shorter form)."""

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    step = say(f"step.{data['step']}.name")
    whole = say(
        "board.alt",
        turn=data["turn"],
        step=step,
        details=_sentences(board_lines(data, names, lang, rules)),
    )
    if len(whole) <= MAX_DESCRIPTION:
        return whole
    facts = board_facts(data, rules)
    located = location_facts(data, rules)
    lines = []
    for loc in core_facts.locations(rules):
        location = say(f"location.{loc}")
        if loc in data["closed"]:
            lines.append(say("board.alt_closed", number=loc, location=location))
            continue
        here = sum(1 for c in data["characters"] if c["location"] == loc)
        parts = [
            say(
                "board.alt_location",
                number=loc,
                location=location,
                characters=catalog().count(lang, "character", here),
                monsters=catalog().count(lang, "monster", data["monsters"][loc - 1]),
            )
        ]
        if loc in located.free:
            parts.append(catalog().count(lang, "free_spot", located.free[loc]))
        if loc in located.closing:
            parts.append(say("board.alt_closing", close_at=located.close_at))
        if located.attacked == loc:
            parts.append(say("board.alt_attacked"))
        lines.append(and_list(lang, parts))
    lines += [rule_line(facts, say), end_line(facts, say)]
    short = say("board.alt", turn=data["turn"], step=step, details=_sentences(lines))
    return fit_chars(short, MAX_DESCRIPTION)


def gif_description(record: ReplayLog, lang: str, names: Sequence[str] | None = None) -> str:
    """The replay GIF of a finished game (`replay_gif.render_gif`), in words: how many
    pictures, what they show, and the final scores of its last picture."""
    state, opening, moves = record_start(record)
    shown = shown_names(state, lang, names)
    moments = frames(state, opening, moves, lang, shown)
    result = moments[-1].data["result"]
    scores = ""
    if result is not None:
        winners = set(result["winners"])
        # A screen reader says "black star" for ★: the winner is told in words.
        scores = and_list(
            lang,
            [
                t(
                    lang,
                    "board.final_score_winner" if seat in winners else "board.final_score",
                    name=shown[seat],
                    points=catalog().count(lang, "point", points),
                )
                for seat, points in enumerate(result["scores"])
            ],
        )
    text = t(lang, "board.gif_alt", frames=len(moments), scores=scores)
    return fit_chars(text, MAX_DESCRIPTION)


def chart_description(series: Sequence[Series], players: int, games: int, lang: str) -> str:
    """The simulator's chart (`chart.chart_png`), in words: what it compares, and the
    figures of its last two panels, which a reader most often asks for, as `lang` writes
    lists and decimals."""

    def figures(key: str) -> str:
        return and_list(
            lang,
            [
                t(lang, "chart.alt_figure", name=one.name, value=decimal(lang, one.summary[key], 1))
                for one in series
            ],
        )

    names = and_list(lang, [one.name for one in series])
    turns = figures("avg_turns")
    living = figures("avg_living_characters")
    text = t(
        lang,
        "chart.alt",
        rulesets=names,
        games=games,
        players=players,
        turns=turns,
        living=living,
    )
    return fit_chars(text, MAX_DESCRIPTION)
