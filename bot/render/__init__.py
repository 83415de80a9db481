"""Pictures and text of the game, from public views only (no discord).

`board_image` draws the board (its `legend`, the family `tokens`, on `canvas`
with the `palette`), `board_text` writes it, `labels.board_png` gives both
their words (the rules they show are `lockdown_core.board_facts`' answers);
`glyphs` holds the shipped font and what it can draw; `replay_gif` tells a
finished game back as a GIF, ending on its `scores`; `chart` draws the
simulator's comparison with `bars`; `describe` says in words what each
picture shows (its alt text); `examples` draws the documentation's pictures.
"""
