# Game admin comes with the Game model.
