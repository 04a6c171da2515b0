"""Performance issue (#27): `rommy play` puts its first hand on screen soon, so its start
loads nothing a table on this machine never uses: no mDNS (zeroconf, ~20 ms to import)
and no lobby. A fresh interpreter runs `rommy play` up to the point where the game would
start, with the client's modules loaded, and lists what was imported."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import asyncio, io, sys
class Terminal(io.StringIO):
    def isatty(self):
        return True
sys.stdin, sys.stdout = Terminal(), Terminal()
def started(coroutine):  # where the game would run: stop there
    coroutine.close()
    return 0
asyncio.run = started
from p2p_rommy.cli import main
assert main(["play", "--bots", "3", "--seed", "1", "--data-dir", sys.argv[1]]) == 0
import p2p_rommy.tui.app, p2p_rommy.tui.model  # what `play` loads once it runs
sys.__stdout__.write(" ".join(sorted(sys.modules)))
"""


def test_rommy_play_loads_no_mdns_and_no_lobby(tmp_path):
    loaded = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "p2p_rommy.frontends.local" in loaded and "prompt_toolkit" in loaded
    unwanted = [
        name
        for name in loaded
        if name.split(".")[0] in ("zeroconf", "ifaddr")
        or name.startswith(("p2p_rommy.lobby", "p2p_rommy.net.discovery", "p2p_rommy.net.lobby"))
    ]
    assert unwanted == []
