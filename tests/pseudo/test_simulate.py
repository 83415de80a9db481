"""`lockdown simulate` in the pseudo-locale: its report and its errors are catalog texts."""

from __future__ import annotations

import pytest

from bot.cli import main as cli
from tests.pseudo import leaks

SIMULATE = tuple(listing for listing in cli.COMMANDS if listing.name == "simulate")
# The program's name, before an error, is a command to type, not a word to translate.
PROGRAM = "lockdown simulate"


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "12", "--players", "5", "--ai", "mix", "--variant", "hush"],
        ["--list-variants"],
        ["--games", "1", "--variant", "spare_key"],
    ],
)
def test_the_report_and_its_errors_read_only_catalog_texts(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cli.dispatch(["simulate", *argv, "--lang", "en-XA"], SIMULATE)
    out = capsys.readouterr()
    assert leaks(out.out + out.err, [PROGRAM]) == []


def test_the_report_lists_its_variants_as_the_language_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The variants played: CLDR's list (its plain 'and'), not a ', '.join of catalog
    texts."""
    argv = ["--games", "2", "--players", "4", "--variant", "hush", "--variant", "overrun"]
    cli.dispatch(["simulate", *argv, "--lang", "en-XA"], SIMULATE)
    assert " and " in capsys.readouterr().out.splitlines()[0]
