"""The games app's rows: a table and its game (game.py), and what hangs off a game.

- game.py: Game, Seat, Move, Checkpoint, Invitation;
- broadcasts.py: who is told after a commit (the channel-layer groups and the sends);
- notification.py: what a player should know of their games;
- chat.py: the table chat's messages, mutes and reports;
- analysis.py: a finished game's post-game analysis;
- signals.py: what a move or a game's end announces to the layers above.

Imports run one way: these modules import the rules engine, accounts and
config, never a module of games/ outside this package.
"""

from games.models.analysis import Analysis
from games.models.broadcasts import (
    LOBBY_GROUP,
    broadcast_lobby,
    broadcast_seating,
    broadcast_users,
    group_name,
    group_send,
    user_group,
)
from games.models.chat import ChatMessage, ChatMute, Report
from games.models.game import (
    Checkpoint,
    Game,
    Invitation,
    Move,
    Seat,
    SeatingError,
    StaleBoard,
    new_code,
    new_seed,
    new_token,
)
from games.models.notification import Notification

__all__ = [
    "LOBBY_GROUP",
    "Analysis",
    "ChatMessage",
    "ChatMute",
    "Checkpoint",
    "Game",
    "Invitation",
    "Move",
    "Notification",
    "Report",
    "Seat",
    "SeatingError",
    "StaleBoard",
    "broadcast_lobby",
    "broadcast_seating",
    "broadcast_users",
    "group_name",
    "group_send",
    "new_code",  # the migrations name these three as games.models'
    "new_seed",
    "new_token",
    "user_group",
]
