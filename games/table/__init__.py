"""The table as drawn: the board's fragments, a seat's view as template data, card names and
texts, the moves' labels and the game log in words, the game-over panel, the How to play page,
the per-process memo and compiled statements that keep drawing cheap.
"""
