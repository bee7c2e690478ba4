"""Finished games: their reviews, the post-game analysis and its queue, and the lists of games
read a page at a time.
"""
