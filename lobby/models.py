# Lobby models (open tables, invitations) come here.
