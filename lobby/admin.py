# Lobby admin comes with the lobby models.
