"""Each connection's messages wait in a Mailbox (config/mailbox.py): asyncio.Queue's promises, leaner."""

import asyncio

from daphne.server import Server

from config import mailbox
from config.mailbox import Mailbox
from config.tests.test_layers import held_while_waiting


async def test_it_keeps_messages_in_order_until_they_are_received():
    box = Mailbox()
    for n in (1, 2, 3):
        box.put_nowait(n)

    assert [await box.get() for _ in range(3)] == [1, 2, 3]
    assert box.items is None and box.getters is None  # nothing left behind


async def test_it_hands_a_message_to_the_gets_waiting_in_turn():
    box = Mailbox()
    first = asyncio.create_task(box.get())
    second = asyncio.create_task(box.get())
    await asyncio.sleep(0)

    box.put_nowait("a")
    box.put_nowait("b")

    assert await asyncio.wait_for(asyncio.gather(first, second), 1) == ["a", "b"]
    assert box.items is None and box.getters is None


async def test_a_cancelled_get_leaves_the_next_message_to_the_next_get():
    box = Mailbox()
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)

    box.put_nowait("kept")

    assert box.getters is None
    assert await asyncio.wait_for(box.get(), 1) == "kept"


async def test_a_message_handed_to_a_get_cancelled_at_that_moment_is_not_lost():
    box = Mailbox()
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    box.put_nowait("first")  # handed over: the get's future has its result...
    box.put_nowait("second")
    waiting.cancel()  # ...and the get is cancelled before it could return it
    await asyncio.gather(waiting, return_exceptions=True)

    assert waiting.cancelled()
    assert [await box.get(), await box.get()] == ["first", "second"]


async def test_a_waiting_mailbox_holds_far_less_than_an_asyncio_queue():
    async def held_by_waiting_gets(make, count):
        # Each made as its get starts, while the memory is traced.
        return await held_while_waiting([lambda: make().get() for _ in range(count)], count)

    lean = await held_by_waiting_gets(Mailbox, 200)
    queue = await held_by_waiting_gets(asyncio.Queue, 200)

    assert lean < queue - 2500  # an empty asyncio.Queue's four deques


async def test_daphne_gives_each_connection_a_mailbox():
    mailbox.install()  # as config/asgi.py does
    received = []

    async def application(scope, receive, send):
        received.append(await receive())

    server = Server(application=application, endpoints=["tcp:port=0:interface=127.0.0.1"])
    protocol = object()
    server.connections = {protocol: {}}

    queue = server.create_application(protocol, {"type": "websocket"})
    queue.put_nowait({"type": "websocket.connect"})
    await asyncio.wait_for(server.connections[protocol]["application_instance"], 1)

    assert isinstance(queue, Mailbox)
    assert received == [{"type": "websocket.connect"}]


def frame(text="x"):
    return {"type": "websocket.receive", "text": text}


async def test_a_client_sending_past_the_bound_is_dropped_and_its_application_told_once():
    box = Mailbox()
    for _ in range(mailbox.MOST_FRAMES_WAITING + 50):
        box.put_nowait(frame())
    box.put_nowait({"type": "game.updated"})  # the channel layer's are kept

    received = [await box.get() for _ in range(mailbox.MOST_FRAMES_WAITING + 2)]

    assert received[: mailbox.MOST_FRAMES_WAITING] == [frame()] * mailbox.MOST_FRAMES_WAITING
    assert received[-2:] == [mailbox.FLOODED, {"type": "game.updated"}]
    assert box.items is None


async def test_the_bound_counts_the_frames_text_too():
    box = Mailbox()
    big = "x" * (mailbox.MOST_BYTES_WAITING // 2 + 1)
    box.put_nowait(frame(big))
    box.put_nowait(frame(big))

    assert [await box.get() for _ in range(2)] == [frame(big), mailbox.FLOODED]


async def test_frames_read_as_they_come_are_never_a_flood():
    box = Mailbox()
    for _ in range(3 * mailbox.MOST_FRAMES_WAITING):
        box.put_nowait(frame())
        assert await box.get() == frame()

    assert box.frames == 0 and box.frame_bytes == 0


async def test_a_frame_handed_to_a_cancelled_get_is_counted_as_it_waits_again():
    box = Mailbox()
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    box.put_nowait(frame("hello"))  # handed to the waiting get
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)

    assert (box.frames, box.frame_bytes) == (1, 5)
    assert await box.get() == frame("hello")
    assert (box.frames, box.frame_bytes) == (0, 0)
