"""Discord cogs: one package per game (plus leaderboard and admin). Thin: commands and components only."""
