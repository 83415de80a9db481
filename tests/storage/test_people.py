"""A person's own settings: DM reminders and the locale their DMs are written in."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.models import Reader
from bot.storage.people import PeopleRepository


async def test_someone_never_seen_wants_reminders_in_the_servers_language(db: Database) -> None:
    assert await PeopleRepository(db).reader(42) == Reader(dm_reminders=True, locale=None)


async def test_the_locale_and_the_reminders_setting_are_kept_apart(db: Database) -> None:
    people = PeopleRepository(db)
    await people.set_locale(7, "en-GB")
    assert await people.reader(7) == Reader(True, "en-GB")
    await people.set_dm_reminders(7, False)
    assert await people.reader(7) == Reader(False, "en-GB")
    await people.set_locale(7, "fr")
    assert await people.reader(7) == Reader(False, "fr")
    await people.set_dm_reminders(8, False)
    await people.set_locale(8, "x" * 40)  # never longer than the column
    assert await people.reader(8) == Reader(False, "x" * 16)
