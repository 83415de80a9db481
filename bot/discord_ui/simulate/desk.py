"""`/lockdown simulate`: the variant simulator for a server's moderators, in Discord.

A moderator (Manage Server, checked here on every call) picks up to three of
the server's unlocked variants (several only if the server combines them),
a player count the rules allow and up to 2,000 games. The base rules and the chosen variants
are played on the same seeds in a separate process, never on the event loop:
one run per server at a time and at most `max_runs` on the whole bot, each
with a process of its own. The answer is edited every few seconds with the
games played, then replaced by the comparison table and its chart, in the
reader's language. Shrewd seats take the server's personas in turn, and the
answer says how each persona did: its wins, its lies, its gifts to friends.

The games are those of `lockdown simulate --seed 0`: the same figures can be
had on the command line.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.limits import ATTACHMENT_DESCRIPTION, EMBED_DESCRIPTION, EMBED_TITLE, fit
from bot.discord_ui.service import GameService, is_moderator, locale_lang
from bot.render.chart import Series, chart_png, chart_title, comparison_table
from bot.render.describe import chart_description
from bot.table.campaign import check_variant_choice, shown_params
from bot.table.lobby import LobbyError
from bot.table.server_book import ServerBook
from bot.texts import t
from bot.texts.catalog import Translate
from lockdown_core import facts, load_ruleset
from lockdown_core.ai.personas import PERSONAS
from lockdown_core.ai.simulation import Tally, simulate

log = logging.getLogger(__name__)

DEFAULT_GAMES = 500
MAX_GAMES = 2000
# R1.1: the seat counts of the base rules, which every run plays beside its variants'.
BASE_SEATS = facts.player_range(load_ruleset())
MIN_PLAYERS, MAX_PLAYERS = BASE_SEATS[0], BASE_SEATS[-1]
# Runs at once on the whole bot, each in a process of its own.
MAX_RUNS = 2
# Seconds between two edits of the progress message (Discord allows far more; readers
# need no more).
PROGRESS_SECONDS = 3.0
# Games per task sent to the run's process: the progress moves every CHUNK games.
CHUNK = 50
SEED = 0
# Each AI line-up and its words (spelled out, so that the catalog check sees every key).
AI_LABELS = {
    "random": "simulate.ai.random",
    "cautious": "simulate.ai.cautious",
    "shrewd": "simulate.ai.shrewd",
    "mix": "simulate.ai.mix",
}
ExecutorFactory = Callable[[], Executor]


def _process() -> Executor:
    """One fresh process per run, started with `spawn`: forking a process that runs an
    event loop and database threads could copy a lock held by one of them."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


