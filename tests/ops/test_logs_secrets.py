"""No token is ever written to the log, at any level: the bot's, or an interaction's.

discord.py's own DEBUG lines print every request's URL (an interaction's token
is in the path of its callback and follow-ups) and every gateway payload (an
INTERACTION_CREATE holds the token). Whoever reads the log must not be able to
answer a click in the bot's name, nor log in as the bot.
"""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.ops.logs import REDACTED, RedactSecrets, configure_logging
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, start_client

# The shape of a real bot token (id, timestamp, signature); not a working one.
BOT_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTE4MzQ1Njc4OTAxMjM0NTY3ODpBQkNERUY"


def redacted(message: str, *args: object, secrets: tuple[str, ...] = ()) -> str:
    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, message, args, None)
    assert RedactSecrets(secrets).filter(record)
    return record.getMessage()


@pytest.mark.parametrize(
    "path",
    [
        "/interactions/1183456789012345678/{token}/callback",
        "/webhooks/1098765432109876543/{token}/messages/@original",
        "/webhooks/1098765432109876543/{token}?wait=1",
    ],
)
def test_an_interaction_token_in_a_url_is_redacted(path: str) -> None:
    url = "https://discord.com/api/v10" + path.format(token=INTERACTION_TOKEN)
    line = redacted("%s %s with %s has returned %s", "POST", url, None, 204)
    assert INTERACTION_TOKEN not in line
    assert path.format(token=REDACTED) in line


def test_the_token_of_a_gateway_payload_is_redacted() -> None:
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": INTERACTION_TOKEN}}
    line = redacted("For Shard ID %s: WebSocket Event: %s", 0, event)
    assert INTERACTION_TOKEN not in line
    assert f"'token': '{REDACTED}'" in line
    as_json = '{"token": "TOKEN", "id": "1"}'
    assert redacted(as_json.replace("TOKEN", INTERACTION_TOKEN)) == as_json.replace(
        "TOKEN", REDACTED
    )


def test_the_bot_token_is_redacted_by_value_and_any_bot_token_by_shape() -> None:
    assert redacted("Authorization: Bot %s", "fake-bot-token", secrets=("fake-bot-token",)) == (
        f"Authorization: Bot {REDACTED}"
    )
    assert redacted("someone pasted %s", BOT_TOKEN) == f"someone pasted {REDACTED}"


def test_a_traceback_holding_a_token_is_redacted() -> None:
    try:
        raise RuntimeError(f"POST /interactions/1/{INTERACTION_TOKEN}/callback failed")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    RedactSecrets().filter(record)
    formatted = logging.Formatter().format(record)
    assert "RuntimeError" in formatted
    assert INTERACTION_TOKEN not in formatted


def test_arguments_that_do_not_fit_the_message_are_redacted_too() -> None:
    line = redacted("two %s %s", f"/webhooks/1/{INTERACTION_TOKEN}")
    assert INTERACTION_TOKEN not in line
    assert "/webhooks/1/" in line


def test_an_ordinary_line_is_left_as_it_was() -> None:
    line = "game 41: stored action 12 (version 7) in 2.1 ms; 3.5.6 token bucket"
    assert redacted(line) == line


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """The bot's own log set-up, at DEBUG, written to a buffer instead of stderr."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    configure_logging("DEBUG", "json", secrets=["fake-bot-token"])
    (handler,) = [h for h in root.handlers if h not in handlers]
    buffer = io.StringIO()
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(buffer)
    try:
        yield buffer
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.mark.e2e
async def test_a_debug_run_writes_no_token(
    fake_discord: FakeDiscord, tmp_path: Path, debug_log: io.StringIO
) -> None:
    """A lobby opened and joined with every logger at DEBUG: the interactions' tokens
    went through discord.py's logs (redacted), and none of them reached the output."""
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    url = f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}"
    bot = LockdownBot(Settings(discord_token=fake_discord.token, database_url=url))
    async with start_client(bot, fake_discord):
        general = guild.channel("general")
        assert await fake_discord.slash(ana, "lockdown", subcommand="new", channel=general)
        assert await fake_discord.wait_until(lambda: bool(fake_discord.threads()), within=5)
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), 5)
        lobby = fake_discord.messages(thread)[0]
        join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
        assert (await fake_discord.click(bo, lobby, join)).answered_in_time
    output = debug_log.getvalue()
    tokens = [interaction.token for interaction in fake_discord.interactions]
    assert len(tokens) == 2
    assert "WebSocket Event" in output, "discord.py's DEBUG lines were written"
    assert f"/interactions/{fake_discord.interactions[0].id}/{REDACTED}/callback" in output
    for token in [*tokens, fake_discord.token]:
        assert token not in output
