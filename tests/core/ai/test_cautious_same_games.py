"""The cautious AI makes exactly the choices it made before it was made faster (issue 17).

`fixtures/cautious_games.txt` holds one hash per game of every action taken,
recorded with the AI as it was before its speed-up, under rules revision 2;
the first 200 games are played again here with today's AI (the bench plays
all 2,000). If a rule change alters the games themselves, record the file
again from a commit whose AI is the reference, which the bench loads from
git: `uv run python bench/cautious_bench.py --record FILE --ref COMMIT`.
"""

from __future__ import annotations

from pathlib import Path

from bench.cautious_bench import play_all, read_hashes
from lockdown_core.ai import CautiousPlayer

RECORDED = Path(__file__).parent / "fixtures" / "cautious_games.txt"
GAMES = 200


def test_the_cautious_ai_plays_the_recorded_games_again() -> None:
    recorded = read_hashes(RECORDED)[:GAMES]
    played, _, _ = play_all(CautiousPlayer, GAMES)
    differ = [
        game for game, (old, new) in enumerate(zip(recorded, played, strict=True)) if old != new
    ]
    assert differ == []
