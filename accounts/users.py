"""Who is asking: the signed-in user read with a statement compiled once (config/statements.py).

Every request of a signed-in user reads its user row by primary key
(django.contrib.auth's ModelBackend.get_user, `User._default_manager.get(pk=...)`);
building and compiling that query through the ORM cost about 0.35 ms of CPU,
four times the read itself. The manager reads `get(pk=...)` alone through the
project's one compile-once mechanism; the result is what the ORM gives (the
same columns, converted by the same converters, built by `User.from_db`), so
sign-in, the session's checks and everything else stay Django's.
"""

from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db.models import Value
from django.db.models.functions import Lower

from config import statements


class UserManager(DjangoUserManager):
    # The migrations hold Django's manager, which this one only makes faster: to them
    # (deconstruct, the autodetector's comparison) it is Django's, and needs no migration.
    def deconstruct(self):
        return DjangoUserManager().deconstruct()

    def __eq__(self, other):
        return (
            isinstance(other, DjangoUserManager)
            and self._constructor_args == other._constructor_args
        )

    __hash__ = DjangoUserManager.__hash__

    def get(self, *args, **kwargs):
        pk = kwargs.get("pk")
        if isinstance(pk, str) and pk.isdigit():
            pk = int(pk)  # a session holds the key as text
        if args or kwargs.keys() != {"pk"} or self._db is not None or type(pk) is not int:
            return super().get(*args, **kwargs)  # the ORM's, its errors included
        names = [field.attname for field in self.model._meta.concrete_fields]
        rows = statements.values(
            "user by key", lambda key: self.get_queryset().filter(pk=key).values_list(*names), pk
        )
        if not rows:
            raise self.model.DoesNotExist(
                f"{self.model._meta.object_name} matching query does not exist."
            )
        return self.model.from_db("default", names, rows[0])

    def get_by_natural_key(self, username):
        """The account a username logs in to, in any case ("Alice" is alice's): usernames
        are unique in any case (accounts.User's constraint), and the login throttle counts
        them so. (Django's ModelBackend and createsuperuser look users up by it.)"""
        # Lower on both sides, in the database, as the constraint folds them: one row at most.
        folded = Lower(self.model.USERNAME_FIELD)
        return self.alias(folded=folded).get(folded=Lower(Value(username)))
