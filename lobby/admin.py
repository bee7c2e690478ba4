# The lobby has no models of its own: a table is a games.models.Game (with
# Seat and Invitation), whose admin belongs in games/admin.py.
