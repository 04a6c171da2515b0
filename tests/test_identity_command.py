"""Laptops issue: `rommy id` shows the player's fingerprint, where the key lives, and how
to back it up and restore it; the commands it prints are run here, in a real shell, and
bring the same key back after the data dir is gone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from p2p_rommy.frontends.identity import identity_report
from p2p_rommy.seat.opening import load_identity
from p2p_rommy.wire.identity import fingerprint


def rommy_id(*argv: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LANG="C.UTF-8", LANGUAGE="")
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "p2p_rommy", "id", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


def commands_after(text: str, heading: str) -> list[str]:
    """The indented command lines that follow the line starting with `heading`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    out = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            if out:
                break
            continue  # the heading's own wrapped lines
        out.append(line.strip())
    return out


def test_without_an_identity_it_says_so_and_makes_none(tmp_path):
    done = rommy_id("--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    assert "No identity yet in" in done.stdout and "first time you host or join" in done.stdout
    assert "chmod 600" in done.stdout  # how to restore a backup before the first game
    assert not (tmp_path / "data").exists()


def test_the_printed_commands_back_up_and_restore_the_same_key(tmp_path):
    home, data = tmp_path / "home", tmp_path / "the data"  # a space, as in many profiles
    home.mkdir()
    key = load_identity(data).public_key
    done = rommy_id("--data-dir", str(data), home=home)
    assert done.returncode == 0, done.stderr
    assert f"Your fingerprint: {fingerprint(key)}" in done.stdout
    assert f"Your identity key: {data / 'identity'}" in done.stdout
    assert "warn that someone else may be using your name" in " ".join(done.stdout.split())
    prose = [line for line in done.stdout.splitlines() if str(data) not in line]
    assert all(len(line) <= 80 for line in prose)  # wrapped for a terminal
    env = dict(os.environ, HOME=str(home))
    for command in commands_after(done.stdout, "Back it up"):
        subprocess.run(["sh", "-c", command], check=True, env=env, timeout=30)
    assert (home / "rommy-identity.backup").read_bytes() == (data / "identity").read_bytes()
    shutil.rmtree(data)  # the laptop is lost
    for command in commands_after(done.stdout, "To restore a backup"):
        subprocess.run(["sh", "-c", command], check=True, env=env, timeout=30)
    assert (data / "identity").stat().st_mode & 0o777 == 0o600
    assert load_identity(data).public_key == key  # accepted as private, the same key
    again = rommy_id("--data-dir", str(data), home=home)
    assert f"Your fingerprint: {fingerprint(key)}" in again.stdout


def test_windows_gets_powershell_commands_and_no_chmod(tmp_path):
    data = tmp_path / "Anne's data"
    load_identity(data)
    text = identity_report(data, windows=True)
    quoted = "'" + str(data / "identity").replace("'", "''") + "'"
    assert f'Copy-Item {quoted} "$HOME\\rommy-identity.backup"' in text
    assert f'Copy-Item "$HOME\\rommy-identity.backup" {quoted}' in text
    assert "New-Item -ItemType Directory -Force" in text
    assert "chmod" not in text and "cp " not in text


def test_it_speaks_danish_and_norwegian(tmp_path):
    load_identity(tmp_path)
    da = rommy_id("--data-dir", str(tmp_path), "--lang", "da")
    nb = rommy_id("--data-dir", str(tmp_path), "--lang", "nb")
    assert "Dit fingeraftryk:" in da.stdout and "sikkerhedskopi" in da.stdout
    assert "Ditt fingeravtrykk:" in nb.stdout and "sikkerhetskopi" in nb.stdout


def test_a_key_others_can_read_is_one_clear_line(tmp_path):
    load_identity(tmp_path)
    (tmp_path / "identity").chmod(0o644)
    done = rommy_id("--data-dir", str(tmp_path))
    assert done.returncode == 2 and "too open" in done.stderr and "Traceback" not in done.stderr
