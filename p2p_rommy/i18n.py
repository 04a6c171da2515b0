"""The client's languages: Danish, Norwegian Bokmål and English, as gettext catalogs.

The source strings are English; `p2p_rommy/locale/<lang>/LC_MESSAGES/rommy.po` holds
each translation and the compiled `.mo` beside it is what runs (stdlib gettext).
Recompile after editing a catalog: ``python -m p2p_rommy.i18n`` (needs Babel, which
the test extra installs). Game terms stay those of the variant's own rules (Løber,
Passer, Køb, Rommé).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from p2p_rommy.errors import ConfigError
from p2p_rommy.portable import user

LANGUAGES = ("da", "nb", "en")
DOMAIN = "rommy"
LOCALE_DIR = Path(__file__).parent / "locale"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def default_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language from the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else from the
    system's settings (the Windows display language, macOS's preferred languages),
    else English (`portable.user.default_language`)."""
    return user.default_language(environ)


def use(language: str) -> None:
    """Show the client in `language` from now on."""
    global _translation
    if language not in LANGUAGES:
        raise ConfigError(f"no language {language!r}; the languages are {', '.join(LANGUAGES)}")
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def _(message: str) -> str:
    return _translation.gettext(message)


def N_(message: str) -> str:  # the gettext convention for "mark, translate later"
    """Mark a string for translation where it is defined; translate it where it is shown."""
    return message


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words for people, kept as a message id (an English template marked `N_`) and its
    values until they are shown: `str()` is English (for logs and signed reasons),
    `say(_)` the client's language (text values are translated too)."""

    template: str
    values: tuple[tuple[str, object], ...] = ()

    @staticmethod
    def of(template: str, **values: object) -> Phrase:
        return Phrase(template, tuple(values.items()))

    def __str__(self) -> str:
        return self.template.format(**dict(self.values)) if self.values else self.template

    def say(self, translate: Callable[[str], str]) -> str:
        shown = {k: translate(v) if isinstance(v, str) else v for k, v in self.values}
        return translate(self.template).format(**shown)


def compile_catalogs() -> list[Path]:
    """Compile every `.po` catalog to its `.mo` (Babel)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        with po_path.open("rb") as file:
            catalog = read_po(file)
        mo_path = po_path.with_suffix(".mo")
        with mo_path.open("wb") as file:
            write_mo(file, catalog)
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(path)
