import os

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import send_mail
from django.db import connection

from config.settings import database_from_url, envbool, envint, redis_database


def test_it_parses_a_postgres_database_url():
    config = database_from_url("postgres://fullset:s3cret@db.example.com:5433/fullset_prod")

    assert config == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "fullset_prod",
        "USER": "fullset",
        "PASSWORD": "s3cret",
        "HOST": "db.example.com",
        "PORT": "5433",
        # A server that hangs: a new connection gives up, the request says the database is away.
        "OPTIONS": {"connect_timeout": "5"},
    }


def test_it_accepts_the_postgresql_scheme_without_port_or_password():
    config = database_from_url("postgresql://postgres@127.0.0.1/fullset")

    assert config["HOST"] == "127.0.0.1"
    assert config["PORT"] == ""
    assert config["USER"] == "postgres"
    assert config["PASSWORD"] == ""
    assert config["NAME"] == "fullset"


def test_it_unquotes_percent_encoded_credentials():
    config = database_from_url("postgres://us%40er:p%2Fa%3Ass@localhost:5432/db")

    assert config["USER"] == "us@er"
    assert config["PASSWORD"] == "p/a:ss"


def test_it_passes_query_parameters_as_options():
    config = database_from_url("postgres://u:p@h:5432/db?sslmode=require&connect_timeout=20")

    assert config["OPTIONS"] == {"sslmode": "require", "connect_timeout": "20"}


@pytest.mark.parametrize("url", ["mysql://u:p@h/db", "postgres://u:p@h:5432/", "db.sqlite3"])
def test_it_rejects_unusable_database_urls(url):
    with pytest.raises(ImproperlyConfigured):
        database_from_url(url)


def test_it_reads_typed_environment_variables(monkeypatch):
    monkeypatch.setenv("FULLSET_FLAG", "False")
    monkeypatch.setenv("FULLSET_NUMBER", "42")
    monkeypatch.setenv("FULLSET_EMPTY", "")

    assert envbool("FULLSET_FLAG", True) is False
    assert envbool("FULLSET_EMPTY", True) is True
    assert envbool("FULLSET_UNSET", False) is False
    assert envint("FULLSET_NUMBER", 0) == 42
    assert envint("FULLSET_EMPTY", 7) == 7


def test_it_uses_the_database_from_the_environment():
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"

    assert connection.vendor == expected


def test_it_uses_the_channel_layer_from_the_environment():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]

    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"
        [host] = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
        assert host["socket_timeout"] is None
    else:
        assert backend == "config.layers.LeanChannelLayer"


def test_it_uses_the_cache_from_the_environment():
    cache = settings.CACHES["default"]

    if os.environ.get("REDIS_URL"):
        assert cache["BACKEND"] == "config.caches.RedisCache"
        # Unlike the channel layer, a cache call must time out.
        assert cache["OPTIONS"]["socket_timeout"] == 2
        expected = os.environ.get("REDIS_CACHE_URL") or redis_database(os.environ["REDIS_URL"], 1)
        assert cache["LOCATION"] == expected
    else:
        assert cache["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"),
        ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/1"),
        (
            "rediss://:pw@redis.example:6380/3?ssl_cert_reqs=none",
            "rediss://:pw@redis.example:6380/1?ssl_cert_reqs=none",
        ),
        ("unix:///run/redis.sock?db=0", "unix:///run/redis.sock?db=1"),
    ],
)
def test_it_gives_the_cache_its_own_redis_database(url, expected):
    assert redis_database(url, 1) == expected


def test_it_sends_mail_through_the_default_mailer(mailoutbox):
    send_mail("Your turn", "Bob played a Deal Breaker.", None, ["alice@example.com"])

    [message] = mailoutbox
    assert message.subject == "Your turn"
    assert message.from_email == settings.DEFAULT_FROM_EMAIL
