"""Production mode (DEBUG off), each test in a fresh Django process with its own environment."""

import json
import os
import secrets
import subprocess
import sys

from django.conf import settings

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "fullset.example",
    "EMAIL_HOST": "smtp.fullset.example",
}


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


def test_it_refuses_to_start_without_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": None})

    assert result.returncode != 0
    assert "Set SECRET_KEY when DEBUG is off" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr


def test_it_refuses_a_short_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": "hunter2"})

    assert result.returncode != 0
    assert "SECRET_KEY is too short" in result.stderr


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
