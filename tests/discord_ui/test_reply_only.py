"""Every interaction is answered through `bot.discord_ui.reply`, which holds the lock its
watch shares: a handler that called `interaction.response.send_message`, `edit_message`,
`defer` or `send_modal` itself could race the watch's deferral (and fail with "already
responded") or answer late. Checked on the source, and on a planted violation."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.syntax import parse

REPO = Path(__file__).resolve().parents[2]
REPLY = REPO / "bot" / "discord_ui" / "reply.py"
# What only the reply module may call on an interaction's `response`.
ANSWERS = frozenset({"send_message", "edit_message", "defer", "send_modal"})


def answers_outside_reply(source: str) -> list[str]:
    """`line: call` for each answer made on a `response` (directly, or through a name
    it was given to) in `source`."""
    tree = parse(source)
    aliases = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "response"
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr not in ANSWERS:
            continue
        owner = node.func.value
        on_response = isinstance(owner, ast.Attribute) and owner.attr == "response"
        if on_response or (isinstance(owner, ast.Name) and owner.id in aliases):
            found.append((node.lineno, f"{node.lineno}: {ast.unparse(node.func)}"))
    return [line for _, line in sorted(found)]


def test_only_the_reply_module_answers_an_interaction() -> None:
    problems = [
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted((REPO / "bot").rglob("*.py"))
        if path != REPLY
        for line in answers_outside_reply(path.read_text(encoding="utf-8"))
    ]
    assert problems == []


def test_the_reply_module_is_where_the_answers_are() -> None:
    """The check looks at the right calls: the reply module makes each answer it keeps."""
    made = {line.rsplit(".", 1)[1] for line in answers_outside_reply(REPLY.read_text())}
    assert made == {"send_message", "edit_message", "defer"}


def test_a_handler_that_answers_itself_is_found() -> None:
    planted = """
async def show(interaction, text):
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
    response = interaction.response
    await response.defer(thinking=True)
    await interaction.response.edit_message(content=text)
    await interaction.followup.send(text)
"""
    assert answers_outside_reply(planted) == [
        "4: interaction.response.send_message",
        "6: response.defer",
        "7: interaction.response.edit_message",
    ]
