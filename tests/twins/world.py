"""One of the twin worlds: a bot on the fake Discord (in process, `wire`), a clock that
moves only between moves, and scripted people, playing a `Plan`.

Everything a world does is decided by the plan's seed and by what the acting person is
shown, never by the hidden thing (see `Hidden`), so two worlds whose people see the same
things make the same moves. After each move (a person's click, or one timer: an AI
seat, a deadline, a reminder) the bot is left to finish, then the requests it made are
handed to the people who see them (`Streams`) and what the rules let each seat know is
fingerprinted (`Knowledge`).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.codes import encode
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import Event, legal_actions, pending_seats
from lockdown_core.actions import PlayCard
from lockdown_core.view import view
from tests.fakediscord import FakeDiscord
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeMessage, FakeUser
from tests.fakediscord.wiring import wire
from tests.twins.clock import ManualScheduler, Quiet
from tests.twins.hidden import Hidden
from tests.twins.observe import Seen, Streams
from tests.twins.plan import Plan

TALK_KINDS = frozenset(("ai_remark", "ai_why"))


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()


@dataclass
class Knowledge:
    """After one move: a fingerprint of what the rules show everyone, and of what they
    show each seat besides (its view and the private events it was told so far)."""

    public: str
    seats: list[str]


@dataclass
class Record:
    """What one world produced: each person's stream, what the rules let each seat
    know after each move, who held which seat, and who moved."""

    plan: Plan
    world: str
    streams: dict[str, list[Seen]]
    knowledge: list[Knowledge] = field(default_factory=list)
    holders: list[dict[str, int]] = field(default_factory=list)  # person -> seat
    movers: list[str] = field(default_factory=list)
    holders_at_start: dict[str, int] = field(default_factory=dict)
    # The AI seats' choices, by the move they were made in: "seat:code".
    ai_moves: dict[int, list[str]] = field(default_factory=dict)
    finished: bool = False


class _Events:
    """The core's events shown so far: public ones, and each seat's private ones."""

    def __init__(self, players: int) -> None:
        self.public: list[Any] = []
        self.private: list[list[Any]] = [[] for _ in range(players)]

    def add(self, events: list[Event]) -> None:
        for event in events:
            if event.kind in TALK_KINDS:
                continue  # the bot's table talk, not the rules' news: compared as seen
            if event.to is None:
                self.public.append((event.kind, event.data))
            else:
                for seat in event.to:
                    self.private[seat].append((event.kind, event.data))


def make_bot(folder: Path, scheduler: ManualScheduler) -> LockdownBot:
    url = f"sqlite+aiosqlite:///{folder / 'lockdown.db'}"
    # GIFs drawn in threads: a drawing process would be one more clock to wait for.
    settings = Settings(discord_token="fake-bot-token", database_url=url, drawing_workers=0)
    return LockdownBot(
        settings,
        scheduler=scheduler,
        config=TableConfig(ai_delay=2.0),
        batch_delay=0.0,
        edit_interval=0.0,
    )


@contextmanager
def _seeded(plan: Plan) -> Iterator[None]:
    """The game's and the AI seats' seeds from the plan's, the same in both worlds; and no
    answer deferred for the machine's pace (a busy machine is no hidden thing)."""
    seeds = itertools.count(plan.seed * 1000 + 1)
    with ExitStack() as stack:
        # The deal's and every AI seat's seed (`secrets.randbits` in the hub and ai_seats).
        stack.enter_context(mock.patch("secrets.randbits", side_effect=lambda _bits: next(seeds)))
        stack.enter_context(mock.patch("bot.discord_ui.reply.DEFER_AFTER", 3600.0))
        yield


