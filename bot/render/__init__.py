"""Pictures and text of the game, from public views only (no discord).

`board_image` draws the board, `board_text` writes it, `labels.board_png` gives
both their words; `glyphs` holds the shipped font and what it can draw;
`facts` the rule lines a newcomer needs; `replay_gif` tells a finished game
back as a GIF; `chart` draws the simulator's comparison; `examples` draws the
README's pictures.
"""
