"""Files: who may read them, the lock that keeps one rommy per seat, where they go."""

from __future__ import annotations

import errno
import importlib
import os
from pathlib import Path
from types import ModuleType

from p2p_rommy.portable.system import System, this_system

APP = "p2p-rommy"
"""The data dir's name."""


def modes_matter(system: System | None = None) -> bool:
    """Whether a file's mode bits say who may read it. On Windows they do not (every
    file reports 0666): the user profile's ACL keeps the data dir private there."""
    return (system or this_system()) != "windows"


def restrict(fd: int, mode: int, system: System | None = None) -> None:
    """Give the open file `fd` the mode `mode` where modes matter (no `fchmod` on
    Windows before Python 3.13, and a mode there could only set read-only)."""
    if modes_matter(system):
        os.fchmod(fd, mode)


def restrict_path(path: Path, mode: int, system: System | None = None) -> None:
    """Like `restrict`, by path (a directory, or a file not held open)."""
    if modes_matter(system):
        os.chmod(path, mode)


def windows_runtime() -> ModuleType:
    """Windows' C runtime module, `msvcrt` (it exists on Windows only; a test that
    imitates Windows on another system replaces this function)."""
    return importlib.import_module("msvcrt")


def try_lock(fd: int, system: System | None = None) -> bool:
    """Take an exclusive lock on the open file `fd` without waiting: True if taken,
    False if another process holds it. The OS drops the lock when the file is closed
    or the process dies, so a crash never leaves a stale lock (`rommy resume`)."""
    if (system or this_system()) == "windows":
        msvcrt = windows_runtime()  # lock the file's first byte
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        return True
    import fcntl  # POSIX only

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return False
        raise
    return True


def unlock(fd: int, system: System | None = None) -> None:
    """Let go of `try_lock`'s lock before `fd` is closed (Windows frees a lock left at
    close only "when resources allow"; POSIX frees it at close in any case)."""
    if (system or this_system()) == "windows":
        msvcrt = windows_runtime()
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def data_dir(system: System | None = None) -> Path:
    """The user's data dir for rommy: one made by an earlier release in
    `~/.local/share/p2p-rommy` (on any system) is kept, so nobody loses their identity;
    otherwise the system's own place (platformdirs): `$XDG_DATA_HOME/p2p-rommy` or
    `~/.local/share/p2p-rommy`, `~/Library/Application Support/p2p-rommy` on macOS,
    `%LOCALAPPDATA%\\p2p-rommy` on Windows."""
    system = system or this_system()
    legacy = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP
    if legacy.is_dir() or system == "posix":
        return legacy
    if system == "macos":
        from platformdirs.macos import MacOS

        return Path(MacOS(APP).user_data_dir)
    from platformdirs.windows import Windows

    return Path(Windows(APP, appauthor=False, roaming=False).user_data_dir)
