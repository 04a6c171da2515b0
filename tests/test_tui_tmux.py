"""End to end: `rommy play --bots 3 --seed N` in a real terminal (tmux). Keys go in with
send-keys; the screen comes back with capture-pane. `.ci/run` installs tmux; under
CI=true a missing tmux fails the test instead of skipping it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(name: str, predicate, timeout: float = 180.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = screen(name)
        if predicate(text):
            return text
        time.sleep(0.5)
    raise AssertionError(f"timed out; the screen was:\n{screen(name)}")


def press_until(name: str, key: str, predicate, timeout: float = 90.0) -> str:
    """Send `key`, and again every few seconds until the screen shows its effect (a key
    sent while the table is between two steps is answered with a status message)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tmux("send-keys", "-t", name, key)
        for _ in range(6):
            time.sleep(0.5)
            text = screen(name)
            if predicate(text):
                return text
    raise AssertionError(f"timed out; the screen was:\n{screen(name)}")


def hand_of(text: str) -> list[str]:
    """The labelled cards of the hand line ("A:7H B:10S ...")."""
    for line in text.splitlines():
        if line.strip().startswith("A:"):
            return line.split()
    return []


def bot_replied(text: str) -> bool:
    """A bot moved after our discard (or the whole table did and it is our turn again)."""
    lines = [line for line in text.splitlines() if line.startswith("│")]
    ours = [i for i, line in enumerate(lines) if "Tester discards" in line]
    if ours:
        return any("Bot " in line for line in lines[ours[-1] + 1 :])
    return "Your turn" in text


def test_play_a_turn_in_tmux(tmp_path):
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is missing")
        pytest.skip("tmux is missing")
    name = f"rommy{os.getpid()}"
    command = f"{sys.executable} -m p2p_rommy play --bots 3 --seed 4 --name Tester --ascii"
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    try:
        text = wait_for(name, lambda t: "Your turn: d draws" in t)
        hand_line = next(line for line in text.splitlines() if line.strip().startswith("A:"))
        assert len(hand_line.split()) == 11  # eleven cards, each with its key label
        text = press_until(
            name, "d", lambda t: "Tester draws from the stock" in t and len(hand_of(t)) == 12
        )
        drawn = hand_of(text)
        assert len(drawn) == 12  # the drawn card joined the hand
        tmux("send-keys", "-t", name, "A")
        press_until(name, "x", lambda t: len(hand_of(t)) == 11 or "Tester discards" in t)
        wait_for(name, bot_replied)
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "Quit the game? y / n" in t)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
