"""CHANGELOG.md says, for every release, whether it migrates the database.

An operator reads it before upgrading: a release that migrates needs a backup
first, because the older release refuses the newer schema. A migration added
without a changelog line would upgrade someone's database unannounced.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = ROOT / "CHANGELOG.md"
VERSIONS = ROOT / "bot" / "storage" / "migrations" / "versions"

MIGRATES = "**Database: migrates**"
NO_MIGRATION = "**Database: no migration**"


def releases() -> dict[str, str]:
    """Each `## ` section of the changelog: its title -> its text."""
    parts = re.split(r"^## (.+)$", CHANGELOG.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def revisions() -> list[str]:
    found = []
    for path in sorted(VERSIONS.glob("*.py")):
        match = re.search(r"^Revision ID: (\S+)$", path.read_text(encoding="utf-8"), re.M)
        assert match, f"{path.name} names no revision"
        found.append(match.group(1))
    return found


def test_every_release_says_whether_it_migrates() -> None:
    sections = releases()
    assert "Unreleased" in sections
    for title, text in sections.items():
        assert (MIGRATES in text) != (NO_MIGRATION in text), title


def test_every_revision_is_listed_under_a_release_that_migrates() -> None:
    listed = {
        revision
        for text in releases().values()
        if MIGRATES in text
        for revision in re.findall(r"^- (\w+) \(", text, re.M)
    }
    assert revisions(), "the migrations folder was read"
    assert set(revisions()) <= listed


def test_the_next_release_names_the_schema_it_brings_or_keeps() -> None:
    head = revisions()[-1]
    text = releases()["Unreleased"]
    assert f"- {head} (" in text if MIGRATES in text else f"revision {head}" in text
