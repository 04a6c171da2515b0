"""The client's languages: Danish, Norwegian Bokmål and English, as gettext catalogs.

The source strings are English; `p2p_rommy/locale/<lang>/LC_MESSAGES/rommy.po` holds
each translation and the compiled `.mo` beside it is what runs (stdlib gettext).
Recompile after editing a catalog: ``python -m p2p_rommy.i18n`` (needs Babel, which
the test extra installs). Game terms stay those of the variant's own rules (Løber,
Passer, Køb, Rommé).
"""

from __future__ import annotations

import errno
import gettext
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from p2p_rommy.errors import ConfigError
from p2p_rommy.portable import user
from p2p_rommy.raw_words import RAW_WORDS

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
    _said.clear()
    _templates.clear()


def _(message: str) -> str:
    return _translation.gettext(message)


def N_(message: str) -> str:  # the gettext convention for "mark, translate later"
    """Mark a string for translation where it is defined; translate it where it is shown."""
    return message


_PLACE = re.compile(r"\{([A-Za-z_]\w*)[^{}]*\}")
_said: dict[str, str] = {}
_templates: list[tuple[str, str, re.Pattern[str], list[str], str]] = []
_DEEPEST = 4
_NAME_MAX = 40  # a sender named before a reason ("Bo: ..."): a player's name or a key id
_SAMPLE_REASON = "a peer: {reason}"  # translated in every catalog but the English


def say_reason(text: str, quote_unknown: bool = True) -> str:
    """A reason the checkers wrote in English (a refusal, a cheat, damage: our own, or
    one a peer sent that our code could have written), in the client's language. The
    reason stays English where it is made, on the wire and in the transcript (SPEC: a
    peer's reason is inert English text); it is translated here, where it is shown, by
    matching it against the message ids marked `N_()` at the raise sites (a value that
    is itself such a reason is translated too). A reason that is none of ours is shown
    as it was written, quoted after a translated lead-in (unless `quote_unknown` is
    false: text that may already be in the client's language)."""
    if _translation.gettext(_SAMPLE_REASON) == _SAMPLE_REASON or not text:
        return text  # English: the reason as it is
    if text not in _said:
        if len(_said) > 1000:
            _said.clear()
        found = _reason(text, 0)[0]
        _said[text] = found if found is not None else ""
    if _said[text]:
        return _said[text]
    return _('as written: "{text}"').format(text=text) if quote_unknown else text


_Said = tuple[str | None, int, int]
"""A translation (None: none), the letters it leaves untranslated, and how many of its
values that are not a template's last hold a ": " (a nested reason, likely mis-cut)."""


def _reason(text: str, depth: int, memo: dict[tuple[str, int], _Said] | None = None) -> _Said:
    """`text` translated if it is one of our message ids, a raw token we have words for
    (`raw_words`), or one of our templates filled in (values translated in turn). Of
    the ways the templates cut it, the best leaves the fewest letters untranslated, and
    then puts the fewest nested reasons ("...: ...") anywhere but in a template's last
    value: ``seat 1 at step 4: malformed move: draw[0] must be ...`` is "seat {seat} at
    step {step}: {reason}" around the rest, not "{name} must be ..." with the name
    "seat 1 at step 4: malformed move: draw[0]". Two reasons joined by ": " (a named
    sender's) are each translated."""
    if memo is None:
        memo = {}
    if (text, depth) not in memo:
        memo[text, depth] = _reason_once(text, depth, memo)
    return memo[text, depth]


def _reason_once(text: str, depth: int, memo: dict[tuple[str, int], _Said]) -> _Said:
    translated = _translation.gettext(text)
    if translated != text:
        return translated, 0, 0
    if text in RAW_WORDS:
        return _(RAW_WORDS[text]), 0, 0
    if depth >= _DEEPEST:
        return None, _letters(text), 0
    best: _Said = (None, _letters(text), 0)
    for first, last, pattern, names, target in _reason_templates():
        if not (text.startswith(first) and text.endswith(last)):
            continue
        match = pattern.fullmatch(text)
        if match is None:
            continue
        values: dict[str, str] = {}
        left = miscut = 0
        for index, (name, value) in enumerate(zip(names, match.groups(), strict=True)):
            inner, inner_left, inner_miscut = _reason(value, depth + 1, memo)
            left += inner_left
            miscut += inner_miscut + (": " in value and (index < len(names) - 1 or last != ""))
            values.setdefault(name, value if inner is None else inner)
        if best[0] is None or (left, miscut) < best[1:]:
            best = (_filled(target, values), left, miscut)
        if best[1:] == (0, 0):
            return best
    if ": " in text:  # a sender and its reason: "the creator: ...", "Bo: ..."
        who, _colon, why = text.partition(": ")
        said_who, who_left, who_miscut = _reason(who, depth + 1, memo)
        said_why, why_left, why_miscut = _reason(why, depth + 1, memo)
        split = (who_left + why_left, who_miscut + why_miscut)
        named = said_who is not None or len(who) <= _NAME_MAX
        if named and said_why is not None and (best[0] is None or split < best[1:]):
            best = (f"{said_who or who}: {said_why}", *split)
    return best


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def _filled(target: str, values: dict[str, str]) -> str:
    return _PLACE.sub(lambda m: values.get(m.group(1), m.group(0)), target)


