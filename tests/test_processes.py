"""Separate OS processes started through `rommy host` / `rommy join --bot`: they find
each other by mDNS on 127.0.0.1, play a whole match and write identical transcripts."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def rommy(*args: str, data: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "p2p_rommy",
            *args,
            "--interface",
            "127.0.0.1",
            "--data-dir",
            str(data),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_host_and_join_as_separate_processes(tmp_path):
    host = rommy(
        "host",
        "--table",
        "Procs",
        "--variant",
        "rummy",
        "--house",
        "target_score=25",
        "--start-when",
        "3",
        "--bot",
        "random",
        "--name",
        "Ann",
        data=tmp_path / "a",
    )
    time.sleep(1.5)
    joiners = [
        rommy("join", "Procs", "--bot", "random", "--name", name, data=tmp_path / name)
        for name in ("Bo", "Cy")
    ]
    outputs = []
    for process in [host, *joiners]:
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err
        assert "Traceback" not in err and "Error" not in err, err  # a normal game ends quietly
        outputs.append(out)
    assert all("Total" in out for out in outputs)
    sheets = {out.split("transcript:")[0].split("\n", 1)[1] for out in outputs}
    assert len(sheets) == 1  # one score sheet (after the line saying which address is used)
    transcripts = [
        next((tmp_path / d / "games").glob("*/transcript")).read_bytes() for d in ("a", "Bo", "Cy")
    ]
    assert transcripts[0] == transcripts[1] == transcripts[2]
