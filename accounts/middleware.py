from django.utils import translation


def user_language_middleware(get_response):
    """Activate the saved language of a signed-in user.

    LocaleMiddleware has already picked a language from the cookie or the
    browser; a saved choice overrides it, so it follows the user to every
    device they log in on. Goes after AuthenticationMiddleware.
    """

    def middleware(request):
        language = getattr(request.user, "language", "")
        if language:
            try:
                language = translation.get_supported_language_variant(language)
            except LookupError:
                # A language since removed from settings.LANGUAGES.
                language = ""
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return get_response(request)

    return middleware
