"""`lockdown play` and `lockdown simulate` in the pseudo-locale: no word written in code."""

from __future__ import annotations

import itertools

from bot.cli.play import play_game
from tests.pseudo import leaks

# Wrong keys first (each is answered with a catalog text), then the board, the hand and
# the rules, then a choice every menu accepts: Done is 0, a list starts at 1.
ANSWERS = ["x", "99", "b", "h", "r"]
ANY_CHOICE = [str(n) for n in range(7)]


async def test_a_terminal_game_reads_only_catalog_texts() -> None:
    lines: list[str] = []
    answers = itertools.chain(ANSWERS, itertools.cycle(ANY_CHOICE))

    async def read_line() -> str:
        return next(answers)

    table = await play_game(4, 0, 42, "en-XA", "random", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    # Whole, since the terminal wraps a long text over lines.
    assert leaks("\n".join(lines)) == []