def _reason_templates() -> list[tuple[str, str, re.Pattern[str], list[str], str]]:
    """The catalog's message ids with placeholders, as patterns, the most specific (the
    most fixed text) first."""
    if not _templates:
        catalog: dict[object, str] = vars(_translation).get("_catalog", {})
        found = []
        for msgid, target in catalog.items():
            if not isinstance(msgid, str) or "{{" in msgid or not _PLACE.search(msgid):
                continue
            pieces = _PLACE.split(msgid)[::2]
            names = _PLACE.findall(msgid)
            fixed = "".join(pieces)
            if sum(c.isalpha() for c in fixed) < 4:
                continue  # "{name}: {text}" would match anything
            pattern = "(.+?)".join(re.escape(piece) for piece in pieces)
            found.append(
                (
                    len(fixed),
                    msgid,
                    (pieces[0], pieces[-1], re.compile(pattern, re.S), names, target),
                )
            )
        found.sort(key=lambda item: (-item[0], item[1]))
        _templates.extend(entry for _, _, entry in found)
    return _templates


_OS_ERROR_WORDS: dict[str, str] = {
    "ENOSPC": N_("the disk is full"),
    "EDQUOT": N_("the disk quota is used up"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("the operation is not permitted"),
    "EROFS": N_("the disk is read-only"),
    "ENOENT": N_("no such file or folder"),
    "EEXIST": N_("it already exists"),
    "EISDIR": N_("it is a folder, not a file"),
    "ENOTDIR": N_("a part of the path is not a folder"),
    "EADDRINUSE": N_("the address is already in use (another program listens there)"),
    "EADDRNOTAVAIL": N_("the address is not one of this machine's"),
    "ECONNREFUSED": N_("the connection was refused (nothing listens there)"),
    "ECONNRESET": N_("the connection was reset by the other end"),
    "ECONNABORTED": N_("the connection was aborted"),
    "ETIMEDOUT": N_("the connection timed out"),
    "EHOSTUNREACH": N_("that machine cannot be reached"),
    "ENETUNREACH": N_("that network cannot be reached"),
    "EPIPE": N_("the connection was closed by the other end"),
    "EIO": N_("a read or write error on the disk"),
    "EMFILE": N_("too many open files"),
}
"""By errno name: the numbers differ between systems, and a system without a name
(Windows spells some of them only as WSA codes) has no sentence for it."""


def os_error_table(codes: object = errno) -> dict[int, str]:
    """errno number -> sentence, for the names `codes` (the errno module) defines."""
    return {
        getattr(codes, name): words
        for name, words in _OS_ERROR_WORDS.items()
        if isinstance(getattr(codes, name, None), int)
    }


_OS_ERRORS = os_error_table()


def say_os_error(error: BaseException, with_path: bool = True) -> str:
    """An OS error (disk full, permission denied, address in use, no such file, ...)
    in the client's language: a sentence for the common errnos, and the file it is
    about (`with_path`), not Python's English strerror. Any other error: its own text
    (our own strerrors are marked `N_` and translated as reasons)."""
    english = _translation.gettext(_SAMPLE_REASON) == _SAMPLE_REASON
    if isinstance(error, OSError) and english:
        why = error.strerror or str(error)  # English: the system's own words
    elif isinstance(error, OSError) and error.errno in _OS_ERRORS:
        why = _(_OS_ERRORS[error.errno])
    elif isinstance(error, OSError) and error.strerror:
        why = _said_or_technical(error.strerror)
    elif isinstance(error, EOFError) and not english:  # a stream that ended in mid-message
        why = _(_OS_ERROR_WORDS["EPIPE"])
    elif english:
        why = str(error) or type(error).__name__
    else:
        why = _said_or_technical(str(error) or type(error).__name__)
    filename = getattr(error, "filename", None) if with_path else None
    if filename:
        return _("{path}: {why}").format(why=why, path=filename)
    return why


def _said_or_technical(text: str) -> str:
    """`text` (not English's) in the client's language if it is ours (a reason, a raw
    token), else the system's or Python's own words after a sentence that says so."""
    said = _reason(text, 0)[0]
    if said is not None:
        return said
    return _("an error in the system (technical: {text})").format(text=text)


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
