"""The README and the docs lead where they say: links land, commands exist.

A newcomer follows the README's links and types its commands as written. A
link to a moved file or a renamed heading, or a command whose subcommand or
flag has gone, is the first thing they meet; these tests find it before they do.
Anchors follow GitHub's rule for heading ids (what github-slugger computes).
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.main import COMMANDS, build_parser, chosen, load_command
from bot.run import WITH_FILE
from bot.run import build_parser as bot_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
# [text](target) and ![alt](target), the target up to a space (a title) or ")".
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"(?:href|src)=\"([^\"]+)\"")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# A command line: optional VAR=value words, optional `uv run`, then one of our programs.
COMMAND = re.compile(r"^(?:[A-Z_]+=\S*\s+)*(?:uv run\s+)?(lockdown(?:-bot|-web)?)(?=\s|$)")


def prose_lines(path: Path) -> Iterator[str]:
    """The file's lines outside fenced code blocks, inline code taken out."""
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield CODE_SPAN.sub("", line)


def code_lines(path: Path) -> Iterator[str]:
    """The lines inside the file's fenced code blocks."""
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif in_fence:
            yield line


def slug(heading: str) -> str:
    """GitHub's id for a heading: its text lowercased, punctuation dropped (letters,
    marks, digits, underscores, spaces and hyphens stay), spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[`*]|<[^>]+>", "", text).strip().lower()
    kept = "".join(
        char
        for char in text
        if char in " -_"
        or unicodedata.category(char)[0] in "LMN"
        or unicodedata.category(char) == "Pc"
    )
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every id a link may name in `path`: its headings' (a repeated one gets -1,
    -2, ...) and its HTML anchors'."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(path):
        if match := HEADING.match(line):
            base = slug(match[2])
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    text = path.read_text(encoding="utf-8")
    found.update(HTML_ID.findall(text))
    return found


def links(path: Path) -> Iterator[str]:
    for line in prose_lines(path):
        yield from LINK.findall(line)
        yield from HTML_LINK.findall(line)


def broken_link(path: Path, target: str) -> str | None:
    """Why `target`, linked from `path`, lands nowhere; None when it lands."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check
        return None
    address, _, anchor = target.partition("#")
    destination = (path.parent / address).resolve() if address else path
    if not destination.exists():
        return f"{target}: no such file"
    if anchor and anchor not in anchors(destination):
        return f"{target}: no heading or anchor #{anchor} in {destination.name}"
    return None


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_lands_on_a_file_and_heading(path: Path) -> None:
    problems = [why for target in links(path) if (why := broken_link(path, target))]
    assert not problems, "\n".join(problems)


def test_the_slug_follows_github() -> None:
    assert slug("Invite the bot to a server") == "invite-the-bot-to-a-server"
    assert slug("R5. Steps 3 and 4 — where to go, over here") == (
        "r5-steps-3-and-4--where-to-go-over-here"
    )
    assert slug("`lockdown replay`") == "lockdown-replay"
    assert slug("Running it (operators)") == "running-it-operators"
    assert slug("Games across restarts (issue 6)") == "games-across-restarts-issue-6"


def test_a_link_to_a_missing_heading_or_file_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## Slow games\n\n## Slow games\n", encoding="utf-8")
    assert broken_link(page, "#slow-games") is None
    assert broken_link(page, "#slow-games-1") is None
    assert broken_link(page, "#slow-games-2") is not None
    assert broken_link(page, "#playing-on-discord") is not None
    assert broken_link(page, "other.md") is not None


def shown_commands(path: Path) -> list[tuple[str, list[str]]]:
    """Each command the file shows in its code blocks: the program and its words."""
    found = []
    for line in code_lines(path):
        if match := COMMAND.match(line.strip()):
            words = shlex.split(line.strip()[match.end() :], comments=True)
            found.append((match[1], words))
    return found


def refusal(program: str, words: list[str]) -> str | None:
    """Why the program's own parser refuses `words`; None when it accepts them."""
    try:
        if program == "lockdown":
            listing = chosen(words, COMMANDS)
            if listing is None:
                return "no such subcommand"
            build_parser(COMMANDS, {listing.name: load_command(listing)}).parse_args(words)
        elif program == "lockdown-bot":
            args = bot_parser().parse_args(words)
            if (args.command in WITH_FILE) != (args.file is not None):
                return "FILE is wrong for this command"
        elif words:
            return "lockdown-web takes no arguments"
    except SystemExit:
        return "refused by its argument parser"
    return None


def test_every_command_the_docs_show_exists(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's commands first (it shows both programs), then every doc's."""
    programs = {program for program, _ in shown_commands(README)}
    assert {"lockdown", "lockdown-bot"} <= programs
    problems = [
        f"{path.name}: {program} {' '.join(words)}: {why}"
        for path in DOCUMENTS
        for program, words in shown_commands(path)
        if (why := refusal(program, words))
    ]
    assert not problems, "\n".join(problems) + "\n" + capsys.readouterr().err


def test_a_wrong_command_is_caught() -> None:
    assert refusal("lockdown", ["play", "--teach"]) is None
    assert refusal("lockdown", ["play", "--no-such-flag"]) is not None
    assert refusal("lockdown", ["dance"]) is not None
    assert refusal("lockdown-bot", ["invite"]) is None
    assert refusal("lockdown-bot", ["backup"]) is not None
    assert refusal("lockdown-bot", ["deploy"]) is not None


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    """CI runs the README's test command exactly: they must not drift apart."""
    command = "uv run pytest -n 4"
    assert any(line.split("#")[0].strip() == command for line in code_lines(README))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in [line.strip() for line in ci]
