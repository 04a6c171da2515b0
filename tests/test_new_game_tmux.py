"""Issue 30, "Shows it works": "a game played to its end shows the winner and `n` starts
another at the same table", end to end at 80x24 in Danish. A network table (mDNS and
TCP on 127.0.0.1) of two people, Ann (who opens it) and Bo, each in the full-screen
client in its own tmux, and Cy's bot seat in its own process. A one-round Rummy
(`--house target_score=1`: the first round that scores ends the match) is played to its
end: the people by keys (draw, discard the card drawn), Cy by a normal bot. Both
screens show the final summary with the winner and offer `n`; Ann presses it and opens
the table again, Bo presses it and follows her there; Cy's headless seat has left at
the end, so Ann's lobby names him and Enter starts without him. The new game deals new
hands under a new game code, at the same table, to Ann and Bo."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.test_lp_pace_tmux import status
from tests.test_tui_tmux import hand_of, need_tmux, screen, tmux, wait_for

MY_DRAW = "Din tur: d trækker fra bunken"
DISCARD = "Din tur: korttasterne vælger"
ROUND_OVER = "mellemrum: næste runde"
"""The footer of a round's summary when the match goes on (a 0-0 round)."""
GAME_OVER = "Spillet er slut"
WINNER = re.compile(r"\S+ vinder med \d+ point|Du vinder med \d+ point!|deler førstepladsen")
OFFER = "n: nyt spil ved dette bord"
DEALT = 7
"""Rummy's hand for three players (docs/rules.md)."""


def person(name: str, data: Path, *command: str) -> str:
    """A person's client in its own 80x24 tmux; its session name."""
    session = f"rommynew{name}{os.getpid()}"
    line = (
        f"{sys.executable} -m p2p_rommy {' '.join(command)} --interface 127.0.0.1 "
        f"--data-dir {data} --name {name} --ascii --lang da"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", line)
    return session


def bot(table: str, name: str, data: Path) -> subprocess.Popen[str]:
    """A headless seat that plays to go out (a random bot seldom ends a round)."""
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "p2p_rommy", "join", table, "--bot", "normal"),
            *("--interface", "127.0.0.1", "--data-dir", str(data), "--name", name),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def game_code(text: str) -> str:
    """The six-character game code at the start of the header ("XXXXXX | runde 1 ...")."""
    header = next(line for line in text.splitlines() if " | runde " in line)
    code = header.split()[0].strip("│")
    assert len(code) == 6 and code.isalnum(), header
    return code


def play_a_turn(session: str, text: str) -> None:
    """Draw from the stock and discard the card drawn (it joins the hand at the end)."""
    size = len(hand_of(text))
    tmux("send-keys", "-t", session, "d")
    drawn = wait_for(
        session, lambda t: len(hand_of(t)) > size or GAME_OVER in t or ROUND_OVER in t, timeout=30
    )
    if len(hand_of(drawn)) <= size:
        return
    wait_for(session, lambda t: DISCARD in status(t), timeout=30)  # the draw is done
    tmux("send-keys", "-t", session, hand_of(drawn)[-1].split(":")[0])
    tmux("send-keys", "-t", session, "x")
    wait_for(
        session, lambda t: len(hand_of(t)) <= size or GAME_OVER in t or ROUND_OVER in t, timeout=30
    )


