"""A process that looks like Windows to rommy, on Linux: `fcntl` cannot be imported,
`os.fchmod` does not exist, every file reports mode 0666 (every directory 0777), the
console writes cp1252, and the platform seam (`p2p_rommy.portable`) says "windows".

`bootstrap(directory)` writes a `sitecustomize.py` there; a Python started with that
directory on PYTHONPATH and `windows_env(directory)` runs it before anything else. Windows'
own lock call (`msvcrt.locking`) is a stand-in that locks with the real flock taken
before `fcntl` is blocked, handed to the seam only: the one thing Linux cannot supply.
"""

from __future__ import annotations

import os
from pathlib import Path

SITECUSTOMIZE = r'''
import errno
import importlib.abc
import os
import stat
import sys
import types

import fcntl as _fcntl  # for the stand-in msvcrt below, before fcntl is blocked

del sys.modules["fcntl"]


class _NoFcntl(importlib.abc.MetaPathFinder):
    """Windows has no fcntl module."""

    def find_spec(self, name, path=None, target=None):
        if name == "fcntl":
            raise ModuleNotFoundError("No module named 'fcntl'", name="fcntl")
        return None


sys.meta_path.insert(0, _NoFcntl())
del os.fchmod  # absent on Windows before Python 3.13


class _WindowsStat:
    """A stat result as Windows reports it: the mode bits say nothing (0666/0777)."""

    def __init__(self, result):
        self._result = result
        perm = 0o777 if stat.S_ISDIR(result.st_mode) else 0o666
        self.st_mode = stat.S_IFMT(result.st_mode) | perm

    def __getattr__(self, name):
        return getattr(self._result, name)


def _windows(real):
    def wrapped(*args, **kwargs):
        return _WindowsStat(real(*args, **kwargs))

    return wrapped


os.stat = _windows(os.stat)
os.lstat = _windows(os.lstat)
os.fstat = _windows(os.fstat)

msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK = 0, 1, 2


def _locking(fd, mode, nbytes):
    """msvcrt.locking: LK_NBLCK raises EACCES when another handle holds the range."""
    try:
        _fcntl.flock(fd, _fcntl.LOCK_UN if mode == 0 else _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except BlockingIOError:
        raise OSError(errno.EACCES, "Permission denied") from None


msvcrt.locking = _locking

import p2p_rommy.portable.files  # noqa: E402
import p2p_rommy.portable.system  # noqa: E402

p2p_rommy.portable.system.SYSTEM = "windows"
p2p_rommy.portable.files.windows_runtime = lambda: msvcrt  # not in sys.modules: the stdlib
# (subprocess) takes an importable msvcrt to mean Windows
'''


def bootstrap(directory: Path) -> Path:
    """Write the sitecustomize that makes a process Windows-like; returns `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return directory


def windows_env(directory: Path) -> dict[str, str]:
    """The environment of a Windows-like process: the bootstrap first on PYTHONPATH, a
    cp1252 console, no USER (Windows sets USERNAME) and no locale variables."""
    env = {k: v for k, v in os.environ.items() if k not in ("USER", "LOGNAME", "LNAME")}
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(variable, None)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(directory), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    env["PYTHONIOENCODING"] = "cp1252"
    env["USERNAME"] = "Åse漢"  # a name cp1252 can only partly write
    return env
