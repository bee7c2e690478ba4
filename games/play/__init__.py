"""Playing a game over time: clocks and timeouts, fair shares (what one account may hold or
send), vacation, computer players at tables, the worker that plays timeouts and bot moves, the
bot ladder, emails about correspondence games.
"""
