"""The board picture: drawn from the public view, for any position a game reaches,
in both languages, with any name, without a missing glyph or two texts overlapping."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Callable

import pytest
from PIL import Image

from bot.render.board_image import (
    CELL_W,
    HEIGHT,
    PAD,
    TOP,
    WIDTH,
    board_picture,
    render_board,
)
from bot.render.board_labels import BoardLabels
from bot.render.canvas import Drawn
from bot.render.glyphs import BOLD, ELLIPSIS, REGULAR, missing
from bot.render.labels import board_labels, board_png
from bot.render.palette import ALERT
from bot.texts import catalog, t
from bot.texts.catalog import LANGUAGES
from lockdown_core import (
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.board_facts import board_facts
from tests.render.checks import check_texts

LABELS = BoardLabels(
    title="Lockdown · turn 1",
    locations={
        1: "Restrooms",
        2: "Clothing store",
        3: "Surveillance room",
        4: "Toy store",
        5: "Supermarket",
        6: "Parking lot",
    },
    kind_letters={"blocker": "B", "leader": "L", "weeper": "W", "useless": "U"},
    closed="Closed",
    cold_storage="Cold storage",
    status="Designation",
    names=[f"P{i}" for i in range(6)],
    badge="badge",
    martyr="martyr",
)

HARD_NAMES = [
    "Chloé",
    "Émile",
    "Zoë",
    "Ørjan",
    "Łukasz",
    "Σοφία",
    "Дмитрий",
    "花子",
    "🦊🎉",
    "Bartholomew-Maximilian Featherstonehaugh",  # 40 characters
    "Ángel 🎸",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
]


def _render(state: GameState) -> bytes:
    rules = state.rules
    return render_board(
        view(state, None),
        LABELS,
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
    )


def _positions(players: int, seed: int, every: int) -> list[GameState]:
    """Copies of a random game's state every `every` actions, the end included."""
    rules = load_ruleset(["barricades"])
    state, _ = new_game(rules, players, seed)
    rng = random.Random(seed)
    taken = []
    step = 0
    while state.step != Step.GAME_OVER:
        if step % every == 0:
            taken.append(GameState.from_dict(state.to_dict()))
        seat = rng.choice(pending_seats(state))
        legal = legal_actions(state, seat)
        apply(state, rng.choice(legal) if legal else Timeout())
        step += 1
    taken.append(state)
    return taken


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def _drawn(state: GameState, lang: str, names: list[str], **changes: object) -> Drawn:
    rules = state.rules
    data = view(state, None)
    facts = board_facts(data, rules)
    labels = board_labels(data, rules, names, _say(lang), facts)
    if changes:
        fields = {f: getattr(labels, f) for f in labels.__dataclass_fields__}
        labels = BoardLabels(**{**fields, **changes})
    _, drawn = board_picture(
        data,
        labels,
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    return drawn


def test_every_position_of_random_games_renders_a_png_of_the_board_size() -> None:
    for seed in range(6):
        for state in _positions(3 + seed % 4, seed, 25):
            picture = Image.open(io.BytesIO(_render(state)))
            assert picture.format == "PNG"
            assert picture.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_word_and_hard_name_draws_without_a_missing_glyph_or_overlap(
    lang: str,
) -> None:
    texts = catalog()
    keys = sorted(texts.keys)
    step_names = [t(lang, k) for k in keys if k.startswith("step.") and k.endswith(".name")]
    card_names = [t(lang, k) for k in keys if k.startswith("card.") and k.count(".") == 1]
    assert card_names
    assert step_names
    states = _positions(6, 3, 40) + _positions(4, 5, 60)
    # Hard names, then card names and step names in the names' place and as titles.
    groups = [HARD_NAMES[i : i + 6] for i in range(0, len(HARD_NAMES), 6)] + [
        card_names[i : i + 6] for i in range(0, len(card_names), 6)
    ]
    for state, names in zip(states, itertools.cycle(groups), strict=False):
        check_texts(_drawn(state, lang, (names * 2)[:6]))
    for state, step in zip(itertools.cycle(states), step_names, strict=False):
        check_texts(_drawn(state, lang, HARD_NAMES[:6], status=step, title=step))
    for word in [*step_names, *card_names, *(t(lang, f"location.{n}") for n in range(1, 7))]:
        assert missing(word, BOLD) == [], word
        assert missing(word, REGULAR) == [], word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_of_the_language_is_cut_short(lang: str) -> None:
    """Only a player's name may be cut with an ellipsis: a location's name, the closed
    sign and its reason, the status and the legend fit whole (German compounds
    cannot wrap, so a German name that is too long would show cut)."""
    states = _positions(6, 3, 20)[::3]
    for state in states:
        state.closed[1] = True
        state.closed[4] = True
        drawn = _drawn(state, lang, list("ABCDEF"))
        assert [p.text for p in drawn.texts if ELLIPSIS in p.text] == []


def test_a_name_the_font_cannot_draw_becomes_the_seat_label_and_never_boxes() -> None:
    state = _positions(6, 3, 1000)[0]
    drawn = _drawn(state, "fr", ["花子", "🦊🎉", "Zoë🎉", "Chloé", "Ørjan", "Σοφία"])
    shown = {p.text for p in drawn.texts}
    assert {"Place 1", "Place 2", "Zoë", "Chloé", "Ørjan", "Σοφία"} <= shown
    check_texts(drawn)


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    state = _positions(6, 3, 1000)[0]
    long = "Bartholomew-Maximilian Featherstonehaugh"
    drawn = _drawn(state, "en", [long] * 6)
    cut = [p.text for p in drawn.texts if p.text.startswith("Bart")]
    assert len(cut) == 6
    assert all(text.endswith("…") and len(text) < len(long) for text in cut)
    check_texts(drawn)


def test_a_crowded_parking_lot_shows_every_character_without_overlap() -> None:
    state, _ = new_game(load_ruleset(), 6, 1)
    for c in state.characters:
        c.location = 6
    drawn = _drawn(state, "fr", HARD_NAMES[:6])
    letters = [p for p in drawn.texts if p.text in "BLCI" and len(p.text) == 1]
    assert len(letters) == len(state.characters)
    check_texts(drawn)


def test_the_smallest_text_stays_legible_when_discord_shows_the_picture_400_px_wide() -> None:
    """11 px at 400 px wide is the smallest a phone user can read without zooming."""
    sizes = [
        placed.size
        for state in _positions(6, 3, 30)
        for placed in _drawn(state, "fr", HARD_NAMES[:6]).texts
    ]
    assert min(sizes) * 400 / WIDTH >= 11


def test_the_picture_says_defence_the_equal_rule_and_when_the_game_ends() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    state.monsters[1] = 1
    for c in state.characters[:2]:
        c.location = 1
    drawn = _drawn(state, "en", ["A", "B", "C"])
    texts = [p.text for p in drawn.texts]
    strength = sum(state.kind_specs[c.kind].strength for c in state.characters[:2])
    assert f"✓ strength {strength} vs 1" in texts
    assert "Monsters get in when they outnumber the defence" in texts
    # R9.1: the game ends at 3 living characters or fewer, which the line must say.
    living = len(state.characters)
    assert f"The game ends at 3 living characters or fewer (now {living})" in texts
    state.monsters[1] = strength
    state.cold_storage = [c.id for c in state.characters[-4:]]
    for c in state.characters[-4:]:
        c.location = 0
    texts = [p.text for p in _drawn(state, "en", ["A", "B", "C"]).texts]
    assert f"⚠ strength {strength} vs {strength}" in texts
    assert "⚠ Monsters now get in at equal strength" in texts
    # A location the Monsters would get into is outlined in the alert colour.
    picture = Image.open(
        io.BytesIO(board_png(view(state, None), state.rules, ["A"] * 3, _say("en")))
    )
    edge = picture.convert("RGB").getpixel((PAD + CELL_W // 2, TOP + 1))
    assert edge == ALERT


def test_monsters_and_closed_locations_change_the_picture() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    before = _render(state)
    state.monsters[2] = 4
    with_monsters = _render(state)
    state.closed[2] = True
    closed = _render(state)
    assert len({before, with_monsters, closed}) == 3


def test_board_png_draws_a_late_game_in_french() -> None:
    state = _positions(6, 3, 1000)[-1]
    png = board_png(view(state, None), state.rules, HARD_NAMES[:6], _say("fr"))
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_a_seat_view_is_refused_so_no_secret_can_reach_the_picture() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    rules = state.rules
    with pytest.raises(ValueError, match="public view"):
        render_board(
            view(state, 0),
            LABELS,
            {loc.id: loc.character_spots for loc in rules.locations},
            {loc.id: loc.monster_spots for loc in rules.locations},
            [4, 4, 4],
        )


def test_the_same_board_asked_again_is_not_drawn_again_and_any_change_is_drawn() -> None:
    state, _ = new_game(load_ruleset(), 4, 9)
    data = view(state, None)
    first = board_png(data, state.rules, ["A", "B", "C", "D"], _say("en"))
    assert board_png(data, state.rules, ["A", "B", "C", "D"], _say("en")) is first
    # The locations layer is kept per process too: another language or name is a new board.
    french = board_png(data, state.rules, ["A", "B", "C", "D"], _say("fr"))
    assert french != first
    renamed = board_png(data, state.rules, ["A", "B", "C", "E"], _say("en"))
    assert renamed not in (first, french)
    state.monsters[1] += 1
    moved = board_png(view(state, None), state.rules, ["A", "B", "C", "D"], _say("en"))
    assert moved != first
    state.closed[2] = True
    closed = board_png(view(state, None), state.rules, ["A", "B", "C", "D"], _say("en"))
    assert closed != moved
    # Drawn afresh (no memo), the closed board is the same picture as the remembered one.
    rules = state.rules
    data = view(state, None)
    facts = board_facts(data, rules)
    image, _ = board_picture(
        data,
        board_labels(data, rules, ["A", "B", "C", "D"], _say("en"), facts),
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    assert image.tobytes() == Image.open(io.BytesIO(closed)).tobytes()
