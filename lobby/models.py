# The lobby has no models of its own: a table is a games.models.Game, its
# players Seat rows and its invitations Invitation rows.
