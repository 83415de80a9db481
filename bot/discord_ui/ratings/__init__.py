"""The ratings room: `/lockdown rating`, the moderators' `/lockdown ratings ...`, the
lobby's `/lockdown casual`, the season ladder and profile lines, and the podium."""
