"""A readable answer when the database is unavailable (DatabaseUnavailableMiddleware)."""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """Answer a request that lost the database (PostgreSQL restarting) with a readable 503.

    Goes right after AuthenticationMiddleware. It reads the request's session
    and user first (every later layer reuses them), so that a database lost
    before any view runs is caught here: an exception raised inside another
    middleware becomes Django's 500 page (or, with DEBUG, its traceback page)
    at that middleware's own layer, where no middleware could see it. A view's
    is caught by `process_exception`. Either way the request's transaction was
    rolled back: nothing of it was kept. The page (and static/js/table.js for
    htmx's requests) shows the sentence; the request can be made again once
    the database is back.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            request.user.pk  # noqa: B018 (read now, with the session, for every later layer)
        except (OperationalError, InterfaceError) as exception:
            return database_unavailable(exception)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError | InterfaceError):
            return database_unavailable(exception)
        return None


def database_unavailable(exception):
    log.warning("A request found the database unavailable: %s", exception)
    return HttpResponse(
        database_unavailable_message(),
        status=503,
        content_type="text/plain; charset=utf-8",
        headers={"Retry-After": "5"},
    )


def database_unavailable_message():
    return _(
        "The site cannot reach its database just now: nothing was changed. Try again in a moment."
    )
