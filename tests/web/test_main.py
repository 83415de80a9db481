"""`lockdown-web` refuses to start without what it needs, in one sentence, with status 2."""

from __future__ import annotations

import base64

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from bot.web.addresses import NO_GAME, game_of, game_token, page_url
from bot.web.main import main


def test_without_a_secret_it_says_so_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]
    monkeypatch.delenv("WEB_SECRET", raising=False)
    assert main() == 2
    assert "WEB_SECRET" in capsys.readouterr().err


def test_a_short_secret_or_a_bad_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="32"):
        Settings(_env_file=None, web_secret="short")
    with pytest.raises(ValidationError, match=r"https://games\.example\.org"):
        Settings(_env_file=None, web_public_url="games.example.org")
    settings = Settings(_env_file=None, web_public_url="https://g.example.org/")
    assert settings.web_public_url == "https://g.example.org"


def test_an_address_names_its_game_for_its_secret_alone() -> None:
    secret = b"k" * 32
    token = game_token(secret, 12)
    assert len(token) == 32
    assert game_of(secret, token) == 12
    assert game_of(b"j" * 32, token) == NO_GAME
    mac_of_12 = base64.urlsafe_b64decode(token)[8:]
    other_id = base64.urlsafe_b64encode((13).to_bytes(8, "big") + mac_of_12).decode()
    assert game_of(secret, other_id) == NO_GAME
    assert game_of(secret, token[:-1]) == NO_GAME
    assert game_of(secret, token + "A") == NO_GAME
    assert page_url("https://g.example.org", secret, 12) == f"https://g.example.org/g/{token}"
