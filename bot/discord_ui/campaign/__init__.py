"""The campaign on Discord (R10): variants in the lobby, the reveal, epilogues, play again."""
