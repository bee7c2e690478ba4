"""Table chat: who may write and read and how much (messages), the chat panel, its endpoints,
its part of the game socket, and who has the table open now (presence).
"""
