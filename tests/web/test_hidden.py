"""With the director's cut off, a game's page says what its thread said, step by step,
and nothing that was hidden: not in its HTML, its script, its pictures."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from html import unescape

from starlette.testclient import TestClient

from bot.storage.database import Database
from bot.storage.web_pages import WebPages
from bot.table.talk import replay_with_talk
from bot.texts.ai_talk import seat_names
from bot.texts.narrate import story as narrate
from bot.web.pages import environment, render_step
from bot.web.story import Secret, Story, tell
from lockdown_core import ReplayLog
from tests.web.conftest import PUBLIC_URL, page_of
from tests.web.games import Games


def stored_story(games: Games, game_id: int) -> Story:
    async def read() -> Story:
        async with Database(games.url, read_only=True) as database:
            return tell(await WebPages(database).game(game_id))

    return asyncio.run(read())


def test_the_steps_tell_the_public_log_in_order_and_nothing_else(games: Games) -> None:
    story = stored_story(games, games.finished)

    async def read() -> tuple[ReplayLog, list[str]]:
        async with Database(games.url, read_only=True) as database:
            game = await WebPages(database).game(games.finished)
        log = ReplayLog(
            players=len(game.seats),
            seed=int(game.seed),
            variants=list(game.variants),
            actions=list(game.actions),
        )
        return log, seat_names("en", [(s.name, s.ai_kind) for s in game.seats])

    log, names = asyncio.run(read())
    _, events = replay_with_talk(log)
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


def test_no_public_page_shows_a_line_the_thread_never_showed(
    client: TestClient, games: Games
) -> None:
    story = stored_story(games, games.finished)
    said: set[str] = set()
    hidden = {line for step in story.steps for s in step.secrets for line in s.lines}
    page = page_of(games.finished)
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
