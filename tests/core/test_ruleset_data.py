"""Loading the rules data: a malformed file fails with a DataError naming the file and the field.

Each test copies `lockdown_core/data/` to a temporary folder, breaks one thing and loads it
with `load_ruleset(data_dir=...)`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lockdown_core import DataError, load_ruleset, load_variants
from lockdown_core.ruleset import DATA_DIR

Edit = Callable[[Any], object]


def broken(tmp_path: Path, file: str, edit: Edit) -> Path:
    """A copy of the rules data where `edit` has changed the parsed `file`."""
    for path in DATA_DIR.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    data = json.loads((tmp_path / file).read_text(encoding="utf-8"))
    edit(data)
    (tmp_path / file).write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


def setter(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return edit


def remover(key: str) -> Edit:
    return lambda data: data.pop(key)


CASES = [
    # file, edit, the field the message must name
    (
        "board.json",
        setter(("locations", 1, "character_spots"), "four"),
        "locations.1.character_spots",
    ),
    ("board.json", setter(("locations", 0, "id"), 2), "locations"),
    ("board.json", remover("close_at"), "close_at"),
    ("board.json", setter(("surprise",), 1), "surprise"),
    ("board.json", setter(("max_dice",), 3), "max_dice"),
    ("board.json", setter(("monster_tokens",), 0), "monster_tokens"),
    ("characters.json", setter(("kinds", 0, "points"), -1), "kinds.0.points"),
    ("characters.json", setter(("family",), ["blocker", "dragon"]), "family"),
    ("characters.json", remover("kinds"), "kinds"),
    ("characters.json", setter(("kinds", 3, "key"), "spare"), "family"),
    ("deck.json", setter(("cards", 0, "copies"), "two"), "cards.0.copies"),
    ("deck.json", setter(("cards", 2, "window"), "whenever"), "cards.2.window"),
    ("deck.json", setter(("weapons",), ["banana"]), "weapons"),
    ("deck.json", setter(("truck_draw",), 4), "truck_draw"),
    ("epilogues.json", setter(("order",), [1, 2]), "order.0"),
    ("epilogues.json", setter(("order",), "11 02"), "order"),
    ("epilogues.json", remover("fallback"), "fallback"),
    ("epilogues.json", setter(("order", 3), "99"), "order"),
    ("epilogues.json", setter(("order", 3), "11"), "order"),
    ("epilogues.json", setter(("fallback",), "13"), "fallback"),
]


@pytest.mark.parametrize(
    ("file", "edit", "field"), [pytest.param(*case, id=f"{case[0]}:{case[2]}") for case in CASES]
)
def test_a_broken_field_names_its_file_and_field(
    tmp_path: Path, file: str, edit: Edit, field: str
) -> None:
    data_dir = broken(tmp_path, file, edit)
    with pytest.raises(DataError) as error:
        load_ruleset(data_dir=data_dir)
    message = str(error.value)
    assert message.startswith(f"{file}: field {field}:"), message
    for other in ("board.json", "characters.json", "deck.json", "epilogues.json"):
        if other != file:
            assert other not in message, message


@pytest.mark.parametrize("file", ["board.json", "characters.json", "deck.json"])
def test_a_file_that_is_not_an_object(tmp_path: Path, file: str) -> None:
    data_dir = broken(tmp_path, file, lambda data: None)
    (data_dir / file).write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DataError, match=f"^{file}: "):
        load_ruleset(data_dir=data_dir)


def test_a_file_that_is_not_json(tmp_path: Path) -> None:
    data_dir = broken(tmp_path, "deck.json", lambda data: None)
    (data_dir / "deck.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"^deck\.json: cannot be read as JSON"):
        load_ruleset(data_dir=data_dir)


def test_a_missing_file(tmp_path: Path) -> None:
    data_dir = broken(tmp_path, "board.json", lambda data: None)
    (data_dir / "characters.json").unlink()
    with pytest.raises(DataError, match=r"^characters\.json: "):
        load_ruleset(data_dir=data_dir)


def test_a_field_set_in_two_files(tmp_path: Path) -> None:
    data_dir = broken(tmp_path, "deck.json", setter(("close_at",), 5))
    with pytest.raises(DataError, match=r"^deck\.json: field close_at: .*board\.json"):
        load_ruleset(data_dir=data_dir)


def test_a_broken_variant_names_variants_json_and_the_variant(tmp_path: Path) -> None:
    data_dir = broken(tmp_path, "variants.json", setter(("variants", 0, "set", "keys_points"), "x"))
    load_ruleset(data_dir=data_dir)  # the base rules are fine
    with pytest.raises(DataError) as error:
        load_ruleset(["spare_keys"], data_dir=data_dir)
    assert str(error.value).startswith("variants.json: variant spare_keys: field keys_points:")


def test_a_variant_entry_without_its_key_names_its_index(tmp_path: Path) -> None:
    data_dir = broken(tmp_path, "variants.json", lambda data: data["variants"][3].pop("key"))
    with pytest.raises(DataError, match=r"^variants\.json: field variants\.3\.key: "):
        load_variants(data_dir)


def test_a_variant_unlocked_by_an_unknown_epilogue_names_its_index(tmp_path: Path) -> None:
    """Caught when the data loads, not when a game's end looks the code up."""
    data_dir = broken(tmp_path, "variants.json", setter(("variants", 4, "epilogue"), "42"))
    with pytest.raises(DataError, match=r"^variants\.json: field variants\.4\.epilogue: .*'42'"):
        load_variants(data_dir)


def test_a_variant_over_broken_base_data_blames_the_base_file(tmp_path: Path) -> None:
    """No KeyError or TypeError from applying a variant to a file that lacks its field."""
    data_dir = broken(tmp_path, "characters.json", remover("kinds"))
    with pytest.raises(DataError, match=r"^characters\.json: field kinds: "):
        load_ruleset(["creche"], data_dir=data_dir)
    data_dir = broken(tmp_path, "characters.json", setter(("kinds",), 3))
    with pytest.raises(DataError, match=r"^characters\.json: field kinds: "):
        load_ruleset(["tough_crowd"], data_dir=data_dir)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"set": {"no_such_field": 1}}, "unknown field set.no_such_field"),
        ({"kinds": {"dragon": {"points": 1}}}, "unknown kind dragon"),
        ({"deck": {"banana": 1}}, "unknown card banana"),
        ({"monster_spots": {"9": 1}}, "unknown location 9"),
        ({"deck": {"molotov_cocktail": -2}}, "field cards.6.copies"),
    ],
)
def test_a_variant_that_changes_what_does_not_exist(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    def edit(data: Any) -> None:
        data["variants"].append({"key": "odd", "epilogue": "20", **change})

    data_dir = broken(tmp_path, "variants.json", edit)
    with pytest.raises(DataError, match=r"^variants\.json: variant odd: " + message):
        load_ruleset(["odd"], data_dir=data_dir)


def test_an_unknown_variant_name() -> None:
    with pytest.raises(DataError, match=r"^variants\.json: no variant named 'nope'"):
        load_ruleset(["nope"])


def test_the_shipped_data_loads_with_every_variant() -> None:
    for name in load_variants():
        assert load_ruleset([name]).variants == (name,)
    assert load_ruleset().variants == ()
