"""`GameState`: the whole truth of one game, secrets included.

Plain classes with `__slots__` rather than pydantic models: the simulator plays
hundreds of games a second and the state is touched on every action. The
JSON form (`to_dict` / `from_dict`) carries a schema version; the `version`
field counts accepted actions and is what stale buttons are checked against.

The stored form names its ruleset instead of repeating it: the variants and a
hash of the resolved data (`rules_identity`), since the full dump was most of
every snapshot and cost most of the time to write one. A state whose rules are
not what `load_ruleset(variants)` gives (a test's hand-made rules) still stores
the full dump, and snapshots of schema 1, which always did, still load.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from lockdown_core.pieces import (
    UNPLACED,
    Character,
    Step,
    Vote,
    stored_flag,
)
from lockdown_core.rng import Rng
from lockdown_core.rules_identity import read_rules, stored_rules
from lockdown_core.ruleset import KindSpec, Ruleset

SCHEMA_VERSION = 3
# Schema 1 differs from 2 only in its `rules` field, always the full dump; schema 2 from 3
# only in having no `supply_empty_turns` (R9.4): see `counted_by`.
READABLE_SCHEMAS = frozenset((1, 2, SCHEMA_VERSION))


@cache
def _orders(players: int) -> tuple[tuple[int, ...], ...]:
    """`GameState.orders` for a number of seats: the same few tuples for every game."""
    return tuple(tuple((start + i) % players for i in range(players)) for start in range(players))


class GameState:
    """Everything about one game. Mutated only by `lockdown_core.engine.apply`."""

    __slots__ = (
        "_families",
        "_indexed",
        "_stored_rules",
        "acted",
        "attack_location",
        "badge",
        "badge_won",
        "box",
        "card_copies",
        "characters",
        "closed",
        "cold_storage",
        "deck",
        "destinations",
        "dice",
        "dice_revealed",
        "dice_seen",
        "drawn",
        "exhausted_cache",
        "hands",
        "kind_specs",
        "martyr",
        "monsters",
        "mover",
        "next_pending",
        "orders",
        "pending_cache",
        "played",
        "players",
        "result",
        "rng",
        "rows_triggered",
        "rules",
        "seed_hash",
        "step",
        "supply",
        "supply_empty_turns",
        "turn",
        "version",
        "vote",
    )

    def __init__(self, rules: Ruleset, players: int, rng: Rng) -> None:
        self.rules = rules
        # Derived from `rules` and `players` for quick lookups; never serialized.
        self.kind_specs: dict[str, KindSpec] = {k.key: k for k in rules.kinds}
        self.card_copies: dict[str, int] = {c.key: c.copies for c in rules.cards}
        # orders[s]: every seat clockwise from seat s (s first).
        self.orders: tuple[tuple[int, ...], ...] = _orders(players)
        # Characters by owner, rebuilt whenever characters are added (only at setup).
        self._families: list[list[Character]] = []
        self._indexed = -1
        # windows._all_played's answers: [the `played` list they were read from, its
        # length, then one answer (or None) per card set]; never serialized.
        self.exhausted_cache: list[Any] = [None, -1, None, None, None, None]
        # Who is pending, as `engine.apply_legal` learnt it while applying the action
        # that led to `version`: (version, seats), else None. `next_pending` is where
        # a handler leaves the seats it found pending last. Never serialized.
        self.pending_cache: tuple[int, list[int]] | None = None
        self.next_pending: list[int] | None = None
        # The `rules` field of the stored form, worked out at the first `to_dict`.
        self._stored_rules: dict[str, Any] | None = None
        self.players = players
        self.rng = rng
        self.seed_hash = ""
        self.version = 0
        self.turn = 0
        self.step = Step.PLACEMENT
        self.characters: list[Character] = []
        # Index 0 is unused so that monsters[loc] reads naturally.
        self.monsters = [0] * 7
        self.supply = rules.monster_tokens
        self.closed = [False] * 7
        self.cold_storage: list[int] = []
        self.rows_triggered = [False] * len(rules.cold_storage_rows)
        self.deck: list[str] = []
        self.box: list[str] = []
        self.played: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.badge = 0
        self.martyr = 0
        self.badge_won = False
        self.dice: list[int] = []
        self.dice_seen: set[int] = set()
        # True from R5.3's reveal to the end of the turn (and for placement rolls).
        self.dice_revealed = False
        self.destinations: dict[int, int] = {}
        self.vote: Vote | None = None
        self.drawn: list[str] = []
        # Whose turn it is in sequential steps (placement, moves, devour, truck).
        self.mover = 0
        # Players who said "done" (discussions, windows) in the current step.
        self.acted: set[int] = set()
        self.attack_location = 0
        self.result: dict[str, Any] | None = None
        # R9.4: turns ended in a row with the Monster supply empty (`lockdown_core.stall`).
        self.supply_empty_turns = 0

    # Derived facts used all over the engine -------------------------------

    def family(self, seat: int) -> list[Character]:
        """Every character of one seat, alive or not, in id order."""
        if self._indexed != len(self.characters):
            self._index_families()
        return self._families[seat]

    def families(self) -> list[list[Character]]:
        """`family(seat)` for every seat, for a loop over all of them (one check, not one
        per seat). Read-only, like each family."""
        if self._indexed != len(self.characters):
            self._index_families()
        return self._families

    def _index_families(self) -> None:
        self._families = [[] for _ in range(self.players)]
        for c in self.characters:
            self._families[c.seat].append(c)
        self._indexed = len(self.characters)

    def living(self, seat: int | None = None) -> list[Character]:
        if seat is None:
            return [c for c in self.characters if c.location]
        return [c for c in self.family(seat) if c.location]

    def at(self, loc: int) -> list[Character]:
        return [c for c in self.characters if c.location == loc]

    def has_characters(self, seat: int) -> bool:
        # A plain loop: any() over a generator or a map costs more, on a hot path.
        for c in self.family(seat):  # noqa: SIM110
            if c.location:
                return True
        return False

    def free_spot(self, loc: int) -> bool:
        if self.closed[loc]:
            return False
        spots = self.rules.locations[loc - 1].character_spots
        if spots is None:
            return True
        # A plain loop: cheaper than a comprehension here, asked before every move.
        here = 0
        for c in self.characters:
            if c.location == loc:
                here += 1
        return here < spots

    def free_monster_spot(self, loc: int) -> bool:
        return (
            not self.closed[loc]
            and self.monsters[loc] < self.rules.locations[loc - 1].monster_spots
        )

    def clockwise_from(self, start: int) -> list[int]:
        return list(self.orders[start])

    def next_left(self, seat: int) -> int:
        return (seat + 1) % self.players

    # JSON ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The stored form. Every list and dict in it is new: a snapshot taken before an
        action (to undo it) must not change while the action is applied."""
        if self._stored_rules is None:
            self._stored_rules = stored_rules(self.rules)
        return {
            "schema": SCHEMA_VERSION,
            "version": self.version,
            "rules": _fresh(self._stored_rules),
            "players": self.players,
            "rng": self.rng.state,
            "forced_dice": list(self.rng.forced_dice),
            "seed_hash": self.seed_hash,
            "turn": self.turn,
            "step": self.step,
            "characters": [c.to_list() for c in self.characters],
            "hidden": [c.id for c in self.characters if c.hidden],
            "monsters": list(self.monsters),
            "supply": self.supply,
            "closed": list(self.closed),
            "cold_storage": list(self.cold_storage),
            "rows_triggered": list(self.rows_triggered),
            "deck": list(self.deck),
            "box": list(self.box),
            "played": list(self.played),
            "hands": [list(hand) for hand in self.hands],
            "badge": self.badge,
            "martyr": self.martyr,
            "badge_won": self.badge_won,
            "dice": list(self.dice),
            "dice_seen": sorted(self.dice_seen),
            "dice_revealed": self.dice_revealed,
            "destinations": {str(k): v for k, v in self.destinations.items()},
            "vote": self.vote.to_dict() if self.vote else None,
            "drawn": list(self.drawn),
            "mover": self.mover,
            "acted": sorted(self.acted),
            "attack_location": self.attack_location,
            "result": _fresh(self.result),
            "supply_empty_turns": self.supply_empty_turns,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state; raises ValueError (or KeyError/TypeError) on a broken row."""
        if not isinstance(data, dict):
            raise TypeError("a stored state is a JSON object")
        if data.get("schema") not in READABLE_SCHEMAS:
            raise ValueError(f"unsupported state schema {data.get('schema')!r}")
        rules = read_rules(data["rules"])
        rng = Rng(int(data["rng"]))
        rng.forced_dice = [int(d) for d in data["forced_dice"]]
        state = cls(rules, int(data["players"]), rng)
        if "data" in data["rules"]:
            state._stored_rules = {"variants": list(rules.variants), "data": data["rules"]["data"]}
        state.version = int(data["version"])
        state.seed_hash = str(data["seed_hash"])
        state.turn = int(data["turn"])
        state.step = str(data["step"])
        if data["schema"] == 1:
            state.characters = [_character_v1(row) for row in data["characters"]]
        else:
            state.characters = [
                _character(index, row) for index, row in enumerate(data["characters"])
            ]
            for cid in data["hidden"]:
                if not 0 <= int(cid) < len(state.characters):
                    raise ValueError(f"hidden character {cid!r} does not exist")
                state.characters[int(cid)].hidden = True
        state.monsters = [int(m) for m in data["monsters"]]
        state.supply = int(data["supply"])
        state.closed = [stored_flag(c) for c in data["closed"]]
        state.cold_storage = [int(c) for c in data["cold_storage"]]
        state.rows_triggered = [stored_flag(r) for r in data["rows_triggered"]]
        state.deck = [str(c) for c in data["deck"]]
        state.box = [str(c) for c in data["box"]]
        state.played = [str(c) for c in data["played"]]
        state.hands = [[str(c) for c in hand] for hand in data["hands"]]
        state.badge = int(data["badge"])
        state.martyr = int(data["martyr"])
        state.badge_won = stored_flag(data["badge_won"])
        state.dice = [int(d) for d in data["dice"]]
        state.dice_seen = {int(p) for p in data["dice_seen"]}
        state.dice_revealed = stored_flag(data["dice_revealed"])
        state.destinations = {int(k): int(v) for k, v in data["destinations"].items()}
        state.vote = Vote.from_dict(data["vote"]) if data["vote"] else None
        state.drawn = [str(c) for c in data["drawn"]]
        state.mover = int(data["mover"])
        state.acted = {int(p) for p in data["acted"]}
        state.attack_location = int(data["attack_location"])
        state.result = _fresh(data["result"])
        state.supply_empty_turns = int(data["supply_empty_turns"]) if data["schema"] >= 3 else 0
        state._check_shape()
        return state

    def counted_by(self, stored: dict[str, Any], replayed: GameState) -> None:
        """Read from `stored`, a snapshot of schema 1 or 2, which did not count R9.4's
        turns: take the count of `replayed`, its game replayed from its log, so that the
        two compare equal when nothing else differs."""
        if stored["schema"] < 3:
            self.supply_empty_turns = replayed.supply_empty_turns

    def _check_shape(self) -> None:
        """Refuse a stored state no game can be in: sizes, seats, kinds, places, names."""
        seats = range(self.players)
        cards = {c.key for c in self.rules.cards}
        held = [*self.deck, *self.box, *self.played, *self.drawn]
        held += [card for hand in self.hands for card in hand]
        broken = {
            "players": len(self.hands) != self.players
            or not self.rules.min_players <= self.players <= self.rules.max_players,
            "step": self.step not in _STEPS,
            "locations": len(self.monsters) != 7 or len(self.closed) != 7,
            "rows_triggered": len(self.rows_triggered) != len(self.rules.cold_storage_rows),
            "characters": any(
                c.id != index
                or c.seat not in seats
                or c.kind not in self.kind_specs
                or not UNPLACED <= c.location <= 6
                for index, c in enumerate(self.characters)
            ),
            "seats": any(p not in seats for p in (self.badge, self.martyr, self.mover)),
            "cards": any(card not in cards for card in held),
            "dice": any(not 1 <= die <= 6 for die in [*self.dice, *self.rng.forced_dice]),
        }
        wrong = [name for name, bad in broken.items() if bad]
        if wrong:
            raise ValueError(f"stored state is inconsistent: {', '.join(wrong)}")


_STEPS = frozenset(value for name, value in vars(Step).items() if name.isupper())


def _fresh(value: Any) -> Any:
    """A copy of a JSON value sharing no list or dict with the original."""
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def _character(index: int, row: Any) -> Character:
    """One stored character row `[owner, kind, location]`, types checked."""
    seat, kind, location = row
    if not isinstance(kind, str):
        raise TypeError(f"malformed character row {row!r}")
    return Character(index, int(seat), kind, int(location))


def _character_v1(row: Any) -> Character:
    """One character row of schema 1, `[id, owner, kind, location, hidden]`."""
    cid, seat, kind, location, hidden = row
    if not isinstance(kind, str):
        raise TypeError(f"malformed character row {row!r}")
    return Character(int(cid), int(seat), kind, int(location), stored_flag(hidden))