class SimulationDesk:
    """Who is simulating what: refuses a second run on a server and runs past the cap."""

    def __init__(
        self,
        service: GameService,
        book: ServerBook,
        *,
        max_runs: int = MAX_RUNS,
        progress_every: float = PROGRESS_SECONDS,
        executor: ExecutorFactory = _process,
    ) -> None:
        self.service = service
        self.book = book
        self.max_runs = max_runs
        self.progress_every = progress_every
        self.executor = executor
        self.running: set[int] = set()

    async def simulate(
        self,
        interaction: discord.Interaction[Any],
        variants: Sequence[str],
        players: int,
        games: int,
        ai: str,
    ) -> None:
        guild = interaction.guild
        if guild is None or not is_moderator(interaction):
            log.info("user %s refused /lockdown simulate", interaction.user.id)
            await self.service.tell(interaction, "error.not_moderator")
            return
        if players not in BASE_SEATS:
            await self.service.tell(
                interaction, "simulate.players_range", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS
            )
            return
        if not 1 <= games <= MAX_GAMES:
            await self.service.tell(interaction, "simulate.games_range", maximum=MAX_GAMES)
            return
        if guild.id in self.running:
            await self.service.tell(interaction, "simulate.already")
            return
        if len(self.running) >= self.max_runs:
            await self.service.tell(interaction, "simulate.busy")
            return
        self.running.add(guild.id)
        try:
            await self._run(
                interaction, guild.id, list(dict.fromkeys(variants)), players, games, ai
            )
        finally:
            self.running.discard(guild.id)

    async def _run(
        self,
        interaction: discord.Interaction[Any],
        guild_id: int,
        variants: list[str],
        players: int,
        games: int,
        ai: str,
    ) -> None:
        await reply.defer(interaction, thinking=True)
        config = await self.book.config(guild_id)
        lang = locale_lang(interaction.locale, config.language)

        def say(key: str, **params: object) -> str:
            return t(lang, key, **params)

        unlocked = [s.key for s in await self.book.variants(guild_id) if s.unlocked]
        try:
            check_variant_choice(variants, unlocked, config.combine_variants)
        except LobbyError as exc:
            params = shown_params(lang, exc.params)
            await interaction.edit_original_response(content=say(exc.key, **params))
            return
        seats = facts.player_range(load_ruleset(tuple(variants)))
        if players not in seats:
            text = say("simulate.players_range", minimum=seats[0], maximum=seats[-1])
            await interaction.edit_original_response(content=text)
            return
        names = " + ".join(say(f"variant.{v}.name") for v in variants)
        started = say(
            "simulate.started",
            games=games,
            players=players,
            variants=names or say("simulate.no_variant"),
            ai=say(AI_LABELS[ai]),
        )
        personas = (config.ai_personas or tuple(PERSONAS)) if ai == "shrewd" else ()
        rulesets = [()] + ([tuple(variants)] if variants else [])
        total = games * len(rulesets)
        clock = time.monotonic()
        try:
            tallies = await self._play(
                interaction, started, say, rulesets, players, games, (ai, personas), total
            )
        except Exception:
            log.exception("server %s: /lockdown simulate failed", guild_id)
            await interaction.edit_original_response(content=say("simulate.failed"))
            return
        seconds = round(time.monotonic() - clock)
        series = [Series(say("chart.base"), tallies[0].summary())]
        if variants:
            series.append(Series(names, tallies[1].summary()))
        png = await asyncio.to_thread(chart_png, series, players, games, lang)
        lines = [
            say(
                "simulate.done",
                games=games,
                players=players,
                ai=say(AI_LABELS[ai]),
                seconds=seconds,
            )
        ]
        lines.extend(persona_lines(tallies[0], say))
        errors = sum(tally.errors for tally in tallies)
        if errors:
            lines.append(say("simulate.errors", errors=errors))
        embed = discord.Embed(
            title=fit(chart_title(series, players, games, say), EMBED_TITLE),
            description=fit(
                f"```\n{comparison_table(series, players, lang)}\n```", EMBED_DESCRIPTION
            ),
        )
        embed.set_image(url="attachment://simulation.png")
        await interaction.edit_original_response(
            content="\n".join(lines),
            embed=embed,
            attachments=[
                discord.File(
                    io.BytesIO(png),
                    filename="simulation.png",
                    description=fit(
                        chart_description(series, players, games, lang), ATTACHMENT_DESCRIPTION
                    ),
                )
            ],
        )

    async def _play(
        self,
        interaction: discord.Interaction[Any],
        started: str,
        say: Translate,
        rulesets: list[tuple[str, ...]],
        players: int,
        games: int,
        line_up: tuple[str, tuple[str, ...]],
        total: int,
    ) -> list[Tally]:
        """Every ruleset's games in chunks on the run's own process, the message edited
        with the count every `progress_every` seconds; tallies merged in game order.
        `line_up`: the AI level, and the personas its shrewd seats take in turn."""
        ai, personas = line_up
        done = 0
        shown = -1
        finished = asyncio.Event()

        async def report() -> None:
            nonlocal shown
            while not finished.is_set():
                if done != shown:
                    shown = done
                    text = f"{started}\n{say('simulate.progress', done=done, total=total)}"
                    try:
                        await interaction.edit_original_response(content=text)
                    except discord.HTTPException:
                        log.warning("simulate: progress not shown", exc_info=True)
                # Not wait_for: on Python 3.11 it can swallow a cancellation as it times out.
                waiter = asyncio.ensure_future(finished.wait())
                try:
                    await asyncio.wait({waiter}, timeout=self.progress_every)
                finally:
                    waiter.cancel()

        reporter = asyncio.create_task(report())
        pool = self.executor()
        try:
            parts: list[list[Future[Tally]]] = []
            for variants in rulesets:
                rules = load_ruleset(variants)
                parts.append(
                    [
                        pool.submit(
                            simulate,
                            rules,
                            players,
                            ai,
                            min(CHUNK, games - first),
                            SEED,
                            None,
                            first,
                            personas,
                        )
                        for first in range(0, games, CHUNK)
                    ]
                )
            for future in asyncio.as_completed(
                [asyncio.wrap_future(f) for chunks in parts for f in chunks]
            ):
                done += (await future).games
        finally:
            finished.set()
            pool.shutdown(wait=False, cancel_futures=True)
            await reporter
        tallies = []
        for chunks in parts:
            tally = Tally(players)
            for chunk in chunks:
                tally.merge(chunk.result())
            tallies.append(tally)
        return tallies


def persona_lines(tally: Tally, say: Translate) -> list[str]:
    """How each persona of a shrewd line-up did, in whole percents: its share of the wins
    per seat and game, how often it lied when it announced, and how many of its gifts
    went to friends."""
    lines = []
    for kind in sorted(tally.behaviour_by_kind):
        persona = kind.partition(":")[2]
        if not persona:
            continue
        deeds = tally.behaviour_by_kind[kind]
        seats = tally.seats_by_kind[kind]
        lines.append(
            say(
                "simulate.persona",
                persona=say(f"ai_personas.{persona}.name"),
                wins=_percent(tally.wins_by_kind.get(kind, 0.0), seats),
                lies=_percent(deeds["lies"], deeds["announcements"]),
                friends=_percent(deeds["ally_gifts"], deeds["gifts"]),
            )
        )
    return lines


def _percent(part: float, whole: float) -> int:
    return round(100 * part / whole) if whole else 0
