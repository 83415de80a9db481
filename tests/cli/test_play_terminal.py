"""`lockdown play` at a real terminal (a pseudo-terminal): what a newcomer sees first,
how they leave, the width of its lines and the language of its terminal."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.cli.main import dispatch
from bot.texts import catalog, t

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")

ROOT = Path(__file__).resolve().parents[2]
# ESC [ ... sequences a terminal might add; none are expected, but they must not count.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Screen:
    """A `lockdown play` process behind a pseudo-terminal of `columns` columns."""

    def __init__(self, args: list[str], columns: int, env: dict[str, str], cwd: Path) -> None:
        self.fd, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        code = "from bot.cli.main import main; main()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "play", *args],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            cwd=cwd,
            env={**os.environ, "COLUMNS": "", **env},
            close_fds=True,
        )
        os.close(follower)
        self.text = ""

    def wait_for(self, wanted: str, times: int = 1, within: float = 20.0) -> str:
        """Everything shown so far, once `wanted` is in it `times` times (spaces and line
        ends alike). Type only once the menu is shown: what is typed before is dropped."""
        deadline = time.monotonic() + within
        while self._flat().count(" ".join(wanted.split())) < times:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"never shown: {wanted!r}\n--- shown:\n{self.text}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the process ended and its terminal closed
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {wanted!r}:\n{self.text}")
                self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")
        self._settle()
        return self.text

    def _settle(self, quiet: float = 0.8) -> None:
        """Read on until nothing is shown for `quiet` seconds: the AI seats have played
        and the menu will not be redrawn (a redraw drops what was typed before it)."""
        while select.select([self.fd], [], [], quiet)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")

    def _flat(self) -> str:
        return " ".join(self.text.split())

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def lines(self) -> list[str]:
        return self.text.splitlines()


@contextmanager
def screen(args: list[str], columns: int = 80, cwd: Path = ROOT, **env: str) -> Iterator[Screen]:
    shown = Screen(args, columns, env, cwd)
    try:
        yield shown
    finally:
        if shown.process.poll() is None:
            shown.process.kill()
        shown.process.wait(10)
        os.close(shown.fd)


ENGLISH = {"LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


def test_the_seed_is_shown_first_and_q_asks_before_leaving(tmp_path: Path) -> None:
    """q asks; anything but yes goes on; yes leaves with the seed and how to play the
    game again and look at it (the saved file is the game so far). Lines are wrapped
    between words to the terminal's width."""
    saved = tmp_path / "game.json"
    args = ["--seed", "5", "--ai-seed", "2", "--save", saved.name]
    with screen(args, columns=60, cwd=tmp_path, **ENGLISH) as shown:
        shown.wait_for("Seeds: 5, and 2 for the AI seats")
        shown.wait_for(t("en", "play.prompt"))
        shown.type("q\n")
        shown.wait_for(t("en", "play.quit_confirm"))
        shown.type("n\n")
        shown.wait_for(t("en", "play.prompt"), times=2)
        shown.type("1\n")
        shown.wait_for("Recorded:")
        shown.wait_for(t("en", "play.prompt"), times=3)
        shown.type("q\n")
        shown.wait_for(t("en", "play.quit_confirm"))
        shown.type("y\n")
        shown.wait_for(t("en", "play.again", seed=5, ai_seed=2, ai="cautious", players=4, seat=1))
        shown.wait_for(t("en", "play.saved", file=saved.name))
        assert shown.process.wait(10) == 0
        lines = shown.lines()
    assert all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    # Never cut inside a word: each wrapped line ends and starts on a whole word.
    flat = " ".join(" ".join(lines).split())
    assert t("en", "play.quit") in flat
    gif = tmp_path / "game.gif"
    assert dispatch(["replay", str(saved), "--quiet", "--gif", str(gif)]) == 0
    assert gif.read_bytes().startswith(b"GIF89a")
    assert dispatch(["board", str(saved), "--out", str(tmp_path / "b.png")]) == 0
    assert (tmp_path / "b.txt").read_text(encoding="utf-8").startswith("Lockdown board")


