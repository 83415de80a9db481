"""The README's pictures of the Discord side, drawn from what the bot really sends.

Run: `uv run python docs/pictures/discord_side.py [FOLDER]` (FOLDER: `docs` by default).

The bot plays on the fake Discord of the tests (`tests/fakediscord/`), the way
the end-to-end tests start a game: three people open a lobby, add an AI seat
and start, then click in their private panels until the table votes. What the
bot sent is read back from the fake, the payloads exactly as Discord would
receive them: the lobby card before Start, the board message at the vote with
its buttons, and the private "My hand" panel of a person who must vote. Each
is laid out as a page in Discord's dark theme (the embed's colour bar, the
buttons with their labels and styles, the attached board picture), and
headless Chromium (Debian's `chromium` and `chromium-driver`) screenshots it as
`discord-lobby.png`, `discord-board.png` and `discord-panel.png`.

The game is dealt from a fresh seed at each run, so each run shows another
game; what the pictures show of the bot's messages is never drawn by hand.
"""

from __future__ import annotations

import asyncio
import base64
import html
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lockdown_core import Step, pending_seats
from tests.discord_ui.players import Game, click_a_choice, open_panel
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeMessage
from tests.fakediscord.server import serve

Json = dict[str, Any]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WIDTH = 860  # about a desktop client's message column

# Discord's dark theme: button styles 1 to 4 and 5 (a link), and the page.
BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
STYLE = """
body { margin: 0; background: #313338; color: #dbdee1; width: %(width)dpx;
  font: 16px/1.375 "DejaVu Sans", "Noto Sans", sans-serif; }
.message { display: flex; gap: 16px; padding: 12px 16px 14px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%%; background: #5865f2;
  color: #fff; font-weight: bold; font-size: 18px; display: flex; align-items: center;
  justify-content: center; }
.body { min-width: 0; flex: 1; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 3px;
  padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.when { color: #949ba4; font-size: 12px; margin-left: 6px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.embed { display: grid; max-width: 520px; margin-top: 4px; background: #2b2d31;
  border-left: 4px solid #1e1f22; border-radius: 4px; padding: 8px 16px 16px 12px; }
.embed .title { color: #f2f3f5; font-weight: 600; margin-top: 8px; }
.embed .description, .embed .field { font-size: 14px; margin-top: 8px; }
.embed .name { color: #f2f3f5; font-weight: 600; }
.embed img { max-width: 100%%; border-radius: 4px; margin-top: 16px; }
.embed .footer { color: #b5bac1; font-size: 12px; margin-top: 8px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { color: #fff; border-radius: 3px; padding: 2px 16px; min-height: 32px; font-size: 14px;
  font-weight: 500; display: flex; align-items: center; }
.button.off { opacity: .5; }
.select { width: 400px; background: #1e1f22; border-radius: 4px; padding: 8px 12px;
  color: #949ba4; font-size: 14px; display: flex; justify-content: space-between; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; }
.time { background: rgba(255, 255, 255, .06); border-radius: 3px; padding: 0 2px; }
code { background: #1e1f22; border-radius: 3px; padding: 0 3px; font-size: 85%%; }
.subtext { color: #949ba4; font-size: 13px; }
.only-you { color: #949ba4; font-size: 12px; margin-top: 6px; }
.only-you b { color: #00a8fc; font-weight: normal; }
"""


@dataclass
class Shot:
    """One message as its reader sees it, with what its markup needs to be read."""

    message: FakeMessage
    names: dict[int, str]  # user and channel ids, for <@id> and <#id>
    author: str


