"""Every number of the board and the deck, loaded from `lockdown_core/data/`.

The engine reads rules only from a `Ruleset`; variants (R11) are patches over
the base data plus a few named hooks (`end_rule`, `martyr_rule`), so a variant
never forks the engine. A malformed file fails loudly with its name and field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from lockdown_core.epilogues import CONDITIONS
from lockdown_core.errors import DataError

# The rules data ships inside the package, so an installed wheel finds it wherever
# it is installed (and installs no top-level `data` folder of its own).
DATA_DIR: Traversable = files("lockdown_core") / "data"

EndRule = Literal["players", "half_players", "one_family"]
MartyrRule = Literal["owner", "vendetta"]
CardWindow = Literal["after_roll", "after_move", "vote_discussion", "attack_discussion", "scoring"]

# The revision of docs/rules.md the engine plays. Revision 2 (issue 15) changed what some
# actions lead to (R2.3: a card cancels the others' Done; R5.4: a character already at
# a full destination stays), so a log stored under revision 1 must replay as it was
# played: each stored action says its revision (`actions.action_revision`).
RULES_REVISION = 2


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LocationSpec(_Strict):
    id: int = Field(ge=1, le=6)
    key: str
    character_spots: int | None = Field(ge=1)
    monster_spots: int = Field(ge=0)


class KindSpec(_Strict):
    key: str
    strength: int = Field(ge=0)
    votes: int = Field(ge=0)
    points: int = Field(ge=0)
    attracts_monsters: bool


class CardSpec(_Strict):
    key: str
    copies: int = Field(ge=0)
    window: CardWindow


class Ruleset(_Strict):
    """The resolved rules of one game: base data with its variants applied."""

    locations: tuple[LocationSpec, ...]
    surveillance_room: int
    parking_lot: int
    monster_tokens: int = Field(ge=1)
    cold_storage_rows: tuple[int, ...]
    start_dice: int = Field(ge=1, le=6)
    max_dice: int = Field(ge=1, le=6)
    close_at: int = Field(ge=1)
    kinds: tuple[KindSpec, ...]
    family: tuple[str, ...]
    useless_at_player_counts: tuple[int, ...]
    min_players: int
    max_players: int
    cards: tuple[CardSpec, ...]
    weapons: tuple[str, ...]
    start_cards: int = Field(ge=0)
    truck_draw: int = Field(ge=1, le=3)
    truck_gift: bool
    keys_points: int
    weeper_monsters: int = Field(default=1, ge=0)
    first_arrival_dice: int | None = Field(default=None, ge=0, le=6)
    end_rule: EndRule = "players"
    martyr_rule: MartyrRule = "owner"
    badge_sees_dice: bool = True
    attack_at_equal_from_start: bool = False
    open_ballots: bool = False
    epilogue_order: tuple[str, ...]
    epilogue_fallback: str
    variants: tuple[str, ...] = ()
    # R9.4: still turns in a row after which a game is stalled. It changes nothing the game
    # does, only when a table is offered to give it up, so it is left out of the rules'
    # identity (`rules_identity.rules_hash`). None: no stall is told (rules stored whole
    # before it existed).
    stall_turns: int | None = Field(default=None, ge=1)
    # Never stored with a game (a snapshot from before revision 2 must still compare
    # equal to its replay): only the replay of an older action sets it, for that action.
    revision: int = Field(default=RULES_REVISION, ge=1, le=RULES_REVISION, exclude=True)

    # Cross-field checks sit on the later field of each pair (both live in the same
    # data file), so that an error names a field and therefore its file.

    @field_validator("locations")
    @classmethod
    def _numbered(cls, locations: tuple[LocationSpec, ...]) -> tuple[LocationSpec, ...]:
        if [loc.id for loc in locations] != [1, 2, 3, 4, 5, 6]:
            raise ValueError("locations must be numbered 1 to 6 in order")
        return locations

    @field_validator("max_dice")
    @classmethod
    def _enough_dice(cls, max_dice: int, info: ValidationInfo) -> int:
        if max_dice < info.data.get("start_dice", 0):
            raise ValueError("start_dice cannot exceed max_dice")
        return max_dice

    @field_validator("family")
    @classmethod
    def _known_kinds(cls, family: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if "kinds" not in info.data:
            return family  # the kinds have an error of their own
        kind_keys = {k.key for k in info.data["kinds"]}
        for member in (*family, "useless"):
            if member not in kind_keys:
                raise ValueError(f"family member {member!r} is not a character kind")
        return family

    @field_validator("weapons")
    @classmethod
    def _known_cards(cls, weapons: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if "cards" not in info.data:
            return weapons  # the cards have an error of their own
        card_keys = {c.key for c in info.data["cards"]}
        for weapon in weapons:
            if weapon not in card_keys:
                raise ValueError(f"weapon {weapon!r} is not a card")
        return weapons

    @field_validator("epilogue_order")
    @classmethod
    def _known_epilogues(cls, order: tuple[str, ...]) -> tuple[str, ...]:
        """Each code must have a condition: an unknown one would only fail at a game's end."""
        for code in order:
            if code not in CONDITIONS:
                raise ValueError(f"epilogue {code!r} has no condition")
        if len(set(order)) != len(order):
            raise ValueError("an epilogue is listed twice")
        return order

    @field_validator("epilogue_fallback")
    @classmethod
    def _fallback_apart(cls, fallback: str, info: ValidationInfo) -> str:
        if fallback in info.data.get("epilogue_order", ()):
            raise ValueError(f"the fallback epilogue {fallback!r} is also in the order")
        return fallback

    def kind(self, key: str) -> KindSpec:
        for spec in self.kinds:
            if spec.key == key:
                return spec
        raise KeyError(key)

    def location(self, loc: int) -> LocationSpec:
        return self.locations[loc - 1]

    def deck_list(self) -> list[str]:
        """The deck in data order, one entry per copy (shuffled by the engine)."""
        return [card.key for card in self.cards for _ in range(card.copies)]

    def family_for(self, players: int) -> tuple[str, ...]:
        if players in self.useless_at_player_counts:
            return (*self.family, "useless")
        return self.family


