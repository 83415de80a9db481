"""A step of a game as an HTML page, from templates that escape everything they are given.

Jinja2 with autoescape on for every template: a seat named `<script>` or
`</title>` is written as text wherever it appears (title, lines, scores, the
preview's tags). The page holds no inline script or style, so the
Content-Security-Policy can forbid both. The public page is built from a step's
public lines and board only; the director's cut adds the step's secrets, and is
its own address, so none of them is in the public page's HTML.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from bot.render.board_image import HEIGHT, WIDTH
from bot.render.board_text import board_lines
from bot.texts import t
from bot.texts.catalog import LANGUAGES, and_list, long_date
from bot.web.story import Story

TEMPLATES = Path(__file__).parent / "templates"


@dataclass(frozen=True, slots=True)
class Rendered:
    """A page's bytes and their entity tag."""

    body: bytes
    etag: str


def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def title(story: Story, finished_at: datetime | None) -> str:
    if finished_at is None:
        return t(story.lang, "web.title")
    return t(story.lang, "web.title.dated", date=long_date(story.lang, finished_at.date()))


def description(story: Story) -> str:
    """The result in one sentence: the preview's text, as the reveal told it."""
    lang = story.lang
    winners = and_list(lang, [s.name for s in story.scores if s.winner]) or "-"
    scores = and_list(
        lang, [t(lang, "web.score", name=s.name, score=s.score) for s in story.scores]
    )
    return t(lang, "web.description", winners=winners, scores=scores)


def render_step(
    env: Environment,
    story: Story,
    number: int,
    *,
    token: str,
    cut: bool,
    public_url: str,
    finished_at: datetime | None,
    noindex: bool,
) -> Rendered:
    """Step `number` of the game's page (`cut`: with what was hidden)."""
    lang = story.lang
    step = story.steps[number]

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    base = f"/g/{token}"
    html = env.get_template("game_page.html").render(
        lang=lang,
        say=say,
        listed=partial(and_list, lang),
        title=title(story, finished_at),
        description=description(story),
        page_url=f"{public_url}{base}",
        image_url=f"{public_url}{base}/final.png",
        noindex=noindex,
        base=base,
        here=f"{base}/cut" if cut else base,
        other=base if cut else f"{base}/cut",
        cut=cut,
        number=number,
        last=story.last,
        turn=step.turn,
        lines=step.lines,
        board_text=board_lines(step.board, list(story.names), story.lang, story.rules),
        secrets=step.secrets if cut else (),
        scores=story.scores if number == story.last else (),
        width=WIDTH,
        height=HEIGHT,
    )
    body = html.encode("utf-8")
    return Rendered(body, etag_of(body))


def render_notice(env: Environment, key: str) -> bytes:
    """A page of one sentence in every language, for answers that name no game: the
    404 of every address without a page, the 429 of a client asking too fast."""
    return (
        env.get_template("message.html")
        .render(lines=[(lang, t(lang, key)) for lang in LANGUAGES])
        .encode("utf-8")
    )


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
