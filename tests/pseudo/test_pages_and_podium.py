"""The game's web page and the season's podium in the pseudo-locale: every word a reader
sees on them is a catalog's.

No server can choose `en-XA`, so the page is told from a stored game whose language
is the pseudo-locale (a `PageGame` as storage hands it over), and the podium comes
from a server whose Discord locale is it, as the other pseudo games do."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.rating import season as season_rules
from bot.render.podium import Finisher, podium_picture
from bot.storage import rating_tables as r
from bot.storage.database import Database
from bot.storage.web_pages import PageGame, PageSeat
from bot.texts import t
from bot.texts.pseudo import PSEUDO
from bot.web.pages import environment, render_step, title
from bot.web.story import tell
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_ratings_e2e import command, make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.pseudo import closed, leaks
from tests.pseudo.screens import LABELS, seen_texts
from tests.render.test_replay_gif import _golden_record

PEOPLE = ["ana", "bo", "cy"]
# The attributes a reader meets: read aloud, shown on hover, or in a link's preview.
READ = {"alt", "aria-label", "title", "placeholder"}
PREVIEW = {"description", "og:title", "og:description"}


class _Reader(HTMLParser):
    """The text of a page as a reader meets it: its words, and the attributes read aloud
    or shown in a preview; nothing of its scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        found = dict(attrs)
        self.texts += [value for key, value in attrs if key in READ and value]
        if tag == "meta" and (found.get("name") or found.get("property")) in PREVIEW:
            self.texts.append(found.get("content") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def _read(html: bytes) -> list[str]:
    reader = _Reader()
    reader.feed(html.decode("utf-8"))
    return reader.texts


def _page_game() -> PageGame:
    record = _golden_record("game_4p_hoarders")
    seats = tuple(PageSeat(seat, PEOPLE[seat % 3] + str(seat), None) for seat in range(4))
    return PageGame(
        7, PSEUDO, str(record.seed), tuple(record.variants), None, seats, tuple(record.actions)
    )


@pytest.mark.parametrize("cut", [False, True])
def test_every_step_of_a_game_page_shows_only_catalog_texts(cut: bool) -> None:
    """The plain page and the director's cut (hands, private lines), first step to the
    reveal of the scores."""
    game = _page_game()
    story = tell(game)
    names = [seat.name for seat in game.seats]
    env = environment()
    found: set[str] = set()
    for number in range(story.last + 1):
        page = render_step(
            env,
            story,
            number,
            token="T" * 32,
            cut=cut,
            public_url="https://pages.example",
            finished_at=datetime(2026, 11, 28, tzinfo=UTC),
            noindex=True,
        )
        found |= {text for text in _read(page.body) if leaks(text, names)}
    assert sorted(found) == []


def test_a_page_s_date_is_the_language_s() -> None:
    """'2026-11-28' was written by hand; the language writes its own date (a month's
    name, in the pseudo-locale English's, marked)."""
    story = tell(_page_game())
    assert "⟦November 28, 2026⟧" in title(story, datetime(2026, 11, 28, 20, tzinfo=UTC))


def test_a_hand_on_the_director_s_cut_is_the_language_s_list() -> None:
    """'⟦Hand after this step⟧: ⟦Gun⟧, ⟦Tin can⟧' was put together in the template, in
    English's order and punctuation; one catalog text holds it now, and CLDR's list says
    'and'."""
    story = tell(_page_game())
    page = render_step(
        environment(),
        story,
        1,
        token="T" * 32,
        cut=True,
        public_url="https://pages.example",
        finished_at=None,
        noindex=True,
    )
    label = t(PSEUDO, "web.hidden.hand_cards", cards="").rstrip("⟧· ")
    hands = [text for text in _read(page.body) if text.startswith(label)]
    assert len(hands) == 4, _read(page.body)
    assert all(re.search(r"\band\b", hand) for hand in hands), hands


def test_the_podium_picture_shows_only_catalog_texts() -> None:
    top = [Finisher(name, 1040 - i, 30, 12 - i) for i, name in enumerate(PEOPLE)]
    variant = t(PSEUDO, "rating.podium.base")
    _, drawn = podium_picture(PSEUDO, 3, top, variant, 57)
    assert [p.text for p in drawn.texts if leaks(closed(p.text), PEOPLE)] == []


@pytest.mark.e2e
async def test_a_season_s_podium_shows_only_catalog_texts(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ratings turned on, a rated game, the season's end: the reveal's season lines and
    the podium's message, picture description and thread, read in the pseudo-locale."""
    monkeypatch.setattr(season_rules, "PROVISIONAL_GAMES", 1)
    guild = fake_discord.create_guild("Club", members=PEOPLE, locale=PSEUDO)
    ana, bo, cy = guild.members
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(make_bot(database), fake_discord) as bot:
        await command(fake_discord, ana, general, "ratings on")
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        await play_by_clicking(game, random.Random(3))
        await fake_discord.settle()
        async with database.write() as conn:
            await conn.execute(update(r.seasons).values(ends_at=datetime.now(UTC)))
        assert bot.rooms.ratings.podiums is not None
        assert await bot.rooms.ratings.podiums.post_due() == 1
        await fake_discord.settle()
        podium = fake_discord.messages(general)[-1]
        assert podium.attachments[0].filename == "podium.png"
        # A player's record: the survivors by kind and the favourite cards are lists,
        # CLDR's ('a and b', 'a, b, and c'), never catalog texts joined with ', '.
        for person in (ana, bo, cy):
            stats = await command(fake_discord, person, general, "stats")
            assert "⟧, ⟦" not in stats or re.search(r"\band\b", stats), stats
    found = {
        (where, text)
        for where, text in seen_texts(fake_discord)
        if leaks(closed(text) if where in LABELS else text, [*PEOPLE, "Club", "general"])
    }
    assert sorted(found) == []