class VariantSpec(_Strict):
    """One variant of R11: field overrides, kind and deck changes, a hook value."""

    key: str
    epilogue: str
    set: dict[str, Any] = Field(default_factory=dict)
    kinds: dict[str, dict[str, int]] = Field(default_factory=dict)
    deck: dict[str, int] = Field(default_factory=dict)
    monster_spots: dict[str, int] = Field(default_factory=dict)

    @field_validator("epilogue")
    @classmethod
    def _known_epilogue(cls, code: str) -> str:
        """The epilogue that unlocks the variant (R10): it must be one a game can reach."""
        if code not in CONDITIONS:
            raise ValueError(f"epilogue {code!r} has no condition")
        return code


def _read(path: Traversable) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path.name}: cannot be read as JSON: {exc}") from exc


def _describe(exc: ValidationError, where: Callable[[str], tuple[str, str]]) -> DataError:
    """The first error as "file: field path: message"; `where` maps a Ruleset field to
    the file and the name it has there."""
    first = exc.errors()[0]
    path = [str(p) for p in first["loc"]] or ["(top level)"]
    file, name = where(path[0])
    field = ".".join([name, *path[1:]])
    return DataError(f"{file}: field {field}: {first['msg'].removeprefix('Value error, ')}")


def _in_file(file: str, prefix: str = "") -> Callable[[str], tuple[str, str]]:
    return lambda field: (file, prefix + field)


def load_variants(data_dir: Traversable = DATA_DIR) -> dict[str, VariantSpec]:
    raw = _read(data_dir / "variants.json")
    if not isinstance(raw, dict) or not isinstance(raw.get("variants"), list):
        raise DataError("variants.json: field variants: missing or not a list")
    specs = []
    for index, entry in enumerate(raw["variants"]):
        try:
            specs.append(VariantSpec.model_validate(entry))
        except ValidationError as exc:
            raise _describe(exc, _in_file("variants.json", f"variants.{index}.")) from exc
    return {spec.key: spec for spec in specs}


# Where each field of the base rules lives, for errors about a field that is missing.
_HOMES = {
    "board.json": (
        "locations",
        "surveillance_room",
        "parking_lot",
        "monster_tokens",
        "cold_storage_rows",
        "start_dice",
        "max_dice",
        "close_at",
        "stall_turns",
    ),
    "characters.json": (
        "kinds",
        "family",
        "useless_at_player_counts",
        "min_players",
        "max_players",
    ),
    "deck.json": ("cards", "weapons", "start_cards", "truck_draw", "truck_gift", "keys_points"),
}
_EPILOGUE_FIELDS = {"epilogue_order": "order", "epilogue_fallback": "fallback"}


