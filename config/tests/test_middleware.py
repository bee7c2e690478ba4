"""config.middleware's two middlewares give every response the headers Django's give it."""

import re

import pytest
from django.http import HttpResponse, HttpResponseNotFound
from django.middleware.csp import ContentSecurityPolicyMiddleware as DjangosCSP
from django.middleware.locale import LocaleMiddleware as DjangosLocale
from django.test import RequestFactory, override_settings
from django.urls import path
from django.utils import translation
from django.utils.csp import CSP

from config import middleware
from config.middleware import ContentSecurityPolicyMiddleware, LocaleMiddleware


def _ok(request):
    return HttpResponse("ok")


# This module is a URLconf without i18n_patterns.
urlpatterns = [path("games/<str:code>/move/", _ok)]


def _headers(middleware_class, request, response):
    return dict(middleware_class(lambda r: response).process_response(request, response).items())


def _response(kind):
    response = HttpResponseNotFound() if kind == "404" else HttpResponse("x")
    if kind == "vary":
        response.headers["Vary"] = "Cookie"
    if kind == "language":
        response.headers["Content-Language"] = "zh-hans"
    return response


@pytest.mark.parametrize("cookie", [None, "zh-hans", "fr"])
@pytest.mark.parametrize("accept", ["", "zh-CN,zh;q=0.9", "de, en;q=0.5"])
@pytest.mark.parametrize("at", ["/games/ab12cd34ef/move/", "/", "/en/", "/zh-hans/games/"])
def test_the_requests_language_is_djangos(settings, cookie, accept, at):
    chosen = []
    for middleware_class in (LocaleMiddleware, DjangosLocale):
        request = RequestFactory(HTTP_ACCEPT_LANGUAGE=accept).get(at)
        request.urlconf = __name__
        if cookie:
            request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = cookie
        with translation.override("en"):
            middleware_class(lambda r: None).process_request(request)
            chosen.append((request.LANGUAGE_CODE, translation.get_language()))

    assert chosen[0] == chosen[1]


def test_the_path_is_not_searched_for_a_language(monkeypatch):
    def searched(path):
        raise AssertionError(f"searched {path}")

    monkeypatch.setattr(translation, "get_language_from_path", searched)
    request = RequestFactory().get("/games/ab12cd34ef/move/")
    request.urlconf = __name__
    locale_middleware = LocaleMiddleware(lambda r: None)

    with translation.override("en"):
        locale_middleware.process_request(request)
        response = locale_middleware.process_response(request, HttpResponse())

    assert response.headers["Content-Language"] == "en"


@pytest.mark.parametrize("kind", ["plain", "404", "vary", "language"])
@pytest.mark.parametrize("at", ["/games/ab12cd34ef/move/", "/", "/en/", "/zh-hans/games/"])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_locale_headers_are_djangos(kind, at, language):
    request = RequestFactory().get(at)
    request.urlconf = __name__
    with translation.override(language):
        ours = _headers(LocaleMiddleware, request, _response(kind))
        djangos = _headers(DjangosLocale, request, _response(kind))

    assert ours == djangos
    assert "Accept-Language" in ours["Vary"]


def test_with_language_prefixed_patterns_djangos_own_answer_is_given(monkeypatch):
    # The shortcut is only for a URLconf without i18n_patterns: with them, Django's runs.
    monkeypatch.setattr(
        middleware, "is_language_prefix_patterns_used", lambda urlconf: (True, True)
    )
    called = []
    monkeypatch.setattr(
        DjangosLocale, "process_request", lambda self, request: called.append("request")
    )
    monkeypatch.setattr(
        DjangosLocale,
        "process_response",
        lambda self, request, response: called.append("response") or response,
    )
    request = RequestFactory().get("/en/")
    locale_middleware = LocaleMiddleware(lambda r: None)

    locale_middleware.process_request(request)
    locale_middleware.process_response(request, HttpResponse())

    assert called == ["request", "response"]


NONCED = {"default-src": [CSP.SELF], "script-src": [CSP.SELF, CSP.NONCE], "object-src": CSP.NONE}


def _csp_headers(middleware_class, use_nonce=False, config=None, preset=None):
    request = RequestFactory().get("/")
    middleware_class(lambda r: None).process_request(request)
    nonce = str(request._csp_nonce) if use_nonce else None
    response = HttpResponse("x")
    if config is not None:
        response._csp_config = config
    if preset:
        response.headers[CSP.HEADER_ENFORCE] = preset
    return dict(
        middleware_class(lambda r: response).process_response(request, response).items()
    ), nonce


@pytest.mark.parametrize(
    "case",
    ["settings", "nonce unused", "nonce used", "view's own", "header set", "no policy"],
)
def test_the_policy_headers_are_djangos(case):
    kwargs = {
        "settings": {},
        "nonce unused": {"config": NONCED},
        "nonce used": {"config": NONCED, "use_nonce": True},
        "view's own": {"config": {"default-src": [CSP.NONE]}},
        "header set": {"preset": "default-src 'none'"},
        "no policy": {"config": {}},
    }[case]
    with override_settings(SECURE_CSP_REPORT_ONLY={"img-src": [CSP.SELF, "data:"]}):
        ours, nonce = _csp_headers(ContentSecurityPolicyMiddleware, **kwargs)
        djangos, _ = _csp_headers(DjangosCSP, **kwargs)

    if nonce:  # each request its own nonce: compare the rest
        assert f"'nonce-{nonce}'" in ours[CSP.HEADER_ENFORCE]
        for headers in (ours, djangos):
            headers[CSP.HEADER_ENFORCE] = re.sub("'nonce-[^']+'", "N", headers[CSP.HEADER_ENFORCE])
    assert ours == djangos


def test_a_policy_without_a_nonce_is_built_once(monkeypatch):
    built = []
    build = middleware.build_policy
    monkeypatch.setattr(middleware, "build_policy", lambda *a: built.append(a) or build(*a))
    config = {"default-src": [CSP.SELF]}

    for _ in range(3):
        headers, _nonce = _csp_headers(ContentSecurityPolicyMiddleware, config=config)
        assert headers[CSP.HEADER_ENFORCE] == "default-src 'self'"

    assert len(built) == 1


def test_a_nonce_is_never_remembered_from_one_response_for_the_next():
    first, one = _csp_headers(ContentSecurityPolicyMiddleware, use_nonce=True, config=NONCED)
    second, two = _csp_headers(ContentSecurityPolicyMiddleware, use_nonce=True, config=NONCED)

    assert one != two
    assert f"'nonce-{one}'" in first[CSP.HEADER_ENFORCE]
    assert f"'nonce-{two}'" in second[CSP.HEADER_ENFORCE] and one not in second[CSP.HEADER_ENFORCE]


def test_changed_settings_give_the_changed_policy():
    with override_settings(SECURE_CSP={"default-src": [CSP.SELF]}):
        before, _ = _csp_headers(ContentSecurityPolicyMiddleware)
    with override_settings(SECURE_CSP={"default-src": [CSP.NONE]}):
        after, _ = _csp_headers(ContentSecurityPolicyMiddleware)

    assert before[CSP.HEADER_ENFORCE] == "default-src 'self'"
    assert after[CSP.HEADER_ENFORCE] == "default-src 'none'"
