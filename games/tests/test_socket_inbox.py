"""A socket reads its client, its channel, its timers and its checks from one inbox (games/live/sockets.py).

Under Daphne the inbox is the connection's own Mailbox (config/mailbox.py)
and the embedded channel layer delivers into it: a waiting socket is one
pending `get`, with no task of its own beside the connection's.
"""

import asyncio

import pytest
from channels.generic.websocket import WebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer

from config.mailbox import Mailbox
from games.live import sockets
from games.live.sockets import SelfChecking


class Listener(SelfChecking, WebsocketConsumer):
    groups = ["listeners"]

    def connect(self):
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        self.send(text_data=f"heard {text_data}")

    def listener_said(self, event):
        self.send(text_data=event["text"])

    def socket_check(self, event):
        super().socket_check(event)
        self.send(text_data="checked")


SCOPE = {"type": "websocket", "path": "/ws/listen/", "headers": [], "client": None}


class Connection:
    """What Daphne gives a socket: a Mailbox to receive from, and a send."""

    def __init__(self):
        self.box = Mailbox()
        self.sent = asyncio.Queue()
        self.task = asyncio.ensure_future(Listener.as_asgi()(dict(SCOPE), self.box.get, self.send))

    async def send(self, message):
        await self.sent.put(message)

    async def next(self):
        return await asyncio.wait_for(self.sent.get(), 5)


@pytest.fixture
def quick_checks(settings):
    settings.GAME_SOCKET_CHECK_SECONDS = 0.2


@pytest.fixture
def layer(settings, request):
    """The channel layer named by the test's parameter (Channels makes it anew)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": request.param}}
    return get_channel_layer()


LEAN = "config.layers.LeanChannelLayer"
CHANNELS_OWN = "channels.layers.InMemoryChannelLayer"  # a layer that cannot attach, as Redis's


@pytest.mark.parametrize("layer", [LEAN], indirect=True)
async def test_a_socket_under_daphne_waits_with_no_task_of_its_own(layer):
    connection = Connection()
    connection.box.put_nowait({"type": "websocket.connect"})
    assert (await connection.next())["type"] == "websocket.accept"
    await asyncio.sleep(0.05)

    others = asyncio.all_tasks() - {asyncio.current_task(), connection.task}

    assert others == set()  # no task per source, none waiting on the channel layer
    connection.box.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(connection.task, 5)


@pytest.mark.parametrize("layer", [LEAN, CHANNELS_OWN], indirect=True)
async def test_it_receives_its_client_and_its_group_in_order(layer):
    connection = Connection()
    connection.box.put_nowait({"type": "websocket.connect"})
    await connection.next()

    connection.box.put_nowait({"type": "websocket.receive", "text": "hello"})
    await layer.group_send("listeners", {"type": "listener.said", "text": "news"})

    assert (await connection.next())["text"] == "heard hello"
    assert (await connection.next())["text"] == "news"
    connection.box.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(connection.task, 5)
    assert getattr(layer, "inboxes", {}) == {}  # gone with its socket
    assert not layer.groups.get("listeners")


@pytest.mark.parametrize("layer", [LEAN, CHANNELS_OWN], indirect=True)
async def test_a_socket_killed_before_its_disconnect_ran_leaves_its_group(layer):
    # Daphne cancels an application whose goodbye takes over 10 s (its thread
    # held up, by a lock or a flood), and again every second after.
    connection = Connection()
    connection.box.put_nowait({"type": "websocket.connect"})
    await connection.next()
    assert layer.groups.get("listeners")

    connection.task.cancel()
    await asyncio.sleep(0)  # its clean-up begins
    connection.task.cancel()  # and Daphne cancels it again
    with pytest.raises(asyncio.CancelledError):
        await connection.task
    await asyncio.sleep(0.05)  # the shielded leaving goes on

    assert not layer.groups.get("listeners")
    assert getattr(layer, "inboxes", {}) == {}


class Away(InMemoryChannelLayer):
    """A layer whose server is away: making a channel fails, as Redis's pub/sub layer's does."""

    asked = 0

    async def new_channel(self, prefix="specific."):
        Away.asked += 1
        raise ConnectionError("Redis away")


@pytest.mark.parametrize("layer", [f"{__name__}.Away"], indirect=True)
async def test_a_socket_opened_while_the_layer_is_away_is_refused(layer):
    connection = Connection()

    assert await connection.next() == {"type": "websocket.close"}  # before an accept: a 403
    await asyncio.wait_for(connection.task, 5)


@pytest.mark.parametrize("layer", [f"{__name__}.Away"], indirect=True)
async def test_while_the_heartbeat_fails_a_new_socket_does_not_ask_the_layer(layer, monkeypatch):
    monkeypatch.setattr(sockets, "_down", {asyncio.get_running_loop()})
    Away.asked = 0
    connection = Connection()

    assert await connection.next() == {"type": "websocket.close"}
    assert Away.asked == 0


async def test_its_checks_come_through_the_inbox(quick_checks):
    connection = Connection()
    connection.box.put_nowait({"type": "websocket.connect"})
    await connection.next()

    assert (await connection.next())["text"] == "checked"
    assert (await connection.next())["text"] == "checked"  # and again, a period later
    connection.box.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(connection.task, 5)


class Talker(SelfChecking, WebsocketConsumer):
    def connect(self):
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        for n in range(30):
            self.send(text_data=f"{text_data} {n}")
        self.close(code=4000)


async def talk(send):
    """Have a Talker, under Daphne's Mailbox and `send`, connect, hear "frame" and go."""
    box = Mailbox()
    task = asyncio.ensure_future(Talker.as_asgi()(dict(SCOPE), box.get, send))
    for message in (
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "text": "frame"},
        {"type": "websocket.disconnect", "code": 4000},
    ):
        box.put_nowait(message)
    await asyncio.wait_for(task, 5)


async def test_its_thread_hands_frames_over_in_order_with_what_it_waits_for():
    sent = []

    async def send(message):
        sent.append(message)

    await talk(send)

    assert [m.get("text", m["type"]) for m in sent] == [
        "websocket.accept",
        *(f"frame {n}" for n in range(30)),
        "websocket.close",
    ]


async def test_a_frame_that_cannot_be_sent_is_logged_and_the_socket_goes_on(caplog):
    sent = []

    async def send(message):
        if message.get("text") == "frame 1":
            raise ValueError("refused")
        sent.append(message)

    await talk(send)

    assert "A frame could not be sent" in caplog.text
    assert len(sent) == 1 + 29 + 1 and sent[-1]["type"] == "websocket.close"
