import pytest
from channels.testing import HttpCommunicator

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_it_serves_the_home_page_over_asgi():
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"testserver")])

    response = await communicator.get_response()

    assert response["status"] == 200
    assert b"Full Set" in response["body"]
