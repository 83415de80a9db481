"""Pictures and text of the board, from the public view only (no discord)."""
