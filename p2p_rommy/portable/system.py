"""Which system this process runs on: the one switch every branch of `portable` reads."""

from __future__ import annotations

import sys
from typing import Literal

System = Literal["windows", "macos", "posix"]


def system_of(platform: str) -> System:
    """The system a `sys.platform` value names."""
    if platform == "win32" or platform == "cygwin":
        return "windows"
    return "macos" if platform == "darwin" else "posix"


SYSTEM: System = system_of(sys.platform)
"""The system this process runs on (a test may set it to imitate another)."""


def this_system() -> System:
    return SYSTEM
