"""Seats changing hands on Discord: Leave (My hand, `/lockdown leave`), Take this seat
(the board), and the seated people's vote to end a game whose host is gone."""
