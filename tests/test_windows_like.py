"""Laptops issue, Windows: rommy in a process that looks like Windows (tests/windows_like.py:
no fcntl, no os.fchmod, every file 0666, a cp1252 console, the seam saying "windows")
plays a match over TCP on 127.0.0.1, verifies and replays it, keeps its identity from
one run to the next, locks its game and writes its log: no traceback, the right exit
codes."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.windows_like import bootstrap, windows_env


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return windows_env(bootstrap(tmp_path / "windows"))


def rommy(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "p2p_rommy", *args], env=env, capture_output=True, timeout=240
    )
    return done.returncode, done.stdout.decode("cp1252"), done.stderr.decode("cp1252")


def python(env: dict[str, str], code: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, timeout=60, text=True
    )
    return done.returncode, done.stdout, done.stderr


def test_the_process_really_looks_like_windows(env, tmp_path):
    code, out, err = python(
        env,
        "import os, sys, importlib.util\n"
        "from pathlib import Path\n"
        "from p2p_rommy.portable import system\n"
        "try:\n    import fcntl\nexcept ModuleNotFoundError:\n    print('no fcntl')\n"
        "print(hasattr(os, 'fchmod'), system.SYSTEM, sys.stdout.encoding)\n"
        f"Path({str(tmp_path / 'f')!r}).write_bytes(b'')\n"
        f"os.chmod({str(tmp_path / 'f')!r}, 0o600)\n"
        f"print(oct(Path({str(tmp_path / 'f')!r}).stat().st_mode & 0o777))\n",
    )
    assert code == 0, err
    assert out.split() == ["no", "fcntl", "False", "windows", "cp1252", "0o666"]


def test_a_match_is_played_verified_and_replayed(env, tmp_path):
    transcript = tmp_path / "match.rommy"
    code, out, err = rommy(
        env, "simulate", "--variant", "rummy", "--players", "2", "--house", "target_score=15",
        "--transcript", str(transcript),
    )  # fmt: skip
    assert (code, err) == (0, ""), err
    assert "Total" in out or "1." in out
    code, out, err = rommy(env, "verify", str(transcript))
    assert (code, err) == (0, ""), err
    assert "FAIR" in out
    code, out, err = rommy(env, "replay", str(transcript))  # stdout is a pipe, in cp1252
    assert (code, err) == (0, ""), err
    assert out.rstrip().endswith("FAIR")
    assert re.search(r"\b(?:10|[2-9JQKA])[SHDC]\b", out), out[:500]  # suits as letters
    assert "?" not in out
    code, out, err = rommy(env, "verify", str(tmp_path / "missing"))
    assert code == 2 and "Traceback" not in err and "rommy:" in err


def test_files_identity_lock_and_log(env, tmp_path):
    data = tmp_path / "data"
    script = f"""
from pathlib import Path
from p2p_rommy.errors import ConfigError
from p2p_rommy.seat.opening import load_identity
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.seat.logfile import log_to_file
from p2p_rommy.log.transcript import Genesis, sign_config
from tests.peer_table import make_config

data = Path({str(data)!r})
first = load_identity(data)
assert (data / "identity").stat().st_mode & 0o777 == 0o666  # as Windows reports it
assert load_identity(data) == first  # the second run keeps the player's own key
config, identities = make_config("rummy", 3)
genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
store = GameStore(data, config.game_id)
store.begin(genesis)
store.save_secret("seed/0", bytes(32))
try:
    GameStore(data, config.game_id).load()
except ConfigError as error:
    print("refused:", error)
store.close()
again = GameStore(data, config.game_id)
print("seeds:", sorted(again.load().seeds))
again.close()
print(log_to_file(data).name)
"""
    code, out, err = python(env, script)
    assert (code, err) == (0, ""), err
    assert "refused: another rommy is playing this seat" in out
    assert "seeds: [0]" in out
    assert out.split()[-1] == "rommy.log"


def test_host_and_join_bots_through_the_command(env, tmp_path):
    """The real commands, as a family runs them (two processes, TCP on 127.0.0.1)."""
    common = ["--bot", "random", "--interface", "127.0.0.1"]
    host = subprocess.Popen(
        [sys.executable, "-m", "p2p_rommy", "host", "--table", "Win", "--variant", "rummy",
         "--house", "target_score=15", "--start-when", "2", *common,
         "--data-dir", str(tmp_path / "a")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    time.sleep(1.5)
    join = subprocess.Popen(
        [sys.executable, "-m", "p2p_rommy", "join", "Win", *common,
         "--data-dir", str(tmp_path / "b")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    outputs = []
    for process in (host, join):
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err.decode("cp1252")
        assert b"Traceback" not in err, err.decode("cp1252")
        outputs.append(out.decode("cp1252"))
    # the default name is the login name (USERNAME on Windows), written as far as cp1252 can
    assert "Åse?" in outputs[0]
    transcripts = [next((tmp_path / d / "games").glob("*/transcript")) for d in ("a", "b")]
    assert transcripts[0].read_bytes() == transcripts[1].read_bytes()
    code, out, err = rommy(env, "verify", str(transcripts[0]))
    assert (code, err) == (0, "") and "FAIR" in out, err
