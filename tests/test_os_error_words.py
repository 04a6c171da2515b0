"""Issue 30: an OS error (disk full, permission denied, address in use, no such file,
connection refused) reached a Danish or Norwegian screen as Python's English strerror.
`i18n.say_os_error` says it in the client's language, with the file it is about; English
keeps the system's own words. Errors are caused for real where a test can (a missing
file, a port in use, a refused connection, a device that is not a file); disk full and
permission denied are built (the tests run as root, and filling a disk is another test's:
tests/test_disk_full.py)."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import pytest

from p2p_rommy import i18n
from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import say_os_error
from p2p_rommy.seat.opening import game_socket

WORDS = {
    errno.ENOSPC: ("disken er fuld", "disken er full"),
    errno.EACCES: ("adgang nægtet", "tilgang nektet"),
    errno.EPERM: ("handlingen er ikke tilladt", "handlingen er ikke tillatt"),
    errno.ENOENT: ("filen eller mappen findes ikke", "filen eller mappen finnes ikke"),
    errno.EADDRINUSE: ("adressen er allerede i brug", "adressen er allerede i bruk"),
    errno.ECONNREFUSED: ("forbindelsen blev afvist", "forbindelsen ble avvist"),
    errno.EROFS: ("disken er skrivebeskyttet", "disken er skrivebeskyttet"),
}


def said(language: str, error: BaseException, with_path: bool = True) -> str:
    i18n.use(language)
    try:
        return say_os_error(error, with_path)
    finally:
        i18n.use("en")


def missing_file(tmp_path: Path) -> OSError:
    try:
        (tmp_path / "nowhere" / "transcript").read_bytes()
    except OSError as error:
        return error
    raise AssertionError("the file exists")


def refused_connection() -> OSError:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: a refused connection
        with socket.socket() as dialer:
            try:
                dialer.connect(("127.0.0.1", port))
            except OSError as error:
                return error
    raise AssertionError("the connection was accepted")


@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("number", sorted(WORDS))
def test_the_common_errnos_are_sentences_with_their_path(number, index):
    language = ("da", "nb")[index]
    error = OSError(number, os.strerror(number), "/home/ann/.rommy/games/x/transcript")
    text = said(language, error)
    assert WORDS[number][index] in text and "/home/ann/.rommy/games/x/transcript" in text, text
    assert os.strerror(number) not in text
    assert text == f"/home/ann/.rommy/games/x/transcript: {said(language, error, False)}"
    assert said("en", error) == f"/home/ann/.rommy/games/x/transcript: {os.strerror(number)}"


@pytest.mark.parametrize("language", ["da", "nb"])
def test_real_errors_a_missing_file_and_a_refused_connection(language, tmp_path):
    index = ("da", "nb").index(language)
    missing = said(language, missing_file(tmp_path))
    assert WORDS[errno.ENOENT][index] in missing and "nowhere" in missing, missing
    refused = said(language, refused_connection())
    assert refused.startswith(WORDS[errno.ECONNREFUSED][index]), refused


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_port_in_use_is_said_in_words(language):
    """The game's listening socket on a port another socket holds: EADDRINUSE."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        i18n.use(language)
        try:
            with pytest.raises(ConfigError) as refused:
                game_socket("127.0.0.1", port)
        finally:
            i18n.use("en")
    text = str(refused.value)
    assert WORDS[errno.EADDRINUSE][("da", "nb").index(language)] in text, text
    assert str(port) in text and "Address already in use" not in text


def test_other_errors_our_strerror_a_closed_stream_and_the_rest():
    """An errno without a sentence keeps its strerror, translated when it is one of ours
    (`rommy verify` of a device), else after a sentence that says it is the system's
    words (issue 30: no bare English); a stream that ended mid-message (`EOFError`) is
    a closed connection; anything else is its own text, the same way."""
    ours = OSError(errno.EINVAL, "not a regular file (a pipe or a device?)", "/dev/zero")
    assert said("da", ours) == "/dev/zero: ikke en almindelig fil (et rør eller en enhed?)"
    foreign = OSError(errno.ENOTSOCK, os.strerror(errno.ENOTSOCK))
    technical = f"en feil i systemet (teknisk: {os.strerror(errno.ENOTSOCK)})"
    assert said("nb", foreign) == technical  # no sentence of ours: the system's words after one
    import asyncio

    cut = asyncio.IncompleteReadError(b"", 4)
    assert said("da", cut) == "forbindelsen blev lukket af den anden ende"
    assert said("en", cut) == str(cut)  # English: as it was
    assert said("nb", ValueError("x y")) == "en feil i systemet (teknisk: x y)"
    assert said("en", ValueError("x y")) == "x y"


def test_a_system_without_an_errno_name_has_no_sentence_for_it_and_still_imports():
    """Windows spells some errnos only as WSA codes (EDQUOT, say): the table is built
    from the names the system's errno module defines, so a missing one is skipped, never
    an AttributeError at import."""
    from types import SimpleNamespace

    windows_like = SimpleNamespace(ENOSPC=28, EACCES=13, EPIPE=32, EDQUOT="not a number")
    table = i18n.os_error_table(windows_like)
    assert table == {
        28: "the disk is full",
        13: "permission denied",
        32: "the connection was closed by the other end",
    }
    assert i18n.os_error_table()[errno.ENOSPC] == "the disk is full"  # this system's own
