"""Client issue 30, item 1, end to end at 80x24 in Danish: a network table (mDNS and
TCP on 127.0.0.1) whose creator plays in the full-screen client in tmux, with two bot
seats in their own processes. One bot's process is killed: the creator's screen says
he left and how he can come back, then, past the stall limit (shortened for the test:
`tests/short_stall.py`), offers `e` (asking before it ends anything);
`rommy resume` with no game id brings him back, and the screen says so."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.test_tui_tmux import ROOT, STALL_S, need_tmux, screen, tmux, wait_for


def bot(table: str, name: str, data: Path, *command: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "p2p_rommy", *command, "--bot", "random"),
            *("--interface", "127.0.0.1", "--data-dir", str(data)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_killed_seat_leaves_is_offered_to_end_and_comes_back_with_a_bare_resume(tmp_path):
    need_tmux()
    name = f"rommyleave{os.getpid()}"
    table = f"Fredag{os.getpid()}"
    command = (  # the stall limit shortened (`tests/short_stall.py`): the offer comes sooner
        f"{sys.executable} -m tests.short_stall {STALL_S} host '{table}' --variant rummy "
        f"--house target_score=500 --interface 127.0.0.1 --data-dir {tmp_path / 'host'} "
        "--name Ann --ascii --lang da"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", ROOT, command)
    processes: list[subprocess.Popen[str]] = []
    try:
        wait_for(name, lambda t: "Ann" in t, timeout=60)
        processes.append(bot(table, "Oskar", tmp_path / "oskar", "join", table, "--name", "Oskar"))
        processes.append(bot(table, "Bo", tmp_path / "bo", "join", table, "--name", "Bo"))
        wait_for(name, lambda t: "Oskar" in t and "Bo" in t, timeout=90)
        tmux("send-keys", "-t", name, "Enter")
        wait_for(name, lambda t: any(line.strip().startswith("1:") for line in t.splitlines()))
        processes[0].send_signal(signal.SIGKILL)  # Oskar's process is gone
        processes[0].wait()
        left = "Oskar forlod bordet — kan komme tilbage med `rommy resume`"
        text = wait_for(name, lambda t: left in t, timeout=60)
        if "Din tur: d" in text:  # a step of Ann's: the table then waits for Oskar's word
            tmux("send-keys", "-t", name, "d")
        offer = wait_for(name, lambda t: "e afslutter spillet uden Oskar" in t, timeout=120)
        assert re.search(r"Venter \d+ s på Oskar", offer), offer  # after the stall limit
        tmux("send-keys", "-t", name, "e")
        asked = wait_for(name, lambda t: "Afslut spillet uden Oskar?" in t, timeout=20)
        assert "e igen bekræfter" in asked
        processes[0] = bot(table, "Oskar", tmp_path / "oskar", "resume")  # no game id
        assert processes[0].stderr is not None
        said = processes[0].stderr.readline()
        assert said.startswith("resuming game "), said
        wait_for(name, lambda t: "Oskar er tilbage" in t, timeout=120)
        assert "afsluttet uden Oskar" not in screen(name)  # asking ended nothing
    finally:
        tmux("kill-session", "-t", name)
        for process in processes:
            process.kill()
            process.wait()


def every_screen_shows(
    names, lines: list[str], press_d: bool = False, timeout: float = 180.0
) -> dict[str, str]:
    """Poll every screen until each has shown each of `lines` at some moment (a log
    line may scroll away before another screen is looked at); with `press_d`, a screen
    whose turn it is draws (its step then waits for the one who left). The last text
    of each screen."""
    missing = {(name, line) for name in names for line in lines}
    last: dict[str, str] = {}
    drew: set[str] = set()  # once: a second d while the draw waits would fill the status
    deadline = time.monotonic() + timeout
    while missing:
        assert time.monotonic() < deadline, (sorted(missing), last)
        for name in names:
            last[name] = text = screen(name)
            missing -= {(name, line) for line in lines if line in text}
            if press_d and "Din tur: d" in text and name not in drew:
                drew.add(name)
                tmux("send-keys", "-t", name, "d")
        time.sleep(0.5)
    return last


def test_every_screen_shows_the_departure_the_offer_and_the_return(tmp_path):
    """Issue 30, "Shows it works": two players in the full-screen client at 80x24 (Ann
    opens the table, Bo joins it, each in tmux) and Oskar's bot seat in its own process.
    Oskar's process is killed: both screens say he left and how he can come back, both
    offer `e`; `rommy resume` with no game id brings him back, and both screens say so."""
    need_tmux()
    table = f"Torsdag{os.getpid()}"
    screens = {who: f"rommy{who.lower()}{os.getpid()}" for who in ("Ann", "Bo")}
    common = f"--interface 127.0.0.1 --ascii --lang da --data-dir {tmp_path}"
    rommy = f"{sys.executable} -m tests.short_stall {STALL_S}"  # the offer comes sooner
    commands = {
        "Ann": f"{rommy} host '{table}' --variant rummy --house target_score=500 --name Ann "
        f"{common}/ann",
        "Bo": f"{rommy} join '{table}' --name Bo {common}/bo",
    }
    processes: list[subprocess.Popen[str]] = []
    try:
        size = ("-x", "80", "-y", "24", "-c", ROOT)
        tmux("new-session", "-d", "-s", screens["Ann"], *size, commands["Ann"])
        wait_for(screens["Ann"], lambda t: "Ann" in t, timeout=60)
        tmux("new-session", "-d", "-s", screens["Bo"], *size, commands["Bo"])
        processes.append(bot(table, "Oskar", tmp_path / "oskar", "join", table, "--name", "Oskar"))
        seated = re.compile(r"\d\. Oskar .*\n.*\d\. Bo |\d\. Bo .*\n.*\d\. Oskar ")
        wait_for(screens["Ann"], lambda t: seated.search(t) is not None, timeout=120)
        tmux("send-keys", "-t", screens["Ann"], "Enter")  # not "Bo" in "Bord": both seated
        for name in screens.values():
            wait_for(name, lambda t: any(line.strip().startswith("1:") for line in t.splitlines()))
        processes[0].send_signal(signal.SIGKILL)  # Oskar's process is gone
        processes[0].wait()
        left = "Oskar forlod bordet — kan komme tilbage med `rommy resume`"
        offer = "e afslutter spillet uden Oskar"
        seen = every_screen_shows(screens.values(), [left, offer], press_d=True)
        processes[0] = bot(table, "Oskar", tmp_path / "oskar", "resume")  # no game id
        seen = every_screen_shows(screens.values(), ["Oskar er tilbage"])
        assert not any("afsluttet uden Oskar" in text for text in seen.values())
    finally:
        for name in screens.values():
            tmux("kill-session", "-t", name)
        for process in processes:
            process.kill()
            process.wait()


def test_join_before_the_table_is_open_shows_a_waiting_screen_then_the_lobby(tmp_path):
    """Client issue 30, item 11: `rommy join` with no table yet was a blank screen, then
    an error. Now the lobby screen says it is looking, for as long as it takes."""
    need_tmux()
    name = f"rommyjoin{os.getpid()}"
    table = f"Lørdag{os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy join '{table}' --interface 127.0.0.1 "
        f"--data-dir {tmp_path / 'me'} --name Ida --ascii --lang da"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    processes: list[subprocess.Popen[str]] = []
    try:
        looking = wait_for(name, lambda t: f"leder efter bordet '{table}'" in t, timeout=30)
        assert "(q går)" in looking
        time.sleep(2)
        assert "leder efter bordet" in screen(name)  # still looking, no error
        processes.append(
            bot(table, "Ann", tmp_path / "ann", "host", table, "--start-when", "3", "--name", "Ann")
        )
        lobby = wait_for(name, lambda t: "Ann" in t and "Ida" in t, timeout=90)
        assert "leder efter" not in lobby
        # the lobby's code is not the game's: the screen says which to compare when
        assert "(sammenlign den højt nu; spillet får sin egen kode)" in lobby
    finally:
        tmux("kill-session", "-t", name)
        for process in processes:
            process.kill()
            process.wait()


def test_a_deliberate_quit_says_the_table_waits_and_a_bare_resume_welcomes_back(tmp_path):
    """Client issue 30, item 1: quitting warned of nothing and printed no resume command;
    back with `rommy resume` the first log line was "afviste 21 besked(er)", and nothing
    said what to do now."""
    need_tmux()
    name = f"rommyquit{os.getpid()}"
    table = f"Søndag{os.getpid()}"
    data = tmp_path / "host"
    command = (
        f"{sys.executable} -m p2p_rommy host '{table}' --variant rummy "
        f"--house target_score=500 --interface 127.0.0.1 --data-dir {data} "
        "--name Ann --ascii --lang da"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24")
    tmux("set-option", "-t", name, "remain-on-exit", "on")
    tmux("respawn-pane", "-k", "-t", name, command)
    processes: list[subprocess.Popen[str]] = []
    try:
        wait_for(name, lambda t: "Ann" in t, timeout=60)
        processes.append(bot(table, "Oskar", tmp_path / "oskar", "join", table, "--name", "Oskar"))
        processes.append(bot(table, "Bo", tmp_path / "bo", "join", table, "--name", "Bo"))
        wait_for(name, lambda t: "Oskar" in t and "Bo" in t, timeout=90)
        tmux("send-keys", "-t", name, "Enter")
        wait_for(name, lambda t: any(line.strip().startswith("1:") for line in t.splitlines()))
        tmux("send-keys", "-t", name, "q")
        asked = wait_for(name, lambda t: "Afslut spillet? j / n" in t, timeout=20)
        assert "(bordet venter på dig: rommy resume)" in asked
        tmux("send-keys", "-t", name, "j")
        left = wait_for(name, lambda t: "Kom tilbage med:" in t, timeout=30)
        game = re.search(r"rommy resume ([0-9a-f]{16})", left)
        assert game and (data / "games").is_dir()
        assert any(p.name.startswith(game.group(1)) for p in (data / "games").iterdir())
        time.sleep(3)  # the others go on sending for a moment: stale messages on return
        tmux("respawn-pane", "-k", "-t", name, f"{sys.executable} -m p2p_rommy resume "
             f"--interface 127.0.0.1 --data-dir {data} --ascii --lang da")  # fmt: skip
        back = wait_for(name, lambda t: "Velkommen tilbage: " in t, timeout=120)
        assert "afviste" not in back, back
    finally:
        tmux("kill-session", "-t", name)
        for process in processes:
            process.kill()
            process.wait()
