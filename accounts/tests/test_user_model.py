import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.migrations.loader import MigrationLoader

from accounts.models import User


def test_it_uses_the_custom_user_model():
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model() is User


@pytest.mark.django_db
def test_it_stores_display_name_and_language():
    User.objects.create_user("alice", password="x", display_name="Alice", language="zh-hans")

    alice = User.objects.get(username="alice")
    assert alice.display_name == "Alice"
    assert alice.language == "zh-hans"


@pytest.mark.django_db
def test_it_leaves_display_name_and_language_optional():
    bob = User.objects.create_user("bob", password="x")

    bob.full_clean()
    assert bob.display_name == ""
    assert bob.language == ""


def test_it_creates_the_user_model_in_the_first_migration():
    # Swapping AUTH_USER_MODEL after the first migration is painful; keep it in 0001.
    migration = MigrationLoader(None).get_migration("accounts", "0001_initial")

    assert migration.initial
    [create_user] = [op for op in migration.operations if getattr(op, "name", "") == "User"]
    field_names = [name for name, _ in create_user.fields]
    assert "display_name" in field_names
    assert "language" in field_names


@pytest.mark.django_db
def test_it_turns_email_notifications_on_by_default():
    alice = User.objects.create_user("alice", password="x")

    alice.refresh_from_db()
    assert alice.email_notifications is True


def test_it_names_a_user_by_display_name_then_username():
    assert User(username="alice", display_name="Alice Liddell").name == "Alice Liddell"
    assert User(username="bob").name == "bob"


def test_it_links_to_the_public_profile():
    assert User(username="alice").get_absolute_url() == "/accounts/u/alice/"


def test_it_adds_email_notifications_in_a_later_migration():
    migration = MigrationLoader(None).get_migration("accounts", "0002_user_email_notifications")

    [add_field] = migration.operations
    assert add_field.name == "email_notifications"
    assert add_field.field.default is True


def test_it_refuses_a_computers_name_on_any_username_change(alice):
    from django.core.exceptions import ValidationError

    from games.play import bots

    alice.username = "BOT-strong-1"
    with pytest.raises(ValidationError) as refused:
        alice.full_clean()
    bot = bots.bot_account("strong", 1)
    bot.full_clean()  # a computer keeps its own name

    assert "kept for computer players" in str(refused.value.message_dict["username"])


def test_it_lets_a_legacy_bot_like_name_save_its_other_settings(db):
    person = User.objects.create_user("bot-basic-9", "p@example.com", "x-pass-12345")
    person = User.objects.get(pk=person.pk)

    person.display_name = "Not a bot"
    person.full_clean()
