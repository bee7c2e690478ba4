"""The client's address behind a proxy: the entry the proxy appended, never the client's own."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from functools import partial

import pytest
from asgiref.testing import ApplicationCommunicator

from config.proxy import TrustedProxyMiddleware, forwarded_client
from games.tests.conftest import PASSWORD


def headers(*values):
    return [(b"host", b"example.com")] + [(b"x-forwarded-for", v.encode()) for v in values]


@pytest.mark.parametrize(
    "values, hops, client",
    [
        (["203.0.113.5"], 1, "203.0.113.5"),
        (["6.6.6.6, 203.0.113.5"], 1, "203.0.113.5"),  # the client wrote the first entry
        (["6.6.6.6", "203.0.113.5"], 1, "203.0.113.5"),  # two header lines are one list
        (["6.6.6.6, 203.0.113.5, 10.0.0.2"], 2, "203.0.113.5"),  # two proxies
        (["203.0.113.5"], 2, "203.0.113.5"),
        (["6.6.6.6, 203.0.113.5:4711"], 1, "203.0.113.5"),
        (["6.6.6.6, [2001:db8::1]:443"], 1, "2001:db8::1"),
        (["6.6.6.6, 2001:DB8::1"], 1, "2001:db8::1"),
        ([], 1, None),
    ],
)
def test_it_takes_the_entry_the_trusted_proxies_appended(values, hops, client):
    assert forwarded_client(headers(*values), hops) == client


async def _client_seen(scope):
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"]

    await ApplicationCommunicator(TrustedProxyMiddleware(app), scope).wait(timeout=1)
    return seen["client"]


async def test_it_sets_the_scopes_client_for_pages_and_sockets(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    for kind in ("http", "websocket"):
        # Daphne's --proxy-headers has put the left-most entry there.
        scope = {"type": kind, "client": ["6.6.6.6", 0], "headers": headers("6.6.6.6, 192.0.2.7")}

        assert (await _client_seen(scope))[0] == "192.0.2.7"


async def test_it_ignores_the_header_without_a_trusted_proxy(settings):
    settings.TRUSTED_PROXY_HOPS = 0
    scope = {"type": "http", "client": ["127.0.0.1", 5555], "headers": headers("6.6.6.6")}

    assert await _client_seen(scope) == ["127.0.0.1", 5555]


async def test_no_client_chooses_the_root_path_of_the_links(settings):
    # Daphne puts a Daphne-Root-Path header's value there.
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["root_path"])

    for kind in ("http", "websocket"):
        scope = {"type": kind, "client": ["6.6.6.6", 0], "headers": [], "root_path": "/evil"}
        await ApplicationCommunicator(TrustedProxyMiddleware(app), scope).wait(timeout=1)

    assert seen == ["", ""]


@pytest.fixture
def server_behind_a_proxy(transactional_db, django_db_blocker, settings):
    """Daphne as `serve --proxy-headers` runs it (X-Forwarded-For parsed), one trusted proxy."""
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from conftest import _fresh_connections

    settings.WORKER_IN_SERVER = False
    settings.TRUSTED_PROXY_HOPS = 1
    with django_db_blocker.unblock():
        server = DaphneProcess(
            "127.0.0.1",
            partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            kwargs={
                "proxy_forwarded_address_header": "X-Forwarded-For",
                "proxy_forwarded_port_header": "X-Forwarded-Port",
                "proxy_forwarded_proto_header": "X-Forwarded-Proto",
            },
            setup=_fresh_connections,
        )
        server.start()
        assert server.ready.wait(timeout=30), "the server did not start"
    yield f"http://127.0.0.1:{server.port.value}"
    server.terminate()
    server.join(10)


class Browser:
    """A cookie-keeping HTTP client that logs in through the login form, as a proxy's client."""

    def __init__(self, server):
        self.server = server
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def log_in(self, username, password, forwarded_for):
        page = self.opener.open(self.server + "/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": username, "password": password}
        ).encode()
        request = urllib.request.Request(
            self.server + "/accounts/login/",
            data=data,
            headers={"X-Forwarded-For": forwarded_for},
        )
        try:
            return self.opener.open(request).status
        except urllib.error.HTTPError as error:
            return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_it_counts_the_proxys_entry_through_daphne(server_behind_a_proxy, alice, bob):
    guesser = Browser(server_behind_a_proxy)
    # The proxy appends the guesser's real address to whatever the guesser sent.
    answers = [
        guesser.log_in(f"user{n}", "wrong", forwarded_for=f"10.9.{n}.1, 198.51.100.66")
        for n in range(21)
    ]
    # A guesser naming alice's address as theirs must not lock her out.
    for n in range(21):
        guesser.log_in(f"other{n}", "wrong", forwarded_for="192.0.2.10, 198.51.100.66")

    alice_at_home = Browser(server_behind_a_proxy).log_in(
        "alice", PASSWORD, forwarded_for="192.0.2.10"
    )

    assert answers[:20] == [200] * 20
    assert answers[20] == 429, "the 21st failure from one address is refused"
    assert alice_at_home == 302


@pytest.mark.parametrize("hops, expected", [(0, "1"), (2, None)])
def test_it_trusts_one_proxy_when_serve_takes_proxy_headers(monkeypatch, settings, hops, expected):
    from django.core.management import call_command

    from games.management.commands import serve

    settings.DEBUG = True  # no collectstatic needed
    settings.TRUSTED_PROXY_HOPS = hops
    monkeypatch.delenv("TRUSTED_PROXY_HOPS", raising=False)
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    started = []

    class Started(Exception):
        pass

    def popen(command, env, **kwargs):
        started.append(env)
        raise Started

    monkeypatch.setattr(serve.subprocess, "Popen", popen)
    with pytest.raises(Started):
        call_command("serve", "--proxy-headers", "--port", "0", "--no-worker")

    assert started[0].get("TRUSTED_PROXY_HOPS") == expected


def test_a_root_path_header_changes_no_link_through_daphne(server_behind_a_proxy):
    request = urllib.request.Request(
        server_behind_a_proxy + "/accounts/login/", headers={"Daphne-Root-Path": "/evil"}
    )

    page = urllib.request.urlopen(request).read().decode()

    assert 'href="/accounts/signup/' in page
    assert "/evil" not in page
