"""Client issue 30, item 11: `host` and `join` take the table's name the same way
(`rommy host Fredag`; `--table Fredag` still works), a second open table of the same
name is warned about, and a mistyped name gets "did you mean". mDNS on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from p2p_rommy.errors import ConfigError
from p2p_rommy.frontends.namesakes import did_you_mean
from p2p_rommy.frontends.tables import choose_table
from p2p_rommy.wire.identity import Identity
from tests.test_no_english import ENGLISH_WORDS, english_phrases


class Said:
    """A process's stderr lines, read as they come."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert process.stderr is not None
        stream = process.stderr
        threading.Thread(target=lambda: self.lines.extend(stream), daemon=True).start()

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in list(self.lines) if text in line]
            if found:
                return found[0]
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not said in {timeout} s: {self.lines}")


def host(data: Path, *name: str) -> subprocess.Popen[str]:
    argv = ["host", *name, "--bot", "--start-when", "3", "--interface", "127.0.0.1"]
    return subprocess.Popen(
        [sys.executable, "-m", "p2p_rommy", *argv, "--data-dir", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_did_you_mean():
    assert did_you_mean("fredag", ["Fredag", "Lørdag"]) == "Fredag"
    assert did_you_mean("Fredg", ["Fredag", "Lørdag"]) == "Fredag"
    assert did_you_mean("Søndag morgen", ["Fredag"]) is None
    assert did_you_mean(None, ["Fredag"]) is None


def test_the_name_comes_as_for_join_and_the_old_form_still_works(tmp_path):
    for argv in ([], ["Fredag", "--table", "Lørdag"]):
        done = subprocess.run(
            [sys.executable, "-m", "p2p_rommy", "host", *argv, "--bot", "--start-when", "2",
             "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert "a table needs a name" in done.stderr or "two table names" in done.stderr
    processes = [host(tmp_path / "a", "Fredag"), host(tmp_path / "b", "--table", "Lørdag")]
    try:
        said = [Said(p) for p in processes]
        assert "table 'Fredag'" in said[0].wait_for("open on port")
        assert "table 'Lørdag'" in said[1].wait_for("open on port")
    finally:
        for process in processes:
            process.kill()
            process.wait()


def test_a_second_table_of_the_same_name_is_warned_and_a_typo_gets_did_you_mean(tmp_path):
    first = host(tmp_path / "a", "Fredag")
    second = None
    try:
        Said(first).wait_for("open on port")
        second = host(tmp_path / "b", "Fredag")
        warning = Said(second).wait_for("also called 'Fredag'")
        assert "pick by fingerprint" in warning

        listed = subprocess.run(
            [sys.executable, "-m", "p2p_rommy", "tables", "--interface", "127.0.0.1",
             "--wait", "3", "--lang", "da"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        rows = [row for row in listed.stdout.splitlines() if row.startswith("'Fredag'")]
        assert len(rows) == 2, listed
        assert all("Løbere og Passere, 1 af " in row and " pladser, åbent; opretter " in row
                   for row in rows), rows  # fmt: skip
        english = english_phrases("da")
        assert not [p for p in english if p in listed.stdout], listed.stdout
        assert not ENGLISH_WORDS.search(listed.stdout), listed.stdout

        async def look() -> None:
            await choose_table(Identity.generate(), "127.0.0.1", "fredg", None, 6.0)

        with pytest.raises(ConfigError, match=r"Did you mean 'Fredag'\?"):
            asyncio.run(look())
    finally:
        for process in (first, second):
            if process is not None:
                process.kill()
                process.wait()