async def play_until_a_vote(folder: Path) -> tuple[Shot, Shot, Shot]:
    """The lobby card, the board at the table's first designation vote, and the panel
    of a person that vote waits for."""
    fake = FakeDiscord()
    async with serve(fake):
        guild = fake.create_guild("Club", members=["Ana", "Bo", "Cy"], channels=("game-night",))
        host, *guests = guild.members
        names = {user.id: user.name for user in guild.members}
        names |= {channel.id: channel.name for channel in guild.channels}
        # Real time: the timers never move the game while the people click.
        async with start_client(make_bot(folder, speed=1.0), fake) as bot:
            await fake.slash(
                host, "lockdown", subcommand="new", channel=guild.channel("game-night")
            )
            await fake.wait_until(lambda: bool(fake.threads()), within=10)
            thread = fake.threads()[-1]
            await fake.wait_until(lambda: bool(fake.messages(thread)), within=10)
            lobby = fake.messages(thread)[0]
            for guest in guests:
                await fake.click(guest, lobby, lobby_button(lobby, ":join"))
            await fake.click(host, lobby, lobby_button(lobby, ":ai"))
            await fake.settle()
            lobby_shot = Shot(snapshot(lobby), names, fake.world.bot.name)
            await fake.click(host, lobby, lobby_button(lobby, ":start"))
            await fake.wait_until(lambda: bot.hub.table_in(thread.id) is not None, within=10)
            table = bot.hub.table_in(thread.id)
            assert table is not None
            people = {s.seat: u for s in table.seats for u in guild.members if s.user_id == u.id}
            game = Game(fake, bot, thread, table, people)
            await fake.wait_until(lambda: has_board(fake, thread.id), within=10)
            rng = random.Random(7)
            deadline = time.monotonic() + 120
            while table.state.step != Step.DESIGNATION:
                assert time.monotonic() < deadline, f"no vote came, at {table.state.step}"
                waiting = [seat for seat in pending_seats(table.state) if seat in people]
                if waiting:
                    await click_a_choice(game, people[rng.choice(waiting)], rng)
                else:
                    await asyncio.sleep(0.05)
            await fake.settle(quiet=0.5)
            board_shot = Shot(snapshot(game.board()), names, fake.world.bot.name)
            voter = next(seat for seat in pending_seats(table.state) if seat in people)
            panel = await open_panel(game, people[voter])
            assert panel is not None
            panel_shot = Shot(snapshot(panel), names, fake.world.bot.name)
    return lobby_shot, board_shot, panel_shot


def has_board(fake: FakeDiscord, thread_id: int) -> bool:
    return any(a.filename == "board.png" for m in fake.messages(thread_id) for a in m.attachments)


def lobby_button(lobby: FakeMessage, ending: str) -> str:
    return next(str(b.custom_id) for b in lobby.buttons if str(b.custom_id).endswith(ending))


def snapshot(message: FakeMessage) -> FakeMessage:
    """The message as it is now: later edits (the lobby becoming the game) leave it."""
    return FakeMessage(
        id=message.id,
        channel_id=message.channel_id,
        author_id=message.author_id,
        versions=[message.current],
        visible_to=message.visible_to,
    )


# -- Discord's markup, as its client shows it -------------------------------------------


def inline(text: str, names: dict[int, str]) -> str:
    """Mentions, timestamps, code, bold, italics and underlines of one line."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(names.get(int(m[1]), "someone"))}</span>',
        out,
    )
    out = re.sub(
        r"&lt;#(\d+)&gt;",
        lambda m: f'<span class="mention">#{html.escape(names.get(int(m[1]), "channel"))}</span>',
        out,
    )
    out = re.sub(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;", lambda m: timestamp(int(m[1]), m[2]), out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    return re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<i>\1</i>", out)


def timestamp(seconds: int, style: str | None) -> str:
    """`<t:N:R>` as "in 2 minutes" from now; any other style as a date and time."""
    moment = datetime.fromtimestamp(seconds, UTC)
    if style == "R":
        delta = round(seconds - time.time())
        amount, unit = next(
            (round(abs(delta) / size), unit)
            for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second"))
            if abs(delta) >= size or unit == "second"
        )
        words = f"{amount} {unit}{'' if amount == 1 else 's'}"
        shown = f"in {words}" if delta >= 0 else f"{words} ago"
    else:
        shown = moment.strftime("%d %B %Y %H:%M")
    return f'<span class="time">{shown}</span>'


def markdown(text: str, names: dict[int, str]) -> str:
    """Discord's block markup, line by line: headings, subtext, quotes, bullets."""
    lines = []
    for line in text.split("\n"):
        if match := re.match(r"(#{1,3}) (.*)", line):
            size = {1: 24, 2: 20, 3: 16}[len(match[1])]
            lines.append(f'<b style="font-size:{size}px">{inline(match[2], names)}</b>')
        elif line.startswith("-# "):
            lines.append(f'<span class="subtext">{inline(line[3:], names)}</span>')
        elif line.startswith("> "):
            lines.append(
                f'<span style="border-left:4px solid #4e5058;padding-left:8px">'
                f"{inline(line[2:], names)}</span>"
            )
        elif match := re.match(r"[-*] (.*)", line):
            lines.append(f"• {inline(match[1], names)}")
        else:
            lines.append(inline(line, names))
    return "<br>".join(lines)


