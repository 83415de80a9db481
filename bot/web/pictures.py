"""The board of a step as the thread drew it: the renderer's PNG of the public view.

Drawn from `Step.board` (`view(state, None)`) and the seats' names alone, so a
picture holds what the thread's board message held and nothing of a hand or a
secret destination. Tens of milliseconds each: the server draws them in a
thread and keeps the latest ones (a finished game's pictures never change).
"""

from __future__ import annotations

from bot.render.glyphs import BOLD, drawable
from bot.render.labels import board_png
from bot.texts import t
from bot.web.story import Story


def drawn_names(story: Story) -> list[str]:
    """Each seat's name as the font can draw it, else the seat's label ("Seat 3")."""
    return [
        drawable(name, t(story.lang, "board.seat", number=seat + 1), BOLD)
        for seat, name in enumerate(story.names)
    ]


def step_png(story: Story, number: int) -> bytes:
    """The PNG of step `number`'s public board, in the game's language."""
    lang = story.lang
    return board_png(
        story.steps[number].board,
        story.rules,
        drawn_names(story),
        lambda key, **params: t(lang, key, **params),
    )
