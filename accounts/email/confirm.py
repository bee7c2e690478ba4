"""Confirming an email address: the site writes about games only to an address its owner confirmed.

Anyone may type anyone's address at sign-up or in the settings. Without
this, a sign-up with someone else's address and a few correspondence games
against a second account would send that person a "your turn" email every
few minutes. So an address gets nothing but a link until its owner follows
it: the turn emails, reminders and digests (games/play/emails.py) wait for
`User.email_confirmed`. The password reset still writes to an unconfirmed
address, since whoever holds the mailbox may take the account over.

The link carries the account and the address, signed (django.core.signing),
good for CONFIRM_DAYS; once the address changes, the links sent to the old
one confirm nothing. It opens a page with a button: a mail provider's link
checker that opens every link must not confirm an address for its owner.
A user may have the link sent again a few times an hour (RESENDS).
"""

import logging

from django.conf import settings
from django.core import signing
from django.urls import reverse

from accounts.email import write
from accounts.models import User
from accounts.ratelimit import FALLBACK, Limiter, Rate

log = logging.getLogger(__name__)

SALT = "accounts.confirm"
CONFIRM_DAYS = 7
RESENDS = Rate(3, 60 * 60)  # links sent again, per user
_resends = Limiter("Confirmation links", when_down=FALLBACK, logger=log)


def token_for(user):
    """Return the signed token of a link confirming `user`'s current address."""
    return signing.dumps({"u": user.pk, "e": user.email.casefold()}, salt=SALT)


def user_for(token):
    """Return the active user whose current address `token` confirms, or None."""
    try:
        data = signing.loads(token, salt=SALT, max_age=CONFIRM_DAYS * 24 * 60 * 60)
    except signing.BadSignature:  # tampered with, or expired (SignatureExpired)
        return None
    user = User.objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or not user.email or user.email.casefold() != data.get("e"):
        return None
    return user


def confirm_address(user):
    """Mark `user`'s address, as read, confirmed; return False if it changed meanwhile.

    One conditional UPDATE: an address changed between the reading of a link and
    this write stays unconfirmed.
    """
    same = User.objects.filter(pk=user.pk, email=user.email).exclude(email="")
    return bool(same.update(email_confirmed=True))


def send_link(user):
    """Email `user`'s address the link that confirms it; a mail server away is logged."""
    link = settings.SITE_URL + reverse("accounts:confirm_email", args=[token_for(user)])
    write(user, user.email, "confirm", {"link": link, "days": CONFIRM_DAYS})


def may_send_again(user):
    """Count a request to send the link again; return whether it may be sent (RESENDS)."""
    return _resends.take(f"confirm:{user.pk}", RESENDS)
