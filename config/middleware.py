"""Two of Django's middlewares without the work they repeat for every response, and a
readable answer when the database is unavailable (DatabaseUnavailableMiddleware).

- LocaleMiddleware looks for a language code at the start of every response's
  path (for i18n_patterns); on this site's paths ("/games/...") the lookup
  fails, and a failed lookup is not cached, so it ran in full every time
  (twice a request). With no i18n_patterns in the URLconf, the path can hold
  no language: the request gets the same language, and the response the same
  headers, without the lookup.
- ContentSecurityPolicyMiddleware builds the policy's header from its settings
  for every response. A policy without a nonce is the same every time: it is
  built once per configuration.

Each behaves as Django's does wherever the shortcut does not apply.
"""

import logging

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.middleware import csp, locale
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.csp import CSP, build_policy
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def _paths_hold_languages(request):
    """Whether the request's URLconf has patterns prefixed with a language (i18n_patterns)."""
    urlconf = getattr(request, "urlconf", settings.ROOT_URLCONF)
    return is_language_prefix_patterns_used(urlconf)[0]


class LocaleMiddleware(locale.LocaleMiddleware):
    def process_request(self, request):
        if _paths_hold_languages(request):
            return super().process_request(request)
        # What Django's does when no pattern is prefixed with a language.
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        if _paths_hold_languages(request):
            return super().process_response(request, response)
        # What Django's does when no pattern is prefixed with a language.
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


# id(configuration) -> (configuration, its policy, or None if it asks for a nonce). The
# configurations are settings and views' decorators: a handful, fixed by the code.
_policies = {}


def _uses_nonce(config):
    for values in config.values():
        if values == CSP.NONCE:
            return True
        if isinstance(values, list | tuple | set) and CSP.NONCE in values:
            return True
    return False


def policy(config, nonce):
    """Return build_policy(config, nonce), built once for a configuration without a nonce.

    A configuration is told by its identity (settings are not changed in place).
    """
    found = _policies.get(id(config))
    if found is None or found[0] is not config:
        found = (config, None if _uses_nonce(config) else build_policy(config))
        if len(_policies) > 64:
            _policies.clear()
        _policies[id(config)] = found
    return found[1] if found[1] is not None else build_policy(config, nonce)


class ContentSecurityPolicyMiddleware(csp.ContentSecurityPolicyMiddleware):
    def process_response(self, request, response):
        # Django's, with the policy built once (see policy).
        nonce = csp.get_nonce(request)
        sentinel = object()
        if (csp_config := getattr(response, "_csp_config", sentinel)) is sentinel:
            csp_config = settings.SECURE_CSP
        if (csp_ro_config := getattr(response, "_csp_ro_config", sentinel)) is sentinel:
            csp_ro_config = settings.SECURE_CSP_REPORT_ONLY
        for header, config in [
            (CSP.HEADER_ENFORCE, csp_config),
            (CSP.HEADER_REPORT_ONLY, csp_ro_config),
        ]:
            if config and header not in response:
                response.headers[str(header)] = policy(config, nonce)
        return response


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
