"""With the director's cut off, a game's page says what its thread said, step by step,
and nothing that was hidden: not in its HTML, its script, its pictures."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from html import unescape

import pytest
from starlette.testclient import TestClient

from bot.storage.database import Database
from bot.storage.web_pages import PageGame, WebPages
from bot.table.talk import replay_with_talk
from bot.texts.ai_talk import why_line
from bot.texts.narrate import story as narrate
from bot.texts.say import Say
from bot.web.pages import environment, render_step
from bot.web.pictures import step_png
from bot.web.story import Secret, Story, tell
from lockdown_core import Event, ReplayLog
from tests.web.conftest import PUBLIC_URL, page_of
from tests.web.games import Games


def stored_story(games: Games, game_id: int) -> Story:
    async def read() -> Story:
        async with Database(games.url, read_only=True) as database:
            return tell(await WebPages(database).game(game_id))

    return asyncio.run(read())


def stored_events(games: Games, game_id: int) -> list[Event]:
    """Every event of the stored game, its AI seats' words included, as the table told it."""

    async def read() -> PageGame:
        async with Database(games.url, read_only=True) as database:
            return await WebPages(database).game(game_id)

    game = asyncio.run(read())
    log = ReplayLog(
        players=len(game.seats),
        seed=int(game.seed),
        variants=list(game.variants),
        actions=list(game.actions),
    )
    return replay_with_talk(log)[1]


def test_the_steps_tell_the_public_log_in_order_and_nothing_else(games: Games) -> None:
    story = stored_story(games, games.finished)
    names = list(story.names)
    events = stored_events(games, games.finished)
    public = [told.text for told in narrate([e for e in events if e.public], "en", names)]
    assert [line for step in story.steps for line in step.lines] == public
    for step in story.steps:
        assert step.board["seat"] is None
        assert "hand" not in step.board


def test_the_public_page_is_the_same_whatever_was_hidden(games: Games) -> None:
    """Built from public data alone: other hands and other secret lines change nothing."""
    story = stored_story(games, games.finished)
    other = dataclasses.replace(
        story,
        steps=tuple(
            dataclasses.replace(
                step,
                secrets=tuple(
                    Secret(s.name, ("Gun", "Gun"), ("a secret line",)) for s in step.secrets
                ),
            )
            for step in story.steps
        ),
    )
    env = environment()

    def draw(told: Story, number: int, cut: bool) -> bytes:
        return render_step(
            env,
            told,
            number,
            token="T" * 32,
            cut=cut,
            public_url=PUBLIC_URL,
            finished_at=None,
            noindex=True,
        ).body

    for number in range(0, story.last + 1, 7):
        assert draw(story, number, False) == draw(other, number, False)
        assert draw(story, number, True) != draw(other, number, True)
    for number in (1, story.last):
        assert step_png(story, number) == step_png(other, number)


@pytest.mark.parametrize("which", ["finished", "talking"])
def test_no_public_page_shows_a_line_the_thread_never_showed(
    client: TestClient, games: Games, which: str
) -> None:
    game_id = getattr(games, which)
    story = stored_story(games, game_id)
    said: set[str] = set()
    hidden = {line for step in story.steps for s in step.secrets for line in s.lines}
    page = page_of(game_id)
    script = client.get("/static/page.js").text
    for step in story.steps:
        said.update(step.lines)
        html = unescape(client.get(f"{page}?step={step.number}").text)
        shown = set(re.findall(r'<li dir="auto">(.*?)</li>', html, re.S))
        for line in hidden - said:
            assert line not in html
            assert line not in script
        assert set(step.lines) <= shown
        assert 'id="hidden"' not in html
    assert hidden - said, "the game had secrets to keep"


def test_the_ai_seats_reasons_are_in_the_directors_cut_alone(
    client: TestClient, games: Games
) -> None:
    story = stored_story(games, games.talking)
    said = {
        why_line(Say("en", list(story.names), int(d["seat"])), d)
        for d in (e.data for e in stored_events(games, games.talking) if e.kind == "ai_why")
    }
    assert said, "shrewd seats gave reasons"
    reasons = [
        (step.number, line)
        for step in story.steps
        for secret in step.secrets
        for line in secret.lines
        if line in said
    ]
    assert {line for _, line in reasons} == said
    page = page_of(games.talking)
    for number, line in reasons[:4]:
        assert line in unescape(client.get(f"{page}/cut?step={number}").text)
        assert line not in unescape(client.get(f"{page}?step={number}").text)
