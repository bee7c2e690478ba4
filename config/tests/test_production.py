"""Production mode (DEBUG off), each test in a fresh Django process with its own environment."""

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "fullset.example",
    "EMAIL_HOST": "smtp.fullset.example",
}


# What most tests below check (the secret key, headers, cookies, static files,
# which tools are installed) is the same on either database: they are marked one_database (the
# SQLite run only). The deploy checks run on both: production's settings differ with them.


def run(args, **changes):
    """Run `args` with the environment changed (None removes a variable); return the result."""
    environ = os.environ.copy()
    for name, value in changes.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return subprocess.run(
        args, cwd=settings.BASE_DIR, env=environ, capture_output=True, text=True, timeout=120
    )


def manage(*args, **changes):
    return run([sys.executable, "manage.py", *args], **changes)


def test_it_passes_the_deploy_checks():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    print(result.stdout, result.stderr)
    assert result.returncode == 0
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.one_database
def test_it_refuses_to_start_without_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": None})

    assert result.returncode != 0
    assert "Set SECRET_KEY when DEBUG is off" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr


@pytest.mark.one_database
def test_it_refuses_a_short_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": "hunter2"})

    assert result.returncode != 0
    assert "SECRET_KEY is too short" in result.stderr


@pytest.mark.one_database
def test_it_warns_when_https_is_left_to_a_proxy_that_is_not_trusted():
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, SECURE_SSL_REDIRECT="0"
    )

    assert result.returncode != 0
    assert "security.W008" in result.stderr


# Collects the static files into a fresh STATIC_ROOT, then asks the ASGI
# application (as Daphne would) for a few URLs; prints what came back.
REQUESTS = """
import asyncio, json, sys
import django
from django.core.management import call_command

django.setup()
call_command("collectstatic", interactive=False, verbosity=0)

from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.templatetags.static import static

from config.asgi import application


async def get(path, *headers):
    scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "query_string": b"", "server": ("127.0.0.1", 8000),
        "client": ("192.0.2.1", 40000), "headers": [(b"host", b"fullset.example"), *headers],
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    body = b""
    while True:  # a file comes in several messages, the last one perhaps empty
        message = await communicator.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait()
    return {
        "status": start["status"],
        "headers": {k.decode().lower(): v.decode() for k, v in start["headers"]},
        "length": len(body),
    }


async def main():
    https = (b"x-forwarded-proto", b"https")
    css = static("css/site.css")
    return {
        "css_url": css,
        "css": await get(css, https),
        "css_gzip": await get(css, https, (b"accept-encoding", b"gzip")),
        "plain_http": await get("/accounts/login/"),
        "middleware": settings.MIDDLEWARE[:2],
        "cookies_secure": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    }


print(json.dumps(asyncio.run(main())))
"""