def test_a_game_to_its_end_shows_the_winner_and_n_starts_another_at_the_same_table(tmp_path):
    need_tmux()
    started = time.monotonic()
    table = f"Igen{os.getpid()}"
    ann = person("Ann", tmp_path / "ann", "host", f"'{table}'", "--variant rummy",
                 "--house target_score=1")  # fmt: skip
    sessions = {"Ann": ann}
    processes: list[subprocess.Popen[str]] = []
    try:
        wait_for(ann, lambda t: "Ann" in t, timeout=60)
        sessions["Bo"] = person("Bo", tmp_path / "bo", "join", f"'{table}'")
        processes.append(bot(table, "Cy", tmp_path / "cy"))
        seated = re.compile(r"\d\. Cy .*\n.*\d\. Bo |\d\. Bo .*\n.*\d\. Cy ")
        wait_for(ann, lambda t: seated.search(t) is not None, timeout=120)
        tmux("send-keys", "-t", ann, "Enter")
        first: dict[str, str] = {}
        for who, session in sessions.items():
            text = wait_for(session, lambda t: len(hand_of(t)) >= DEALT, timeout=120)
            first[who] = game_code(text)
        assert first["Ann"] == first["Bo"], first
        dealt_at = time.monotonic()
        over: dict[str, str] = {}
        when: dict[str, float] = {}  # the moment each screen first showed the summary
        deadline = time.monotonic() + 300
        while len(over) < len(sessions):
            assert time.monotonic() < deadline, {s: screen(s) for s in sessions.values()}
            for who, session in sessions.items():
                text = screen(session)
                if GAME_OVER in text and OFFER in text:
                    over[who] = text
                    when.setdefault(who, time.monotonic())
                elif ROUND_OVER in text:  # a round ended 0-0 (short of the target)
                    tmux("send-keys", "-t", session, " ")
                elif MY_DRAW in status(text):
                    play_a_turn(session, text)
            time.sleep(0.1)
        played = time.monotonic() - dealt_at
        for who, text in over.items():
            lines = text.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), text
            assert WINNER.search(text), (who, text)  # the winner, in Danish
            assert re.search(r"Runde \d+ er slut: (du|\S+) gik ud", text), (who, text)
        print("summary shown at", {who: round(at - dealt_at, 1) for who, at in when.items()})
        cy_left = processes[0].wait(timeout=60)
        print(f"Cy's process ended ({cy_left}) at {time.monotonic() - dealt_at:.1f} s")
        pressed = time.monotonic()
        tmux("send-keys", "-t", sessions["Bo"], "n")  # Bo looks for her table again
        tmux("send-keys", "-t", ann, "n")  # the creator opens it again
        seen: list[str] = []  # Bo's screens until he is at her table
        back = re.compile(r"Ved bordet(.*\n)*.*\d\. Ann .*\n.*\d\. Bo ")
        wait_for(sessions["Bo"], lambda t: seen.append(t) or back.search(t) is not None, 60)
        print(f"n to Bo at Ann's table: {time.monotonic() - pressed:.1f} s")
        assert f"Bord '{table}': Rummy" in seen[-1], seen[-1]  # the same table
        # while he looked he was not "waiting for" himself under made-up seats and rules
        assert not any("Venter på Bo" in t or "pladser: 0/0" in t for t in seen), seen
        waits = wait_for(ann, lambda t: "Enter starter uden dem." in t, timeout=60)
        # Cy's headless seat left at the end; Bo is back. Each sentence whole at 80
        # columns (they were one line, cut at "... slutstilling). En")
        assert re.search(r"│ Venter på Cy \(n på sidste spils slutstilling\)\. +│", waits), waits
        assert re.search(r"\d\. Bo ", waits) and "Et nyt spil ved dette bord." in waits, waits
        assert waits.rstrip().endswith("x sender en spiller væk; q går"), waits
        entered = time.monotonic()
        tmux("send-keys", "-t", ann, "Enter")
        second: dict[str, str] = {}
        for who, session in sessions.items():
            text = wait_for(
                session,
                lambda t: GAME_OVER not in t and " | runde 1" in t and len(hand_of(t)) >= 10,
                timeout=120,
            )
            second[who] = game_code(text)
            assert "Ann" in text and "Bo" in text and "Cy" not in text, text
        assert second["Ann"] == second["Bo"] != first["Ann"], (first, second)
        print(f"Enter to the new hands on both screens: {time.monotonic() - entered:.1f} s")
        print(f"played to the end in {played:.1f} s; all in {time.monotonic() - started:.1f} s")
    finally:
        for session in sessions.values():
            tmux("kill-session", "-t", session)
        for process in processes:
            process.kill()
            process.wait()