def test_ctrl_d_asks_too_and_a_second_one_leaves() -> None:
    with screen(["--seed", "9", "--ai-seed", "1", "--players", "3"], **ENGLISH) as shown:
        shown.wait_for(t("en", "play.prompt"))
        shown.type("\x04")
        shown.wait_for(t("en", "play.quit_confirm"))
        shown.type("\x04")
        shown.wait_for(t("en", "play.again", seed=9, ai_seed=1, ai="cautious", players=3, seat=1))
        shown.wait_for(t("en", "play.unsaved"))  # how to be able to go on later
        assert shown.process.wait(10) == 0


@pytest.mark.parametrize(
    ("lang_variable", "lang", "seeds", "quit_key", "yes_key"),
    [
        ("fr_FR.UTF-8", "fr", "Graines\u00a0: 5,", "q", "o"),
        ("es_MX.UTF-8", "es", "Semillas: 5,", "s", "s"),
    ],
)
def test_the_terminals_language_chooses_the_texts_and_the_keys(
    lang_variable: str, lang: str, seeds: str, quit_key: str, yes_key: str
) -> None:
    """LANG=fr: French texts, and the French keys (m for the hand, main); LANG=es_MX
    reads Spanish, the hand under m (mano), leaving under s (salir, sí)."""
    environment = {"LANG": lang_variable, "LC_ALL": "", "LC_MESSAGES": ""}
    with screen(["--seed", "5"], **environment) as shown:
        shown.wait_for(seeds)
        shown.wait_for(t(lang, "play.prompt"))
        shown.type("m\n")
        shown.wait_for(t(lang, "panel.kinds"))
        shown.type(f"{quit_key}\n")
        shown.wait_for(t(lang, "play.quit_confirm"))
        shown.type(f"{yes_key}\n")
        shown.wait_for(t(lang, "play.quit"))
        assert shown.process.wait(10) == 0


def test_a_saved_game_is_left_then_resumed_where_it_was(tmp_path: Path) -> None:
    """q prints how to go on (`--resume FILE`), and that command goes on from the step
    left, with the same seeds, seats and AI level, saving on in FILE."""
    saved = tmp_path / "game.json"
    args = ["--seed", "3", "--ai-seed", "4", "--ai", "shrewd", "--save", saved.name]
    with screen(args, cwd=tmp_path, **ENGLISH) as shown:
        shown.wait_for(t("en", "play.prompt"))
        shown.type("1\n")
        shown.wait_for(t("en", "play.prompt"), times=2)
        shown.type("q\n")
        shown.wait_for(t("en", "play.quit_confirm"))
        shown.type("y\n")
        shown.wait_for(f"lockdown play --resume {saved.name} goes on from where you left it")
        assert shown.process.wait(10) == 0
    left = json.loads(saved.read_text("utf-8"))
    with screen(["--resume", saved.name], cwd=tmp_path, **ENGLISH) as shown:
        played = catalog().count("en", "action", len(left["actions"]))
        shown.wait_for(t("en", "play.resumed", actions=played))
        shown.wait_for(t("en", "play.prompt"))
        shown.type("0\n")
        shown.wait_for(t("en", "play.prompt"), times=2)
        shown.type("q\n")
        shown.wait_for(t("en", "play.quit_confirm"))
        shown.type("y\n")
        again = {"seed": 3, "ai_seed": 4, "ai": "shrewd", "players": 4, "seat": 1}
        shown.wait_for(t("en", "play.again", **again))
        assert shown.process.wait(10) == 0
    went_on = json.loads(saved.read_text("utf-8"))
    assert went_on["actions"][: len(left["actions"])] == left["actions"]
    assert len(went_on["actions"]) > len(left["actions"])
    assert went_on["terminal"] == {"seat": 1, "ai": "shrewd", "ai_seed": 4}


def test_resume_refuses_what_the_file_decides_and_a_file_it_cannot_go_on_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "scenario.json"
    scenario.write_text('{"players": 3, "seed": 1}', "utf-8")
    assert dispatch(["play", "--resume", str(scenario), "--seed", "2", "--lang", "en"]) == 2
    assert t("en", "play.resume.alone", options="--seed") in capsys.readouterr().err
    assert dispatch(["play", "--resume", str(scenario), "--lang", "en"]) == 2
    assert t("en", "play.resume.not_saved", file=scenario) in capsys.readouterr().err
    missing = tmp_path / "none.json"
    assert dispatch(["play", "--resume", str(missing), "--lang", "en"]) == 2
    assert str(missing) in capsys.readouterr().err