class World:
    def __init__(
        self, plan: Plan, world: str, folder: Path, hidden: Hidden, twin_of: Record | None = None
    ) -> None:
        self.plan = plan
        self.twin_of = twin_of
        self.world = world
        self.folder = folder
        self.hidden = hidden
        self.rng = random.Random(f"{plan.seed}/moves")
        self.fake = FakeDiscord()
        self.fake.interaction_deadline = None
        names = ["ana", "bo", "cy", "dee", "eve"][: plan.people + plan.newcomers]
        guild = self.fake.create_guild(
            "Club", members=names, channels=("general",), member_locale=None
        )
        self.guild = guild
        self.users: list[FakeUser] = guild.members
        for user in self.users:
            user.locale = "fr" if plan.lang == "fr" else "en-US"
        self.scheduler = ManualScheduler()
        self.quiet = Quiet()
        self.streams = Streams(self.fake, [u.id for u in self.users])
        self.record = Record(plan, world, {u.name: self.streams.seen[u.id] for u in self.users})
        self.tick = 0
        self.table: Table | None = None
        self.bot: LockdownBot | None = None
        self.events: _Events | None = None
        self._timer = ""
        self._looked = -1  # the game's version at the learner's latest look (`_look`)

    # Running ---------------------------------------------------------------------------

    async def run(self) -> Record:
        loop = asyncio.get_running_loop()
        with _seeded(self.plan), self.hidden.applied(), self.quiet.watching(loop):
            bot = make_bot(self.folder, self.scheduler)
            async with wire(bot, self.fake):
                await self._settle("setup")
                await self._open(bot)
                await self._play()
            self.fake.assert_no_contract_violations()
        return self.record

    async def _settle(self, mover: str) -> None:
        await self.quiet.wait()
        self.streams.take(self.tick)
        self.record.movers.append(mover)
        self.record.knowledge.append(self._knowledge())
        self.record.holders.append(self._holders())
        self.tick += 1

    def _knowledge(self) -> Knowledge:
        table = self.table
        if table is None or self.events is None:
            return Knowledge("", [])
        state = table.state
        public = _digest([view(state, None), self.events.public])
        seats = [
            _digest([view(state, seat), self.events.private[seat]]) for seat in range(state.players)
        ]
        return Knowledge(public, seats)

    def _holders(self) -> dict[str, int]:
        if self.table is None:
            return {}
        held = {}
        for user in self.users:
            seat = self.table.seat_of(user.id)
            if seat is not None:
                held[user.name] = seat.seat
        return held

    async def _command(self, subcommand: str, options: dict[str, Any], what: str) -> None:
        general = self.guild.channel("general")
        ix = await self.fake.slash(
            self.users[0], "lockdown", subcommand=subcommand, options=options, channel=general
        )
        # A command that said "thinking" first is over when its answer replaced it.
        await self.fake.wait_until(lambda: ix.original is None or not ix.original.loading, 10)
        await self._settle(what)

    async def _configure(self) -> None:
        """The server's settings, as its owner (the host) sets them."""
        plan = self.plan
        settings = {"language": plan.lang, "ai_level": plan.ai_level}
        if plan.personas:
            settings["ai_personas"] = " ".join(plan.personas)
        if plan.approval:
            settings["takeover_approval"] = "yes"
        for variant in plan.variants:
            options = {"variant": variant, "state": "unlock"}
            await self._command("config variant", options, f"unlock {variant}")
        if plan.variants:
            settings["variants_offered"] = " ".join(plan.variants)
            settings["combine_variants"] = "on"
        for key, value in settings.items():
            await self._command("config set", {"setting": key, "value": value}, f"config {key}")

    async def _open(self, bot: LockdownBot) -> None:
        plan, fake = self.plan, self.fake
        host = self.users[0]
        await self._configure()
        if plan.practice:
            await self._command("practice", {"opponents": plan.ai}, "practice")
            self.thread = fake.threads()[-1]
        else:
            options: dict[str, Any] = {} if plan.hours is None else {"hours": plan.hours}
            await self._command("new", options, "new")
            self.thread = fake.threads()[-1]
            lobby = fake.messages(self.thread)[0]
            lobby_id = self._lobby_button(lobby, "join").split(":")[2]
            if plan.variants:
                await fake.select(host, lobby, f"ld:v:{lobby_id}", list(plan.variants))
                await self._settle("variants")
            for guest in self.users[1 : plan.people]:
                await fake.click(guest, lobby, self._lobby_button(lobby, "join"))
                await self._settle(f"join {guest.name}")
            for _ in range(plan.ai):
                await fake.click(host, lobby, self._lobby_button(lobby, "ai"))
                await self._settle("add AI")
            await fake.click(host, lobby, self._lobby_button(lobby, "start"))
            await self.quiet.wait()
        table = bot.hub.table_in(self.thread.id)
        assert table is not None, f"the game did not start\n{plan.replay()}"
        self.table = table
        self.bot = bot
        self.events = _Events(table.state.players)
        self._watch(table)
        await self._settle("start")
        self.record.holders_at_start = self._holders()

    @staticmethod
    def _lobby_button(lobby: FakeMessage, op: str) -> str:
        return next(str(b.custom_id) for b in lobby.buttons if str(b.custom_id).endswith(f":{op}"))

    def _watch(self, table: Table) -> None:
        """Note the events the table shows (the opening ones are in its public log)."""
        events = self.events
        assert events is not None
        events.add(list(table.public_log))
        show = table._show

        async def shown(new: list[Event], notices: list[Any]) -> None:
            events.add(new)
            await show(new, notices)

        table._show = shown  # type: ignore[method-assign,assignment]
        ai_turn, expire = table.ai_turn, table.expire

        async def ai_played(index: int, token: str) -> None:
            self._timer = f"timer: seat {index}'s AI"
            await ai_turn(index, token)

        async def expired(token: str) -> None:
            self._timer = "timer: the step's deadline"
            await expire(token)

        table.ai_turn = ai_played  # type: ignore[method-assign]
        table.expire = expired  # type: ignore[method-assign]
        choose = table.players.choose

        def chosen(index: int, state: Any, legal: list[Any]) -> Any:
            action = choose(index, state, legal)
            made = self.record.ai_moves.setdefault(len(self.record.movers), [])
            made.append(f"{index}:{encode(action, state.rules)}")
            return action

        table.players.choose = chosen  # type: ignore[method-assign]

    # The people -------------------------------------------------------------------------

    async def _play(self) -> None:
        table = self.table
        assert table is not None
        ops = {op.tick: op for op in self.plan.ops}
        for move in range(self.plan.max_ticks):
            assert self.bot is not None
            if table.finished or table.game_id not in self.bot.hub.tables:
                self.record.finished = True
                return
            if self._parted() or self.hidden.revealed(self):
                return  # from here on the worlds rightly differ for everyone
            op = ops.get(move)
            if op is not None:
                await self._op(op)
                continue
            waiting = self._waiting()
            if waiting and (self.rng.random() < self.plan.act_rate or not self.scheduler.pending()):
                user = self.rng.choice(waiting)
                await self._act(user)
                continue
            self._timer = "timer: a reminder"
            if not await self.scheduler.fire_next():
                return
            await self._settle(self._timer)
            await self._look()
        self.record.finished = table.finished

    async def _look(self) -> None:
        """In a practice game, the learner opens their panel whenever the game moved on
        without them: its lessons and the AI seats' reasons are read as they come, not
        only when the learner has a choice to make."""
        table = self.table
        assert table is not None
        if not self.plan.practice or table.finished or table.state.version == self._looked:
            return
        self._looked = table.state.version
        await self._panel(self.users[0])

    def _parted(self) -> bool:
        """World B, once the rules show everyone something that differs from world A."""
        twin = self.twin_of
        if twin is None:
            return False
        tick = len(self.record.knowledge) - 1
        if tick >= len(twin.knowledge):
            return True
        return self.record.knowledge[tick].public != twin.knowledge[tick].public

    def _waiting(self) -> list[FakeUser]:
        table = self.table
        assert table is not None
        waiting = []
        idle = {self.users[i].id for i in self.plan.idle}
        for user in self.users:
            if user.id in idle:
                continue
            seat = table.seat_of(user.id)
            if seat is None or seat.played_by_ai or seat.away:
                continue
            if seat.seat in pending_seats(table.state):
                waiting.append(user)
        return waiting

    def board(self) -> FakeMessage:
        for message in reversed(self.fake.messages(self.thread)):
            if any(a.filename == "board.png" for a in message.attachments):
                return message
        raise AssertionError("no board in the thread")

    async def _panel(self, user: FakeUser) -> FakeMessage | None:
        table = self.table
        assert table is not None
        ix = await self.fake.click(user, self.board(), f"ld:h:{table.game_id}")
        await self._settle(f"{user.name} opens the hand")
        if ix.response_type is not CallbackType.DEFERRED_UPDATE_MESSAGE:
            return ix.original
        panels = [m for m in self.fake.ephemerals(user) if m.buttons and not m.deleted]
        return panels[-1] if panels else None

    async def _click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> FakeMessage:
        ix = await self.fake.click(user, message, custom_id)
        await self._settle(f"{user.name} clicks {custom_id.split(':')[-1]}")
        return ix.original or ix.message or message

    async def _act(self, user: FakeUser) -> None:
        table = self.table
        assert table is not None
        seat = table.seat_of(user.id)
        assert seat is not None
        code = self.hidden.code_for(self, seat.seat)
        panel = await self._panel(user)
        if code == "":
            return  # nothing the holder may do the same in both worlds
        if code is None:
            await self._choose_on_panel(user, panel)
        else:
            await self._choose_code(user, panel, code)

    async def _choose_on_panel(self, user: FakeUser, panel: FakeMessage | None) -> None:
        """A person who knows nothing hidden differs: any choice their panel offers."""
        for _ in range(4):
            if panel is None:
                return
            choices = [
                b.custom_id
                for b in panel.buttons
                if str(b.custom_id).startswith(("ld:a:", "ld:g:"))
            ]
            if not choices:
                return
            custom_id = str(self.rng.choice(choices))
            panel = await self._click(user, panel, custom_id)
            if custom_id.startswith("ld:a:"):
                return

    async def _choose_code(self, user: FakeUser, panel: FakeMessage | None, code: str) -> None:
        """The secret's holder plays the action `code`, narrowing the list if need be: the
        panel is theirs, and may differ between the worlds."""
        for _ in range(4):
            if panel is None:
                return
            ids = [str(b.custom_id) for b in panel.buttons]
            exact = [i for i in ids if i.startswith("ld:a:") and i.rsplit(":", 1)[1] == code]
            if exact:
                await self._click(user, panel, exact[0])
                return
            groups = [
                i for i in ids if i.startswith("ld:g:") and code.startswith(i.rsplit(":", 1)[1])
            ]
            if not groups:
                return
            panel = await self._click(user, panel, groups[0])

    def codes(self, seat: int, cards: bool) -> list[str]:
        """The codes of a seat's legal actions, in a fixed order (card plays only if
        `cards`): what a scripted person may choose from without reading a panel."""
        table = self.table
        assert table is not None
        legal = legal_actions(table.state, seat)
        rules = table.state.rules
        return sorted(encode(a, rules) for a in legal if cards or not isinstance(a, PlayCard))

    # Seat changes -------------------------------------------------------------------------

    async def _op(self, op: Any) -> None:
        table = self.table
        assert table is not None
        user = self.users[op.who]
        game = table.game_id
        if op.kind == "leave":
            seat = table.seat_of(user.id)
            if seat is None or seat.played_by_ai:
                await self._settle(f"{user.name} cannot leave")
                return
            panel = await self._panel(user)
            if panel is None or not any(b.custom_id == f"ld:s:{game}:leave" for b in panel.buttons):
                return
            ask = await self._click(user, panel, f"ld:s:{game}:leave")
            if any(b.custom_id == f"ld:s:{game}:bye" for b in ask.buttons):
                await self._click(user, ask, f"ld:s:{game}:bye")
            return
        if op.kind == "end":
            end = f"ld:s:{game}:end"
            seat = table.seat_of(user.id)
            panel = None if seat is None else await self._panel(user)
            if panel is not None and any(b.custom_id == end for b in panel.buttons):
                await self._click(user, panel, end)
            else:
                await self._settle(f"{user.name} cannot vote to end")
            return
        if op.kind == "approve":
            for message in reversed(self.fake.messages(self.thread)):
                yes = [b for b in message.buttons if str(b.custom_id).startswith("ld:r:")]
                yes = [b for b in yes if str(b.custom_id).endswith(":yes")]
                if yes:
                    await self._click(user, message, str(yes[0].custom_id))
                    return
            await self._settle(f"{user.name} finds no request")
            return
        target = self.record.holders_at_start.get(self.users[op.seat_of].name)
        custom_id = f"ld:t:{game}:{target}"
        board = self.board()
        if target is None or not any(b.custom_id == custom_id for b in board.buttons):
            await self._settle(f"{user.name} finds no seat to take")
            return
        await self._click(user, board, custom_id)