def _base_fields(data_dir: Traversable) -> tuple[dict[str, Any], dict[str, str]]:
    """The merged base files, and the file each field was read from."""
    fields: dict[str, Any] = {}
    homes = {field: file for file, names in _HOMES.items() for field in names}
    found: dict[str, str] = {}
    for name in ("board.json", "characters.json", "deck.json"):
        part = _read(data_dir / name)
        if not isinstance(part, dict):
            raise DataError(f"{name}: the top level must be an object")
        for key, value in part.items():
            if key in found:
                raise DataError(f"{name}: field {key}: already set in {found[key]}")
            found[key] = name
            fields[key] = value
    epilogues = _read(data_dir / "epilogues.json")
    if not isinstance(epilogues, dict):
        raise DataError("epilogues.json: the top level must be an object")
    for field, key in _EPILOGUE_FIELDS.items():
        if key not in epilogues:
            raise DataError(f"epilogues.json: field {key}: Field required")
        fields[field] = epilogues[key]
        found[field] = "epilogues.json"
    return fields, {**homes, **found}


def _apply_variant(fields: dict[str, Any], variant: VariantSpec) -> None:
    for key, value in variant.set.items():
        if key not in Ruleset.model_fields or key in (
            "variants",
            "locations",
            "kinds",
            "cards",
            "revision",
        ):
            raise DataError(f"variants.json: variant {variant.key}: unknown field set.{key}")
        fields[key] = value
    kinds = [dict(k) for k in fields["kinds"]]
    for kind_key, changes in variant.kinds.items():
        matches = [k for k in kinds if k["key"] == kind_key]
        if not matches:
            raise DataError(f"variants.json: variant {variant.key}: unknown kind {kind_key}")
        matches[0].update(changes)
    fields["kinds"] = kinds
    cards = [dict(c) for c in fields["cards"]]
    for card_key, delta in variant.deck.items():
        matches = [c for c in cards if c["key"] == card_key]
        if not matches:
            raise DataError(f"variants.json: variant {variant.key}: unknown card {card_key}")
        matches[0]["copies"] = matches[0]["copies"] + delta
    fields["cards"] = cards
    locations = [dict(loc) for loc in fields["locations"]]
    for loc_id, spots in variant.monster_spots.items():
        if not loc_id.isdigit() or not 1 <= int(loc_id) <= len(locations):
            raise DataError(f"variants.json: variant {variant.key}: unknown location {loc_id}")
        locations[int(loc_id) - 1]["monster_spots"] = spots
    fields["locations"] = locations


def load_ruleset(
    variants: tuple[str, ...] | list[str] = (), data_dir: Traversable = DATA_DIR
) -> Ruleset:
    """The base rules with the named variants applied in the order given.

    The base files are checked first, then the rules after each variant, so an
    error names the file (or the variant) that is wrong. This build's own data
    is read once per process and variant list: a Ruleset is frozen, so games
    share it, and a start-up that replays a thousand logs reads the files once.
    """
    if data_dir == DATA_DIR:
        return _this_builds_rules(tuple(variants))
    return _build(tuple(variants), data_dir)


@lru_cache(maxsize=64)
def _this_builds_rules(variants: tuple[str, ...]) -> Ruleset:
    return _build(variants, DATA_DIR)


def _build(variants: tuple[str, ...], data_dir: Traversable) -> Ruleset:
    fields, homes = _base_fields(data_dir)
    fields["variants"] = variants

    def in_base(field: str) -> tuple[str, str]:
        file = homes.get(field, "board.json/characters.json/deck.json")
        return file, _EPILOGUE_FIELDS.get(field, field)

    ruleset = _validate(fields, in_base)
    known = load_variants(data_dir)
    for name in variants:
        if name not in known:
            raise DataError(f"variants.json: no variant named {name!r}")
        _apply_variant(fields, known[name])
        ruleset = _validate(fields, _in_file(f"variants.json: variant {name}"))
    return ruleset


def _validate(fields: dict[str, Any], where: Callable[[str], tuple[str, str]]) -> Ruleset:
    try:
        return Ruleset.model_validate(fields)
    except ValidationError as exc:
        raise _describe(exc, where) from exc