@pytest.mark.one_database
def test_it_serves_hashed_static_files_with_whitenoise(tmp_path):
    result = run(
        [sys.executable, "-c", REQUESTS],
        **PRODUCTION,
        STATIC_ROOT=str(tmp_path),
        SECURE_PROXY_SSL_HEADER="1",
    )
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])

    assert seen["middleware"] == [
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
    ]
    url = seen["css_url"]
    assert url.startswith("/static/css/site.") and url != "/static/css/site.css", "hashed"
    css = seen["css"]
    assert css["status"] == 200
    assert css["headers"]["content-type"].startswith("text/css")
    assert "immutable" in css["headers"]["cache-control"]
    assert css["headers"]["strict-transport-security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert css["headers"]["x-content-type-options"] == "nosniff"
    gzipped = seen["css_gzip"]
    assert gzipped["status"] == 200
    assert gzipped["headers"]["content-encoding"] == "gzip"
    assert gzipped["length"] < css["length"]
    assert seen["plain_http"]["status"] == 301
    assert seen["plain_http"]["headers"]["location"] == "https://fullset.example/accounts/login/"
    assert seen["cookies_secure"] == [True, True]


# The cookies the site sets, as production sets them: asks the ASGI application for the
# login page over HTTPS (the CSRF cookie), and sets the language cookie as the settings
# page does.
COOKIES = """
import asyncio, json
import django
from django.core.management import call_command

django.setup()
call_command("collectstatic", interactive=False, verbosity=0)

from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.http import HttpResponse

from accounts.views import _remember_language
from config.asgi import application


async def set_cookies(path):
    scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "scheme": "https",
        "path": path, "query_string": b"", "server": ("127.0.0.1", 8000),
        "client": ("192.0.2.1", 40000),
        "headers": [(b"host", b"fullset.example"), (b"x-forwarded-proto", b"https")],
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    while (await communicator.receive_output(10)).get("more_body"):
        pass
    return [v.decode() for k, v in start["headers"] if k.lower() == b"set-cookie"]


language = HttpResponse()
_remember_language(language, "zh-hans")
print(json.dumps({
    "login": asyncio.run(set_cookies("/accounts/login/")),
    "language": language.cookies[settings.LANGUAGE_COOKIE_NAME].output(header=""),
    # The messages' cookie follows the session cookie's settings.
    "session_and_messages": [settings.SESSION_COOKIE_SECURE, settings.SESSION_COOKIE_HTTPONLY],
}))
"""


@pytest.mark.one_database
def test_it_marks_every_cookie_secure(tmp_path):
    result = run(
        [sys.executable, "-c", COOKIES],
        **PRODUCTION,
        SECURE_PROXY_SSL_HEADER="1",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        STATIC_ROOT=str(tmp_path / "static"),
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])

    assert seen["login"] and all("; Secure" in cookie for cookie in seen["login"])
    assert "zh-hans" in seen["language"]
    assert "Secure" in seen["language"] and "HttpOnly" in seen["language"]
    assert seen["session_and_messages"] == [True, True]


@pytest.mark.one_database
def test_it_names_no_server_software(tmp_path):
    import http.client
    import time

    from games.tools.load import free_port, wait_for_port

    env = {**PRODUCTION, "STATIC_ROOT": str(tmp_path / "static")}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    assert manage("collectstatic", "--noinput", **env).returncode == 0
    port = free_port()
    environ = {**os.environ, **env}
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--no-worker"],
        cwd=settings.BASE_DIR,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, 30, serve)
        headers = {}
        deadline = time.monotonic() + 30
        while not headers and time.monotonic() < deadline:
            # The port listens before Daphne is up: the first connections may wait or fail.
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/", headers={"Host": "fullset.example"})
                response = conn.getresponse()
                headers = {k.lower(): v for k, v in response.getheaders()}
                conn.close()
            except OSError:
                time.sleep(0.2)
    finally:
        serve.terminate()
        serve.wait(20)

    assert headers, "serve did not answer"
    assert "location" in headers  # the HTTPS redirect: Daphne answered
    assert "server" not in headers


ROUTES_AND_COMMANDS = (
    "import json, config.asgi\n"
    "from django.core.management import get_commands\n"
    "routes = [str(p.pattern) for p in config.asgi.websocket_urlpatterns]\n"
    "print(json.dumps([routes, sorted(get_commands())]))"
)
TOOLS = {"loadtest", "move_bench", "page_bench", "serve_bench", "review_bench", "bot_fairness"}


@pytest.mark.one_database
def test_a_production_server_serves_no_benchmark_route_and_has_no_benchmark_command():
    result = run([sys.executable, "-c", ROUTES_AND_COMMANDS], **PRODUCTION, FULLSET_TOOLS=None)

    assert result.returncode == 0, result.stderr
    routes, commands = json.loads(result.stdout)
    assert "ws/games/<slug:code>/" in routes
    assert "ws/echo/" not in routes
    assert "serve" in commands and "worker" in commands
    assert TOOLS.isdisjoint(commands)


@pytest.mark.one_database
def test_the_tools_come_in_production_only_when_asked_for():
    result = run([sys.executable, "-c", ROUTES_AND_COMMANDS], **PRODUCTION, FULLSET_TOOLS="1")

    assert result.returncode == 0, result.stderr
    routes, commands = json.loads(result.stdout)
    assert "ws/echo/" in routes
    assert TOOLS <= set(commands)
