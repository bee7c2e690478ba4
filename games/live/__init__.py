"""Live play over WebSockets: the game socket (consumers), moves sent over it (moves), and the
sockets' self-checks and bounds shared with the lobby's sockets (sockets).
"""
