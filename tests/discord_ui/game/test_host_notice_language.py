"""The host's DM about a refused delivery is in the host's own language, the thread's
notice in the game's: a DM has one reader."""

from __future__ import annotations

from typing import Any

from bot.discord_ui.errors import UNKNOWN_CHANNEL, Refusal
from bot.discord_ui.game.host_notice import HostNotice
from bot.storage.models import Reader
from bot.texts import t

HOST = 5
GAME = 7


class Inbox:
    """Just enough of a discord.Client for a DM: what was sent, in order."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def get_channel(self, channel_id: int) -> None:
        return None

    async def create_dm(self, user: Any) -> Inbox:
        assert user.id == HOST
        return self

    async def send(self, text: str) -> None:
        self.sent.append(text)


async def told(locale: str | None) -> list[str]:
    inbox = Inbox()

    async def reader(user_id: int) -> Reader:
        return Reader(True, locale)

    notice = HostNotice(inbox, GAME, 99, HOST, "fr", reader)  # type: ignore[arg-type]
    await notice.tell(Refusal(thread_gone=True, code=UNKNOWN_CHANNEL))
    return inbox.sent


async def test_an_english_host_of_a_french_game_reads_english() -> None:
    assert await told("en-GB") == [t("en", "delivery.thread_gone", game=GAME)]


async def test_a_host_never_seen_or_in_a_language_we_do_not_speak_reads_the_games() -> None:
    french = [t("fr", "delivery.thread_gone", game=GAME)]
    assert await told(None) == french
    assert await told("pt-BR") == french
