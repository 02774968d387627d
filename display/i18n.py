"""The table's languages: GNU gettext catalogs read through Python's `gettext`, with plural forms.

Every word the scoreboard shows or the speaker says is looked up here, in the
language the table was set to (`set_language`, from ``[display] language`` or
``--language``). The catalogs are ``display/locale/<lang>/LC_MESSAGES/euchre_table.po``,
compiled to the ``.mo`` files that ship beside them. Messages are ``str.format``
templates with named fields ("{who} to lead"), so a translation may put them in
any order. After changing the words (Babel, from the ``dev`` extra)::

    pybabel extract -o messages.pot display
    pybabel update -i messages.pot -d display/locale -D euchre_table --no-fuzzy-matching
    (translate the new entries of each .po)
    pybabel compile -d display/locale -D euchre_table

``tests/display/test_catalogs.py`` fails when a ``.mo`` no longer matches its ``.po``.

``python -m display.catalog_check`` checks every catalog against the messages in the
code and prints ``languages=en,da,id,ro missing=0``.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Iterator
from pathlib import Path

DOMAIN = "euchre_table"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "da", "id", "ro")
DEFAULT_LANGUAGE = "en"

# The espeak-ng voice that reads each language.
VOICES = {"en": "en", "da": "da", "id": "id", "ro": "ro"}


class UnknownLanguage(ValueError):
    """A language the table has no catalog for."""


_translations: dict[str, gettext.GNUTranslations] = {}
_current: list[str] = [DEFAULT_LANGUAGE]


def translation(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog for ``lang`` (read once); no fallback to another language."""
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"no catalog for language {lang!r} (one of {', '.join(LANGUAGES)})")
    if lang not in _translations:
        t = gettext.translation(DOMAIN, LOCALE_DIR, [lang])
        assert isinstance(t, gettext.GNUTranslations)
        _translations[lang] = t
    return _translations[lang]


def set_language(lang: str) -> None:
    """Make ``lang`` the language of every phrase from now on."""
    translation(lang)
    _current[0] = lang


def language() -> str:
    return _current[0]


def voice(lang: str | None = None) -> str:
    """The espeak-ng voice for ``lang`` (default: the current language)."""
    return VOICES[lang or language()]


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """Words in ``lang`` inside the block (tests, the catalog check), the language before it after."""
    before = language()
    set_language(lang)
    try:
        yield
    finally:
        _current[0] = before


def _(message: str) -> str:
    """``message`` in the current language."""
    return translation(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message with a count ``n`` that the current language wants (one to three forms)."""
    return translation(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A short message in its context ("ALONE" on a chip is not "Alone" on a button)."""
    return translation(language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translation(language()).npgettext(context, singular, plural, n)
