"""Laptops issue, Windows and macOS: every branch of the platform seam (`p2p_rommy.portable`)
on this machine, the system passed in. The Windows C runtime (`msvcrt`) and its display
language cannot exist here: those two are stand-ins; everything else is real (files,
locks, sockets, platformdirs, plistlib, text streams)."""

from __future__ import annotations

import asyncio
import errno
import io
import logging
import os
import plistlib
import socket
import types
from pathlib import Path

import pytest

from p2p_rommy.portable import console, files, sockets, user
from p2p_rommy.portable.system import system_of
from p2p_rommy.seat.logfile import log_to_file

POSIX_LIKE = ["posix", "macos"]


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.mark.parametrize(
    ("platform", "system"),
    [("win32", "windows"), ("cygwin", "windows"), ("darwin", "macos"), ("linux", "posix")],
)
def test_the_system_of_a_platform(platform, system):
    assert system_of(platform) == system


def test_modes_matter_except_on_windows():
    assert [files.modes_matter(s) for s in ("posix", "macos", "windows")] == [True, True, False]


@pytest.mark.parametrize("system", POSIX_LIKE)
def test_posix_restricts_the_mode(tmp_path, system):
    path = tmp_path / "f"
    path.write_bytes(b"")
    path.chmod(0o644)
    fd = os.open(path, os.O_RDONLY)
    try:
        files.restrict(fd, 0o600, system)
    finally:
        os.close(fd)
    assert mode(path) == 0o600
    files.restrict_path(path, 0o640, system)
    assert mode(path) == 0o640


def test_windows_needs_no_fchmod(tmp_path, monkeypatch):
    path = tmp_path / "f"
    path.write_bytes(b"")
    path.chmod(0o644)
    monkeypatch.delattr(os, "fchmod")  # absent on Windows before Python 3.13
    fd = os.open(path, os.O_RDONLY)
    try:
        files.restrict(fd, 0o600, "windows")
    finally:
        os.close(fd)
    files.restrict_path(path, 0o600, "windows")
    assert mode(path) == 0o644  # untouched: on Windows the profile's ACL guards the data dir


@pytest.mark.parametrize("system", POSIX_LIKE)
def test_posix_lock_is_exclusive_until_unlocked(tmp_path, system):
    path = tmp_path / "lock"
    first = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    second = os.open(path, os.O_WRONLY)
    try:
        assert files.try_lock(first, system)
        assert not files.try_lock(second, system)
        files.unlock(first, system)
        assert files.try_lock(second, system)
    finally:
        os.close(first)
        os.close(second)