def embed_html(embed: Json, shot: Shot) -> str:
    names = shot.names
    colour = f"#{embed['color']:06x}" if "color" in embed else "#1e1f22"
    parts = [f'<div class="embed" style="border-left-color:{colour}">']
    if title := embed.get("title"):
        parts.append(f'<div class="title">{inline(title, names)}</div>')
    if description := embed.get("description"):
        parts.append(f'<div class="description">{markdown(description, names)}</div>')
    for field in embed.get("fields", []):
        parts.append(
            f'<div class="field"><div class="name">{inline(field["name"], names)}</div>'
            f"<div>{markdown(field['value'], names)}</div></div>"
        )
    if image := embed.get("image"):
        parts.append(image_html(image["url"], shot))
    if footer := embed.get("footer"):
        parts.append(f'<div class="footer">{inline(footer["text"], names)}</div>')
    parts.append("</div>")
    return "".join(parts)


def image_html(url: str, shot: Shot) -> str:
    """An `attachment://NAME` picture, from the bytes the bot uploaded."""
    name = url.removeprefix("attachment://")
    for attachment in shot.message.attachments:
        if attachment.filename == name:
            data = base64.b64encode(attachment.data).decode()
            alt = html.escape(attachment.description or "")
            return f'<img alt="{alt}" src="data:{attachment.content_type};base64,{data}">'
    raise ValueError(f"the embed shows {url}, which the message does not carry")


def component_html(component: Json) -> str:
    kind = component["type"]
    if kind == 1:
        return (
            f'<div class="row">{"".join(component_html(c) for c in component["components"])}</div>'
        )
    if kind == 2:
        off = " off" if component.get("disabled") else ""
        colour = BUTTON_COLOURS.get(component.get("style", 1), "#4e5058")
        emoji = (component.get("emoji") or {}).get("name", "")
        label = html.escape(" ".join(p for p in (emoji, component.get("label", "")) if p))
        arrow = " ↗" if component.get("style") == 5 else ""
        return f'<div class="button{off}" style="background:{colour}">{label}{arrow}</div>'
    if kind in (3, 5, 6, 7, 8):
        chosen = [o["label"] for o in component.get("options", []) if o.get("default")]
        shown = ", ".join(chosen) or component.get("placeholder", "")
        return f'<div class="select"><span>{html.escape(shown)}</span><span>⌄</span></div>'
    raise ValueError(f"no drawing for component type {kind}")


def page(shot: Shot) -> str:
    """The message in a page of Discord's dark theme."""
    message = shot.message
    parts = [
        f"<!doctype html><meta charset='utf-8'><style>{STYLE % {'width': WIDTH}}</style>",
        '<div class="message"><div class="avatar">',
        html.escape(shot.author[:1]),
        '</div><div class="body"><div>',
        f'<span class="author">{html.escape(shot.author)}</span><span class="tag">APP</span>',
        '<span class="when">Today at 21:04</span></div>',
    ]
    if message.content:
        parts.append(f'<div class="content">{markdown(message.content, shot.names)}</div>')
    parts += [embed_html(embed, shot) for embed in message.embeds]
    parts += [component_html(component) for component in message.components]
    if message.ephemeral:
        parts.append('<div class="only-you">Only you can see this · <b>Dismiss message</b></div>')
    parts.append("</div></div>")
    return "".join(parts)


def screenshot(pages: dict[str, str], folder: Path) -> None:
    """Each page through headless Chromium, cut to the message's height."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.add_argument(f"--window-size={WIDTH},600")
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for name, markup in pages.items():
                source = Path(scratch) / f"{name}.html"
                source.write_text(markup, encoding="utf-8")
                driver.get(source.as_uri())
                height = driver.execute_script("return document.body.scrollHeight")
                driver.set_window_size(
                    WIDTH,
                    height
                    + (
                        driver.get_window_size()["height"]
                        - driver.execute_script("return window.innerHeight")
                    ),
                )
                body = driver.find_element("tag name", "body")
                body.screenshot(str(folder / f"{name}.png"))
                print(f"wrote {folder / f'{name}.png'}")
    finally:
        driver.quit()


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("docs")
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        print(
            "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        )
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        lobby, board, panel = asyncio.run(play_until_a_vote(Path(scratch)))
    shots = {"discord-lobby": lobby, "discord-board": board, "discord-panel": panel}
    screenshot({name: page(shot) for name, shot in shots.items()}, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
