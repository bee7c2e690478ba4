"""The signed-in user is read with a statement compiled once (accounts/users.py, config/statements.py): the same user as the ORM's."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db


def fields(user):
    return {k: v for k, v in vars(user).items() if not k.startswith("_")}


def test_it_reads_a_user_by_primary_key_as_the_orm_does(alice):
    alice.display_name = "Alice A."
    alice.save()
    User = get_user_model()

    read = User.objects.get(pk=str(alice.pk))  # a session holds the key as text
    orm = User.objects.filter(pk=alice.pk).get()

    assert type(read) is User and read.pk == alice.pk
    assert fields(read) == fields(orm)
    assert read.date_joined.tzinfo is not None and read.is_active is True
    assert read._saved_names == orm._saved_names
    assert not read._state.adding and read._state.db == "default"


def test_it_says_no_such_user_as_the_orm_does(alice):
    User = get_user_model()
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=alice.pk + 1000)
    with pytest.raises(ValueError):
        User.objects.get(pk="not a number")


def test_it_reads_other_lookups_through_the_orm(alice, bob):
    User = get_user_model()
    assert User.objects.get(username="bob") == bob
    assert User.objects.get(pk=alice.pk, is_active=True) == alice
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=alice.pk, is_active=False)


def test_it_keeps_a_signed_in_page_and_its_session_checks(client, alice):
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("lobby:your_turn")).status_code == 200
    reads = [q["sql"] for q in queries if 'FROM "accounts_user"' in q["sql"]]
    assert reads and "LIMIT" not in reads[0]  # the statement written once, not the ORM's get

    alice.set_password("a new secret phrase")
    alice.save()  # the session's password hash no longer matches: signed out
    assert client.get(reverse("lobby:your_turn")).status_code == 302


def test_it_refuses_the_session_of_a_closed_account(client, alice):
    client.force_login(alice)
    alice.is_active = False
    alice.save()
    assert client.get(reverse("lobby:your_turn")).status_code == 302
