"""What a move or a game's end announces to the layers above the models.

The models never import those layers (the table's drawing, the review):
they register for these signals in GamesConfig.ready (games/apps.py).

- `move_committed`: after a move's transaction has committed, before the
  game's sockets are told (Game._hand_over); arguments `game`, `seats`,
  `state`. games.table.board hands what the move saved to this process's sockets.
- `game_ending`: inside the transaction that ends a game (Game._finish);
  arguments `game`, `state`. A receiver may return the game's summary
  (games.history.review stores the review's checkpoints and returns it); the first
  one not None is kept.
"""

from django.dispatch import Signal

move_committed = Signal()
game_ending = Signal()
