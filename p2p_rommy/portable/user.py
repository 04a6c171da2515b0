"""The player: the login name and the language the system's settings give."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from p2p_rommy.portable.system import System, this_system


def login_name() -> str:
    """The user's login name (`getpass.getuser`: USER, LOGNAME or, on Windows,
    USERNAME), or "" when the system gives none."""
    import getpass

    try:
        return getpass.getuser()
    except (ImportError, KeyError, OSError):  # no such variable and no password database
        return ""


def language_code(value: str) -> str | None:
    """One of the client's languages ("da", "nb", "en") named by a locale string
    ("da_DK.UTF-8", "nb-NO", "no", "en_GB"), or None for any other."""
    code = value.replace("-", "_").split("_")[0].split(".")[0].split("@")[0].lower()
    if code == "da":
        return "da"
    if code in ("nb", "no", "nn"):
        return "nb"
    return "en" if code == "en" else None


def _windows_ui_language() -> int:
    """The Windows display language's LANGID (GetUserDefaultUILanguage)."""
    if sys.platform != "win32":
        raise OSError(errno.ENOSYS, "no Windows API on this system")
    import ctypes

    return int(ctypes.windll.kernel32.GetUserDefaultUILanguage())


def _apple_languages(home: Path) -> list[str]:
    """The macOS preferred languages (System Settings > Language & Region), read from
    the global preferences file: no process started, nothing to link."""
    import plistlib

    path = home / "Library" / "Preferences" / ".GlobalPreferences.plist"
    with open(path, "rb") as file:
        found = plistlib.load(file).get("AppleLanguages", [])
    return [str(item) for item in found] if isinstance(found, list) else []


def system_languages(
    system: System | None = None,
    home: Path | None = None,
    ui_language: Callable[[], int] = _windows_ui_language,
) -> list[str]:
    """The user's languages as the system's settings give them, best first, as locale
    strings ("da_DK", "nb-NO"); [] where the environment is the only source (POSIX)
    or the settings cannot be read."""
    import locale

    system = system or this_system()
    try:
        if system == "windows":
            name = locale.windows_locale.get(ui_language())
            return [name] if name else []
        if system == "macos":
            return _apple_languages(home or Path.home())
    except (AttributeError, ImportError, OSError, ValueError):  # no such API or file
        return []
    return []


def default_language(
    environ: Mapping[str, str] = os.environ,
    system: System | None = None,
    home: Path | None = None,
    ui_language: Callable[[], int] = _windows_ui_language,
) -> str:
    """The client's language: from the locale variables (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG) when one names a language, else from the system's settings (the Windows
    display language, macOS's preferred languages), else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in environ.get(variable, "").split(":"):
            code = language_code(value)
            if code is not None:
                return code
    for value in system_languages(system, home, ui_language):
        code = language_code(value)
        if code is not None:
            return code
    return "en"
