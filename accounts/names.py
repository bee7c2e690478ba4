"""The names players are shown by: what a username or a display name may be.

Plain functions on strings (no model import), so that the migration that
cleaned the existing names (accounts 0007) can use them too. The computer
players' names are read in each of the site's languages (settings.LANGUAGES).
"""

import functools
import re
import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# Computer players are accounts named bot-<level>-<n> (games/play/bots.py). A
# person may not take a name of that shape, whatever its case or separator, so
# that nobody can pass for a computer player (a computer is recognised by its
# User.bot_level, never by its name).
RESERVED_USERNAME = re.compile(r"bot(?![^\W\d_])", re.IGNORECASE)
# Scripts with letters that pass for one another's (Cyrillic а, е, о, р, с and Greek ο, ν
# for Latin a, e, o, p, c, v): a name mixing two of them can pass for another player's
# ("аlice" with a Cyrillic а) or a computer player's. A name in one of them, or mixing
# one with Chinese or Japanese, stands.
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})

# Control and format characters (the bidi overrides and isolates, zero-width
# characters), line and paragraph separators, and unassigned or private ones:
# a name is one line that reads as it looks.
FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Characters that show nothing though their category is a letter's, a mark's or a
# symbol's: the combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels
# (Unicode's Default_Ignorable_Code_Point) and the blank braille pattern.
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u2800")
# Variation selectors (Mongolian, VS1-16, VS17-256) choose a form of the character before
# them and show nothing themselves: "alice" with one reads as "alice". Only the text and
# emoji selectors may stand, and only after a symbol, where emoji need them (☺︎, ❤️).
VARIATION_SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
EMOJI_SELECTORS = "\ufe0e\ufe0f"


def is_forbidden_character(char, before=""):
    """Whether `char`, after the character `before`, may not stand in a name or a chat
    message: it hides or reorders text."""
    if VARIATION_SELECTORS.match(char):
        return char not in EMOJI_SELECTORS or not unicodedata.category(before or " ").startswith(
            "S"
        )
    return char in INVISIBLE or unicodedata.category(char) in FORBIDDEN_CATEGORIES


def without_forbidden(text, replacement=""):
    """Return `text` with each forbidden character made `replacement`."""
    return "".join(
        replacement if is_forbidden_character(char, text[i - 1] if i else "") else char
        for i, char in enumerate(text)
    )


def is_reserved_username(username):
    return bool(RESERVED_USERNAME.match(unicodedata.normalize("NFKC", username or "")))


def _bare(text):
    """Return `text`'s letters and digits alone, casefolded ("Strong-bot 2." -> "strongbot2")."""
    return re.sub(r"[\W_]", "", unicodedata.normalize("NFKC", text)).casefold()


@functools.cache
def _bot_name_stems(language):
    # The computer players' names as a reader of `language` sees them (shown_name), bare.
    with translation.override(language):
        return tuple(_bare(str(name).split("%(number)s")[0]) for name in BOT_NAMES.values())


# Letters that pass for the digits of a computer player's number ("Strong bot l", "bot I"),
# casefolded as _bare leaves them.
DIGIT_LOOKALIKES = str.maketrans("lio", "110")


def is_reserved_display_name(name):
    """Whether `name` is, or passes for, a computer player's: "Strong bot 2", "strong_bot-2.",
    "Strong bot l", "基础电脑 1" (as Chinese readers see Basic bot 1), in any of the site's
    languages."""
    name = unicodedata.normalize("NFKC", name or "")
    if is_reserved_username(name):
        return True
    bare = _bare(name)
    return any(
        bare.startswith(stem)
        and (bare == stem or bare[len(stem) :].translate(DIGIT_LOOKALIKES).isdigit())
        for language, _label in settings.LANGUAGES
        for stem in _bot_name_stems(language)
    )


# Names that would pass for the site speaking, bare (_bare): nobody may go by them.
SITE_NAMES = frozenset(
    {"admin", "administrator", "moderator", "mod", "staff", "support", "system", "fullset"}
)


def is_site_name(name):
    """Whether `name` passes for the site's own voice ("Admin", "Full Set", "moderator.",
    "admin_2")."""
    return _bare(name or "").rstrip("0123456789") in SITE_NAMES


# A computer player's display name as it is stored (bot_display_name), and how it reads in
# the reader's language.
BOT_DISPLAY_NAME = re.compile(r"(Random|Basic|Strong) bot (\d+)")
BOT_NAMES = {
    "random": _("Random bot %(number)s"),
    "basic": _("Basic bot %(number)s"),
    "strong": _("Strong bot %(number)s"),
}


def bot_display_name(level, number):
    """Return the display name stored for computer player `number` of `level` ("Basic bot 1")."""
    return f"{level.capitalize()} bot {number}"


def shown_name(username, display_name, bot_level=""):
    """Return the name other players see: the display name, else the username.

    A computer player's name ("Basic bot 1") in the reader's language.
    """
    found = bot_level and BOT_DISPLAY_NAME.fullmatch(display_name or "")
    if found and bot_level in BOT_NAMES:
        return str(BOT_NAMES[bot_level]) % {"number": found[2]}
    return display_name or username


# Cyrillic and Greek letters that pass for Latin ones, each with the Latin letter it passes
# for (a few of Unicode's confusables, in both cases: uppercase Η passes for H, lowercase η
# for n). A whole name of them ("аӏісе") passes for a Latin one without mixing scripts.
LOOKALIKES = str.maketrans(
    "АВЕКМНОРСТУХЅІЈӀҮԚԜЬѴ"
    "аеорсухѕіјԁԛԝӏһүпгкьѵ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"
    "αβγεηικνορτυχωμ",  # Greek
    "ABEKMHOPCTYXSIJIYQWbVaeopcyxsijdqwlhynrkbvABEZHIKMNOPTYXabyenikvoptuxwu",
)


def lookalike_skeleton(name):
    """Return `name` (NFKC) with its Cyrillic and Greek look-alikes made the Latin letters
    they pass for ("аӏісе" -> "alice"); a name without any is returned as it is."""
    return unicodedata.normalize("NFKC", name or "").translate(LOOKALIKES)


def mixes_lookalike_scripts(name):
    """Whether `name` holds letters of two scripts whose letters pass for one another's."""
    scripts = {
        unicodedata.name(char, "").partition(" ")[0]
        for char in unicodedata.normalize("NFKC", name or "")
        if char.isalpha()
    }
    return len(scripts & LOOKALIKE_SCRIPTS) > 1


def has_forbidden_characters(name):
    return without_forbidden(name) != name


def normalize_display_name(name):
    """Return `name` in compatibility form (NFKC), trimmed, its inner spaces made one."""
    return " ".join(unicodedata.normalize("NFKC", name or "").split())


def clean_display_name(name):
    """Return `name` normalized with its forbidden characters dropped (for existing names)."""
    return normalize_display_name(without_forbidden(name, " "))


def validate_display_name(name):
    if has_forbidden_characters(name):
        raise ValidationError(
            _("A display name cannot hold line breaks, control characters or direction marks."),
            code="forbidden_characters",
        )
