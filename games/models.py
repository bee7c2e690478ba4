# The Game and Move models come here; the rules live in games/rules/ (no Django).
