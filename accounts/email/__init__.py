"""What the site writes to an account's email address, and when it may (confirm.py)."""

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import timezone, translation

log = logging.getLogger(__name__)


def write(user, to, template, context):
    """Email address `to` about `user`'s account, in `user`'s language.

    The message is templates/accounts/emails/<template>.txt, its subject
    <template>_subject.txt. A mail server away is logged, not raised: what the
    email tells of (an account made, an address changed) is done already.
    """
    with translation.override(user.language or translation.get_language()):
        context = {"user": user, **context}
        message = EmailMessage(
            subject=render_to_string(f"accounts/emails/{template}_subject.txt", context).strip(),
            body=render_to_string(f"accounts/emails/{template}.txt", context),
            to=[to],
        )
    try:
        message.send()
    except Exception:
        log.exception("Could not send %s about user %s", template, user.pk)


def tell_of_change(user, previous_email):
    """Email the old address that the account's address changed (someone may have taken it)."""
    context = {
        "previous_email": previous_email,
        "when": timezone.now(),
        "site_url": settings.SITE_URL,
    }
    write(user, previous_email, "email_changed", context)