class StandInRuntime:
    """What `msvcrt.locking` does with one byte at the file position: LK_NBLCK raises
    EACCES while another handle holds it."""

    LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

    def __init__(self) -> None:
        self.holder: int | None = None
        self.calls: list[tuple[int, int, int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        self.calls.append((fd, mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))
        if mode == self.LK_UNLCK:
            self.holder = None
        elif self.holder not in (None, fd):
            raise OSError(errno.EACCES, "Permission denied")
        else:
            self.holder = fd


def test_windows_lock_takes_the_first_byte_and_reports_a_holder(tmp_path, monkeypatch):
    runtime = StandInRuntime()
    monkeypatch.setattr(files, "windows_runtime", lambda: types.SimpleNamespace(
        locking=runtime.locking, LK_NBLCK=runtime.LK_NBLCK, LK_UNLCK=runtime.LK_UNLCK
    ))  # fmt: skip
    path = tmp_path / "lock"
    first = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    second = os.open(path, os.O_WRONLY)
    try:
        os.write(first, b"x")  # the lock is on byte 0 wherever the file position is
        assert files.try_lock(first, "windows")
        assert not files.try_lock(second, "windows")
        files.unlock(first, "windows")
        assert files.try_lock(second, "windows")
    finally:
        os.close(first)
        os.close(second)
    assert [(m, n, at) for _, m, n, at in runtime.calls] == [
        (2, 1, 0),
        (2, 1, 0),
        (0, 1, 0),
        (2, 1, 0),
    ]


def test_windows_lock_passes_on_other_errors(tmp_path, monkeypatch):
    def locking(fd: int, mode: int, nbytes: int) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    runtime = types.SimpleNamespace(locking=locking, LK_NBLCK=2, LK_UNLCK=0)
    monkeypatch.setattr(files, "windows_runtime", lambda: runtime)
    fd = os.open(tmp_path / "lock", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with pytest.raises(OSError, match="Bad file"):
            files.try_lock(fd, "windows")
    finally:
        os.close(fd)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    return tmp_path


def test_posix_data_dir_is_xdg(home, monkeypatch):
    assert files.data_dir("posix") == home / ".local" / "share" / "p2p-rommy"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    assert files.data_dir("posix") == home / "xdg" / "p2p-rommy"


def test_macos_data_dir_is_application_support_unless_one_exists(home):
    assert files.data_dir("macos") == home / "Library" / "Application Support" / "p2p-rommy"
    (home / ".local" / "share" / "p2p-rommy").mkdir(parents=True)  # an earlier release's
    assert files.data_dir("macos") == home / ".local" / "share" / "p2p-rommy"


def test_windows_data_dir_is_local_appdata_unless_one_exists(home, monkeypatch):
    import platformdirs.windows

    local = "C:\\Users\\Åse\\AppData\\Local"
    shell = {"CSIDL_LOCAL_APPDATA": local}  # the shell API's answer: a stand-in off Windows
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", shell.__getitem__)
    found = str(files.data_dir("windows"))  # not roaming, and no author folder
    assert found.replace("/", "\\") == local + "\\p2p-rommy"
    (home / ".local" / "share" / "p2p-rommy").mkdir(parents=True)
    assert files.data_dir("windows") == home / ".local" / "share" / "p2p-rommy"


def test_the_login_name_comes_from_getpass(monkeypatch):
    for variable in ("LOGNAME", "USER", "LNAME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("USERNAME", "Åse")  # all Windows sets
    assert user.login_name() == "Åse"

    def nobody() -> str:
        raise OSError("no user name")  # Python 3.13+ on a machine that gives none

    monkeypatch.setattr("getpass.getuser", nobody)
    assert user.login_name() == ""


@pytest.mark.parametrize(
    ("langid", "language"),
    [(0x0406, "da"), (0x0414, "nb"), (0x0814, "nb"), (0x0409, "en"), (0x0407, "en")],
)
def test_windows_language_is_the_display_language(langid, language):
    assert user.default_language({}, "windows", ui_language=lambda: langid) == language


def test_windows_language_env_first_and_no_api_is_english():
    assert user.default_language({"LANG": "da_DK.UTF-8"}, "windows", None, lambda: 0x0414) == "da"

    def missing() -> int:
        raise OSError("no Windows API on this system")

    assert user.default_language({}, "windows", ui_language=missing) == "en"


def test_macos_language_is_the_first_preferred_one_we_have(home):
    assert user.default_language({}, "macos", home) == "en"  # no preferences file
    preferences = home / "Library" / "Preferences"
    preferences.mkdir(parents=True)
    with open(preferences / ".GlobalPreferences.plist", "wb") as file:
        plistlib.dump(
            {"AppleLanguages": ["de-DE", "nb-NO", "en-US"]}, file, fmt=plistlib.FMT_BINARY
        )
    assert user.default_language({}, "macos", home) == "nb"
    assert user.default_language({"LC_ALL": "da_DK.UTF-8"}, "macos", home) == "da"
    (preferences / ".GlobalPreferences.plist").write_bytes(b"not a plist")
    assert user.default_language({}, "macos", home) == "en"


def test_posix_language_is_the_environment_only(home):
    assert user.default_language({"LANGUAGE": "no:en", "LANG": "C"}, "posix") == "nb"
    assert user.default_language({}, "posix", ui_language=lambda: 0x0406) == "en"


@pytest.mark.parametrize(
    ("encoding", "suits"), [("utf-8", True), ("cp1252", False), ("ascii", False)]
)
def test_a_stream_that_cannot_show_suits_writes_replacements(encoding, suits):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    assert console.can_show(stream) is suits
    console.tolerant(stream)
    stream.write("♠ Åse 漢\n")
    stream.flush()
    shown = raw.getvalue().decode(encoding)
    assert shown == "♠ Åse 漢\n" if suits else shown.startswith("? ") and shown.endswith(" ?\n")


def test_posix_listener_reuses_the_address_but_is_not_shared():
    sock = sockets.listening_socket("127.0.0.1", 0, "posix")
    try:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) == 1
        with pytest.raises(OSError):
            sockets.listening_socket("127.0.0.1", sock.getsockname()[1], "posix")
    finally:
        sock.close()


def test_windows_listener_is_exclusive(monkeypatch):
    # SO_EXCLUSIVEADDRUSE exists only on Windows: here a harmless option stands in for
    # it, to see that the Windows branch sets it and never SO_REUSEADDR.
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", socket.SO_KEEPALIVE, raising=False)
    sock = sockets.listening_socket("127.0.0.1", 0, "windows")
    try:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) == 0
    finally:
        sock.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_an_accepted_connection_sends_small_messages_at_once(host):
    """Performance issue (#27): a socket made without naming TCP has protocol 0, so
    asyncio's transport left Nagle's algorithm on for every connection a listener
    accepted; a small message behind an unacknowledged one then waited for the other
    side's delayed ACK (40 ms on Linux), a few times in every step of a deal. The
    accepted side must have TCP_NODELAY like the dialling side."""
    try:
        listener = sockets.listening_socket(host, 0)
    except OSError:
        if host != "::1" or os.environ.get("CI"):
            raise  # CI's machine has IPv6 loopback: a skip there would hide a failure
        pytest.skip("no IPv6 loopback on this machine")
    seen: dict[str, int] = {}

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        seen["accepted"] = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(accepted, sock=listener)
        port = listener.getsockname()[1]
        reader, writer = await asyncio.open_connection(host, port)
        sock = writer.get_extra_info("socket")
        seen["dialled"] = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        await reader.read()  # the server closes once it has looked
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(main())
    assert seen["dialled"] != 0
    assert seen["accepted"] != 0


@pytest.fixture
def root_logger():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def test_each_process_gets_a_log_file_of_its_own(tmp_path, root_logger, capsys):
    """Two processes rotating one rommy.log print PermissionError tracebacks on Windows:
    a second rommy (a second lock on the slot, here) writes rommy-2.log instead."""
    from p2p_rommy.seat.logfile import claim_log

    first = log_to_file(tmp_path)
    path, fd = claim_log(tmp_path)  # what a second process finds
    try:
        assert (first.name, path.name) == ("rommy.log", "rommy-2.log")
    finally:
        os.close(fd)
    logging.getLogger("x").info("hello")
    handler = root_logger.handlers[0]
    handler.handleError(logging.makeLogRecord({"msg": "lost"}))  # a write that failed
    assert capsys.readouterr().err == ""  # nothing over the screen
    assert log_to_file(tmp_path).name == "rommy.log"  # the earlier handler let go of it
    assert "hello" in first.read_text()
