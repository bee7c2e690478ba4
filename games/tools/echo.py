"""A socket that sends back what it receives: the baseline of the load test (ws/echo/).

It measures what a round trip through Daphne and a synchronous consumer costs
with nothing else: no channel layer, no database, no rendering. Only
logged-in users may open one, within the bounds of every socket
(games/live/sockets.py); unused, it costs nothing.
"""

from channels.generic.websocket import WebsocketConsumer

from games.live.sockets import SelfChecking


class EchoConsumer(SelfChecking, WebsocketConsumer):
    channel_layer_alias = None  # no group, no layer channel: the bare transport

    def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            self.close()
            return
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        self.send(text_data=text_data, bytes_data=bytes_data)
